//! A session: bindings, the inputs it accepted, options, and one `run(source, origin)` used by
//! the REPL, scripts, `-e`, doctests and tests. Values go to one writer (stdout), diagnostics
//! (errors, warnings, failed asserts) to another (stderr).
//! It runs `run gemm`/`emit gemm` (the interpreter evaluates their arguments, `runtime` does the rest).
//! May import: `parser`, `interp`, `runtime`, `eval` (the value/error types), `diagnostic`.
#![allow(clippy::type_complexity)]

use crate::diagnostic::{paint_value, Diagnostic, LineIndex};
use crate::eval::error::{take_warnings, ErrorKind, EvalError};
use crate::eval::value::{quote, Value};
use crate::interp::{Failure, GemmCall, Interp, Located, Produced};
use crate::parser;
use crate::runtime::{gemm_statement, GemmOpt};
use std::io::Write;

pub use crate::eval::budget::TimeLimit;

/// The value of `--time-limit`/`:time-limit`: seconds (0: no limit); `None` for anything else.
pub fn parse_time_limit(text: &str) -> Option<TimeLimit> {
    crate::eval::budget::parse_seconds(text).map(TimeLimit)
}

/// `run gemm`/`emit gemm`: the result table or the CUDA source, or the error at its argument.
// A failure carries both values of a failed assert: large, and rare (as in `interp`).
#[allow(clippy::result_large_err)]
fn run_gemm(g: &GemmCall) -> Result<Produced, Failure> {
    let opts: Vec<GemmOpt> =
        g.opts.iter().map(|(key, value)| GemmOpt { key: key.clone(), value: value.clone() }).collect();
    let [m, n, k] = g.dims;
    match gemm_statement(g.emit, m, n, k, &opts) {
        Ok(text) => Ok(Produced::Text(text)),
        Err(err) => {
            let span = g.span_of(err.arg);
            Err(Failure::Error(Located::new(err, span)))
        }
    }
}

/// True when `src` ends inside open brackets or with a trailing `\`: the REPL reads on.
pub fn is_incomplete(src: &str) -> bool {
    parser::is_incomplete(src)
}

/// How a session prints and reacts to failures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Go on after an error or a failed assert (scripts: `--keep-going`).
    pub keep_going: bool,
    /// Colour values (stdout).
    pub color_values: bool,
    /// Colour diagnostics (stderr).
    pub color_diagnostics: bool,
    /// REPL rules: a statement that is exactly `_` shows the last value.
    pub repl: bool,
    /// A person at the REPL: an unknown name also points to `:help`.
    pub interactive: bool,
    /// Print each statement before its value (`cute --echo`): `stmt  =>  value`.
    pub echo: bool,
    /// Never write files (`svg(X, "f.svg")` says what it would write): the fuzz targets.
    pub no_file_writes: bool,
    /// Columns of the terminal stdout is (`None`: not a terminal): wider tables are cut into bands.
    pub terminal_width: Option<usize>,
    /// The terminal shows 24-bit colour (`COLORTERM=truecolor`).
    pub truecolor: bool,
    /// The time limit of one statement (`--time-limit`, `:time-limit`; README "Limits").
    pub time_limit: TimeLimit,
    /// Keep no accepted inputs (`Session::script`, what `:save` writes): scripts and `-e` run
    /// from the command line, which never save, are then not copied (a 1 MB script cost a
    /// 1 MB copy, its page faults and its unmapping: 3% of its wall time).
    pub forget_inputs: bool,
}

/// Counts over the session's lifetime (for `--keep-going`'s `N passed, M failed`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Asserts that held.
    pub passed: usize,
    /// Failed asserts, statements that raised an error, and inputs that did not parse.
    pub failed: usize,
    /// Inputs that did not parse (also counted in `failed`).
    pub parse_errors: usize,
}

/// What one `run` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every statement ran; every assert held.
    Ok,
    /// An error or a failed assert (the run stopped there unless `keep_going`).
    Failed,
    /// The input did not parse; nothing ran.
    ParseError,
}

impl Outcome {
    /// The process exit code this outcome calls for (0, 1, 2).
    pub fn exit_code(self) -> i32 {
        match self {
            Outcome::Ok => 0,
            Outcome::Failed => 1,
            Outcome::ParseError => 2,
        }
    }
}

/// Bindings + accepted inputs + options.
pub struct Session {
    interp: Interp,
    pub opts: Options,
    accepted: Vec<String>,
    pub stats: Stats,
    /// The lines of the input before the source being run (see [`Session::run_from_line`]).
    line_base: usize,
}

impl Session {
    pub fn new(opts: Options) -> Session {
        let mut interp = Interp::new();
        interp.repl = opts.repl;
        Session { interp, opts, accepted: Vec::new(), stats: Stats::default(), line_base: 0 }
    }

    pub fn interp(&self) -> &Interp {
        &self.interp
    }

    /// Inputs that ran without an error, in order (`:save` writes them).
    pub fn accepted(&self) -> &[String] {
        &self.accepted
    }

    /// The accepted inputs as a `.cute` script. An entry that is a lone `_` (the REPL's last
    /// value) is written `last`, which means the same in a script.
    pub fn script(&self) -> String {
        let mut s = String::new();
        for a in &self.accepted {
            let a = a.trim_end_matches('\n');
            s.push_str(if a.trim() == "_" { crate::interp::LAST_NAME } else { a });
            s.push('\n');
        }
        s
    }

    /// Forget bindings, the last value and the accepted inputs (statistics are kept).
    pub fn reset(&mut self) {
        self.interp.reset();
        self.accepted.clear();
    }

    /// [`Session::run`] of a `source` that starts at line `first_line + 1` of `origin` (a piece
    /// of a piped script between REPL commands): messages give the lines of the whole input.
    pub fn run_from_line(
        &mut self,
        source: &str,
        origin: &str,
        first_line: usize,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Outcome {
        self.line_base = first_line;
        let r = self.run(source, origin, out, err);
        self.line_base = 0;
        r
    }

    /// Parse and run `source` (named `origin` in messages: a file name, `-e`, `<repl>`).
    /// Values are written to `out`, diagnostics to `err`. Write errors (a closed pipe) are
    /// ignored.
    ///
    /// Ordinary inputs run on the caller's thread (no thread is started: `cute -e` stays a
    /// millisecond). Deeply nested inputs, or a session holding deeply nested values, run on a
    /// thread with a large stack, their output collected and then written in order.
    pub fn run(&mut self, source: &str, origin: &str, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
        self.interp.repl = self.opts.repl;
        // Most inputs are read a line at a time on this thread; one that turns out to nest
        // deeply is undone and read again below, as a whole.
        if !self.interp.has_deep_values() {
            let stmts = match parser::statements_lazy(source, SHALLOW_INPUT) {
                Ok(s) => s,
                Err(pe) => return self.parse_failed(&pe, source, origin, out, err),
            };
            if let Some(outcome) = self.run_here(stmts, source, origin, out, err) {
                return outcome;
            }
        }
        let stmts = match parser::statements(source) {
            Ok(s) => s,
            Err(pe) => return self.parse_failed(&pe, source, origin, out, err),
        };
        // (statements read as a whole never ask to be read again: `unwrap_or` below is not taken)
        if stmts.nesting() <= SHALLOW_INPUT && !self.interp.has_deep_values() {
            return self.run_here(stmts, source, origin, out, err).unwrap_or(Outcome::ParseError);
        }
        let mut stmts = Some(stmts);
        let mut log = Log::default();
        let outcome = std::thread::scope(|s| {
            let worker = std::thread::Builder::new()
                .name("cute-deep".into())
                .stack_size(DEEP_STACK_BYTES)
                .spawn_scoped(s, || {
                    let mut log = Log::default();
                    let (mut o, mut e) = (log.writer(false), log.writer(true));
                    let r = match stmts.take() {
                        Some(st) => self.run_here(st, source, origin, &mut o, &mut e).unwrap_or(Outcome::ParseError),
                        None => Outcome::ParseError,
                    };
                    drop((o, e));
                    (r, log)
                });
            match worker {
                Ok(h) => match h.join() {
                    Ok((r, l)) => {
                        log = l;
                        Some(r)
                    }
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                Err(_) => None,
            }
        });
        match outcome {
            Some(r) => {
                log.replay(out, err);
                r
            }
            // No thread could be started: try on this one (the parser has its own big-stack
            // thread for deep brackets).
            None => match parser::statements(source) {
                Ok(st) => self.run_here(st, source, origin, out, err).unwrap_or(Outcome::ParseError),
                Err(pe) => self.parse_failed(&pe, source, origin, out, err),
            },
        }
    }

    /// The input did not parse: count it and show the error (nothing of it ran).
    fn parse_failed(
        &mut self,
        pe: &parser::ParseError,
        source: &str,
        origin: &str,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Outcome {
        self.stats.parse_errors += 1;
        self.stats.failed += 1;
        let mut d = Diagnostic::error(pe.message.clone(), Some(pe.span));
        d.help = gemm_usage(source, pe.span.start);
        emit(out, err, &d.render_from(origin, source, None, self.line_base, self.opts.color_diagnostics));
        Outcome::ParseError
    }

    /// Runs the statements as they are parsed, each AST dropped once it ran. Until the whole
    /// input is known to parse, this is a trial: the output is held back and the interpreter
    /// can undo the statements, so that an input that does not parse runs nothing (its parse
    /// error is all it prints), as when it was parsed whole before running. Running a gemm or
    /// writing a file cannot be undone: before either, the rest of the input is parsed first.
    /// `None`: statements read lazily turned out to nest deeper than this thread may run
    /// (`Statements::restart`); what ran is undone and nothing was written.
    fn run_here(
        &mut self,
        mut stmts: parser::Statements<'_>,
        source: &str,
        origin: &str,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Option<Outcome> {
        let stats_before = self.stats;
        self.interp.begin_trial();
        // (the held stdout reserved at about the size a script's values take, half its text:
        // growing it copied and touched every size on the way)
        let reserve = (source.len() / 2).min(1 << 26);
        let mut sink = Sink { out, err, held: Some(vec![(false, Vec::with_capacity(reserve))]) };
        // The input does not parse: undo the trial, drop its output, show the error.
        macro_rules! parse_failed {
            ($pe:expr) => {{
                self.interp.rollback();
                self.stats = stats_before;
                sink.held = None;
                return Some(self.parse_failed(&$pe, source, origin, &mut *sink.out, &mut *sink.err));
            }};
        }
        // The input must be read again from its start, as a whole (nothing was released).
        macro_rules! restart {
            () => {{
                self.interp.rollback();
                self.stats = stats_before;
                sink.held = None;
                return None;
            }};
        }
        // Before what cannot be undone: the rest must parse.
        macro_rules! commit {
            () => {
                if sink.held.is_some() {
                    if let Err(pe) = stmts.check_rest() {
                        parse_failed!(pe);
                    }
                    if stmts.restart() {
                        restart!();
                    }
                    self.interp.commit();
                    sink.release();
                }
            };
        }
        let mut outcome = Outcome::Ok;
        let mut prev_end = 0;
        // line numbers for the diagnostics, found once (a script may warn thousands of times)
        let lines = std::cell::OnceCell::new();
        // Most scripts mark no statement as expecting a warning: then no statement looks.
        let marked = source.contains(EXPECT_WARNING);
        // Comments are read for `--echo` and for the marks only.
        let read_comments = self.opts.echo || marked;
        let mut value_text: Vec<u8> = Vec::with_capacity(64);
        // (the printers' terminal, for every statement of this input: set once, on the thread
        // that runs them)
        crate::render::term::set(crate::render::term::Terminal {
            colour: self.opts.color_values,
            width: self.opts.terminal_width,
            truecolor: self.opts.truecolor,
        });
        // A statement that is one call of literal arguments (most lines of a script) is run from
        // its argument values, with no tree, where nothing is shown of it but its value and
        // warnings; the few such calls that do more are given back and run as trees.
        let literal_calls = !read_comments && !self.opts.repl && !self.opts.echo && !self.opts.color_values;
        let mut call = parser::LiteralCall::default();
        let mut as_tree = false;
        loop {
            let by_values = literal_calls && !std::mem::take(&mut as_tree) && stmts.next_literal_call(&mut call);
            // A call run from its values: a value without warnings (nearly every one) is written
            // here, with none of the rest of the loop's steps (they were a tenth of such a
            // script's time); anything else goes on below.
            let mut ran = None;
            if by_values {
                let _ = take_warnings();
                crate::eval::budget::start(self.opts.time_limit.0);
                let r = self.interp.run_literal_call(&source[call.name.start..call.name.end], &call);
                crate::eval::budget::start(None);
                match r {
                    None => {
                        stmts.put_back(&call);
                        as_tree = true;
                        continue;
                    }
                    Some(Ok(Produced::Last)) if crate::eval::error::no_warnings() => {
                        sink.value_line(self.interp.last(), &mut value_text);
                        continue;
                    }
                    Some(r) => ran = Some(r),
                }
            }
            // Otherwise the next statement as a tree, run (nothing is written yet: `--echo`'s
            // lines come below, before its value).
            let owned;
            let (stmt, executed) = match ran {
                Some(r) => (None, r),
                None => {
                    owned = match stmts.next_stmt() {
                        None if stmts.restart() => restart!(),
                        None => break,
                        Some(Ok(s)) => s,
                        Some(Err(pe)) => parse_failed!(pe),
                    };
                    let _ = take_warnings();
                    crate::eval::budget::start(self.opts.time_limit.0);
                    (Some(&owned), self.interp.run(&owned))
                }
            };
            let span = stmt.map_or(call.stmt, |s| s.span);
            // (the statement's own text: for --echo, the comments and the REPL's hints only)
            let text = if read_comments || self.opts.repl {
                source.get(span.start..span.end).unwrap_or("").trim()
            } else {
                ""
            };
            let note = if read_comments { trailing_comment(source, span.end) } else { None };
            if self.opts.echo {
                echo_gap(&mut sink, source.get(prev_end..span.start).unwrap_or(""), prev_end == 0);
            }
            prev_end = span.end + note.map_or(0, |n| n.len());
            // --echo: `code  =>  value   # comment` (a comment inside the statement's span is
            // moved after the value; `#` appears nowhere else in the language)
            let hash = if read_comments { text.find('#') } else { None };
            let (code, comment) = match hash {
                Some(i) => (text[..i].trim_end(), format!("   {}", text[i..].trim())),
                None => (text, String::new()),
            };
            let expects_warning = marked
                && (comment.contains(EXPECT_WARNING)
                    || note.is_some_and(|n| n.contains(EXPECT_WARNING))
                    || comment_above(source, span.start).is_some_and(|c| c.contains(EXPECT_WARNING)));
            // (the clock stops: REPL hints and help evaluate outside any statement)
            crate::eval::budget::start(None);
            let mut r = match executed {
                Ok(Produced::Gemm(g)) => {
                    commit!();
                    run_gemm(&g)
                }
                Ok(Produced::File { path, .. }) if self.opts.no_file_writes => {
                    sink.emit(&format!("not written (no file writes in this session): {path}\n"));
                    Ok(Produced::Nothing)
                }
                Ok(Produced::File { path, text, span }) => {
                    commit!();
                    match write_file(&path, &text) {
                        Ok(()) => {
                            sink.emit(&format!("wrote {path}\n"));
                            Ok(Produced::Nothing)
                        }
                        Err(e) => Err(Failure::Error(Located::new(
                            EvalError::new(ErrorKind::Io, "cannot write", format!("{}: {e}", quote(&path))),
                            span,
                        ))),
                    }
                }
                r => r,
            };
            let mut warnings = take_warnings();
            // One warning once (`explain` evaluates the same composition several times).
            if warnings.len() > 1 {
                let mut seen = Vec::new();
                warnings.retain(|w| {
                    !seen.contains(w) && {
                        seen.push(w.clone());
                        true
                    }
                });
            }
            let c = self.opts.color_values;
            let out = &mut sink;
            match &mut r {
                Ok(p @ (Produced::Value(_) | Produced::Last)) => {
                    let v = match p {
                        Produced::Value(v) => Some(&*v),
                        _ => self.interp.last(),
                    };
                    if !c && !self.opts.echo {
                        out.value_line(v, &mut value_text);
                    } else {
                        value_text.clear();
                        if let Some(v) = v {
                            v.write_bytes(&mut value_text);
                        }
                        // (a value's text is UTF-8: `Display` wrote it)
                        let shown = paint_value(&String::from_utf8_lossy(&value_text), c);
                        if !self.opts.echo {
                            let _ = writeln!(out, "{shown}");
                        } else if shown.contains('\n') {
                            let _ = writeln!(out, "{code}  =>{comment}\n{shown}");
                        } else {
                            let _ = writeln!(out, "{code}  =>  {shown}{comment}");
                        }
                    }
                }
                Ok(Produced::Text(t)) => {
                    // (explain's text starts with the expression itself)
                    if self.opts.echo
                        && !stmt.is_some_and(|s| matches!(s.kind, crate::parser::ast::StmtKind::Explain(_)))
                    {
                        let _ = writeln!(out, "{code}  =>{comment}");
                    }
                    let mut bytes = std::mem::take(t).into_bytes();
                    if bytes.last() != Some(&b'\n') {
                        bytes.push(b'\n');
                    }
                    out.write_owned(bytes);
                }
                Ok(Produced::AssertPassed) => {
                    self.stats.passed += 1;
                    if self.opts.echo {
                        let _ = writeln!(out, "{code}  =>  holds{comment}");
                    }
                }
                Ok(Produced::Nothing) | Ok(Produced::File { .. }) | Ok(Produced::Gemm(_)) | Err(_) => {
                    if self.opts.echo {
                        let _ = writeln!(out, "{code}{comment}");
                    }
                }
            }
            if self.opts.repl && self.interp.last().is_some() {
                if let Some(hint) = underscore_hint(text) {
                    warnings.push(hint);
                }
            }
            if expects_warning && warnings.is_empty() && r.is_ok() {
                r = Err(Failure::Error(Located {
                    error: crate::eval::error::EvalError::rule(
                        "expected a warning",
                        format!("this statement is marked `# {EXPECT_WARNING}` but gave none"),
                    ),
                    span,
                    help: Some("remove the mark if the statement no longer warns".into()),
                    note: None,
                }));
            }
            for w in warnings {
                let mut d = Diagnostic::warning(w, Some(span));
                if expects_warning {
                    d.severity = crate::diagnostic::Severity::ExpectedWarning;
                }
                let ix = lines.get_or_init(|| LineIndex::new(source));
                sink.emit(&d.render_from(origin, source, Some(ix), self.line_base, self.opts.color_diagnostics));
            }
            if let Err(f) = r {
                self.stats.failed += 1;
                outcome = Outcome::Failed;
                let d = self.failure_diagnostic(&f, source);
                let ix = lines.get_or_init(|| LineIndex::new(source));
                sink.emit(&d.render_from(origin, source, Some(ix), self.line_base, self.opts.color_diagnostics));
                if !self.opts.keep_going {
                    break;
                }
            }
        }
        commit!();
        let _ = sink.flush();
        if outcome == Outcome::Ok && !self.opts.forget_inputs {
            // (without the blank lines before it: `:save` writes the statements)
            self.accepted.push(source.trim_start_matches('\n').to_string());
        }
        Some(outcome)
    }

    fn failure_diagnostic(&self, f: &Failure, source: &str) -> Diagnostic {
        let text = |sp: crate::parser::ast::Span| source.get(sp.start..sp.end).unwrap_or("").trim().to_string();
        let c = self.opts.color_diagnostics;
        match f {
            Failure::Error(Located { error, span, help, note }) => {
                let mut d = Diagnostic::error(one_line(&error.to_string()), Some(*span));
                d.help = help.as_deref().map(String::from);
                if self.opts.interactive && error.kind == crate::eval::error::ErrorKind::Unknown {
                    let more = "`:help` lists the functions, `:help atoms` the MMA operations";
                    d.help = Some(match d.help.take() {
                        Some(h) => format!("{h} ({more})"),
                        None => more.to_string(),
                    });
                }
                d.notes.extend(note.iter().map(|n| format!("note: {n}")));
                d
            }
            Failure::Assert(a) => {
                let mut d = Diagnostic::error(format!("assertion failed: {}", text(a.span)), Some(a.span));
                match &a.rhs {
                    Some((_, rv)) => {
                        d.notes.push(format!("left:  {}", paint_value(&a.lhs.1.to_string(), c)));
                        d.notes.push(format!("right: {}", paint_value(&rv.to_string(), c)));
                    }
                    None => d.notes.push(format!("value: {}", paint_value(&a.lhs.1.to_string(), c))),
                }
                if let Some(n) = &a.note {
                    d.notes.push(n.clone());
                }
                d
            }
        }
    }
}

/// Where a run's output goes: held back (values and diagnostics in the order they were written)
/// while the run is a trial, then straight to `out` and `err`.
struct Sink<'a> {
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
    /// While on trial: chunks for stdout (`false`) and stderr (`true`).
    held: Option<Vec<(bool, Vec<u8>)>>,
}

impl Sink<'_> {
    /// Output the sink may keep as it is: while on trial it is held without a copy (a picture
    /// can be hundreds of megabytes; copying it doubled the memory a statement needs).
    fn write_owned(&mut self, bytes: Vec<u8>) {
        match &mut self.held {
            Some(h) => h.push((false, bytes)),
            None => {
                let _ = self.out.write_all(&bytes);
            }
        }
    }
    /// While on trial, the held chunk that stdout's next bytes go to (the last one, or a new one
    /// after a diagnostic), for a value to be written into directly.
    fn held_stdout(&mut self) -> Option<&mut Vec<u8>> {
        self.held.as_mut().map(|h| chunk(h, false))
    }

    /// A value's line as `writeln!` writes it, plain: straight into the held output while on
    /// trial, else made in `buf` (one buffer for every statement: no allocation per statement)
    /// and written.
    fn value_line(&mut self, v: Option<&Value>, buf: &mut Vec<u8>) {
        if let Some(held) = self.held_stdout() {
            v.inspect(|v| v.write_bytes(held));
            held.push(b'\n');
        } else {
            buf.clear();
            v.inspect(|v| v.write_bytes(buf));
            buf.push(b'\n');
            let _ = self.write_all(buf);
        }
    }

    /// A diagnostic (see [`emit`]).
    fn emit(&mut self, text: &str) {
        match &mut self.held {
            Some(h) => hold(h, true, text.as_bytes()),
            None => emit(self.out, self.err, text),
        }
    }

    /// Write what was held back; from now on write directly.
    fn release(&mut self) {
        for (is_err, bytes) in self.held.take().unwrap_or_default() {
            if is_err {
                let _ = self.out.flush();
                let _ = self.err.write_all(&bytes);
                let _ = self.err.flush();
            } else {
                let _ = self.out.write_all(&bytes);
            }
        }
    }
}

fn hold(h: &mut Vec<(bool, Vec<u8>)>, is_err: bool, b: &[u8]) {
    chunk(h, is_err).extend_from_slice(b);
}

/// The held chunk of stdout (`false`) or stderr (`true`) that the next bytes go to: the last
/// one when it is of that stream, else a new one.
fn chunk(h: &mut Vec<(bool, Vec<u8>)>, is_err: bool) -> &mut Vec<u8> {
    if !matches!(h.last(), Some((e, _)) if *e == is_err) {
        h.push((is_err, Vec::new()));
    }
    let last = h.len() - 1;
    &mut h[last].1
}

/// The values' stream.
impl Write for Sink<'_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        match &mut self.held {
            Some(h) => {
                hold(h, false, b);
                Ok(b.len())
            }
            None => self.out.write(b),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self.held {
            Some(_) => Ok(()),
            None => self.out.flush(),
        }
    }
}

/// A parse error on a `run gemm` / `emit gemm` line: say what the statement takes (a missing
/// size shows up as "expected an expression" at the end of the line).
fn gemm_usage(source: &str, at: usize) -> Option<String> {
    let at = at.min(source.len());
    let start = source[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = source[start..].lines().next().unwrap_or("").trim_start();
    let mut words = line.split_whitespace();
    let kw = words.next()?;
    if !matches!(kw, "run" | "emit") || words.next() != Some("gemm") {
        return None;
    }
    Some(format!("`{kw} gemm` takes the three sizes first: `{kw} gemm M N K [key=value ...]` (`:help {kw}`)"))
}

/// The mark of a statement whose warning is expected: a comment on its line, or the comment
/// line just above it, that contains these words (`R = A o B   # expect warning: not A∘B`).
pub const EXPECT_WARNING: &str = "expect warning";

/// The comment that ends the statement's line (`# ...` after only spaces), if any.
fn trailing_comment(source: &str, end: usize) -> Option<&str> {
    let rest = source.get(end..)?;
    let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
    let t = line.trim_start();
    t.starts_with('#').then_some(line)
}

/// The line just above the one where `start` is, when it is a comment.
fn comment_above(source: &str, start: usize) -> Option<&str> {
    let head = source.get(..start)?;
    let line_start = head.rfind('\n')?;
    if !head[line_start + 1..].trim().is_empty() {
        return None; // another statement before this one on its line
    }
    let above = &head[..line_start];
    let prev = above[above.rfind('\n').map_or(0, |i| i + 1)..].trim();
    prev.starts_with('#').then_some(prev)
}

/// `--echo`: the comments and blank lines between two statements, as they are in the script
/// (they are its narrative), a run of blank lines as one.
fn echo_gap(out: &mut dyn Write, gap: &str, first: bool) {
    let lines: Vec<&str> = gap.split('\n').collect();
    let n = lines.len();
    // no blank line at the very start of the output
    let mut blank = first;
    for (i, l) in lines.iter().enumerate() {
        // Whole lines only: the first piece ends the previous statement's line, the last one
        // starts this statement's line.
        if (i == 0 && !first) || i + 1 == n {
            continue;
        }
        let t = l.trim();
        if t.starts_with('#') {
            let _ = writeln!(out, "{t}");
            blank = false;
        } else if t.is_empty() && !blank {
            let _ = writeln!(out);
            blank = true;
        }
    }
}

/// In the REPL, `f(_)` most likely means "f of the last value", but inside an expression `_` is
/// CuTe's Underscore (CuTe's `coalesce(_)` is `_`): say so, once per such statement.
fn underscore_hint(stmt: &str) -> Option<String> {
    let squeezed: String = stmt.chars().filter(|c| !c.is_whitespace()).collect();
    if squeezed == "_" || !squeezed.contains("(_)") {
        return None;
    }
    Some("`_` inside an expression is CuTe's Underscore, not the last value; write `last` for that".to_string())
}

/// The text of a script read as bytes, or the rendered error (`error: invalid UTF-8`, with the
/// line and column of the first bad byte in `origin`).
pub fn decode_script(bytes: Vec<u8>, origin: &str, color: bool) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.into_bytes();
        let bad = bytes.get(at).copied().unwrap_or(0);
        // The text as far as it is readable, the bad byte shown as U+FFFD.
        let shown = String::from_utf8_lossy(&bytes).into_owned();
        let d = Diagnostic::error(
            format!("invalid UTF-8: byte 0x{bad:02X} (scripts must be UTF-8 text)"),
            Some(crate::parser::ast::Span::new(at, at + '\u{FFFD}'.len_utf8())),
        );
        d.render(origin, &shown, color)
    })
}

/// An error message on one line: a value quoted in backticks that prints on several lines
/// (an MMA or copy atom) is cut to its first line and `...`; other line breaks become spaces.
fn one_line(msg: &str) -> String {
    if !msg.contains('\n') {
        return msg.to_string();
    }
    let mut out = String::with_capacity(msg.len());
    for (k, part) in msg.split('`').enumerate() {
        if k > 0 {
            out.push('`');
        }
        // Odd parts are inside backticks.
        if k % 2 == 1 && part.contains('\n') {
            out.push_str(part.lines().next().unwrap_or("").trim_end());
            out.push_str(" ...");
        } else {
            out.push_str(&part.replace('\n', " "));
        }
    }
    out
}

/// Inputs nesting at most this deep (brackets or operator chains) run on the caller's stack.
const SHALLOW_INPUT: usize = 32;

/// The stack of the thread that runs deeper inputs (touched only as deep as needed).
const DEEP_STACK_BYTES: usize = 256 << 20;

/// Output of a run on another thread: chunks for stdout (`false`) and stderr (`true`), in
/// the order they were written.
#[derive(Default)]
struct Log {
    chunks: std::sync::Arc<std::sync::Mutex<Vec<(bool, Vec<u8>)>>>,
}

struct LogWriter {
    chunks: std::sync::Arc<std::sync::Mutex<Vec<(bool, Vec<u8>)>>>,
    is_err: bool,
}

impl Log {
    fn writer(&mut self, is_err: bool) -> LogWriter {
        LogWriter { chunks: self.chunks.clone(), is_err }
    }

    fn replay(self, out: &mut dyn Write, err: &mut dyn Write) {
        let chunks = match self.chunks.lock() {
            Ok(mut c) => std::mem::take(&mut *c),
            Err(p) => std::mem::take(&mut *p.into_inner()),
        };
        for (is_err, bytes) in chunks {
            if is_err {
                let _ = out.flush();
                let _ = err.write_all(&bytes);
                let _ = err.flush();
            } else {
                let _ = out.write_all(&bytes);
            }
        }
        let _ = out.flush();
    }
}

impl Write for LogWriter {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut c) = self.chunks.lock() {
            match c.last_mut() {
                Some((e, v)) if *e == self.is_err => v.extend_from_slice(b),
                _ => c.push((self.is_err, b.to_vec())),
            }
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Write `text` (and a final newline, as on stdout) to the file `path` whole or not at all: into
/// a new temporary file in the same folder, then renamed over `path`.
fn write_file(path: &str, text: &str) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind as K};
    let target = std::path::Path::new(path);
    let name = target.file_name().ok_or_else(|| Error::new(K::InvalidInput, "not a file name"))?;
    if std::fs::metadata(target).is_ok_and(|m| m.is_dir()) {
        return Err(Error::new(K::IsADirectory, "is a directory"));
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    // Unique per process and per write (threads of one process may write the same path).
    static SERIAL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    tmp_name.push(format!(".{}.{serial}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let written = (|| {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(text.as_bytes())?;
        if !text.ends_with('\n') {
            f.write_all(b"\n")?;
        }
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Write a diagnostic on `err`, after flushing `out` so that the two streams interleave in
/// order on a terminal.
fn emit(out: &mut dyn Write, err: &mut dyn Write, text: &str) {
    let _ = out.flush();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: &mut Session, src: &str) -> (Outcome, String, String) {
        let (mut o, mut e) = (Vec::new(), Vec::new());
        let r = s.run(src, "t", &mut o, &mut e);
        (r, String::from_utf8(o).unwrap(), String::from_utf8(e).unwrap())
    }

    #[test]
    fn values_to_out_diagnostics_to_err() {
        let mut s = Session::new(Options::default());
        let (r, o, e) = run(&mut s, "x = (2,_3)\nx; nosuch; x");
        assert_eq!((r, o.as_str()), (Outcome::Failed, "(2,_3)\n"));
        assert!(e.starts_with("error: unknown name: 'nosuch'\n --> t:2:4\n"), "{e}");
        assert_eq!(s.stats, Stats { passed: 0, failed: 1, parse_errors: 0 });
        let (r, o, e) = run(&mut s, "(1,");
        assert_eq!((r, o.as_str()), (Outcome::ParseError, ""));
        assert!(e.starts_with("error: "));
        assert_eq!(Outcome::ParseError.exit_code(), 2);
    }

    #[test]
    fn an_input_that_does_not_parse_runs_nothing() {
        // Statements run as they are parsed; a parse error further on undoes them.
        let mut s = Session::new(Options::default());
        assert_eq!(run(&mut s, "x = 1").0, Outcome::Ok);
        let (r, o, e) = run(&mut s, "x = 2; y = 3; x; nosuch; y = 1 +");
        assert_eq!((r, o.as_str()), (Outcome::ParseError, ""));
        assert!(
            e.starts_with(
                "error: expected an integer, a tuple or a layout after '+', found end of input\n --> t:1:33\n"
            ),
            "{e}"
        );
        assert_eq!(s.stats, Stats { passed: 0, failed: 1, parse_errors: 1 });
        assert_eq!(run(&mut s, "x").1, "1\n");
        assert!(run(&mut s, "y").2.starts_with("error: unknown name: 'y'"));
        // A syntax error further on wins over an integer out of range before it.
        let (r, _, e) = run(&mut s, "x = 5\n99999999999999999999\n(1,2) +");
        assert_eq!(r, Outcome::ParseError);
        assert!(e.contains(" --> t:3:8\n"), "{e}");
        let (r, _, e) = run(&mut s, "x = 5\n99999999999999999999\n(1,2)");
        assert_eq!(r, Outcome::ParseError);
        assert!(e.starts_with("error: integer literal 99999999999999999999 does not fit"), "{e}");
        assert_eq!(run(&mut s, "x").1, "1\n");
        assert_eq!(s.script(), "x = 1\nx\nx\n");
        // The REPL's last value is restored too.
        let mut s = Session::new(Options { repl: true, keep_going: true, ..Options::default() });
        run(&mut s, "(_2,4)");
        let (r, o, _) = run(&mut s, "(8,8); assert 1; assert 0; 1 +");
        assert_eq!((r, o.as_str()), (Outcome::ParseError, ""));
        assert_eq!(s.stats, Stats { passed: 0, failed: 1, parse_errors: 1 });
        assert_eq!(run(&mut s, "_").1, "(_2,4)\n");
    }

    #[test]
    fn keep_going_counts_and_accepted_inputs() {
        let mut s = Session::new(Options { keep_going: true, ..Options::default() });
        let (r, o, _) = run(&mut s, "assert 1; assert 0; assert (1,_2) == (_1,2); 5");
        assert_eq!((r, o.as_str()), (Outcome::Failed, "5\n"));
        assert_eq!((s.stats.passed, s.stats.failed), (2, 1));
        run(&mut s, "a = 1");
        run(&mut s, "b = nosuch");
        run(&mut s, "c = a");
        run(&mut s, " _ ");
        // (a piped script's piece starts with new lines for its line numbers: not kept)
        run(&mut s, "\n\n\nd = 2");
        assert_eq!(s.script(), "a = 1\nc = a\nlast\nd = 2\n");
        s.reset();
        assert_eq!(s.script(), "");
        assert_eq!(s.interp().bindings().count(), 0);
    }

    #[test]
    fn forgotten_inputs_are_not_kept_and_change_nothing_else() {
        // (what `cute FILE` and `cute -e` run with: the same values, bindings and counts)
        let src = "a = (2,_4):(_1,2)\nassert size(a) == 8\ncoalesce(a)\nlast";
        let mut kept = Session::new(Options { keep_going: true, ..Options::default() });
        let mut forgot = Session::new(Options { keep_going: true, forget_inputs: true, ..Options::default() });
        assert_eq!(run(&mut kept, src), run(&mut forgot, src));
        assert_eq!(kept.stats, forgot.stats);
        assert_eq!(kept.interp().bindings().count(), forgot.interp().bindings().count());
        assert!(!kept.script().is_empty());
        assert_eq!(forgot.script(), "");
    }

    #[test]
    fn multi_line_values_in_errors() {
        assert_eq!(one_line("got `Copy_Atom\n  ThrID: _32:_1`; use x"), "got `Copy_Atom ...`; use x");
        assert_eq!(one_line("a\nb `c`"), "a b `c`");
        let mut s = Session::new(Options::default());
        let (_, _, e) = run(&mut s, "A = copy_atom(SM75_U32x4_LDSM_N, half_t); A:_2");
        assert!(e.starts_with("error: type mismatch: the shape of `S:D` must be an integer or a tuple, got a copy atom `Copy_Atom ...`\n"), "{e}");
    }

    #[test]
    fn repl_underscore_and_colour() {
        let mut s = Session::new(Options { repl: true, color_values: true, ..Options::default() });
        run(&mut s, "(_2,4)");
        let (_, o, _) = run(&mut s, "_");
        assert!(o.contains("\x1b[") && o.contains("_2") && o.contains(",4)"), "{o:?}");
        s.opts.color_values = false;
        assert_eq!(run(&mut s, "last").1, "(_2,4)\n");
    }

    #[test]
    fn repl_says_what_underscore_means_inside_an_expression() {
        let mut s = Session::new(Options { repl: true, ..Options::default() });
        run(&mut s, "(4,2):(1,4)");
        // CuTe's answer (`coalesce(_)` is `_`), and a note on stderr
        let (_, o, e) = run(&mut s, "coalesce( _ )");
        assert_eq!(o, "_\n");
        assert!(
            e.starts_with(
                "warning: `_` inside an expression is CuTe's Underscore, not the last value; write `last` for that"
            ),
            "{e}"
        );
        // slicing with `_` and a bare `_` are what they look like: no note
        let (_, _, e) = run(&mut s, "A = (4,2):(1,4); A(_,1)");
        assert_eq!(e, "");
        let (_, _, e) = run(&mut s, "_");
        assert_eq!(e, "");
        // scripts have no last value: no note
        let mut s = Session::new(Options::default());
        assert_eq!(run(&mut s, "size(_)").2, "");
    }
}
