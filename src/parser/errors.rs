//! pest errors → [`ParseError`] in words: what was expected (never a rule name), what was found,
//! and the byte span of what was found.
use super::ast::Span;
use super::{ParseError, Rule};
use pest::error::{ErrorVariant, InputLocation};

/// What one rule means to a user, when pest says it expected it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Want {
    Operand,
    Integer,
    Name,
    Comma,
    RParen,
    RAngle,
    LParen,
    Assign,
    EqEq,
    Gemm,
    Operator,
    EndOfStatement,
    Statement,
}

fn want(rule: Rule) -> Option<Want> {
    use Rule::*;
    Some(match rule {
        expr | operand | not_op | paren | tiler | named | under | str_lit | smem_ptr | mixed_bits | expr_stmt => {
            Want::Operand
        }
        int_lit => Want::Integer,
        ident | bind | gemm_arg => Want::Name,
        comma => Want::Comma,
        rparen => Want::RParen,
        rangle => Want::RAngle,
        lparen | call_args => Want::LParen,
        assign => Want::Assign,
        eq_eq => Want::EqEq,
        kw_gemm => Want::Gemm,
        kw_o | colon | or_op | xor_op | and_op | add_op | mul_op => Want::Operator,
        semi | nl | EOI => Want::EndOfStatement,
        program | assert_stmt | gemm_stmt | explain_stmt | kw_assert | kw_run | kw_emit | kw_explain => Want::Statement,
        _ => return None,
    })
}

fn words(w: Want) -> &'static str {
    match w {
        // Alone: "expected an integer, a tuple or a layout after ':'"; in a list: "an expression".
        Want::Operand => "an integer, a tuple or a layout",
        Want::Integer => "an integer",
        Want::Name => "a name",
        Want::Comma => "','",
        Want::RParen => "')'",
        Want::RAngle => "'>'",
        Want::LParen => "'('",
        Want::Assign => "'='",
        Want::EqEq => "'=='",
        Want::Gemm => "'gemm'",
        Want::Operator => "an operator",
        Want::EndOfStatement => "the end of the statement (';' or a new line)",
        Want::Statement => "a statement",
    }
}

/// The token at byte `pos` of `text`, for "found ...", and its length in bytes.
pub(super) fn token_at(text: &str, pos: usize) -> (String, usize) {
    let rest = match text.get(pos..) {
        Some(r) => r,
        None => return ("end of input".to_string(), 0),
    };
    let Some(c) = rest.chars().next() else {
        return ("end of input".to_string(), 0);
    };
    if c == '\n' {
        return ("end of line".to_string(), 1);
    }
    if c.is_ascii_alphanumeric() || c == '_' {
        let len = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
        return (format!("'{}'", &rest[..len]), len);
    }
    if c == '=' && rest.starts_with("==") {
        return ("'=='".to_string(), 2);
    }
    (format!("'{c}'"), c.len_utf8())
}

/// The last non-blank character before `pos`, when it is an operator that needs a right operand:
/// the "after ':'" of "expected an integer, a tuple or a layout after ':'".
fn after(text: &str, pos: usize) -> Option<String> {
    let before = text.get(..pos)?.trim_end_matches([' ', '\t', '\r']);
    let c = before.chars().next_back()?;
    match c {
        ':' | '+' | '-' | '*' | '/' | ',' | '(' | '<' => Some(format!(" after '{c}'")),
        '=' if before.ends_with("==") => Some(" after '=='".to_string()),
        '=' => Some(" after '='".to_string()),
        'o' => {
            let b = before.as_bytes();
            let word_start = b.len() >= 2 && !(b[b.len() - 2].is_ascii_alphanumeric() || b[b.len() - 2] == b'_');
            if b.len() == 1 || word_start {
                Some(" after 'o'".to_string())
            } else {
                None
            }
        }
        _ => None,
    }
}

fn join(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// `e` from parsing the statement that starts at byte `base` of `text` (the whole pre-scanned
/// input: what was found, and what came before, are read there).
pub(super) fn from_pest(e: pest::error::Error<Rule>, text: &str, base: usize) -> ParseError {
    let pos = base
        + match e.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((s, _)) => s,
        };
    let (found, len) = token_at(text, pos);
    let span = Span::new(pos, pos + len);
    let positives = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        ErrorVariant::CustomError { message } => {
            return ParseError::new(format!("input too complex to parse ({message})"), span);
        }
    };
    let mut wants: Vec<Want> = positives.iter().filter_map(|r| want(*r)).collect();
    wants.sort();
    wants.dedup();
    // An operand subsumes an integer or a name; a statement subsumes everything that starts one.
    if wants.contains(&Want::Statement) {
        wants.retain(|w| !matches!(w, Want::Integer | Want::Name | Want::Operand | Want::EndOfStatement));
    }
    if wants.contains(&Want::Operand) {
        wants.retain(|w| !matches!(w, Want::Integer | Want::Name));
    }
    // Where a statement could end, '(' is only the postfix call: not worth listing.
    if wants.contains(&Want::Operator) {
        wants.retain(|w| *w != Want::LParen);
    }
    let mut message = if wants.is_empty() {
        format!("unexpected {found}")
    } else {
        // The operators that could come next, e.g. "an operator ('o', '+', '-', '*', '/')".
        let mut ops: Vec<&str> = Vec::new();
        for r in &positives {
            match r {
                Rule::kw_o => ops.push("'o'"),
                Rule::colon => ops.push("':'"),
                Rule::add_op => ops.extend(["'+'", "'-'"]),
                Rule::mul_op => ops.extend(["'*'", "'/'"]),
                Rule::or_op => ops.push("'|'"),
                Rule::xor_op => ops.push("'^'"),
                Rule::and_op => ops.push("'&'"),
                _ => {}
            }
        }
        let operator = format!("an operator ({})", ops.join(", "));
        let list: Vec<&str> = wants
            .iter()
            .map(|w| match w {
                Want::Operand if wants.len() > 1 => "an expression",
                Want::Operator => operator.as_str(),
                _ => words(*w),
            })
            .collect();
        let ctx = if wants.contains(&Want::Operand) { after(text, pos).unwrap_or_default() } else { String::new() };
        format!("expected {}{ctx}, found {found}", join(&list))
    };
    // Hints for the usual slips.
    let prev = text.get(..pos).and_then(|b| b.chars().next_back());
    let spaced = matches!(prev, Some(' ' | '\t'));
    if found == "'o'" {
        message.push_str(" ('o' is the composition operator, not a name)");
    } else if found == "'('" && spaced && wants.contains(&Want::Operator) {
        message.push_str(" (a call's '(' must follow the name or value directly, without a space)");
    } else if found == "'<'" && spaced && wants.contains(&Want::Operator) {
        message.push_str(" (template arguments must follow the name directly, as in get<1>(x))");
    } else if found == "'='" && wants.contains(&Want::Operator) {
        message.push_str(" (only `name = expr` binds; compare with `assert a == b`)");
    } else if found == "'=='" {
        message.push_str(" (a comparison is a statement of its own: `assert a == b`)");
    } else if found == "'['" {
        message.push_str(" (evaluate or slice with parentheses: L(1), L(_,1))");
    } else if found == "':'" && wants.contains(&Want::Statement) {
        message.push_str(" (`:help`, `:vars` and the other ':' commands are the REPL's: run `cute` with no file)");
    } else if line_before(text, pos).trim() == "help" {
        message.push_str(" (`help NAME` is the REPL's: run `cute` with no file, or see `cute --help`)");
    } else if found == "'\\'" {
        message.push_str(" (a '\\' continues a statement only at the end of a line)");
    }
    ParseError::new(message, span)
}

/// The text of `text`'s line before byte `pos`.
fn line_before(text: &str, pos: usize) -> &str {
    let head = text.get(..pos).unwrap_or_default();
    head.rsplit('\n').next().unwrap_or(head)
}
