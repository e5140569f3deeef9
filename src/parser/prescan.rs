//! The pre-pass before pest: one iterative walk over the bytes that
//! * blanks `#` comments (to the end of the line) into spaces,
//! * turns a `\` at the end of a line (spaces and a comment may follow it) and that newline into
//!   spaces,
//! * turns newlines inside open brackets into spaces,
//! * checks that brackets `(` `)` `<` `>` balance and nest at most `MAX_NESTING` deep.
//!
//! Every replacement is byte for byte (ASCII for ASCII, whole UTF-8 sequences inside comments), so
//! offsets into the cleaned text are offsets into the source.
use super::ast::Span;
use super::{ParseError, MAX_NESTING};

pub struct Scan {
    /// The cleaned text, same length as the source.
    pub text: String,
    /// A bracket or continuation error (pest is not run when set).
    pub error: Option<ParseError>,
    /// The input ends inside open brackets or after a line-continuation `\`.
    pub incomplete: bool,
    /// The deepest bracket nesting seen.
    pub max_depth: usize,
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

pub fn scan(src: &str) -> Scan {
    let mut out: Vec<u8> = src.as_bytes().to_vec();
    let n = out.len();
    // Open brackets: (byte, offset).
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let mut error: Option<ParseError> = None;
    let mut incomplete = false;
    let mut max_depth = 0;
    let mut i = 0;
    while i < n {
        let c = out[i];
        match c {
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
            b'\n' if !stack.is_empty() => out[i] = b' ',
            b'(' | b'<' => {
                if stack.len() >= MAX_NESTING {
                    error = Some(ParseError::new(
                        format!("nesting too deep (limit {MAX_NESTING})"),
                        Span::new(i, i + 1),
                    ));
                    break;
                }
                stack.push((c, i));
                max_depth = max_depth.max(stack.len());
            }
            b')' | b'>' => match stack.last() {
                None => {
                    error = Some(ParseError::new(
                        format!(
                            "unbalanced '{}': no matching '{}' before it",
                            c as char,
                            opener_of(c) as char
                        ),
                        Span::new(i, i + 1),
                    ));
                    break;
                }
                Some(&(open, _)) if closer_of(open) != c => {
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
                Some(_) => {
                    stack.pop();
                }
            },
            _ => {}
        }
        i += 1;
    }
    if error.is_none() {
        if let Some(&(open, at)) = stack.last() {
            incomplete = true;
            error = Some(ParseError::new(
                format!(
                    "unbalanced '{}': no matching '{}'",
                    open as char,
                    closer_of(open) as char
                ),
                Span::new(at, at + 1),
            ));
        }
    }
    // Only ASCII bytes were written over ASCII bytes or over whole UTF-8 sequences (comments end
    // at an ASCII newline), so this cannot fail; fall back to the source if it somehow did.
    let text = String::from_utf8(out).unwrap_or_else(|_| src.to_string());
    Scan { text, error, incomplete, max_depth }
}
