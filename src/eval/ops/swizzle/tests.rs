//! Golden records and oracle-checked cases for swizzles and composed layouts.

use super::testkit::{check_golden, eval, is_swizzle_record};

#[test]
fn golden_swizzle_records() {
    let (ok, bad) = check_golden(&is_swizzle_record);
    for b in &bad {
        eprintln!("MISMATCH {b}");
    }
    eprintln!("{ok} matched, {} mismatched", bad.len());
    assert!(bad.is_empty());
}

#[test]
fn builtin_examples() {
    let mut bad = Vec::new();
    for b in super::BUILTINS.iter().chain(crate::render::BUILTINS) {
        match eval(b.example) {
            Ok(got) if got == b.result => {}
            // Waiting for another module's function (e.g. tiled_product).
            Err(e) if e.rule == "not yet available" => eprintln!("skipped {}: {e}", b.name),
            got => bad.push(format!("{}: {} -> {got:?}, want {:?}", b.name, b.example, b.result)),
        }
    }
    for b in &bad {
        eprintln!("{b}");
    }
    assert!(bad.is_empty());
}

/// Compare with an oracle answer file: `SWZ_ORACLE=answers.jsonl cargo test --lib oracle_file -- --ignored`.
#[test]
#[ignore]
fn oracle_file() {
    use super::testkit::field;
    let path = std::env::var("SWZ_ORACLE").unwrap_or_default();
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let (mut ok, mut bad) = (0, 0);
    for line in text.lines() {
        let Some(expr) = field(line, "expr") else { continue };
        let want = field(line, "cute");
        match (eval(&expr), want) {
            (Ok(g), Some(w)) if g == w => ok += 1,
            (Err(_), None) => ok += 1,
            (got, want) => {
                bad += 1;
                let detail = field(line, "detail").unwrap_or_default();
                eprintln!("MISMATCH {expr}\n   got:  {got:?}\n   want: {want:?} {detail}");
            }
        }
    }
    eprintln!("{ok} matched, {bad} mismatched");
}
