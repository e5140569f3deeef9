//! The real `cute` binary: `-e`, files, stdin, exit codes, `--keep-going`, failed asserts,
//! `--help`/`--version`, colour policy, and the golden stderr files of `tests/errors/`.
//!
//! `CUTE_BLESS=1 cargo test --test cli` rewrites the `.stderr` files of `tests/errors/` from the
//! current output — read every changed file before committing it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn cute_env(args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Run {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cute"));
    c.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    c.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().expect("run cute");
    {
        let mut i = child.stdin.take().expect("stdin");
        if let Some(s) = stdin {
            i.write_all(s.as_bytes()).expect("write stdin");
        }
    }
    let o = child.wait_with_output().expect("wait");
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn cute(args: &[&str]) -> Run {
    cute_env(args, None, &[])
}

/// A fresh temporary file with `text`.
fn temp_file(name: &str, text: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir =
        std::env::temp_dir().join(format!("cute-cli-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write temp file");
    p
}

fn has_escape(s: &str) -> bool {
    s.contains('\x1b')
}

#[test]
fn eval_prints_each_expression_statement() {
    let r = cute(&["-e", "A = (2,4):(1,2); A; (_2,3); <_,3:1>; 3 + _4"]);
    assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (0, "(2,4):(1,2)\n(_2,3)\n(_,3:1)\n7\n", ""));
}

#[test]
fn several_e_share_one_session() {
    let r = cute(&["-e", "x = _3", "-e", "x * 2"]);
    assert_eq!((r.code, r.out.as_str()), (0, "6\n"));
}

#[test]
fn negative_literal_after_e() {
    let r = cute(&["-e", "-3"]);
    assert_eq!((r.code, r.out.as_str()), (0, "-3\n"));
}

#[test]
fn scripts_and_stdin() {
    let f = temp_file("a.cute", "# comment\nA = (2,4):(1,2)\nA\nB = (2,\n     3)\nB\n");
    let r = cute(&[f.to_str().unwrap()]);
    assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (0, "(2,4):(1,2)\n(2,3)\n", ""));
    // `-` and piped stdin without arguments
    let r = cute_env(&["-"], Some("x = 5\nx\n"), &[]);
    assert_eq!((r.code, r.out.as_str()), (0, "5\n"));
    let r = cute_env(&[], Some("(_1,_2)\n"), &[]);
    assert_eq!((r.code, r.out.as_str()), (0, "(_1,_2)\n"));
    // -e runs before the files, in the same session
    let g = temp_file("b.cute", "y + 1\n");
    let r = cute(&["-e", "y = 1", g.to_str().unwrap()]);
    assert_eq!((r.code, r.out.as_str()), (0, "2\n"));
}

/// A script large enough to be mapped from its file (`cute::source::MAP_AT_LEAST`) runs as it
/// does read from standard input: the same values, warnings, errors and positions.
#[test]
fn large_scripts_run_as_small_ones() {
    let n = (cute::source::MAP_AT_LEAST as usize) / 20 + 100;
    let mut text = String::from("# many lines\nA = (_2,_4):(_1,_2)\n");
    for k in 0..n {
        text.push_str(&format!("coalesce((_{},_4):(_1,_{}))\n", 1 << (k % 4), 1 << (k % 4)));
    }
    text.push_str("assert coalesce(A) == _8:_1\ncomposition((_4,_4):(_1,_8), (_2,_3):(_3,_1))\nnosuchfn(1)\n");
    assert!(text.len() as u64 >= cute::source::MAP_AT_LEAST);
    let f = temp_file("large.cute", &text);
    let by_file = cute(&["--keep-going", f.to_str().unwrap()]);
    let by_stdin = cute_env(&["--keep-going", "-"], Some(&text), &[]);
    assert_eq!(by_file.code, by_stdin.code);
    assert_eq!(by_file.out, by_stdin.out);
    assert_eq!(by_file.err.replace(f.to_str().unwrap(), "<stdin>"), by_stdin.err);
    // what the last lines make: a value of each of the first lines, the assert, a warning and
    // an error at the last line (the values are CuTe's, from ../shared/oracle/cute-oracle:
    // `_4:_1`, `_8:_1` and `(_2,_3):(_3,_1)`)
    assert!(by_file.out.starts_with("_4:_1\n_8:_1\n"), "{}", &by_file.out[..40]);
    assert!(by_file.out.ends_with("(_2,_3):(_3,_1)\n1 passed, 1 failed\n"), "{}", by_file.out);
    assert!(by_file.err.contains(&format!("large.cute:{}:1", n + 4)), "{}", by_file.err);
    assert!(by_file.err.contains(&format!("large.cute:{}:1", n + 5)), "{}", by_file.err);
    // Not UTF-8, near its end: positioned at the bad byte, as a small file is.
    let mut bytes = text.into_bytes();
    bytes.extend_from_slice(b"B = (2,\xff3)\n");
    let g = temp_file("large-latin1.cute", "");
    std::fs::write(&g, &bytes).expect("write");
    let r = cute(&[g.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(r.err.contains("invalid UTF-8") && r.err.contains(&format!("large-latin1.cute:{}:8", n + 6)), "{}", r.err);
}

#[test]
fn exit_codes() {
    assert_eq!(cute(&["-e", "1"]).code, 0);
    // evaluation error: exit 1, stops at the first error
    let r = cute(&["-e", "1; nosuchname; 2"]);
    assert_eq!((r.code, r.out.as_str()), (1, "1\n"));
    assert!(r.err.starts_with("error: unknown name: 'nosuchname'\n --> -e:1:4\n"), "{}", r.err);
    // parse error: exit 2, nothing runs
    let r = cute(&["-e", "1; (2,3"]);
    assert_eq!((r.code, r.out.as_str()), (2, ""));
    assert!(r.err.starts_with("error: "), "{}", r.err);
    // bad usage
    assert_eq!(cute(&["--color", "sometimes", "-e", "1"]).code, 2);
    assert_eq!(cute(&["--no-such-flag"]).code, 2);
    let r = cute(&["/nonexistent/x.cute"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("cannot read /nonexistent/x.cute"));
    // the first failing file stops the run
    let bad = temp_file("bad.cute", "assert 0\n");
    let good = temp_file("good.cute", "7\n");
    let r = cute(&[bad.to_str().unwrap(), good.to_str().unwrap()]);
    assert_eq!((r.code, r.out.as_str()), (1, ""));
}

#[test]
fn failed_assert_shows_location_source_and_values() {
    let f = temp_file("t.cute", "L = (2,4):(1,2)\nassert L == (_2,_4):(_1,_2)\n  assert L == (2,4):(1,4)\nL\n");
    let r = cute(&[f.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert_eq!(r.out, "");
    let name = f.to_str().unwrap();
    assert_eq!(
        r.err,
        format!(
            "error: assertion failed: L == (2,4):(1,4)\n --> {name}:3:10\n  |\n3 |   assert L == (2,4):(1,4)\n  |          ^^^^^^^^^^^^^^^^\n  = left:  (2,4):(1,2)\n  = right: (2,4):(1,4)\n"
        )
    );
    let r = cute(&["-e", "assert 0"]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("assertion failed: 0") && r.err.contains("= value: 0"), "{}", r.err);
}

#[test]
fn keep_going_counts_asserts() {
    let f = temp_file("k.cute", "assert 1\nassert 0\nassert 8 == _8\nnosuch\nassert identical(8, _8)\n3\n");
    let r = cute(&["--keep-going", f.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert_eq!(r.out, "3\n2 passed, 3 failed\n");
    assert_eq!(r.err.matches("error:").count(), 3, "{}", r.err);
    let r = cute(&["--keep-going", "-e", "assert 1; assert _2 == 2"]);
    assert_eq!((r.code, r.out.as_str()), (0, "2 passed, 0 failed\n"));
}

#[test]
fn identical_and_loose_equality() {
    let r = cute(&["-e", "identical(8, _8); identical((_2,3), (_2,3)); assert (8,_2) == (_8,2)"]);
    assert_eq!((r.code, r.out.as_str()), (0, "_0\n_1\n"));
}

#[test]
fn equivalent_compares_functions() {
    let r = cute(&[
        "-e",
        "equivalent((_2,_4):(_1,_2), _8:_1); equivalent((2,4):(1,2), (2,4):(4,1)); equivalent((2,4), 8:1)",
    ]);
    assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (0, "_1\n_0\n_1\n", ""));
    let r = cute(&["-e", "equivalent((4096,8192):(1,4096), 33554432:1)"]);
    assert_eq!(r.code, 1);
    assert!(r.err.starts_with("error: too large: equivalent compares at most 16777216 indices"), "{}", r.err);
}

#[test]
fn warnings_go_to_stderr_with_the_location() {
    // CuTe prints this composition although it is not A∘B at every index.
    let r = cute(&["-e", "x = 1\n(_4,_6):(_2,_16) o _4:_3"]);
    assert_eq!((r.code, r.out.as_str()), (0, "(_2,_2):(_6,_16)\n"));
    assert!(r.err.starts_with("warning: ") && r.err.contains(" --> -e:2:1\n"), "{}", r.err);
}

#[test]
fn printed_text_cannot_be_bound() {
    let r = cute(&["-e", "x = print_layout((2,2):(1,2))"]);
    assert_eq!(r.code, 1);
    if cute::registry::exists("print_layout") {
        assert!(r.err.contains("cannot be bound to printed text"), "{}", r.err);
        let r = cute(&["-e", "size(print_layout((2,2):(1,2)))"]);
        assert!(r.code == 1 && r.err.contains("cannot be used as a value"), "{}", r.err);
    }
}

#[test]
fn help_and_version() {
    let r = cute(&["--version"]);
    assert_eq!((r.code, r.out.trim()), (0, concat!("cute ", env!("CARGO_PKG_VERSION"))));
    let r = cute(&["--help"]);
    assert_eq!(r.code, 0);
    for w in ["--eval", "--keep-going", "--color", "--doctest", "Exit status"] {
        assert!(r.out.contains(w), "--help lacks {w}");
    }
}

#[test]
fn colour_policy() {
    // Not a terminal: never colour, whatever else.
    let r = cute_env(&["-e", "(_2,4); nosuch"], None, &[("TERM", "xterm-256color")]);
    assert!(!has_escape(&r.out) && !has_escape(&r.err));
    let r = cute_env(&["--color", "never", "-e", "(_2,4); nosuch"], None, &[("CLICOLOR_FORCE", "1")]);
    assert!(!has_escape(&r.out) && !has_escape(&r.err));
    let r = cute_env(&["-e", "(_2,4); nosuch"], None, &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]);
    assert!(!has_escape(&r.out) && !has_escape(&r.err));
    // Forced.
    let r = cute(&["--color", "always", "-e", "(_2,4); nosuch"]);
    assert!(has_escape(&r.out) && has_escape(&r.err));
    assert!(r.out.contains("\x1b[36m_2\x1b[0m"), "static integers are cyan: {:?}", r.out);
}

#[test]
fn deep_nesting_and_long_lines_are_refused_quickly() {
    let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    let t = std::time::Instant::now();
    let r = cute_env(&["-"], Some(&deep), &[]);
    assert_eq!(r.code, 2);
    assert!(t.elapsed().as_secs() < 10);
    // The source line is shown as a window, not 200k characters.
    assert!(r.err.len() < 2000, "{}", r.err.len());
}

// ---------------------------------------------------------------------------------------------
// Golden stderr files: tests/errors/<phase>/<name>.cute → <name>.stderr; exit 2 for parse/,
// exit 1 for eval/. Paths are given relative to the crate root, as they appear in messages.

fn golden_dir(phase: &str, code: i32) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("tests/errors").join(phase);
    let bless = std::env::var_os("CUTE_BLESS").is_some_and(|v| v == "1");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/errors dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cute"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for f in files {
        // `# needs: a, b` on a leading comment line: skipped until those built-ins exist.
        let text = std::fs::read_to_string(&f).expect("read .cute");
        let missing: Vec<&str> = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .filter_map(|l| l.strip_prefix("# needs:"))
            .flat_map(|l| l.split(',').map(str::trim))
            .filter(|n| !n.is_empty() && !cute::registry::exists(n))
            .collect();
        if !missing.is_empty() {
            eprintln!("skipping {}: needs {}", f.display(), missing.join(", "));
            continue;
        }
        let rel = format!("tests/errors/{phase}/{}", f.file_name().unwrap().to_string_lossy());
        let mut c = Command::new(env!("CARGO_BIN_EXE_cute"));
        c.current_dir(root).arg(&rel).env_remove("NO_COLOR").env_remove("CUTE_PRINT_LIMIT").stdin(Stdio::null());
        let o = c.output().expect("run cute");
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        let expected_path = f.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &err).expect("bless");
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        let got_code = o.status.code().unwrap_or(-1);
        if got_code != code || err != expected {
            failures.push(format!("{rel}: exit {got_code} (want {code})\n--- expected\n{expected}--- got\n{err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn golden_parse_errors() {
    golden_dir("parse", 2);
}

#[test]
fn golden_eval_errors() {
    golden_dir("eval", 1);
}

/// Issue 10: `--echo` shows each statement before its value, with the script's comments.
#[test]
fn echo_labels_each_statement() {
    let p = temp_file(
        "echo.cute",
        "# the rest of 24\ncomplement((_2,_2):(_1,_6), _24)\nA = _4:_1\n\nassert size(A) == 4\n",
    );
    let r = cute(&["--echo", p.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        r.out,
        "# the rest of 24\ncomplement((_2,_2):(_1,_6), _24)  =>  (_3,_2):(_2,_12)\nA = _4:_1\n\nassert size(A) == 4  =>  holds\n"
    );
}

/// Issue 10: a warning marked `# expect warning` is said to be expected; a mark without a
/// warning fails.
#[test]
fn expected_warnings_are_marked() {
    let p = temp_file(
        "w.cute",
        "R = (4,8):(8,1) o 6   # expect warning\n# expect warning: not A o B\nS = (4,8):(8,1) o 6\n",
    );
    let r = cute(&[p.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.err.matches("warning (expected): composition is not A∘B").count(), 2, "{}", r.err);
    assert!(!r.err.contains("\nwarning:") && !r.err.starts_with("warning:"), "{}", r.err);
    let r = cute(&["-e", "x = 1  # expect warning"]);
    assert_eq!(r.code, 1);
    assert!(
        r.err.starts_with("error: expected a warning: this statement is marked `# expect warning` but gave none"),
        "{}",
        r.err
    );
    // composition.cute's CuTe-is-not-A∘B case is marked
    let r = cute(&[concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/composition.cute")]);
    assert_eq!(r.code, 0);
    assert!(r.err.starts_with("warning (expected): "), "{}", r.err);
}

/// Issue 10: failed `identical` / `equivalent` asserts show both sides and why.
#[test]
fn failed_asserts_say_why() {
    let r = cute(&["-k", "-e", "A = (_2,_4):(_1,_2)\nassert identical(size(A), 8)\nassert equivalent(A, (2,4):(1,3))\nassert equivalent(A, 6:1)"]);
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains("  = left:  _8\n  = right: 8\n  = equal values, but _8 is static and 8 is dynamic"),
        "{}",
        r.err
    );
    assert!(r.err.contains("  = first difference at index 2: left(2) = 2, right(2) = 3\n"), "{}", r.err);
    assert!(r.err.contains("  = the sizes differ: 8 and 6\n"), "{}", r.err);
}

/// Issue 10: one warning once, even when `explain` evaluates the composition several times.
#[test]
fn explain_warns_once() {
    let r = cute(&["-e", "explain (_4,_6):(_2,_16) o _4:_3"]);
    assert_eq!(r.code, 0);
    assert_eq!(r.err.matches("warning:").count(), 1, "{}", r.err);
}

/// Issue 10: `emit gemm 4096 4096` says what the statement takes.
#[test]
fn gemm_with_two_sizes_says_it_needs_three() {
    let r = cute(&["-e", "emit gemm 4096 4096"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err.contains("= help: `emit gemm` takes the three sizes first: `emit gemm M N K [key=value ...]`"),
        "{}",
        r.err
    );
}

/// Issue 10: REPL commands work when `cute` reads a pipe; line numbers stay those of the input.
#[test]
fn help_through_a_pipe() {
    let r = cute_env(&[], Some("x = 2\n:help atoms\nx\n:help make_tiled_copy\nnosuch\n"), &[]);
    assert_eq!(r.code, 1);
    assert!(r.out.contains("SM80_16x8x16_F32F16F16F32_TN") && r.out.contains("(_16,_8,_16)"), "{}", r.out);
    assert!(r.out.contains("\n2\n") && r.out.contains("SM75_U32x4_LDSM_N"), "{}", r.out);
    assert!(r.err.contains(" --> <stdin>:5:1\n"), "{}", r.err);
}

/// Issue 10: the REPL's words work through a pipe too (`help(f)`, `?f`, `f?`, `help`, `exit`);
/// a name the script binds stays that name; `exit` ends the script.
#[test]
fn words_through_a_pipe() {
    let r = cute_env(&[], Some("help(size)\n?coalesce\nrank?\nhelp = 3\nhelp\nexit\nnosuch\n"), &[]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("size<I...>(x)") && r.out.contains("coalesce(L [, profile])") && r.out.contains("rank<I...>(x)"),
        "{}",
        r.out
    );
    assert!(r.out.ends_with("\n3\n"), "{}", r.out);
    assert!(r.err.is_empty(), "{}", r.err);
}

/// A line that looks like a command inside open brackets is part of the statement; a long
/// script reads the same through a pipe as from a file (each line is no longer checked against
/// everything before it: 20,000 lines took 23 s through a pipe).
#[test]
fn pipes_read_like_files() {
    let r = cute_env(&[], Some("help = 5\nx = (1,\nhelp\n)\nx\n"), &[]);
    assert_eq!((r.code, r.out.as_str()), (0, "(1,5)\n"), "{}", r.err);
    // The pieces between commands give the lines of the whole input.
    let r = cute_env(&["--keep-going"], Some("x = 2\n:vars\n\n(1,2) +\n:vars\nassert 1 == 2\n"), &[]);
    assert!(r.err.contains(" --> <stdin>:4:8\n") && r.err.contains(" --> <stdin>:6:8\n"), "{}", r.err);
    let script: String =
        (0..3000).map(|k| format!("coalesce(({},{}):(1,{}))\n", k % 7 + 1, k % 5 + 1, k % 7 + 1)).collect();
    let file = temp_file("s.cute", &script);
    let from_file = cute(&[file.to_str().unwrap()]);
    let piped = cute_env(&[], Some(&script), &[]);
    assert_eq!((piped.code, &piped.out, &piped.err), (from_file.code, &from_file.out, &from_file.err));
    assert_eq!(piped.out.lines().count(), 3000);
}

/// Issue 10: print_svg of a rank-3 layout names print_svg, not print_latex.
#[test]
fn print_svg_names_itself() {
    let r = cute(&["-e", "print_svg((2,2,2):(1,2,4))"]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("print_svg needs a layout of rank at most 2"), "{}", r.err);
}

#[test]
fn bench_reports_each_file_and_refuses_bad_arguments() {
    // (what `cute bench` reports, not how fast: timings are for BENCHMARKS.md, never asserted)
    let f = temp_file("bench.cute", "coalesce((_2,_4):(_1,_2))\ncomplement(_4:_2, _16)\n");
    let r = cute(&["bench", "--reps", "1", f.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.err);
    let lines: Vec<&str> = r.out.lines().collect();
    assert_eq!(lines.len(), 2, "a header and one row: {}", r.out);
    assert!(lines[0].starts_with("file") && lines[0].contains("engine op/s"), "{}", lines[0]);
    let row: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(row[0], f.file_name().unwrap().to_str().unwrap());
    assert_eq!(row[1], "2", "both lines are timed calls: {}", lines[1]);
    assert!(row[2].parse::<f64>().is_ok_and(|x| x > 0.0), "engine op/s: {}", lines[1]);
    assert_eq!(cute(&["bench"]).code, 2);
    assert_eq!(cute(&["bench", "--reps", "0", f.to_str().unwrap()]).code, 2);
}
