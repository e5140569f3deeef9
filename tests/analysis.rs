//! The analysis functions and the bitwise operators, through the public session.
//! Expected values: CuTe itself (tests/analysis/bitwise.cpp compiled with g++ against the CuTe 4.2
//! headers, its output in bitwise.out; the oracle for layouts), or hand counts written out in the
//! comments — never our own output.

use cute::session::{Options, Session};

/// Runs `src` in a fresh session: (ok, stdout, stderr).
fn run(src: &str) -> (bool, String, String) {
    let mut s = Session::new(Options::default());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let o = s.run(src, "<test>", &mut out, &mut err);
    (
        o.exit_code() == 0,
        String::from_utf8_lossy(&out).trim_end().to_string(),
        String::from_utf8_lossy(&err).into_owned(),
    )
}

/// The printed value of `src`.
fn ev(src: &str) -> String {
    let (ok, out, err) = run(src);
    assert!(ok, "{src}: {err}");
    out
}

/// The C++ expression of bitwise.cpp written in our notation (`Int<5>{}` → `_5`).
fn notation(cpp: &str) -> String {
    let mut s = cpp.to_string();
    while let Some(i) = s.find("Int<") {
        let j = i + s[i..].find(">{}").expect("Int<..>{}");
        s = format!("{}_{}{}", &s[..i], &s[i + 4..j], &s[j + 3..]);
    }
    s
}

#[test]
fn bitwise_operators_follow_cute() {
    let text = std::fs::read_to_string("tests/analysis/bitwise.out").expect("bitwise.out");
    let mut n = 0;
    for line in text.lines() {
        let (cpp, want) = line.split_once(" => ").expect("EXPR => VALUE");
        let expr = notation(cpp);
        assert_eq!(ev(&expr), want, "{cpp} as {expr}");
        n += 1;
    }
    assert!(n >= 25);
}

#[test]
fn bitwise_precedence_is_cs() {
    // C++: `~` binds tightest, then `*`, `+`, `&`, `^`, `|`; all of them tighter than `:` and `o`.
    // 7 + 1 = 8; 3 & 8 = 0; 2 ^ 0 = 2; 1 | 2 = 3.
    assert_eq!(ev("_1 | _2 ^ _3 & _7 + _1"), "_3");
    // ~1 + 1 = -2 + 1.
    assert_eq!(ev("~_1 + _1"), "_-1");
    assert_eq!(ev("~ ~5"), "5");
    assert_eq!(ev("_12 & _6 : _1 | _2"), "_4:_3");
    assert_eq!(ev("511 & 3"), "3");
    assert_eq!(ev("A = (_8,_64):(_64,_1); A(3,5) & _7"), "5");
}

#[test]
fn bitwise_refusals_are_errors() {
    for (src, msg) in [
        ("~(1,2)", "`~` works on integers"),
        ("(4,2):(1,4) & 1", "`&` works on integers"),
        ("shiftl(_3, 4)", "ambiguous in CuTe"),
        ("shiftl(1, 64)", "does not fit in 64 bits"),
        ("shiftl(3, 62)", "does not fit in 64 bits"),
        ("5 &", "expected"),
    ] {
        let (ok, _, err) = run(src);
        assert!(!ok && err.contains(msg), "{src}: {err}");
    }
}
