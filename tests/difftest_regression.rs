//! Regression data of differential testing: random and edge-case expressions answered by the real
//! CuTe C++ (through `../shared/oracle/cute-oracle`, never by `cute`), run through a session in
//! process. Every case must print exactly what CuTe printed, or fail where CuTe refused.
//!
//! - `tests/difftest/oracle_cases.jsonl`: cases found by `scripts/difftest.py --gen full` (all
//!   non-MMA functions: algebra, swizzles, members, printing), disagreements included once fixed.
//! - `src/eval/ops/coord/oracle_cases.jsonl`: the tuple/structure/coordinate cases (also checked
//!   by that module's own unit test with its small evaluator).
//!
//! To add cases: run the difftest, then copy lines of its `OUT/oracle.jsonl` (the oracle's answers).

use cute::session::{Options, Outcome, Session};

use cute::jsonl::field;

fn check(rel: &str, min: usize) {
    let path = format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (mut ok, mut bad) = (0, Vec::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let expr = field(line, "expr").unwrap_or_else(|| panic!("no expr in {line}"));
        if line.contains("\"error\": \"parse\"") {
            continue; // the oracle could not read it: no answer from CuTe
        }
        let want = if line.contains("\"error\": ") { None } else { field(line, "cute") };
        let mut s = Session::new(Options::default());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let outcome = s.run(&expr, "-e", &mut out, &mut err);
        let got = String::from_utf8_lossy(&out);
        let got = got.trim_end_matches('\n');
        let err = String::from_utf8_lossy(&err);
        match (&want, outcome) {
            (Some(w), Outcome::Ok) if w == got => ok += 1,
            (None, Outcome::Failed | Outcome::ParseError) if got.is_empty() => ok += 1,
            _ => bad.push(format!(
                "{expr}\n  CuTe: {}\n  cute: {got}{}",
                want.as_deref().unwrap_or("(refuses)"),
                if err.is_empty() { String::new() } else { format!("\n  stderr: {}", err.trim_end()) }
            )),
        }
    }
    println!("{rel}: {ok} identical, {} different", bad.len());
    assert!(bad.is_empty(), "{rel}: {} cases differ from CuTe:\n{}", bad.len(), bad.join("\n"));
    assert!(ok >= min, "{rel}: only {ok} cases");
}

#[test]
fn difftest_cases() {
    check("tests/difftest/oracle_cases.jsonl", 1);
}

#[test]
fn coord_structure_tuple_cases() {
    check("src/eval/ops/coord/oracle_cases.jsonl", 1000);
}
