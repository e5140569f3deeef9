//! Hopper shared memory (issue 13): GMMA layout atoms, `make_gmma_desc`, the smem pointer flag
//! in the notation, and the library API the Hopper kernel generator calls.
//!
//! The oracle's answers (`tests/oracle/gmma_cases.jsonl`) are replayed by `tests/oracle.rs`;
//! here: their flagged prints read back, the library API, and `explain`.

use cute::eval::gmma::{self, GmmaDesc, LayoutType, Major};
use cute::eval::value::Value;
use cute::jsonl::field;

struct Record {
    expr: String,
    cute: Option<String>,
}

fn run_session(src: &str) -> Result<String, String> {
    let mut session = cute::session::Session::new(cute::session::Options::default());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let outcome = session.run(src, "gmma", &mut out, &mut err);
    let (out, err) = (String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned());
    match outcome {
        cute::session::Outcome::Ok => Ok(out.trim_end_matches('\n').to_string()),
        _ => Err(err),
    }
}

fn records() -> Vec<Record> {
    let path = format!("{}/tests/oracle/gmma_cases.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("tests/oracle/gmma_cases.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.contains("\"error\": \"parse\""))
        .map(|l| Record { expr: field(l, "expr").unwrap_or_default(), cute: field(l, "cute") })
        .collect()
}

/// Every printed smem-flagged layout of the oracle reads back as the same value.
#[test]
fn smem_flag_prints_and_reads_back() {
    let mut n = 0;
    for r in records() {
        let Some(want) = r.cute else { continue };
        if !want.contains("smem_ptr[") || want.contains('\n') {
            continue;
        }
        let back = run_session(&want).unwrap_or_else(|e| panic!("{want} does not read back: {e}"));
        assert_eq!(back, want);
        // `A = ...; A(_,_)`: the statements first, then the last expression compared
        let (pre, last) =
            r.expr.rsplit_once(';').map_or((String::new(), r.expr.as_str()), |(p, l)| (format!("{p};"), l));
        let same = run_session(&format!("{pre} X = {want}; identical(X, {last})"));
        assert_eq!(same.as_deref(), Ok("_1"), "{want} vs {}", r.expr);
        n += 1;
    }
    assert!(n > 5, "only {n} flagged layouts");
}

#[test]
fn smem_flag_is_only_an_offset() {
    let e = run_session("smem_ptr[16b](unset)").unwrap_err();
    assert!(e.contains("only the offset of a composed layout"), "{e}");
    assert!(run_session("Sw<3,4,3> o smem_ptr[99999999999b](unset) o _8:_1").is_err());
}

fn desc_k_sw128_half() -> GmmaDesc {
    GmmaDesc { start_address: 0, leading_off: 1, stride_off: 64, base_offset: 0, layout_type: LayoutType::B128 }
}

/// The library API agrees with what the REPL prints (the Hopper generator calls it).
#[test]
fn library_api() {
    // make_gmma_desc<K>(Sw<3,4,3>, (_64,_16):(_64,_1), half_t) → 0x4000004000010000 (oracle)
    let d = desc_k_sw128_half();
    assert_eq!(d.bits(), 0x4000004000010000);
    assert_eq!(GmmaDesc::from_bits(d.bits()), d);
    assert_eq!(
        d.to_string(),
        "GmmaDescriptor: 0x4000004000010000\n  start_addr :  0x0000\n  leading_off:  0x0001 (1)\n  stride_off :  0x0040 (64)\n  base_offset:  0x0\n  layout_type:  0x1 (B128)"
    );
    let atom = gmma::gmma_atom(Major::K, 128, 16);
    assert_eq!(atom.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
    let a = gmma::gmma_atom(Major::MN, 0, 16);
    assert_eq!(a.to_string(), "Sw<0,4,3> o smem_ptr[16b](unset) o (_8,_8):(_1,_8)");
    // tile_to_shape(Layout_K_SW32_Atom(float), (_64,_8)) → B32, LBO 1, SBO 16 (oracle)
    let tiled =
        cute::eval::builtins::call("tile_to_shape", &[], &[gmma::gmma_atom(Major::K, 32, 32), run_value("(_64,_8)")])
            .unwrap();
    let d = gmma::make_gmma_desc(Major::K, &tiled, 32).unwrap();
    assert_eq!(d.bits(), 0xc000001000010000);
    // a plain layout: tile_to_shape(Layout_K_INTER_Atom(half_t), (_64,_16)) is 0x0000000800400000
    let plain = run_value("((_8,_8),(_8,_2)):((_8,_64),(_1,_512))");
    assert_eq!(gmma::make_gmma_desc(Major::K, &plain, 16).unwrap().bits(), 0x0000000800400000);
    let e = gmma::make_gmma_desc(Major::K, &run_value("(_64,_16):(_64,_1)"), 16).unwrap_err();
    assert!(e.to_string().contains("Not a canonical GMMA_K Layout: Expected stride failure"), "{e}");
    assert!(matches!(gmma::gmma_atom(Major::K, 16, 16), Value::Text(_)));
}

fn run_value(src: &str) -> Value {
    let mut s = cute::session::Session::new(cute::session::Options::default());
    let (mut o, mut e) = (Vec::new(), Vec::new());
    s.run(&format!("X = {src}"), "gmma", &mut o, &mut e);
    s.interp().get("X").cloned().unwrap_or_else(|| panic!("{src}: {}", String::from_utf8_lossy(&e)))
}

/// `explain` of a refused layout names the broken rule and a layout CuTe accepts.
#[test]
fn explain_refusal_says_what_to_change() {
    let out = run_session("explain make_gmma_desc<K>((_64,_16):(_64,_1), half_t)").unwrap();
    assert!(out.contains("refused: stride<0,0> is 8"), "{out}");
    assert!(out.contains("CuTe: Not a canonical GMMA_K Layout: Expected stride failure."), "{out}");
    assert!(out.contains("make_gmma_desc<K>(Sw<3,4,3>, (_64,_16):(_64,_1), half_t) (B128, LBO 1, SBO 64)"), "{out}");
    assert!(
        out.contains("write: make_gmma_desc<K>(tile_to_shape(Layout_K_INTER_Atom(half_t), (_64,_16)), half_t)"),
        "{out}"
    );
    let out = run_session("explain make_gmma_desc<K>(Sw<3,4,3>, (_64,_16):(_64,_1), half_t)").unwrap();
    assert!(out.contains("canonical GMMA_K B128 form, in 16-byte units: ((8,n),2):((8,SBO),1)"), "{out}");
    assert!(out.contains("recast_layout<half_t,uint128_t>(L) = (_64,_2):(_8,_1)"), "{out}");
}
