//! A session: bindings, the inputs it accepted, options, and one `run(source, origin)` used by
//! the REPL, scripts, `-e`, doctests and tests. Values go to one writer (stdout), diagnostics
//! (errors, warnings, failed asserts) to another (stderr).
//! May import: `parser`, `eval::interp` (and the value/error types), `diagnostic`.

use crate::diagnostic::{paint_value, Diagnostic};
use crate::eval::error::take_warnings;
use crate::eval::interp::{Failure, Interp, Located, Produced};
use crate::parser;
use std::io::Write;

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
}

impl Session {
    pub fn new(opts: Options) -> Session {
        let mut interp = Interp::new();
        interp.repl = opts.repl;
        Session { interp, opts, accepted: Vec::new(), stats: Stats::default() }
    }

    pub fn interp(&self) -> &Interp {
        &self.interp
    }

    /// Inputs that ran without an error, in order (`:save` writes them).
    pub fn accepted(&self) -> &[String] {
        &self.accepted
    }

    /// The accepted inputs as a `.cute` script.
    pub fn script(&self) -> String {
        let mut s = String::new();
        for a in &self.accepted {
            s.push_str(a.trim_end_matches('\n'));
            s.push('\n');
        }
        s
    }

    /// Forget bindings, the last value and the accepted inputs (statistics are kept).
    pub fn reset(&mut self) {
        self.interp.reset();
        self.accepted.clear();
    }

    /// Parse and run `source` (named `origin` in messages: a file name, `-e`, `<repl>`).
    /// Values are written to `out`, diagnostics to `err`. Write errors (a closed pipe) are
    /// ignored.
    pub fn run(&mut self, source: &str, origin: &str, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
        self.interp.repl = self.opts.repl;
        let program = match parser::parse(source) {
            Ok(p) => p,
            Err(pe) => {
                self.stats.parse_errors += 1;
                self.stats.failed += 1;
                let d = Diagnostic::error(pe.message.clone(), Some(pe.span));
                emit(out, err, &d.render(origin, source, self.opts.color_diagnostics));
                return Outcome::ParseError;
            }
        };
        let mut outcome = Outcome::Ok;
        for stmt in &program.stmts {
            let _ = take_warnings();
            let r = self.interp.exec(stmt);
            let warnings = take_warnings();
            match &r {
                Ok(Produced::Value(v)) => {
                    let _ = writeln!(out, "{}", paint_value(&v.to_string(), self.opts.color_values));
                }
                Ok(Produced::Text(t)) => {
                    let _ = out.write_all(t.as_bytes());
                    if !t.ends_with('\n') {
                        let _ = out.write_all(b"\n");
                    }
                }
                Ok(Produced::AssertPassed) => self.stats.passed += 1,
                Ok(Produced::Nothing) => {}
                Err(_) => {}
            }
            for w in warnings {
                let d = Diagnostic::warning(w, Some(stmt.span));
                emit(out, err, &d.render(origin, source, self.opts.color_diagnostics));
            }
            if let Err(f) = r {
                self.stats.failed += 1;
                outcome = Outcome::Failed;
                let d = self.failure_diagnostic(&f, source);
                emit(out, err, &d.render(origin, source, self.opts.color_diagnostics));
                if !self.opts.keep_going {
                    break;
                }
            }
        }
        let _ = out.flush();
        if outcome == Outcome::Ok {
            self.accepted.push(source.to_string());
        }
        outcome
    }

    fn failure_diagnostic(&self, f: &Failure, source: &str) -> Diagnostic {
        let text = |sp: crate::parser::ast::Span| source.get(sp.start..sp.end).unwrap_or("").trim().to_string();
        let c = self.opts.color_diagnostics;
        match f {
            Failure::Error(Located { error, span, help }) => {
                let mut d = Diagnostic::error(error.to_string(), Some(*span));
                d.help = help.clone();
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
                d
            }
        }
    }
}

/// Write a diagnostic on `err`, after flushing `out` so that the two streams interleave in
/// order on a terminal.
fn emit(out: &mut dyn Write, err: &mut dyn Write, text: &str) {
    let _ = out.flush();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

/// Markdown doctests: every fenced ```` ```cute ```` block, in which lines starting with
/// `cute> ` are inputs and the lines up to the next input or the closing fence are the
/// expected output.
///
/// Policy: one session per file (bindings carry from block to block), REPL rules (a lone `_`
/// is the last value), no colour. The output compared is what the REPL shows: values (stdout)
/// and diagnostics (stderr), in the order they are written, with diagnostics naming the
/// source `<repl>`. Trailing blank lines of the expected and the actual output are ignored;
/// everything else is compared byte for byte. An input continues on the following lines while
/// it is incomplete (open brackets, trailing `\`).
pub mod doctest {
    use super::{Options, Session};

    /// One example: where its input starts (1-based line), the input, the expected output.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Example {
        pub line: usize,
        pub input: String,
        pub expected: String,
    }

    /// The examples of a Markdown text.
    pub fn examples(md: &str) -> Vec<Example> {
        let lines: Vec<&str> = md.lines().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let t = lines[i].trim_start();
            let fence = t.chars().take_while(|&c| c == '`' || c == '~').count();
            if fence >= 3 && t[fence..].trim().split([' ', ',', '{']).next() == Some("cute") {
                let marker = &t[..fence];
                i += 1;
                let mut cur: Option<Example> = None;
                while i < lines.len() && !lines[i].trim_start().starts_with(marker) {
                    let l = lines[i];
                    if let Some(input) = l.strip_prefix("cute> ").or_else(|| (l == "cute>").then_some("")) {
                        if let Some(e) = cur.take() {
                            out.push(e);
                        }
                        let mut ex = Example { line: i + 1, input: input.to_string(), expected: String::new() };
                        // Continuation lines of an incomplete input.
                        while super::parser::is_incomplete(&ex.input)
                            && i + 1 < lines.len()
                            && !lines[i + 1].trim_start().starts_with(marker)
                            && !lines[i + 1].starts_with("cute> ")
                        {
                            i += 1;
                            ex.input.push('\n');
                            ex.input.push_str(lines[i]);
                        }
                        cur = Some(ex);
                    } else if let Some(e) = cur.as_mut() {
                        e.expected.push_str(l);
                        e.expected.push('\n');
                    }
                    i += 1;
                }
                if let Some(e) = cur.take() {
                    out.push(e);
                }
            }
            i += 1;
        }
        out
    }

    fn trim_trailing_blank(s: &str) -> &str {
        let t = s.trim_end_matches(['\n', ' ', '\t', '\r']);
        // keep the final newline of the last non-blank line
        &s[..t.len()]
    }

    /// Check one Markdown file; failures are reported on `report` as `file:line` plus a diff.
    /// Returns (passed, failed).
    pub fn check(name: &str, md: &str, report: &mut dyn std::io::Write) -> (usize, usize) {
        let mut session = Session::new(Options { repl: true, ..Options::default() });
        let (mut passed, mut failed) = (0, 0);
        for ex in examples(md) {
            // One buffer for both streams keeps their order.
            let buf = std::cell::RefCell::new(Vec::new());
            session.run(&ex.input, "<repl>", &mut Shared(&buf), &mut Shared(&buf));
            let buf = buf.into_inner();
            let got = String::from_utf8_lossy(&buf).into_owned();
            if trim_trailing_blank(&got) == trim_trailing_blank(&ex.expected) {
                passed += 1;
            } else {
                failed += 1;
                let _ = writeln!(report, "{name}:{}: cute> {}", ex.line, ex.input.replace('\n', "\n      "));
                let _ = writeln!(report, "{}", diff(trim_trailing_blank(&ex.expected), trim_trailing_blank(&got)));
            }
        }
        (passed, failed)
    }

    use std::io::Write;

    /// A writer that appends to a shared buffer.
    struct Shared<'a>(&'a std::cell::RefCell<Vec<u8>>);
    impl Write for Shared<'_> {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A line diff: `-` expected lines, `+` actual lines, ` ` common ones (LCS).
    pub fn diff(expected: &str, got: &str) -> String {
        let a: Vec<&str> = expected.lines().collect();
        let b: Vec<&str> = got.lines().collect();
        let (n, m) = (a.len(), b.len());
        let mut out = String::new();
        if n * m > 1_000_000 {
            for l in &a {
                out.push_str(&format!("-{l}\n"));
            }
            for l in &b {
                out.push_str(&format!("+{l}\n"));
            }
            return out;
        }
        let mut lcs = vec![vec![0usize; m + 1]; n + 1];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && a[i] == b[j] {
                out.push_str(&format!(" {}\n", a[i]));
                i += 1;
                j += 1;
            } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
                out.push_str(&format!("-{}\n", a[i]));
                i += 1;
            } else {
                out.push_str(&format!("+{}\n", b[j]));
                j += 1;
            }
        }
        if out.is_empty() {
            out.push_str("(both empty)\n");
        }
        out
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn finds_examples() {
            let md = "text\n```cute\ncute> a = 1\ncute> a\n1\n\ncute> b\nerror: x\n```\n```rust\ncute> no\n```\n~~~cute\ncute> c\n~~~\n";
            let ex = examples(md);
            assert_eq!(ex.len(), 4);
            assert_eq!(ex[0], Example { line: 3, input: "a = 1".into(), expected: "".into() });
            assert_eq!(ex[1], Example { line: 4, input: "a".into(), expected: "1\n\n".into() });
            assert_eq!(ex[2].expected, "error: x\n");
            assert_eq!(ex[3].line, 14);
        }

        #[test]
        fn diffs() {
            assert_eq!(diff("a\nb\nc", "a\nx\nc"), " a\n-b\n+x\n c\n");
        }
    }
}
