//! The one runner of oracle-answered data: every line of every `tests/oracle/*.jsonl` file is a
//! case CuTe C++ answered (through the oracle, `../shared/oracle/cute-oracle`, never `cute`):
//! `{"expr": ..., "cute": ...}` (what CuTe printed) or `{"expr": ..., "error": ..., "detail":
//! ...}` (CuTe refused). Each case runs through a fresh session, as `cute -e` does, and must
//! print exactly what CuTe printed, or fail (nothing on stdout) where CuTe refused; where CuTe's
//! refusal is a `static_assert`, our error names the same rule (in every file but the random
//! `difftest_cases`, where a refusal for another reason is enough).
//!
//! - `golden.jsonl`, `golden_extra.jsonl`, `golden_atoms.jsonl`: CuTe's golden answers (the
//!   same bytes as `../shared/conformance/`).
//! - `difftest_cases.jsonl`: cases found by `scripts/difftest` (`--gen full`, `extra`, ...: all
//!   non-MMA functions, swizzles, members, printing), disagreements included once fixed.
//! - `coord_cases.jsonl`: tuple/structure/coordinate cases; `algebra_cases.jsonl`: corners of
//!   the algebra (identity layouts, tilers, coalesce with a profile, ...).
//! - `gmma_cases.jsonl`: GMMA layout atoms (casts, tilings, slices), `make_gmma_desc` and its
//!   refusals (issue 13); most from `scripts/difftest --gen gmma`.
//! - `atoms_cases.jsonl`: MMA/copy atoms, tiled MMAs and copies, partitions, retiles, tensor
//!   functions of partitions, refusals.
//! - `tensor_partition_cases.jsonl`: `local_tile`, `local_partition`, `inner_partition`,
//!   `outer_partition` of counting tensors (with projections), which the oracle does not know: answered by CuTe C++
//!   written by hand (`tests/oracle_cpp/tensor_partition.txt`, each line our expression and its
//!   C++) and compiled against the oracle's CuTe headers by `scripts/oracle_cpp.py`.
//! - `print_tensor_cases.jsonl`: `print_tensor` of counting tensors (ranks 0-5, identity,
//!   coordinate and iterator tensors, tiles, partitions, swizzled and composed, static and run-time
//!   elements), answered the same way (`tests/oracle_cpp/print_tensor.txt`).
//! - `tensor_modes_cases.jsonl`: `group_modes<B,E>(T)`, `tensor<I...>(T)` and `domain_offset(coord, T)` of counting
//!   tensors, and a `MixedBits` offset plus an integer (a `uint32_t`: evaluation, `domain_offset`),
//!   answered the same way (`tests/oracle_cpp/tensor_modes.txt`).
//! - `compare_cases.jsonl`: `lex_`, `colex_`, `elem_` `leq`/`gtr`/`geq` (the oracle knows only the
//!   `_less` ones), answered the same way (`tests/oracle_cpp/compare.txt`).
//!
//! To add cases: run `scripts/difftest`, then copy lines of its `OUT/oracle.jsonl`. To compare
//! with any answer file: `ORACLE_JSONL=answers.jsonl cargo test --test oracle any_file --
//! --ignored --nocapture`.

use cute::jsonl::field;
use cute::session::{Options, Outcome, Session};

/// Replay `text`'s cases: (identical, what differs). `rules`: a refusal must name CuTe's
/// `static_assert` rule.
fn replay(text: &str, rules: bool) -> (usize, Vec<String>) {
    let (mut ok, mut bad) = (0, Vec::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let expr = field(line, "expr").unwrap_or_else(|| panic!("no expr in {line}"));
        let refused = line.contains("\"error\": ");
        let want = if refused { None } else { field(line, "cute") };
        let mut s = Session::new(Options::default());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let outcome = s.run(&expr, "-e", &mut out, &mut err);
        let got = String::from_utf8_lossy(&out);
        let got = got.trim_end_matches('\n');
        let err = String::from_utf8_lossy(&err);
        // CuTe's static_assert text, when it has one, is the rule we name.
        let detail = field(line, "detail").unwrap_or_default();
        let rule = detail
            .strip_prefix("static assertion failed: ")
            .filter(|_| rules)
            .map(|r| r.trim_end_matches('.').to_lowercase());
        let same = match (&want, outcome) {
            (Some(w), Outcome::Ok) => w == got,
            (None, Outcome::Failed | Outcome::ParseError) => {
                got.is_empty() && rule.as_ref().is_none_or(|r| err.to_lowercase().contains(r.as_str()))
            }
            _ => false,
        };
        if same {
            ok += 1;
        } else {
            bad.push(format!(
                "{expr}\n  CuTe: {}\n  cute: {got}{}",
                want.as_deref().unwrap_or(&format!("(refuses) {detail}")),
                if err.is_empty() { String::new() } else { format!("\n  stderr: {}", err.trim_end()) }
            ));
        }
    }
    (ok, bad)
}

fn check(file: &str, min: usize, rules: bool) {
    let path = format!("{}/tests/oracle/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (ok, bad) = replay(&text, rules);
    println!("{file}: {ok} identical, {} different", bad.len());
    assert!(bad.is_empty(), "{file}: {} cases differ from CuTe:\n{}", bad.len(), bad.join("\n"));
    assert!(ok >= min, "{file}: only {ok} cases");
}

#[test]
fn golden() {
    check("golden.jsonl", 300, true);
}

#[test]
fn golden_extra() {
    check("golden_extra.jsonl", 300, true);
}

#[test]
fn golden_atoms() {
    check("golden_atoms.jsonl", 100, true);
}

#[test]
fn difftest_cases() {
    check("difftest_cases.jsonl", 20_000, false);
}

#[test]
fn coord_cases() {
    check("coord_cases.jsonl", 1000, true);
}

#[test]
fn algebra_cases() {
    check("algebra_cases.jsonl", 50, true);
}

#[test]
fn atoms_cases() {
    check("atoms_cases.jsonl", 2000, true);
}

#[test]
fn gmma_cases() {
    check("gmma_cases.jsonl", 900, true);
}

#[test]
fn tensor_partition_cases() {
    check("tensor_partition_cases.jsonl", 45, true);
}

#[test]
fn print_tensor_cases() {
    check("print_tensor_cases.jsonl", 50, true);
}

#[test]
fn tensor_modes_cases() {
    check("tensor_modes_cases.jsonl", 75, true);
}

#[test]
fn compare_cases() {
    check("compare_cases.jsonl", 170, true);
}

/// Every file under `tests/oracle/` is replayed by one of the tests above.
#[test]
fn every_file_is_replayed() {
    let dir = format!("{}/tests/oracle", env!("CARGO_MANIFEST_DIR"));
    let known = [
        "golden.jsonl",
        "golden_extra.jsonl",
        "golden_atoms.jsonl",
        "difftest_cases.jsonl",
        "coord_cases.jsonl",
        "algebra_cases.jsonl",
        "atoms_cases.jsonl",
        "gmma_cases.jsonl",
        "tensor_partition_cases.jsonl",
        "print_tensor_cases.jsonl",
        "tensor_modes_cases.jsonl",
        "compare_cases.jsonl",
    ];
    for f in std::fs::read_dir(&dir).unwrap() {
        let name = f.unwrap().file_name().to_string_lossy().into_owned();
        assert!(known.contains(&name.as_str()), "tests/oracle/{name} is not replayed: add it to tests/oracle.rs");
    }
}

#[test]
fn golden_files_are_cutes_own() {
    // The golden files are data printed by CuTe: they must stay byte-identical to shared/.
    for f in ["golden.jsonl", "golden_extra.jsonl", "golden_atoms.jsonl"] {
        let ours = format!("{}/tests/oracle/{f}", env!("CARGO_MANIFEST_DIR"));
        let shared = format!("{}/../shared/conformance/{f}", env!("CARGO_MANIFEST_DIR"));
        if let (Ok(a), Ok(b)) = (std::fs::read(&ours), std::fs::read(&shared)) {
            assert!(a == b, "{f} differs from ../shared/conformance/{f}");
        }
    }
}

/// Compare with any answer file of the oracle (`cute-oracle cases.cute > answers.jsonl`).
#[test]
#[ignore]
fn any_file() {
    let Ok(path) = std::env::var("ORACLE_JSONL") else { return };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (ok, bad) = replay(&text, true);
    for b in &bad {
        println!("{b}");
    }
    println!("{path}: {ok} identical, {} different", bad.len());
}
