//! Conformance: every non-MMA record of CuTe's golden answers (`tests/conformance/golden*.jsonl`,
//! printed by the real CuTe C++ through the oracle) must come out of `cute -e` byte for byte,
//! or as an error where CuTe refuses. MMA/copy records belong to `tests/atoms.rs` and are
//! skipped here by name, and counted.

use std::process::Command;

struct Record {
    expr: String,
    /// What CuTe printed, or None where CuTe refused (compile/runtime/parse error).
    cute: Option<String>,
}

use cute::jsonl::field;

fn records(file: &str) -> Vec<Record> {
    let path = format!("{}/tests/conformance/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Record {
            expr: field(l, "expr").unwrap_or_else(|| panic!("no expr in {l}")),
            cute: if l.contains("\"error\": ") { None } else { field(l, "cute") },
        })
        .collect()
}

/// Records about MMA/copy atoms (the atoms issue's): skipped here by name.
pub fn is_atom_record(expr: &str) -> bool {
    const NAMES: &[&str] = &[
        "mma_",
        "make_tiled_mma",
        "partition_",
        "thrfrg_",
        "tile_shape",
        "UniversalFMA",
        "copy_atom",
        "make_tiled_copy",
        "retile_",
        "tidfrg_",
        "get_thr_layout",
    ];
    if NAMES.iter().any(|n| expr.contains(n)) {
        return true;
    }
    if expr.contains("get_layout") && expr.contains("_TV") {
        return true;
    }
    // Operation names: SM<digits>_...
    let b = expr.as_bytes();
    (0..b.len().saturating_sub(3)).any(|i| {
        b[i] == b'S'
            && b[i + 1] == b'M'
            && b[i + 2].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
    })
}

fn check(file: &str) {
    let bin = env!("CARGO_BIN_EXE_cute");
    let (mut ok, mut skipped, mut failures) = (0, 0, Vec::new());
    for r in records(file) {
        if is_atom_record(&r.expr) {
            skipped += 1;
            continue;
        }
        let out = Command::new(bin)
            .args(["--color", "never", "-e", &r.expr])
            .env("NO_COLOR", "1")
            .output()
            .expect("run cute");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let got = stdout.trim_end_matches('\n');
        match &r.cute {
            Some(want) if out.status.success() && got == want => ok += 1,
            None if !out.status.success() && stderr.contains("error") && got.is_empty() => ok += 1,
            Some(want) => failures.push(format!(
                "{}\n  want: {want}\n  got:  {got}{}",
                r.expr,
                if stderr.is_empty() { String::new() } else { format!("\n  stderr: {}", stderr.trim_end()) }
            )),
            None => failures.push(format!(
                "{}\n  want: an error (CuTe refuses)\n  got:  {got} (exit {:?})",
                r.expr,
                out.status.code()
            )),
        }
    }
    println!("{file}: {ok} identical, {} different, {skipped} MMA/copy records skipped", failures.len());
    assert!(failures.is_empty(), "{file}: {} records differ from CuTe:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn golden() {
    check("golden.jsonl");
}

#[test]
fn golden_extra() {
    check("golden_extra.jsonl");
}

#[test]
fn golden_files_are_cutes_own() {
    // The golden files are data printed by CuTe: they must stay byte-identical to shared/.
    for f in ["golden.jsonl", "golden_extra.jsonl", "golden_atoms.jsonl"] {
        let ours = format!("{}/tests/conformance/{f}", env!("CARGO_MANIFEST_DIR"));
        let shared = format!("{}/../shared/conformance/{f}", env!("CARGO_MANIFEST_DIR"));
        if let (Ok(a), Ok(b)) = (std::fs::read(&ours), std::fs::read(&shared)) {
            assert!(a == b, "{f} differs from ../shared/conformance/{f}");
        }
    }
}

#[test]
fn atom_records_are_recognised() {
    assert!(is_atom_record("mma_layout_A(SM80_16x8x16_F16F16F16F16_TN)"));
    assert!(is_atom_record("T = make_tiled_mma(X, make_layout((_2,_2,_1))); get_layoutC_TV(T)"));
    assert!(!is_atom_record("make_layout((_2,_4))"));
    assert!(!is_atom_record("S = Sw<3,3,3> o (_8,_64):(_64,_1); S(3,17)"));
}

/// Slices of swizzled layouts whose offset CuTe keeps as `MixedBits` (answers from the oracle).
#[test]
fn swizzle_slices_with_mixed_bits_offsets() {
    let cases = [
        ("S = Sw<3,2,3> o (_16,_64):(_64,_1); S(5,_)", "Sw<3,2,3> o M_0|(64&192)=64 o (_64):(_1)"),
        ("S = Sw<3,2,3> o (_16,_16):(_16,_1); S(_,3)", "Sw<3,2,3> o M_0|(0&12)=0 o (_16):(_16)"),
        ("S = Sw<2,3,2> o (_16,_64):(_64,_1); S(13,_)", "Sw<2,3,2> o M_0|(64&64)=64 o (_64):(_1)"),
        ("S = Sw<2,1,3> o (_32,_32):(_32,_1); S(7,_)", "Sw<2,1,3> o M_0|(32&32)=32 o (_32):(_1)"),
        ("S = Sw<3,3,3> o (_16,_128):(_128,_1); S(9,_)", "Sw<3,3,3> o M_0|(128&384)=128 o (_128):(_1)"),
    ];
    for (expr, want) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_cute")).args(["--color", "never", "-e", expr]).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), want, "{expr}");
    }
}

/// `L.with_shape(4)` does not compile in CuTe (argument-dependent lookup finds no `make_layout`
/// for a plain int), while `_8` and tuples work (answers from the oracle).
#[test]
fn with_shape_of_a_dynamic_integer_is_refused() {
    let run = |e: &str| Command::new(env!("CARGO_BIN_EXE_cute")).args(["--color", "never", "-e", e]).output().unwrap();
    for e in ["with_shape((1):(0), 4)", "with_shape((3,6,1):(1,3,18), 4)", "with_shape(8:2, 8)"] {
        let out = run(e);
        assert_eq!(out.status.code(), Some(1), "{e}");
    }
    for (e, want) in [("with_shape(_8:_2, _8)", "_8:_2"), ("with_shape(_8:_2, 2, _4)", "(2,_4):(_2,4)")] {
        assert_eq!(String::from_utf8_lossy(&run(e).stdout).trim_end(), want, "{e}");
    }
}
