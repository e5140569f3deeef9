//! The pre-pass before pest: one iterative walk over the bytes that
//! * blanks `#` comments (to the end of the line) into spaces,
//! * turns a `\` at the end of a line (spaces and a comment may follow it) and that newline into
//!   spaces,
//! * turns newlines inside open brackets into spaces,
//! * checks that brackets `(` `)` `<` `>` balance and nest at most `MAX_NESTING` deep,
//! * skips string literals `"..."` untouched (a `#`, bracket, `o` or `\` inside one is text) and
//!   rejects one that is not closed on its line.
//!
//! Every replacement is byte for byte (ASCII for ASCII, whole UTF-8 sequences inside comments), so
//! offsets into the cleaned text are offsets into the source.
use super::ast::Span;
use super::{ParseError, MAX_EXPR_DEPTH, MAX_NESTING};

/// Lengths of the operator chains open at one bracket level, one per precedence class: a chain
/// of n operators of one class folds into a tree at least n + 1 high, so a count above
/// `MAX_EXPR_DEPTH` is an error the AST builder would report anyway — found here in one pass,
/// before pest spends seconds on a 100000-long `a o a o ...`.
#[derive(Clone, Copy, Default)]
struct Chains {
    /// Chain lengths by class, loosest first: `o`, `|`, `^`, `&`, binary `+ -`, `* /`, unary
    /// `~`, `A(1)(2)...`. (16-bit: the scan stops at `MAX_EXPR_DEPTH` + 1, and the chains are
    /// saved and reset at every bracket and comma.)
    len: [u16; 8],
}

/// Class indices into `Chains::len`.
const COMPOSE: usize = 0;
const APPLY: usize = 7;

impl Chains {
    /// Count one operator of class `k`; tighter classes start afresh. Returns the new length of
    /// the class's chain.
    fn link(&mut self, k: usize) -> usize {
        self.len[k] = self.len[k].saturating_add(1);
        for l in &mut self.len[k + 1..] {
            *l = 0;
        }
        usize::from(self.len[k])
    }
}

fn is_word(b: u8) -> bool {
    super::is_name_byte(b)
}

pub struct Scan {
    /// The cleaned text, same length as the source.
    pub text: String,
    /// A bracket or continuation error (pest is not run when set).
    pub error: Option<ParseError>,
    /// The input ends inside open brackets or after a line-continuation `\`.
    pub incomplete: bool,
    /// The deepest bracket nesting seen.
    pub max_depth: usize,
    /// The longest operator chain seen (see `Chains`).
    pub max_chain: usize,
    /// The byte ranges of the statements (meaningful without an error): the text is cut at
    /// every `;` and new line outside string literals and comments, but for the new lines
    /// turned into spaces (inside brackets, continued lines).
    pub cuts: Vec<(usize, usize)>,
}

fn closer_of(open: u8) -> u8 {
    if open == b'(' {
        b')'
    } else {
        b'>'
    }
}

fn opener_of(close: u8) -> u8 {
    if close == b')' {
        b'('
    } else {
        b'<'
    }
}

/// The bytes that `scan` looks at (all others it steps over): quotes, `o`, operators,
/// brackets, separators, the new line, `#` and `\`.
const SPECIAL: &[u8] = b"\"o|^&+-*/~(<)>,;=:\n#\\";

/// `PLAIN[b]`: `b` is not in `SPECIAL`.
static PLAIN: [bool; 256] = {
    let mut t = [true; 256];
    let mut k = 0;
    while k < SPECIAL.len() {
        t[SPECIAL[k] as usize] = false;
        k += 1;
    }
    t
};

pub fn scan(src: &str) -> Scan {
    let mut text: Vec<u8> = src.as_bytes().to_vec();
    // (a slice of known length: indexing below `n` needs no second bounds check)
    let out = &mut text[..];
    let n = out.len();
    // Open brackets: (byte, offset, the operator chains of the level outside it).
    let mut stack: Vec<(u8, usize, Chains)> = Vec::with_capacity(8);
    let mut error: Option<ParseError> = None;
    let mut incomplete = false;
    let mut max_depth = 0;
    let mut max_chain = 0;
    // The statements found so far, and where the next one starts (see `Scan::cuts`).
    let mut cuts: Vec<(usize, usize)> = Vec::with_capacity(n / 24 + 1);
    let mut start = 0;
    // The operator chains of the innermost open level (see `Chains`).
    let mut chains = Chains::default();
    // Count an operator of class `k` at `i`; false (with the error set) past the limit.
    let mut link = |chains: &mut Chains, k: usize, i: usize, error: &mut Option<ParseError>| {
        let len = chains.link(k);
        max_chain = max_chain.max(len);
        if len > MAX_EXPR_DEPTH {
            *error = Some(ParseError::new(
                format!("expression nested too deeply (limit {MAX_EXPR_DEPTH} levels)"),
                Span::new(i, i + 1),
            ));
            return false;
        }
        true
    };
    let mut i = 0;
    while i < n {
        let c = out[i];
        // Name and number characters (but `o`), blanks, ...: nothing below applies to them.
        if PLAIN[c as usize] {
            i += 1;
            continue;
        }
        match c {
            b'(' | b'<' => {
                if c == b'(' && i > 0 && out[i - 1] == b')' && !link(&mut chains, APPLY, i, &mut error) {
                    break;
                }
                if stack.len() >= MAX_NESTING {
                    error =
                        Some(ParseError::new(format!("nesting too deep (limit {MAX_NESTING})"), Span::new(i, i + 1)));
                    break;
                }
                stack.push((c, i, chains));
                chains = Chains::default();
                max_depth = max_depth.max(stack.len());
            }
            b')' | b'>' => match stack.last() {
                None => {
                    error = Some(ParseError::new(
                        format!("unbalanced '{}': no matching '{}' before it", c as char, opener_of(c) as char),
                        Span::new(i, i + 1),
                    ));
                    break;
                }
                Some(&(open, _, _)) if closer_of(open) != c => {
                    error = Some(ParseError::new(
                        format!(
                            "mismatched '{}': the last open bracket is '{}', closed by '{}'",
                            c as char,
                            open as char,
                            closer_of(open) as char
                        ),
                        Span::new(i, i + 1),
                    ));
                    break;
                }
                Some(&(_, _, outer)) => {
                    stack.pop();
                    chains = outer;
                }
            },
            b',' | b'=' => chains = Chains::default(),
            b';' => {
                chains = Chains::default();
                cuts.push((start, i));
                start = i + 1;
            }
            // `S:D` binds tighter than `o`: it ends the arithmetic chains only.
            b':' => chains = Chains { len: [chains.len[COMPOSE], 0, 0, 0, 0, 0, 0, 0] },
            b'\n' => {
                if stack.is_empty() {
                    chains = Chains::default();
                    cuts.push((start, i));
                    start = i + 1;
                } else {
                    out[i] = b' ';
                }
            }
            b'o' if (i == 0 || !is_word(out[i - 1])) && (i + 1 >= n || !is_word(out[i + 1])) => {
                let within = link(&mut chains, COMPOSE, i, &mut error);
                if !within {
                    break;
                }
            }
            b'|' | b'^' | b'&' | b'+' | b'*' | b'/' | b'~' => {
                let k = match c {
                    b'|' => 1,
                    b'^' => 2,
                    b'&' => 3,
                    b'+' => 4,
                    b'~' => 6,
                    _ => 5,
                };
                if !link(&mut chains, k, i, &mut error) {
                    break;
                }
            }
            b'-' => {
                // Binary when it follows an operand: a word, `)` or `>`, or a `_` with a blank
                // between (`_-3` is a literal).
                let before = out[..i].iter().rposition(|b| !matches!(b, b' ' | b'\t' | b'\r'));
                let binary = match before {
                    Some(j) if out[j] == b'_' => j + 1 < i,
                    Some(j) => is_word(out[j]) || matches!(out[j], b')' | b'>'),
                    None => false,
                };
                if binary && !link(&mut chains, 4, i, &mut error) {
                    break;
                }
            }
            b'"' => {
                // A string literal: skip to its closing quote (`\"` and `\\` are escapes).
                let mut j = i + 1;
                while j < n && out[j] != b'"' && out[j] != b'\n' {
                    j += if out[j] == b'\\' && j + 1 < n && out[j + 1] != b'\n' { 2 } else { 1 };
                }
                if j >= n || out[j] != b'"' {
                    error = Some(ParseError::new(
                        "unterminated string: a '\"' must close it on the same line",
                        Span::new(i, i + 1),
                    ));
                    break;
                }
                i = j + 1;
                continue;
            }
            b'#' => {
                // Comment: blank to the end of the line (the newline itself is kept).
                while i < n && out[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            b'\\' => {
                // Line continuation if only blanks and a comment follow on this line.
                let mut j = i + 1;
                while j < n && matches!(out[j], b' ' | b'\t' | b'\r') {
                    j += 1;
                }
                if j < n && out[j] == b'#' {
                    while j < n && out[j] != b'\n' {
                        j += 1;
                    }
                }
                if j >= n {
                    // `\` at the very end: more input is coming (REPL), or an error.
                    incomplete = true;
                    error = Some(ParseError::new(
                        "line continuation '\\' at the end of the input: another line must follow",
                        Span::new(i, i + 1),
                    ));
                    break;
                }
                if out[j] == b'\n' {
                    for b in &mut out[i..=j] {
                        *b = b' ';
                    }
                    i = j + 1;
                    continue;
                }
                // Otherwise a stray `\`: left for pest to report.
            }
            _ => {}
        }
        i += 1;
    }
    if error.is_none() {
        if let Some(&(open, at, _)) = stack.last() {
            incomplete = true;
            error = Some(ParseError::new(
                format!("unbalanced '{}': no matching '{}'", open as char, closer_of(open) as char),
                Span::new(at, at + 1),
            ));
        }
    }
    // Only ASCII bytes were written over ASCII bytes or over whole UTF-8 sequences (comments end
    // at an ASCII newline), so this cannot fail; fall back to the source if it somehow did.
    let text = String::from_utf8(text).unwrap_or_else(|_| src.to_string());
    cuts.push((start, n));
    Scan { text, error, incomplete, max_depth, max_chain, cuts }
}
