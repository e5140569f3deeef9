//! The surface syntax: pest grammar (`grammar/cute.pest`) → spanned AST. Parses only.
//!
//! Pipeline: [`prescan`] (comments, line continuations, newlines inside brackets, bracket balance and
//! the nesting limit — cheap, iterative, runs before pest so that no input can overflow the stack)
//! → pest → [`build`] (pairs → [`ast`], integer ranges, the 1-tuple rule, `X o n o REST`).
//! Imports nothing of the crate (a leaf); never evaluates anything.
pub mod ast;
mod build;
mod errors;
mod prescan;

use ast::{Program, Span};

/// The deepest bracket nesting accepted (`(`, `<`).
pub const MAX_NESTING: usize = 256;

/// The deepest expression tree accepted (operator chains such as `a o b o c ...` and postfix chains
/// `A(1)(2)...` nest without brackets). Evaluators may recurse on the AST up to this depth.
pub const MAX_EXPR_DEPTH: usize = 512;

/// The largest input accepted (a file, a `-e` string or a REPL entry): 1 MiB. Parsing is linear
/// but not free (about a second per MiB on a busy machine); no script needs more.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// A syntax error: a message in words and the byte span of the offending place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    pub span: Span,
}

impl ParseError {
    pub fn new(message: impl Into<String>, span: Span) -> ParseError {
        ParseError { message: message.into(), span }
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// The pest parser generated from the grammar.
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/cute.pest"]
    pub struct CuteParser;
}

pub(crate) use grammar::Rule;

/// Inputs nested deeper than this are parsed on a thread with a large stack: pest and the AST
/// builder recurse once per bracket level, and a debug build needs tens of KiB per level.
const DEEP_INPUT: usize = 24;

/// Stack for parsing deeply nested input (touched only as deep as needed).
const DEEP_STACK_BYTES: usize = 256 << 20;

/// Parses one input (a file, a `-e` string or a REPL entry) into statements.
pub fn parse(src: &str) -> Result<Program, ParseError> {
    if src.len() > MAX_SOURCE_BYTES {
        let mut at = MAX_SOURCE_BYTES;
        while !src.is_char_boundary(at) {
            at -= 1;
        }
        return Err(ParseError::new(
            format!(
                "input too large: {} bytes (limit {MAX_SOURCE_BYTES} bytes); split it into several files",
                src.len()
            ),
            Span::new(at, at + 1),
        ));
    }
    let scan = prescan::scan(src);
    if let Some(e) = scan.error {
        return Err(e);
    }
    if scan.max_depth <= DEEP_INPUT {
        return parse_clean(&scan.text);
    }
    let text = scan.text;
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("cute-parser".into())
            .stack_size(DEEP_STACK_BYTES)
            .spawn_scoped(s, || parse_clean(&text));
        match worker {
            Ok(handle) => handle.join().unwrap_or_else(|_| {
                Err(ParseError::new("internal parser error (the parser thread failed)", Span::new(0, 0)))
            }),
            Err(_) => Err(ParseError::new(
                "input nested too deeply for this machine (no thread with a large stack could be started)",
                Span::new(0, text.len().min(1)),
            )),
        }
    })
}

/// pest + AST building on pre-scanned text.
fn parse_clean(text: &str) -> Result<Program, ParseError> {
    use pest::Parser;
    let pairs = grammar::CuteParser::parse(Rule::program, text).map_err(|e| errors::from_pest(e, text))?;
    build::program(pairs)
}

/// How deeply the input nests: the deepest bracket nesting or the longest operator chain,
/// whichever is larger. Evaluating an input recurses about this deep; callers run deep inputs on
/// a thread with a large stack.
pub fn nesting(src: &str) -> usize {
    let s = prescan::scan(src);
    s.max_depth.max(s.max_chain)
}

/// True when the input ends inside open brackets or with a trailing `\`: the REPL should read
/// another line and append it. False for complete input and for input with a definite error.
pub fn is_incomplete(src: &str) -> bool {
    prescan::scan(src).incomplete
}

#[cfg(test)]
mod tests;
