//! The surface syntax: pest grammar (`grammar/cute.pest`) → spanned AST. Parses only.
//!
//! Pipeline: [`prescan`] (comments, line continuations, newlines inside brackets, bracket balance and
//! the nesting limit — cheap, iterative, runs before pest so that no input can overflow the stack)
//! → pest → [`build`] (pairs → [`ast`], integer ranges, the 1-tuple rule, `X o n o REST`).
//! A statement is first tried by [`fast`], a hand-written parser for statements that parse (the
//! same AST, spans included); anything it does not take goes through pest, whose errors are the
//! ones reported. Scripts are read a line at a time without the pre-pass while the fast parser,
//! guarded, takes each line whole ([`statements_lazy`]); the pre-pass runs at the first line it
//! does not.
//! Imports only the algebra's value types (`eval`): literal tuples and layouts are folded into
//! the values they denote ([`lit`]). Never evaluates anything else.
pub mod ast;
mod build;
mod errors;
mod fast;
pub mod lit;
mod prescan;

use ast::{Program, Span, Stmt};

/// The deepest bracket nesting accepted (`(`, `<`).
pub const MAX_NESTING: usize = 256;

/// The deepest expression tree accepted (operator chains such as `a o b o c ...` and postfix chains
/// `A(1)(2)...` nest without brackets). Evaluators may recurse on the AST up to this depth.
pub const MAX_EXPR_DEPTH: usize = 512;

/// The largest input accepted (a file, a `-e` string or a REPL entry): 1 MiB. Parsing is linear
/// but not free (about a second per MiB on a busy machine); no script needs more.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// `NAME_BYTE[b]`: `b` can be part of a name (a letter, a digit or `_`).
static NAME_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    t
};

/// A letter, a digit or `_`, by table (the pre-scan and the fast parser test every byte of a
/// name: a look-up is cheaper than the range tests).
#[inline]
fn is_name_byte(b: u8) -> bool {
    NAME_BYTE[b as usize]
}

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
    let scan = prescan_checked(src)?;
    if scan.max_depth <= DEEP_INPUT {
        return parse_clean(&scan.text, &scan.cuts);
    }
    parse_deep(scan.text, scan.cuts)
}

/// The size limit and the pre-pass: the pre-scanned input, or the error they found.
fn prescan_checked(src: &str) -> Result<prescan::Scan, ParseError> {
    size_checked(src)?;
    let mut scan = prescan::scan(src);
    match scan.error.take() {
        Some(e) => Err(e),
        None => Ok(scan),
    }
}

/// The size limit.
fn size_checked(src: &str) -> Result<(), ParseError> {
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
    Ok(())
}

/// [`parse_clean`] on a thread with a large stack (deeply nested input).
fn parse_deep(text: String, cuts: Vec<(usize, usize)>) -> Result<Program, ParseError> {
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("cute-parser".into())
            .stack_size(DEEP_STACK_BYTES)
            .spawn_scoped(s, || parse_clean(&text, &cuts));
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

/// One input parsed a statement at a time, for running it as it is read: only the statement
/// being run is held, not the AST of the whole input. It yields exactly the statements
/// [`parse`] returns, or [`parse`]'s error: when a statement fails to parse, the error is the
/// one `parse` reports for the whole input (a syntax error anywhere wins over an error found
/// while building an earlier statement's AST), so a caller that must not act on an input that
/// does not parse runs the statements on trial until [`Statements::next_stmt`] returns `None`
/// or [`Statements::check_rest`] returns `Ok`.
pub struct Statements<'a> {
    /// The input: as given while it is read lazily (not copied), then pre-scanned.
    text: std::borrow::Cow<'a, str>,
    /// The byte ranges of the statements not yet taken (see [`statements`]), in order.
    cuts: std::vec::IntoIter<(usize, usize)>,
    /// Deeply nested input is parsed whole (on a thread with a large stack): its statements.
    whole: Option<std::vec::IntoIter<Stmt>>,
    /// Deepest bracket nesting or longest operator chain (see [`nesting`]).
    nesting: usize,
    /// The rest of the input is known to parse.
    checked: bool,
    /// Read lazily (see [`statements_lazy`]): the offset of the first line not yet taken, and
    /// the nesting above which the caller wants the input from the start instead.
    lazy: Option<(usize, usize)>,
    /// The pre-pass, run at the first line not read lazily, found the input nested deeper than
    /// the lazy reader's limit: the caller should undo what it ran and start again with
    /// [`statements`].
    restart: bool,
}

/// The input `src` as [`Statements`], or the error of its size limit or the pre-pass (before any
/// statement is parsed).
pub fn statements(src: &str) -> Result<Statements<'static>, ParseError> {
    let scan = prescan_checked(src)?;
    let nesting = scan.max_depth.max(scan.max_chain);
    if scan.max_depth > DEEP_INPUT {
        let program = parse_deep(scan.text, scan.cuts)?;
        return Ok(Statements {
            text: String::new().into(),
            cuts: Vec::new().into_iter(),
            whole: Some(program.stmts.into_iter()),
            nesting,
            checked: true,
            lazy: None,
            restart: false,
        });
    }
    Ok(Statements {
        text: scan.text.into(),
        cuts: scan.cuts.into_iter(),
        whole: None,
        nesting,
        checked: false,
        lazy: None,
        restart: false,
    })
}

/// The deepest bracket nesting of a line read lazily.
const LAZY_DEPTH: usize = 8;

/// The input `src` as [`Statements`], read a line at a time without the pre-pass while each line
/// is blank, a comment, or a statement the fast parser takes with no operator, `o` or
/// `f(..)(..)` and brackets at most [`LAZY_DEPTH`] deep: on such a line the pre-pass changes
/// nothing and cuts a statement at its end (most scripts are one call or binding a line, and the
/// pre-pass over the whole input cost a tenth of such a script's time). At the first other line
/// the pre-pass runs over the whole input and the rest is read as [`statements`] reads it, so
/// the statements and the error are the same; if the pre-pass then finds the input nested deeper
/// than `limit` (or too deep for this thread's stack), no more statements come and
/// [`Statements::restart`] says so. Only the size limit is checked here.
pub fn statements_lazy(src: &str, limit: usize) -> Result<Statements<'_>, ParseError> {
    size_checked(src)?;
    Ok(Statements {
        text: src.into(),
        cuts: Vec::new().into_iter(),
        whole: None,
        nesting: LAZY_DEPTH,
        checked: false,
        lazy: Some((0, limit)),
        restart: false,
    })
}

/// A statement that is one call of literal arguments only, as [`Statements::next_literal_call`]
/// reads it: no tree, the argument values themselves. Spans are in the input.
#[derive(Debug, Default)]
pub struct LiteralCall {
    /// The function's name.
    pub name: Span,
    /// The call `f(...)`: the span of the tree's call node.
    pub call: Span,
    /// The statement (the call and the blanks after it).
    pub stmt: Span,
    /// The arguments' values, and their spans (the tree's argument nodes).
    pub args: smallvec::SmallVec<[crate::eval::value::Value; 4]>,
    pub spans: smallvec::SmallVec<[Span; 4]>,
    /// Where its line starts (for [`Statements::put_back`]).
    line: usize,
}

impl LiteralCall {
    fn clear(&mut self) {
        while let Some(v) = self.args.pop() {
            v.dispose();
        }
        self.spans.clear();
    }
}

impl Statements<'_> {
    /// How deeply the input nests (as [`nesting`] says).
    pub fn nesting(&self) -> usize {
        self.nesting
    }

    /// True when the caller should start again with [`statements`] (see [`statements_lazy`]).
    pub fn restart(&self) -> bool {
        self.restart
    }

    /// While reading lazily, the next line that is not blank or a comment (which the pre-pass
    /// blanks: nothing to run), as `(start, end)` without its new line; the lines before it are
    /// taken, it is not. `None` at the end of the input or when not reading lazily.
    fn next_lazy_line(&mut self) -> Option<(usize, usize)> {
        let (mut pos, limit) = self.lazy?;
        let b = self.text.as_bytes();
        while pos < b.len() {
            let end = find_newline(&b[pos..]).map_or(b.len(), |k| pos + k);
            match b[pos..end].iter().find(|&&c| !matches!(c, b' ' | b'\t' | b'\r')) {
                None | Some(b'#') => {}
                Some(_) => return Some((pos, end)),
            }
            pos = (end + 1).min(b.len());
            self.lazy = Some((pos, limit));
        }
        None
    }

    /// The line [`Statements::next_lazy_line`] found, ending at `end`, is taken.
    fn take_line(&mut self, end: usize) {
        if let Some((_, limit)) = self.lazy {
            self.lazy = Some(((end + 1).min(self.text.len()), limit));
        }
    }

    /// The next line's statement while reading lazily; `None` at the end of the input or at a
    /// line not read lazily (`lazy` then holds where it starts).
    fn next_lazy(&mut self) -> Option<Stmt> {
        let (pos, end) = self.next_lazy_line()?;
        let s = fast::stmt_guarded(&self.text[..end], pos, LAZY_DEPTH)?;
        self.take_line(end);
        Some(s)
    }

    /// While reading lazily, the next line's statement when it is one call of literal arguments
    /// only (what [`Statements::next_stmt`] would give as `f(lit, ...)`), read into `c`; false,
    /// with only blank and comment lines taken (and `c` holding anything), at any other line or
    /// at the end. The statement
    /// can be given back ([`Statements::put_back`]) and taken as a tree instead.
    pub fn next_literal_call(&mut self, c: &mut LiteralCall) -> bool {
        c.clear();
        let Some((pos, end)) = self.next_lazy_line() else { return false };
        if fast::literal_call(&self.text[..end], pos, LAZY_DEPTH, c).is_none() {
            return false;
        }
        c.line = pos;
        self.take_line(end);
        true
    }

    /// Give back the statement [`Statements::next_literal_call`] took: the next statement is it
    /// again.
    pub fn put_back(&mut self, c: &LiteralCall) {
        if let Some((_, limit)) = self.lazy {
            self.lazy = Some((c.line, limit));
        }
    }

    /// Leave lazy reading: the pre-pass over the whole input, and the statements from the first
    /// line not yet taken. `Err`: the pre-pass's error. Sets `restart` (with nothing left to
    /// take) when the input nests too deeply to go on here.
    fn read_rest_eagerly(&mut self) -> Result<(), ParseError> {
        let Some((pos, limit)) = self.lazy.take() else { return Ok(()) };
        if pos >= self.text.len() {
            // every line was taken
            self.checked = true;
            return Ok(());
        }
        let scan = prescan_checked(&self.text).inspect_err(|_| self.cuts = Vec::new().into_iter())?;
        self.nesting = scan.max_depth.max(scan.max_chain);
        if scan.max_depth > DEEP_INPUT || self.nesting > limit {
            self.restart = true;
            self.checked = true;
            self.cuts = Vec::new().into_iter();
            return Ok(());
        }
        // (each line taken was a whole statement: the pre-pass cut it at its new line)
        let rest: Vec<(usize, usize)> = scan.cuts.into_iter().filter(|&(start, _)| start >= pos).collect();
        self.text = scan.text.into();
        self.cuts = rest.into_iter();
        Ok(())
    }

    /// The next statement; `None` at the end of the input. An error is the whole input's parse
    /// error (as [`parse`] reports it); nothing follows it.
    pub fn next_stmt(&mut self) -> Option<Result<Stmt, ParseError>> {
        if self.lazy.is_some() {
            if let Some(s) = self.next_lazy() {
                return Some(Ok(s));
            }
            if let Err(e) = self.read_rest_eagerly() {
                return Some(Err(e));
            }
        }
        if let Some(w) = &mut self.whole {
            return w.next().map(Ok);
        }
        let text: &str = &self.text;
        while let Some((start, end)) = self.cuts.next() {
            let chunk = &text[start..end];
            if chunk.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                continue;
            }
            // The fast path builds the spans in `text` directly (no `shift`).
            if let Some(s) = fast::stmt_at(&text[..end], start) {
                return Some(Ok(s));
            }
            let built = match slow_statement(chunk) {
                Ok(s) => Ok(s),
                Err(Failed::Syntax(e)) => Err(errors::from_pest(e, text, start)),
                Err(Failed::Build(mut e)) => {
                    e.span = Span::new(e.span.start + start, e.span.end + start);
                    // A syntax error further on wins.
                    Err(check_syntax(text, &mut self.cuts).err().unwrap_or(e))
                }
            };
            return Some(match built {
                Ok(mut s) => {
                    build::shift(&mut s, start);
                    Ok(s)
                }
                Err(e) => {
                    self.cuts = Vec::new().into_iter();
                    Err(e)
                }
            });
        }
        None
    }

    /// Parses the statements not yet taken and keeps none of them: `Err` is the whole input's
    /// parse error (as [`parse`] reports it). They can still be taken afterwards.
    pub fn check_rest(&mut self) -> Result<(), ParseError> {
        self.read_rest_eagerly()?;
        if self.checked || self.whole.is_some() {
            return Ok(());
        }
        let text: &str = &self.text;
        let mut rest = self.cuts.clone();
        let mut build_error = None;
        for (start, end) in rest.by_ref() {
            let chunk = &text[start..end];
            if chunk.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                continue;
            }
            match one_statement(chunk) {
                Ok(_) => {}
                Err(Failed::Syntax(e)) => return Err(errors::from_pest(e, text, start)),
                Err(Failed::Build(mut e)) => {
                    e.span = Span::new(e.span.start + start, e.span.end + start);
                    build_error = Some(e);
                    break;
                }
            }
        }
        if let Some(e) = build_error {
            return Err(check_syntax(text, &mut rest).err().unwrap_or(e));
        }
        self.checked = true;
        Ok(())
    }
}

/// The first syntax error among the statements `cuts` (pest only, no AST).
fn check_syntax(text: &str, cuts: &mut std::vec::IntoIter<(usize, usize)>) -> Result<(), ParseError> {
    for (start, end) in cuts {
        let chunk = &text[start..end];
        if chunk.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            continue;
        }
        if fast::stmt(chunk).is_none() {
            parse_statement(chunk).map_err(|e| errors::from_pest(e, text, start))?;
        }
    }
    Ok(())
}

/// Why one statement did not parse: pest's syntax error, or an error building its AST.
enum Failed {
    Syntax(pest::error::Error<Rule>),
    Build(ParseError),
}

/// One statement (spans relative to `chunk`): the fast parser's, else pest's and the builder's.
fn one_statement(chunk: &str) -> Result<Stmt, Failed> {
    if let Some(s) = fast::stmt(chunk) {
        return Ok(s);
    }
    slow_statement(chunk)
}

/// pest and the builder (what the fast path does not take).
fn slow_statement(chunk: &str) -> Result<Stmt, Failed> {
    let pair = parse_statement(chunk).map_err(Failed::Syntax)?;
    build::stmt(pair).map_err(Failed::Build)
}

/// pest + AST building on pre-scanned text, one statement at a time (pest's token queue holds
/// one statement). As with one parse of the whole input, a syntax error anywhere wins over an
/// error found while building the AST (an integer literal out of range, a tree too deep).
fn parse_clean(text: &str, cuts: &[(usize, usize)]) -> Result<Program, ParseError> {
    let mut stmts = Vec::new();
    let mut build_error = None;
    for &(start, end) in cuts {
        let chunk = &text[start..end];
        if chunk.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
            continue;
        }
        if build_error.is_some() {
            if fast::stmt(chunk).is_none() {
                parse_statement(chunk).map_err(|e| errors::from_pest(e, text, start))?;
            }
            continue;
        }
        match one_statement(chunk) {
            Ok(mut s) => {
                build::shift(&mut s, start);
                stmts.push(s);
            }
            Err(Failed::Syntax(e)) => return Err(errors::from_pest(e, text, start)),
            Err(Failed::Build(mut e)) => {
                e.span = Span::new(e.span.start + start, e.span.end + start);
                build_error = Some(e);
            }
        }
    }
    match build_error {
        Some(e) => Err(e),
        None => Ok(Program { stmts }),
    }
}

/// For the fuzzers: every statement of `src` that the fast path takes, pest and the builder take
/// too, and build the same AST (and the fast path run in place in the whole text, as `Statements`
/// runs it, builds it with the spans moved). `Err` describes the first statement where they differ. Inputs
/// the pre-pass refuses or that nest deeply (parsed on a large stack) are not compared.
pub fn fast_path_agrees(src: &str) -> Result<(), String> {
    let scan = prescan::scan(src);
    if scan.error.is_some() || scan.max_depth > DEEP_INPUT || src.len() > MAX_SOURCE_BYTES {
        return Ok(());
    }
    for &(a, b) in &scan.cuts {
        let chunk = &scan.text[a..b];
        let Some(fast) = fast::stmt(chunk) else {
            if fast::stmt_at(&scan.text[..b], a).is_some() {
                return Err(format!("{chunk:?}: the fast path took it in place, not on its own"));
            }
            continue;
        };
        let mut moved = fast.clone();
        build::shift(&mut moved, a);
        if fast::stmt_at(&scan.text[..b], a).as_ref() != Some(&moved) {
            return Err(format!("{chunk:?}: the fast path in place built other spans than on its own"));
        }
        match parse_statement(chunk).map(build::stmt) {
            Ok(Ok(s)) if s == fast => {}
            Ok(Ok(s)) => return Err(format!("{chunk:?}: the fast path built {fast:?}, pest {s:?}")),
            Ok(Err(e)) => return Err(format!("{chunk:?}: the fast path took it, the builder says {e:?}")),
            Err(e) => return Err(format!("{chunk:?}: the fast path took it, pest says {e}")),
        }
    }
    Ok(())
}

/// For the fuzzers and tests: reading `src` lazily ([`statements_lazy`]) gives what
/// [`statements`] gives: the same statements and the same error, before and after
/// [`Statements::check_rest`] (taken after `k` statements); or it asks for a restart (the
/// session then reads the input with [`statements`]). `Err` describes the first difference.
pub fn lazy_agrees(src: &str, k: usize) -> Result<(), String> {
    let (mut eager, mut lazy) = match (statements(src), statements_lazy(src, 32)) {
        (Err(e), Err(l)) if e == l => return Ok(()),
        (Err(e), Ok(mut l)) => {
            // the whole input's error, after the lines taken before it
            let mut last = None;
            while let Some(r) = l.next_stmt() {
                last = Some(r);
            }
            return match last {
                _ if l.restart() => Ok(()),
                Some(Err(x)) if x == e => Ok(()),
                other => Err(format!("statements: {e:?}, lazily: {other:?}")),
            };
        }
        (Ok(e), Ok(l)) => (e, l),
        (e, l) => return Err(format!("statements: {:?}, lazily: {:?}", e.err(), l.err())),
    };
    for n in 0.. {
        if n == k {
            let (a, b) = (eager.check_rest(), lazy.check_rest());
            if lazy.restart() {
                return Ok(());
            }
            if a != b {
                return Err(format!("check_rest after {k}: {a:?}, lazily {b:?}"));
            }
        }
        let (a, b) = (eager.next_stmt(), lazy.next_stmt());
        if lazy.restart() {
            return Ok(());
        }
        if a != b {
            return Err(format!("statement {n}: {a:?}, lazily {b:?}"));
        }
        if a.is_none() || a.is_some_and(|r| r.is_err()) {
            return Ok(());
        }
    }
    Ok(())
}

/// One statement: the rule its first words call for; when that fails, `stmt_line` (every kind
/// in the grammar's order), whose error is the one to report.
fn parse_statement(chunk: &str) -> Result<pest::iterators::Pair<'_, Rule>, pest::error::Error<Rule>> {
    use pest::Parser;
    let first = statement_rule(chunk);
    if first != Rule::stmt_line {
        if let Ok(mut pairs) = grammar::CuteParser::parse(first, chunk) {
            if let Some(p) = pairs.next() {
                return Ok(p);
            }
        }
    }
    let mut pairs = grammar::CuteParser::parse(Rule::stmt_line, chunk)?;
    pairs.next().ok_or_else(|| {
        pest::error::Error::new_from_pos(
            pest::error::ErrorVariant::CustomError { message: "empty statement".into() },
            pest::Position::from_start(chunk),
        )
    })
}

/// The statement kind its first words announce: `assert ...`, `name = ...`, `run ...`/`emit ...`,
/// `explain ...`, else an expression.
fn statement_rule(chunk: &str) -> Rule {
    let s = chunk.trim_start_matches([' ', '\t', '\r']);
    let word_len = s.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    let word = &s[..word_len];
    if word == "assert" {
        return Rule::assert_line;
    }
    let is_ident = word.as_bytes().first().is_some_and(|b| b.is_ascii_alphabetic()) && word != "o";
    let rest = s[word_len..].trim_start_matches([' ', '\t', '\r']);
    if is_ident && rest.starts_with('=') && !rest.starts_with("==") {
        return Rule::bind_line;
    }
    match word {
        "run" | "emit" => Rule::gemm_line,
        "explain" => Rule::explain_line,
        _ => Rule::expr_line,
    }
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

/// The first `\n` of `b`. (On x86-64 with SSE2, which every x86-64 CPU has: `memchr::memchr`
/// would first ask the CPU for AVX2, with `cpuid`s that take 8 µs each in a virtual machine,
/// 70 µs of a script's start here; for lines of a few dozen bytes SSE2 is as fast.)
#[inline]
fn find_newline(b: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        // (`None` only where SSE2 is not compiled in, decided at compile time)
        match memchr::arch::x86_64::sse2::memchr::One::new(b'\n') {
            Some(one) => one.find(b),
            None => memchr::memchr(b'\n', b),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        memchr::memchr(b'\n', b)
    }
}

#[cfg(test)]
mod tests;
