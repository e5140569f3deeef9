//! Hostile inputs against the real `cute` binary (issue 2, "How it will be checked"): every one
//! must end with exit 1 or 2 and a positioned `error:` (`--> origin:line:col`, the line, a
//! caret), never a panic (101), a crash (a signal: stack overflow, abort), or a hang.
//!
//! Also a bounded fuzz loop: golden expressions mutated (tokens deleted, duplicated, swapped,
//! numbers made huge, nesting deepened, chains lengthened, random bytes inserted); any exit
//! other than 0/1/2, a panic message or a run that takes too long fails the test. The default
//! is a few hundred inputs (a few seconds); `CUTE_FUZZ_N=20000 CUTE_FUZZ_SEED=7 cargo test
//! --release --test hostile fuzz` runs a longer campaign and prints the offending inputs.

use std::io::{Read, Write};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A run is a hang when it takes longer than this (the contract says 2 s on an idle machine;
/// the test machine may be busy, so the bound is looser; a real hang never ends).
const HANG: Duration = Duration::from_secs(10);

struct Run {
    code: Option<i32>,
    out: String,
    err: String,
    took: Duration,
}

impl Run {
    fn show(&self) -> String {
        format!("exit {:?} after {:?}\nstdout: {}\nstderr: {}", self.code, self.took, clip(&self.out), clip(&self.err))
    }
}

fn clip(s: &str) -> String {
    if s.len() > 600 {
        let mut end = 600;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}... ({} bytes)", &s[..end], s.len())
    } else {
        s.to_string()
    }
}

/// Run the binary with `args` (and `stdin`), killing it after `HANG`.
fn cute_with(args: &[&std::ffi::OsStr], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Run {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cute"));
    c.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    c.env_remove("NO_COLOR").env_remove("CUTE_MAX_LEAVES").env_remove("CUTE_PRINT_LIMIT");
    for (k, v) in env {
        c.env(k, v);
    }
    let t = Instant::now();
    let mut child = c.spawn().expect("run cute");
    let input = stdin.map(|s| s.to_vec());
    let mut sin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        if let Some(b) = input {
            let _ = sin.write_all(&b);
        }
    });
    let mut sout = child.stdout.take().expect("stdout");
    let mut serr = child.stderr.take().expect("stderr");
    let ro = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = sout.read_to_end(&mut v);
        v
    });
    let re = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = serr.read_to_end(&mut v);
        v
    });
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break Some(s);
        }
        if t.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let took = t.elapsed();
    let _ = writer.join();
    let out = ro.join().unwrap_or_default();
    let err = re.join().unwrap_or_default();
    #[cfg(unix)]
    let code = status.and_then(|s| {
        use std::os::unix::process::ExitStatusExt;
        s.code().or_else(|| s.signal().map(|n| 128 + n))
    });
    #[cfg(not(unix))]
    let code = status.and_then(|s| s.code());
    Run { code, out: String::from_utf8_lossy(&out).into_owned(), err: String::from_utf8_lossy(&err).into_owned(), took }
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

/// `cute -e SRC`, or `cute FILE` holding SRC when it is too long for a command line.
fn cute_e(src: &str) -> Run {
    if src.len() > 60_000 {
        let f = temp_file("long.cute", src.as_bytes());
        return cute_with(&[f.as_os_str()], None, &[]);
    }
    cute_with(&[os("-e"), os(src)], None, &[])
}

fn temp_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d =
        std::env::temp_dir().join(format!("cute-hostile-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let p = temp_dir().join(name);
    std::fs::write(&p, bytes).expect("write temp file");
    p
}

/// Every `error:` / `warning:` block of `err` has a ` --> origin:line:col` line, and the first
/// error is followed by the source line and a caret.
fn positioned(err: &str) -> Result<(), String> {
    if !err.starts_with("error:") && !err.starts_with("warning:") {
        return Err("stderr does not start with error:/warning:".into());
    }
    let mut blocks: Vec<&str> = Vec::new();
    let mut start = 0;
    for (i, _) in err.match_indices('\n') {
        let rest = &err[i + 1..];
        if rest.starts_with("error:") || rest.starts_with("warning:") {
            blocks.push(&err[start..=i]);
            start = i + 1;
        }
    }
    blocks.push(&err[start..]);
    for b in blocks {
        let lines: Vec<&str> = b.lines().collect();
        let Some(k) = lines.iter().position(|l| l.trim_start().starts_with("--> ")) else {
            return Err(format!("no '-->' line in {b:?}"));
        };
        let loc = lines[k].trim_start().trim_start_matches("--> ");
        let mut parts = loc.rsplitn(3, ':');
        let col = parts.next().and_then(|c| c.parse::<usize>().ok());
        let line = parts.next().and_then(|c| c.parse::<usize>().ok());
        if col.is_none() || line.is_none() || parts.next().is_none_or(|o| o.is_empty()) {
            return Err(format!("bad location {loc:?}"));
        }
        if !lines.iter().skip(k).any(|l| l.contains('|') && l.trim_end().ends_with('^')) {
            return Err(format!("no caret line in {b:?}"));
        }
    }
    Ok(())
}

/// The run failed cleanly: exit 1 or 2 (as `code` says, when given), a positioned error, no
/// panic, quickly.
fn assert_refused(what: &str, r: &Run, code: Option<i32>) {
    assert!(matches!(r.code, Some(1) | Some(2)), "{what}: {}", r.show());
    if let Some(c) = code {
        assert_eq!(r.code, Some(c), "{what}: {}", r.show());
    }
    assert!(!r.err.contains("panicked"), "{what}: {}", r.show());
    if let Err(e) = positioned(&r.err) {
        panic!("{what}: {e}\n{}", r.show());
    }
}

fn refused(src: &str, code: i32) {
    let r = cute_e(src);
    assert_refused(&clip(src), &r, Some(code));
}

/// The input is accepted (CuTe prints an answer for it) with this output.
fn accepted(src: &str, out: &str) {
    let r = cute_e(src);
    assert_eq!((r.code, r.out.as_str()), (Some(0), out), "{}: {}", clip(src), r.show());
}

// ------------------------------------------------------------------------------------------------
// Brackets and syntax
// ------------------------------------------------------------------------------------------------

#[test]
fn unbalanced_and_broken_syntax() {
    for src in [
        "((1,2)",
        "(1,2))",
        "<1,2",
        "1,2>",
        "(1,2>",
        "<1,2)",
        ")",
        "(",
        "<",
        ">",
        "f(",
        "f)",
        "get<1(x)",
        "A = (1,\n2",
        // `2^63` was refused here until `^` became C++'s XOR (issue 9: it is now 2 xor 63 = 61,
        // checked in tests/analysis.rs); an exponent written another way is still refused.
        "2**63",
        "1:2:3",
        "(,)",
        "(1,)",
        "f(,1)",
        "a = ",
        "= 3",
        "assert",
        "assert 1 ==",
        "x = 1 x = 2",
        "x == 1",
        "\\",
        "1 \\ 2",
        "o",
        "Sw<3,3>",
        "Sw<3,3,3,3>",
        "Sw<a,b,c>",
        "Sw",
        "get<>(1)",
        "@",
        "1 $ 2",
        "\u{7f}",
        "é",
        "run gemm",
        "emit gemm 1 2",
        "--1",
        "_",
        "_ _",
        "1 2",
        "f (1)",
    ] {
        if src == "_" {
            continue; // `_` is a value
        }
        refused(src, 2);
    }
}

#[test]
fn literals_out_of_range() {
    for src in [
        "_9223372036854775808",
        "-9223372036854775809",
        "9223372036854775808",
        "_99999999999999999999",
        "(1, 99999999999999999999999999999999999)",
        "get<99999999999999999999>((1,2))",
        "Sw<99999999999999999999,1,1>",
    ] {
        refused(src, 2);
    }
    accepted(
        "_9223372036854775807; -9223372036854775808; _-9223372036854775808",
        "_9223372036854775807\n-9223372036854775808\n_-9223372036854775808\n",
    );
}

// ------------------------------------------------------------------------------------------------
// 2^63 overflow in every arithmetic path
// ------------------------------------------------------------------------------------------------

#[test]
fn overflow_is_an_error_everywhere() {
    for src in [
        "_9223372036854775807 + 1",
        "-9223372036854775808 - 1",
        "-9223372036854775808 * -1",
        "-9223372036854775808 / -1",
        "4611686018427387904 * 2",
        "size((4611686018427387904,4))",
        "size((_4611686018427387904,_2))",
        "product(repeat<63>(_2))",
        "cosize((2,2):(9223372036854775807,1))",
        "cosize((2,2):(-9223372036854775808,1))",
        "make_layout((4611686018427387904,4))",
        "make_layout((4611686018427387904,4), LayoutRight)",
        "compact_col_major((4611686018427387904,4,4))",
        "compact_row_major((4,4,4611686018427387904))",
        "crd2idx((1,1),(2,2),(9223372036854775807,9223372036854775807))",
        "((2,2):(9223372036854775807,1))(1,1)",
        "((2,2):(9223372036854775807,1))(9223372036854775807)",
        "((2,2):(1,2))(9223372036854775807,9223372036854775807)",
        "(_9223372036854775807,_2):(_1,_9223372036854775807) o _4:_1",
        "complement(_4:_2, _9223372036854775807)",
        "complement((_2,_2):(_1,_4611686018427387904))",
        "complement(_9223372036854775807:_1, _9223372036854775807)",
        "logical_product((_1048576,_1048576):(_1,_1048576), (_1048576,_1048576):(_1,_1048576))",
        "logical_product(_4611686018427387904:_1, _4:_1)",
        "blocked_product((_65536,_65536):(_1,_65536), (_65536,_65536):(_1,_65536))",
        "raked_product((_65536,_65536):(_1,_65536), (_65536,_65536):(_1,_65536))",
        "logical_divide(_9223372036854775807:_1, _3:_1)",
        "right_inverse((_4611686018427387904,_2):(_2,_1))",
        "left_inverse((_2,_2):(_9223372036854775807,_1))",
        "upcast<9223372036854775807>(_4:_1)",
        "tile_to_shape(_2:_1, (_4611686018427387904,_4))",
        "ceil_div(-9223372036854775808, -1)",
        "round_up(9223372036854775807, 2)",
        "inner_product((9223372036854775807,2),(2,2))",
        "sum((9223372036854775807,1))",
        "abs(-9223372036854775808)",
        "max_alignment((_4611686018427387904,_2):(_2,_1))",
        "nullspace((_4611686018427387904,_4):(_0,_0))",
        "cosize(make_layout(repeat<63>(_2)))",
    ] {
        refused(src, 1);
    }
}

#[test]
fn division_by_zero_is_an_error() {
    for src in [
        "1 / 0",
        "ceil_div(4, 0)",
        "shape_div(_4, _0)",
        "upcast<0>(_4:_1)",
        "idx2crd(5, (0,0))",
        "complement(_0:_1)",
        "logical_divide(_4:_1, _0:_1)",
        "zipped_divide((_4,_6):(_6,_1), <_0,_3>)",
    ] {
        refused(src, 1);
    }
}

// ------------------------------------------------------------------------------------------------
// Nesting: 1000 and 100000 deep, every kind
// ------------------------------------------------------------------------------------------------

#[test]
fn deep_nesting_of_every_kind() {
    for d in [257usize, 1000, 100_000] {
        let cases = [
            format!("{}1{}", "(".repeat(d), ")".repeat(d)),
            format!("{}1{}", "<".repeat(d), ">".repeat(d)),
            format!("{}1{}", "size(".repeat(d), ")".repeat(d)),
            format!("{}_4:_1{}", "coalesce(".repeat(d), ")".repeat(d)),
            format!("{}1{}", "get<".repeat(d), ">".repeat(d)),
            format!("{}3,3,3{}", "Sw<".repeat(d), ">".repeat(d)),
            format!("((_2,_2):(_1,_2))({}0{})", "(".repeat(d), ")".repeat(d)),
            format!("{}1", "(1,".repeat(d)),
            "(".repeat(d),
            ")".repeat(d),
        ];
        for src in &cases {
            refused(src, 2);
        }
    }
    // Chains nest the expression tree without brackets.
    for d in [1000usize, 100_000] {
        for src in [
            vec!["_2:_1"; d].join(" o "),
            format!("{}_8:_1", "Sw<3,3,3> o _0 o ".repeat(d)),
            format!("1{}", "+1".repeat(d)),
            format!("1{}", "*1".repeat(d)),
            format!("1{}", " - 1".repeat(d)),
            format!("A{}", "(1)".repeat(d)),
        ] {
            refused(&src, 2);
        }
    }
    // Up to the limits, deep input works (on a large stack).
    accepted(&format!("size({}_4{})", "(".repeat(255), ")".repeat(255)), "_4\n");
    accepted(&format!("{}_4{}", "coalesce(".repeat(256), ")".repeat(256)), "_4\n");
    accepted(&vec!["_2:_1"; 500].join(" o "), "_2:_1\n");
}

#[test]
fn deep_and_wide_values_built_step_by_step() {
    // Each statement is shallow; the values grow. The size guard stops them.
    let d = temp_dir();
    let cases = [
        ("double.cute", format!("A = (1,1)\n{}rank(A)\n", "A = (A,A)\n".repeat(1000))),
        ("nest.cute", format!("A = 1\n{}size(A)\n", "A = (A,1)\n".repeat(10_000))),
        ("layouts.cute", format!("A = _2:_1\n{}rank(A)\n", "A = make_layout(A, _1:_0)\n".repeat(10_000))),
        ("tiles.cute", format!("A = <1,1>\n{}A\n", "A = <A,1>\n".repeat(10_000))),
        ("append.cute", format!("A = _2:_1\n{}A\n", "A = append(A, A)\n".repeat(1000))),
        ("grow.cute", format!("{}\n", ["(12,(4,8)):(59,(13,1)) o <_3:_1, _8:_1>"; 12].join(" o "))),
    ];
    for (name, text) in cases {
        let p = d.join(name);
        std::fs::write(&p, text).expect("write");
        let r = cute_with(&[p.as_os_str()], None, &[]);
        assert_refused(name, &r, Some(1));
        assert!(r.err.contains("too large"), "{name}: {}", r.show());
    }
    // A wide literal is refused at the literal.
    let wide = format!("size(({}))", vec!["_1"; 300].join(","));
    let r = cute_e(&wide);
    assert_refused("wide", &r, Some(1));
    assert!(r.err.contains("more than 256 integers") && r.err.contains("CUTE_MAX_LEAVES"), "{}", r.show());
    // ... unless the limit is raised.
    let r = cute_with(&[os("-e"), os(&wide)], None, &[("CUTE_MAX_LEAVES", "1000")]);
    assert_eq!((r.code, r.out.as_str()), (Some(0), "_1\n"), "{}", r.show());
    // The parser folds only literals the guard passes whole; the error points at the first part
    // (innermost first) that exceeds it: the inner tuple, or the layout whose two sides each fit.
    let low = [("CUTE_MAX_LEAVES", "3")];
    let r = cute_with(&[os("-e"), os("size((1,(2,3,4,5)))")], None, &low);
    assert_refused("inner", &r, Some(1));
    assert!(r.err.contains("more than 3 integers") && r.err.contains("-e:1:9"), "{}", r.show());
    let r = cute_with(&[os("-e"), os("size((1,2):(3,4))")], None, &low);
    assert_refused("both sides", &r, Some(1));
    assert!(r.err.contains("more than 3 integers") && r.err.contains("-e:1:6"), "{}", r.show());
    let r = cute_with(&[os("-e"), os("size((1,2):3)")], None, &low);
    assert_eq!((r.code, r.out.as_str()), (Some(0), "2\n"), "{}", r.show());
}

#[test]
fn huge_inputs() {
    // Larger than 1 MiB: refused before parsing.
    let big = format!("({})", vec!["1"; 600_000].join(","));
    let f = temp_file("big.cute", big.as_bytes());
    let r = cute_with(&[f.as_os_str()], None, &[]);
    assert_refused("big file", &r, Some(2));
    assert!(r.err.contains("input too large"), "{}", r.show());
    // Many statements under the limit run.
    let many = "x = (1,2):(3,4)\n".repeat(20_000);
    let f = temp_file("many.cute", many.as_bytes());
    let r = cute_with(&[f.as_os_str()], None, &[]);
    assert_eq!(r.code, Some(0), "{}", r.show());
    // A long line is shown as a window around the error.
    let long = format!("{} + nosuch", vec!["1"; 50_000].join(" + "));
    let r = cute_e(&long);
    assert_refused("long line", &r, None);
    assert!(r.err.lines().all(|l| l.len() < 300), "{}", r.show());
}

// ------------------------------------------------------------------------------------------------
// Huge outputs and expensive questions
// ------------------------------------------------------------------------------------------------

#[test]
fn huge_pictures_and_comparisons() {
    for src in [
        "print_layout((_1048576,_1048576):(_1,_1048576))",
        "print_layout((1048576,1048576):(1,1048576))",
        "print_layout((9223372036854775807,9223372036854775807):(1,1))",
        "print_layout(Sw<3,3,3> o (_1048576,_1048576):(_1,_1048576))",
        "print_latex((_1048576,_1048576):(_1,_1048576))",
        "print_svg((_1048576,_1048576):(_1,_1048576))",
        "print_svg((_1048576,_2):(_1,_1048576))",
        "equivalent((_1048576,_1048576):(_1,_1048576), (_1048576,_1048576):(_1,_1048576))",
        "equivalent(_9223372036854775807:_1, _9223372036854775807:_1)",
        "equivalent(_16777217:_1, _16777217:_1)",
        "L = make_layout(repeat<24>(_2)); equivalent(L o _0 o _16777216:_1, L o _0 o _16777216:_1)",
        "print_layout(_9223372036854775807:_1)",
    ] {
        refused(src, 1);
    }
    // Large but allowed: answered quickly.
    let r = cute_e("L = make_layout(repeat<24>(_2)); equivalent(L, L); equivalent(Sw<3,3,3> o L, L)");
    assert_eq!((r.code, r.out.as_str()), (Some(0), "_1\n_0\n"), "{}", r.show());
    let r = cute_e("equivalent(_16777216:_1, (_4096,_4096):(_1,_4096))");
    assert_eq!((r.code, r.out.as_str()), (Some(0), "_1\n"), "{}", r.show());
    let r = cute_e("print_layout((_1024,_1024):(_1,_1024))");
    assert_eq!(r.code, Some(0), "{}", r.show());
    assert_eq!(r.out.lines().count(), 2 + 2 * 1024 + 1, "{}", clip(&r.out));
}

/// A negative extent (CuTe does not refuse `(-2,3):(1,2)`) draws an empty grid; `print_svg` of one
/// was a capacity-overflow panic (a fuzz finding, tests/fuzz_regressions/structured).
#[test]
fn pictures_of_negative_extents() {
    for src in ["(-2,3):(1,2)", "(2,-3):(1,2)", "(-2,-3):(1,2)", "Sw<1,0,1> o (-2,3):(1,2)"] {
        for f in ["print_svg", "print_layout", "print_latex"] {
            let r = cute_e(&format!("{f}({src})"));
            assert_eq!(r.code, Some(0), "{f}({src}): {}", r.show());
            assert!(!r.err.contains("panicked"), "{f}({src}): {}", r.show());
        }
    }
}

#[test]
fn huge_cotargets_and_products() {
    for src in [
        "complement(_4:_2, 9223372036854775807)",
        "complement((2,2):(1,6), 9223372036854775807)",
        "size(logical_product(_65536:_65536, (_65536,_65536,_65536,_65536):(_1,_65536,_1,_1)))",
        "tile_to_shape(_2:_1, _9223372036854775807)",
        "repeat<100000>(_1)",
        "repeat<-1>(_1)",
        "make_layout(repeat<300>(_2))",
    ] {
        let r = cute_e(src);
        assert_refused(src, &r, Some(1));
    }
    // CuTe prints these; so do we (and quickly).
    accepted("complement(_3:_3037000500)", "_3037000500:_1\n");
    accepted("size(logical_product(_65536:_65536, (_65536,_65536):(_1,_65536)))", "_281474976710656\n");
}

// ------------------------------------------------------------------------------------------------
// Swizzles
// ------------------------------------------------------------------------------------------------

#[test]
fn bad_swizzles() {
    for src in [
        "Sw<-1,3,3>",
        "Sw<40,40,40>",
        "Sw<1,62,1>(9223372036854775807)",
        "Sw<1,0,63>(1)",
        "Sw<31,0,31>(1)",
        "Sw<32,0,0>",
        "Sw<9223372036854775807,0,0>",
        "Sw<3,3,3>((1,2))",
        "Sw<3,3,3>(_4:_1)",
        "Swizzle<1,2,3>(Sw<1,2,3>)",
        "Sw<3,3,3> o 1",
        "Sw<3,3,3> o _0",
    ] {
        refused(src, 1);
    }
    accepted("Sw<3,3,3>(9223372036854775807)", "9223372036854775751\n");
    accepted("Sw<3,3,3>(-9223372036854775808)", "-9223372036854775808\n");
}

// ------------------------------------------------------------------------------------------------
// Names, arity, template arguments
// ------------------------------------------------------------------------------------------------

#[test]
fn unknown_names_arity_and_template_arguments() {
    for src in [
        "nosuch",
        "nosuch(1)",
        "coalesce",
        "coalesce()",
        "coalesce(1,2,3,4)",
        "complement()",
        "composition(_4:_1)",
        "get(1)",
        "get<1,2,3,4,5,6,7,8>((1,2))",
        "get<9223372036854775807>((1,2))",
        "get<-1>((1,2))",
        "get<x>((1,2))",
        "take<2,1>((1,2,3))",
        "take<0,9223372036854775807>((1,2,3))",
        "upcast<LayoutLeft>(_4:_1)",
        "upcast(_4:_1)",
        "recast_layout<uint8_t>(_4:_1)",
        "recast_layout<nosuch_t,uint32_t>(_4:_1)",
        "make_layout(LayoutLeft)",
        "make_layout(_4, 3:3)",
        "((1,2):(1,2)):(1,2)",
        "()()",
        "(1,2)(1)",
        "x = print_layout(_2:_1)",
        "size = 3",
        "LayoutLeft(1)",
        "size<1>(5)",
        "copy_atom(NoSuchOp, half_t)",
        "mma_atom(SM80_nope)",
    ] {
        refused(src, 1);
    }
}

// ------------------------------------------------------------------------------------------------
// Files: encodings, line endings, directories, missing files
// ------------------------------------------------------------------------------------------------

#[test]
fn files_of_every_kind() {
    // Not UTF-8: positioned at the bad byte.
    let f = temp_file("latin1.cute", b"A = 1\nB = (2,\xff3)\n");
    let r = cute_with(&[f.as_os_str()], None, &[]);
    assert_refused("latin1", &r, Some(2));
    assert!(r.err.contains("invalid UTF-8") && r.err.contains("latin1.cute:2:8"), "{}", r.show());
    // Standard input, not UTF-8.
    let r = cute_with(&[os("-")], Some(b"1\n\xc3(\n"), &[]);
    assert_refused("stdin", &r, Some(2));
    assert!(r.err.contains("<stdin>:2:1"), "{}", r.show());
    // Empty file and comment-only file: nothing to do.
    for text in ["", "# only a comment", "\n\n\n", ";;;"] {
        let f = temp_file("empty.cute", text.as_bytes());
        let r = cute_with(&[f.as_os_str()], None, &[]);
        assert_eq!((r.code, r.out.as_str(), r.err.as_str()), (Some(0), "", ""), "{text:?}");
    }
    // CRLF line endings: same results, positions and carets without the \r.
    let f = temp_file("crlf.cute", b"A = (_4,\r\n_8):(_1,_4)\r\nA\r\nassert size(A) == 31\r\n");
    let r = cute_with(&[f.as_os_str()], None, &[]);
    assert_refused("crlf", &r, Some(1));
    assert_eq!(r.out, "(_4,_8):(_1,_4)\n");
    assert!(r.err.contains("crlf.cute:4:8") && !r.err.contains('\r'), "{}", r.show());
    // A directory, a missing file: shown on the command line.
    let dir = temp_dir();
    for p in [dir.clone(), dir.join("missing.cute")] {
        let r = cute_with(&[p.as_os_str()], None, &[]);
        assert_refused("unreadable", &r, Some(2));
        assert!(r.err.contains("cannot read") && r.err.contains("<command line>:1:6"), "{}", r.show());
    }
    let r = cute_with(&[os("--doctest"), dir.join("missing.md").as_os_str()], None, &[]);
    assert_refused("doctest missing", &r, Some(2));
    // A file name that is not UTF-8 is still a file name.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"\xff.cute");
        let p = dir.join(name);
        std::fs::write(&p, "1 + 1\n").expect("write");
        let r = cute_with(&[p.as_os_str()], None, &[]);
        assert_eq!((r.code, r.out.as_str()), (Some(0), "2\n"), "{}", r.show());
    }
    // NUL and control characters in the source.
    let f = temp_file("nul.cute", b"1\n2\x003\n");
    let r = cute_with(&[f.as_os_str()], None, &[]);
    assert_refused("nul", &r, Some(2));
    // The same as large files (mapped from the file, not read: `cute::source`), behind 4,000
    // comment lines: the same refusals at the same places, 4,000 lines down.
    let pad = "# a comment line of some length, to make the file large\n".repeat(4000);
    assert!(pad.len() as u64 >= cute::source::MAP_AT_LEAST);
    let large = |name: &str, body: &[u8]| temp_file(name, &[pad.as_bytes(), body].concat());
    let f = large("big-latin1.cute", b"A = 1\nB = (2,\xff3)\n");
    let r = cute_with(&[f.as_os_str()], None, &[]);
    assert_refused("big latin1", &r, Some(2));
    assert!(r.err.contains("invalid UTF-8") && r.err.contains("big-latin1.cute:4002:8"), "{}", r.show());
    let f = large("big-crlf.cute", b"A = (_4,\r\n_8):(_1,_4)\r\nA\r\nassert size(A) == 31\r\n");
    let r = cute_with(&[f.as_os_str()], None, &[]);
    assert_refused("big crlf", &r, Some(1));
    assert_eq!(r.out, "(_4,_8):(_1,_4)\n");
    assert!(r.err.contains("big-crlf.cute:4004:8") && !r.err.contains('\r'), "{}", r.show());
    let f = large("big-nul.cute", b"1\n2\x003\n");
    let r = cute_with(&[f.as_os_str()], None, &[]);
    assert_refused("big nul", &r, Some(2));
    assert!(r.err.contains("big-nul.cute:4002:2"), "{}", r.show());
    // A named pipe is read as it comes (never mapped).
    #[cfg(unix)]
    {
        let fifo = dir.join("script.fifo");
        let c = std::ffi::CString::new(fifo.to_str().expect("a UTF-8 temp path")).expect("no NUL");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(&fifo, "1 + 1\n").expect("write the fifo"))
        };
        let r = cute_with(&[fifo.as_os_str()], None, &[]);
        writer.join().expect("writer");
        assert_eq!((r.code, r.out.as_str()), (Some(0), "2\n"), "{}", r.show());
    }
}

// ------------------------------------------------------------------------------------------------
// Bounded fuzzing from the golden expressions
// ------------------------------------------------------------------------------------------------

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

fn golden_exprs() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("oracle");
    let mut v = Vec::new();
    for f in ["golden.jsonl", "golden_extra.jsonl", "golden_atoms.jsonl"] {
        let Ok(text) = std::fs::read_to_string(dir.join(f)) else {
            continue;
        };
        for line in text.lines() {
            // {"expr": "...", ...}: the expression is the first JSON string value.
            let Some(rest) = line.split_once("\"expr\": \"").map(|(_, r)| r) else {
                continue;
            };
            let mut e = String::new();
            let mut chars = rest.chars();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => match chars.next() {
                        Some('n') => e.push('\n'),
                        Some(c) => e.push(c),
                        None => break,
                    },
                    c => e.push(c),
                }
            }
            v.push(e);
        }
    }
    if v.is_empty() {
        v.push("complement((_2,_2):(_1,_6), _24)".into());
    }
    v
}

/// Split an expression into tokens: words (names, integers with `_`/`-`), `==`, and single
/// characters.
fn tokens(s: &str) -> Vec<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let cs: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if word(c) || (c == '-' && cs.get(i + 1).is_some_and(char::is_ascii_digit)) {
            i += 1;
            if c == '_' && cs.get(i) == Some(&'-') {
                i += 1;
            }
            while i < cs.len() && word(cs[i]) {
                i += 1;
            }
        } else if c == '=' && cs.get(i + 1) == Some(&'=') {
            i += 2;
        } else {
            i += 1;
        }
        out.push(cs[start..i].iter().collect());
    }
    out
}

const HUGE: &[&str] = &[
    "9223372036854775807",
    "-9223372036854775808",
    "4611686018427387904",
    "4294967296",
    "3037000500",
    "2147483648",
    "0",
    "-1",
    "1",
    "65536",
    "1048576",
    "63",
    "64",
    "-64",
    "31",
    "32",
    "99999999999999999999",
];

const FUNCS: &[&str] = &[
    "print_layout",
    "print_latex",
    "print_svg",
    "complement",
    "right_inverse",
    "left_inverse",
    "coalesce",
    "size",
    "cosize",
    "logical_product",
    "logical_divide",
    "equivalent",
    "nullspace",
    "upcast<2>",
    "downcast<4>",
    "zipped_divide",
    "blocked_product",
    "flatten",
    "make_layout",
    "tile_to_shape",
    "max_common_layout",
];

fn is_number(t: &str) -> bool {
    let t = t.strip_prefix('_').unwrap_or(t);
    let t = t.strip_prefix('-').unwrap_or(t);
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
}

/// The last statement of `s` (golden expressions may bind names first).
fn last_stmt(s: &str) -> String {
    s.rsplit(';').next().unwrap_or(s).to_string()
}

fn mutate(rng: &mut Rng, e: &str, pool: &[String]) -> String {
    let mut t = tokens(e);
    if t.is_empty() {
        return e.to_string();
    }
    let i = rng.below(t.len());
    match rng.below(13) {
        0 => {
            t.remove(i);
        }
        1 => {
            let x = t[i].clone();
            t.insert(i, x);
        }
        2 => {
            let j = rng.below(t.len());
            t.swap(i, j);
        }
        3..=5 => {
            let nums: Vec<usize> = (0..t.len()).filter(|&k| is_number(&t[k])).collect();
            if !nums.is_empty() {
                for _ in 0..1 + rng.below(3) {
                    let k = *rng.pick(&nums);
                    let stat = if rng.below(10) < 7 { t[k].starts_with('_') } else { rng.below(2) == 0 };
                    t[k] = format!("{}{}", if stat { "_" } else { "" }, rng.pick(HUGE));
                }
            }
        }
        6 => {
            let d = *rng.pick(&[3usize, 30, 300, 1000]);
            let (open, close) = *rng.pick(&[("(", ")"), ("<", ">"), ("coalesce(", ")"), ("wrap(", ")")]);
            return format!("{}{}{}", open.repeat(d), e, close.repeat(d));
        }
        7 => return format!("{e} o {}", last_stmt(rng.pick(pool).as_str())),
        8 => {
            let noise = [
                "(", ")", "<", ">", ",", ":", "_", ";", "o", "+", "-", "*", "/", "\\", "#", "\t", "\n", "\r\n", "==",
                "assert", "é", "\u{0}", "\u{7f}",
            ];
            t.insert(i, rng.pick(&noise).to_string());
        }
        9 => {
            let cut = rng.below(e.len() + 1);
            let mut cut = cut.min(e.len());
            while !e.is_char_boundary(cut) {
                cut -= 1;
            }
            return e[..cut].to_string();
        }
        10 => {
            let nums: Vec<usize> = (0..t.len()).filter(|&k| is_number(&t[k])).collect();
            if !nums.is_empty() {
                let k = *rng.pick(&nums);
                let n = 2 + rng.below(5);
                let parts: Vec<&str> =
                    (0..n).map(|_| *rng.pick(&["_65536", "65536", "_2", "1024", "_1048576"])).collect();
                t[k] = format!("({})", parts.join(","));
            }
        }
        11 => {
            let f = rng.pick(FUNCS);
            let extra = match rng.below(3) {
                0 => String::new(),
                1 => format!(", {}", rng.pick(HUGE)),
                _ => format!(", {}", last_stmt(rng.pick(pool).as_str())),
            };
            return format!("{f}({}{extra})", last_stmt(e));
        }
        _ => {
            let n = *rng.pick(&[2usize, 10, 600]);
            return vec![last_stmt(e); n].join(" o ");
        }
    }
    let sep = if rng.below(2) == 0 { " " } else { "" };
    t.join(sep)
}

#[test]
fn fuzz_mutated_golden_expressions() {
    let n: usize = std::env::var("CUTE_FUZZ_N").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    let seed: u64 = std::env::var("CUTE_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(20_251_130);
    let pool = golden_exprs();
    let mut rng = Rng(seed | 1);
    let dir = temp_dir();
    let batch = 40;
    let mut bad: Vec<String> = Vec::new();
    let mut done = 0;
    while done < n {
        let mut inputs = Vec::new();
        for _ in 0..batch.min(n - done) {
            let mut e = rng.pick(&pool).clone();
            for _ in 0..1 + rng.below(3) {
                let m = mutate(&mut rng, &e, &pool);
                if m.len() < 200_000 {
                    e = m;
                }
            }
            inputs.push(e);
        }
        done += inputs.len();
        // One file per input: each runs as its own source (a parse error stops only that one).
        let paths: Vec<PathBuf> = inputs
            .iter()
            .enumerate()
            .map(|(k, e)| {
                let p = dir.join(format!("{k}.cute"));
                std::fs::write(&p, e).expect("write");
                p
            })
            .collect();
        let mut args: Vec<&std::ffi::OsStr> = vec![os("--keep-going")];
        args.extend(paths.iter().map(|p| p.as_os_str()));
        let r = cute_with(&args, None, &[]);
        let suspicious = !matches!(r.code, Some(0..=2)) || r.err.contains("panicked") || r.took > HANG / 2;
        if suspicious {
            // Find the culprits one by one.
            for (e, p) in inputs.iter().zip(&paths) {
                let r1 = cute_with(&[p.as_os_str()], None, &[]);
                if !matches!(r1.code, Some(0..=2)) || r1.err.contains("panicked") || r1.took > HANG / 2 {
                    bad.push(format!("{:?}\n  -> {}", clip(e), r1.show()));
                }
            }
        }
        // Every diagnostic is positioned.
        if !r.err.is_empty() {
            if let Err(m) = positioned(&r.err) {
                bad.push(format!("unpositioned diagnostic: {m}"));
            }
        }
    }
    assert!(bad.is_empty(), "{} of {n} inputs misbehaved:\n{}", bad.len(), bad.join("\n"));
}
