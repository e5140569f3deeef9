//! Atoms (issue 4): every MMA/copy golden record, and the laws of thread-value layouts.
//!
//! Golden lines run through a session (the parser and the interpreter, as `cute -e` does); the
//! laws call the atoms API directly.

use cute::eval::int_tuple::IntTuple;
use cute::eval::layout::Layout;

// ------------------------------------------------------------------------------------------
// Golden records
// ------------------------------------------------------------------------------------------

struct Record {
    expr: String,
    cute: Option<String>,
    /// The oracle's error detail (compile errors: the static_assert text).
    detail: Option<String>,
}

/// Minimal JSONL reader for the golden files (string fields only).
fn read_golden(file: &str) -> Vec<Record> {
    let path = format!("{}/tests/conformance/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("golden file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Record {
            expr: field(l, "expr").unwrap_or_default(),
            cute: field(l, "cute"),
            detail: field(l, "detail"),
        })
        .collect()
}

use cute::jsonl::field;

/// Records of the general golden files that exercise this module.
fn is_atoms_record(expr: &str) -> bool {
    const KEYS: &[&str] = &[
        "mma_",
        "SM",
        "UniversalFMA",
        "make_tiled",
        "partition_",
        "thrfrg_",
        "_TV",
        "tile_shape",
        "tile_size",
        "copy",
        "retile",
        "tidfrg",
        "tiler_mn",
        "tiled_layout",
        "val_layout",
        "get_thr_layout",
    ];
    KEYS.iter().any(|k| expr.contains(k))
}

/// Run a golden line through a fresh session (parser + interpreter): its printout, or the
/// diagnostics when it fails.
fn run_session(src: &str) -> Result<String, String> {
    let mut session = cute::session::Session::new(cute::session::Options::default());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let outcome = session.run(src, "golden", &mut out, &mut err);
    let (out, err) = (String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned());
    match outcome {
        cute::session::Outcome::Ok => Ok(out.trim_end_matches('\n').to_string()),
        _ => Err(err),
    }
}

fn check(records: &[Record]) -> (usize, Vec<String>) {
    let mut ok = 0;
    let mut bad = Vec::new();
    for r in records {
        let got = run_session(&r.expr);
        match (&r.cute, &got) {
            (Some(want), Ok(g)) if want == g => ok += 1,
            (None, Err(e)) => {
                // CuTe's static_assert text, when it has one, is the rule we name
                let rule = r.detail.as_deref().and_then(|d| d.strip_prefix("static assertion failed: "));
                match rule {
                    Some(rule) if !e.to_lowercase().contains(&rule.trim_end_matches('.').to_lowercase()) => {
                        bad.push(format!("{}\n   want error: {rule}\n   got:  {e}", r.expr))
                    }
                    _ => ok += 1,
                }
            }
            (want, got) => bad.push(format!("{}\n   want: {:?}\n   got:  {:?}", r.expr, want, got)),
        }
    }
    (ok, bad)
}

#[test]
fn golden_atoms_all_records() {
    let recs = read_golden("golden_atoms.jsonl");
    let (ok, bad) = check(&recs);
    println!("golden_atoms: {ok}/{} records identical", recs.len());
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn golden_mma_records_of_other_files() {
    let mut recs = read_golden("golden.jsonl");
    recs.extend(read_golden("golden_extra.jsonl"));
    let recs: Vec<Record> = recs.into_iter().filter(|r| is_atoms_record(&r.expr)).collect();
    let (ok, bad) = check(&recs);
    println!("golden/golden_extra atoms records: {ok}/{} identical", recs.len());
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

fn read_answers(path: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(path).expect("answers file");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.contains("\"error\": \"parse\""))
        .map(|l| Record {
            expr: field(l, "expr").unwrap_or_default(),
            cute: field(l, "cute"),
            detail: field(l, "detail"),
        })
        .collect()
}

/// More cases answered by the oracle (generated: every MMA family, tiled MMAs with
/// permutations and atom layouts, tiled copies from MMAs and from thread/value layouts,
/// cotiled copies, partitions with dynamic strides and 3-D tensors, swizzled partitions,
/// retiles, refusals; tensor functions of partitions (slices, take, coalesce, divides, compose)
/// on plain, swizzled, composed and identity tensors; SM100 copies; samples of
/// `scripts/difftest_atoms.py` runs), in `tests/atoms_oracle.jsonl`.
#[test]
fn oracle_regression_cases() {
    let recs = read_answers(&format!("{}/tests/atoms_oracle.jsonl", env!("CARGO_MANIFEST_DIR")));
    let (ok, bad) = check(&recs);
    println!("atoms_oracle: {ok}/{} identical", recs.len());
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

/// Compare against any oracle answer file: `ATOMS_JSONL=answers.jsonl cargo test --test atoms
/// oracle_file -- --ignored --nocapture` (answers from `cute-oracle cases.cute > answers.jsonl`).
#[test]
#[ignore]
fn oracle_file() {
    let Ok(path) = std::env::var("ATOMS_JSONL") else { return };
    let text = std::fs::read_to_string(path).expect("answers file");
    let recs: Vec<Record> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.contains("\"error\": \"parse\""))
        .map(|l| Record {
            expr: field(l, "expr").unwrap_or_default(),
            cute: field(l, "cute"),
            detail: field(l, "detail"),
        })
        .collect();
    let (ok, bad) = check(&recs);
    println!("{ok}/{} identical", recs.len());
    for b in &bad {
        println!("{b}");
    }
}

// ------------------------------------------------------------------------------------------
// Laws
// ------------------------------------------------------------------------------------------

use cute::eval::atoms::alg::{self, Tl};
use cute::eval::atoms::copy::{self as cp, Side};
use cute::eval::atoms::mma::{self, Operand, TiledMma};
use cute::eval::atoms::tensor::{Partition, Source};
use cute::eval::atoms::{copy_table, mma_table};
use cute::eval::builtins::TArg;

fn values_of(l: &Layout) -> Vec<i64> {
    let n = alg::size(l).expect("size").v;
    (0..n).map(|i| alg::eval(l, i).expect("eval")).collect()
}

/// Every index of [0, n) is hit the same number of times (and nothing else is hit).
fn covers_evenly(vals: &[i64], n: i64) -> Result<i64, String> {
    let mut count = vec![0i64; n as usize];
    for &v in vals {
        if v < 0 || v >= n {
            return Err(format!("index {v} outside [0,{n})"));
        }
        count[v as usize] += 1;
    }
    let c0 = count[0];
    if c0 == 0 || count.iter().any(|&c| c != c0) {
        return Err(format!("uneven cover: counts {:?}", &count[..count.len().min(16)]));
    }
    Ok(c0)
}

fn mma_ops() -> Vec<(String, Vec<TArg>)> {
    mma_table::all_names()
        .into_iter()
        .map(|n| {
            let t = if n.ends_with("_SS") || n.ends_with("_RS") {
                vec![TArg::Name("K".into()), TArg::Name("K".into())]
            } else {
                vec![]
            };
            (n, t)
        })
        .collect()
}

/// CuTe rows whose layouts are not congruent or not a cover (kept as CuTe has them).
fn is_cute_oddity(name: &str) -> bool {
    name.contains("16x8x128_S32U1U1") || name.contains("S4") || name.contains("U4")
}

#[test]
fn law_atom_tv_layouts_cover_their_tiles() {
    let mut checked = 0;
    for (name, targs) in mma_ops() {
        if is_cute_oddity(&name) {
            continue;
        }
        let m = mma_table::lookup(&name, &targs).expect("known").expect("traits");
        let mnk: Vec<i64> = m.shape_mnk.leaves().iter().map(|x| x.as_int().expect("int").v).collect();
        for (l, tile, what) in
            [(&m.a, mnk[0] * mnk[2], "A"), (&m.b, mnk[1] * mnk[2], "B"), (&m.c, mnk[0] * mnk[1], "C")]
        {
            // Register-sourced and C layouts are bijections; smem (SS) GMMA operands give every
            // thread the whole tile (thread stride 0, the value mode alone is the bijection).
            let ss = name.starts_with("SM90_64x") && (what == "B" || (what == "A" && name.contains("_SS")));
            if ss {
                let thr = alg::mode(l, 0).expect("mode");
                assert!(
                    thr.stride.leaves().iter().all(|d| d.as_int().expect("int").v == 0),
                    "{name} {what}: thread stride"
                );
                let per = covers_evenly(&values_of(&alg::mode(l, 1).expect("mode")), tile)
                    .unwrap_or_else(|e| panic!("{name} {what}: {e}"));
                assert_eq!(per, 1, "{name} {what}");
            } else {
                let per = covers_evenly(&values_of(l), tile).unwrap_or_else(|e| panic!("{name} {what}: {e}"));
                assert_eq!(per, 1, "{name} {what}");
            }
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
}

fn tiled(name: &str, atom_layout: &str, perm: Option<Tl>) -> TiledMma {
    let targs = if name.ends_with("_SS") || name.ends_with("_RS") {
        vec![TArg::Name("K".into()), TArg::Name("K".into())]
    } else {
        vec![]
    };
    let m = mma_table::lookup(name, &targs).expect("known").expect("traits");
    let al = cute::eval::atoms::lit::parse_layout(atom_layout).expect("layout");
    mma::make_tiled_mma(m, Some(&al), perm).expect("tiled mma")
}

fn partition_values(p: &Partition) -> Vec<i64> {
    let off = p.offset.as_int().expect("integer offset").v;
    values_of(&p.layout).into_iter().map(|v| v + off).collect()
}

#[test]
fn law_tiled_mma_partitions_cover_the_tile() {
    let cases = [
        ("SM80_16x8x16_F16F16F16F16_TN", "(_2,_2,_1):(_1,_2,_0)"),
        ("SM80_16x8x8_F32TF32TF32F32_TN", "(_2,_4,_1):(_1,_2,_0)"),
        ("SM70_8x8x4_F32F16F16F32_NT", "(_2,_2,_1):(_1,_2,_0)"),
        ("SM80_8x8x4_F64F64F64F64_TN", "(_1,_2,_1):(_0,_1,_0)"),
        ("SM90_64x64x16_F16F16F16_RS", "(_2,_1,_1):(_1,_0,_0)"),
        ("SM61_DP4A", "(_4,_8,_1):(_8,_1,_0)"),
    ];
    for (name, al) in cases {
        let t = tiled(name, al, None);
        let nthr = alg::size(&t.thr_layout_vmnk).expect("size").v;
        let ts: Vec<i64> = (0..3).map(|i| t.tile_size(i).expect("tile").v).collect();
        for (op, r, c) in [(Operand::A, 0, 2), (Operand::B, 1, 2), (Operand::C, 0, 1)] {
            // two tiles in each direction, row-major to make it interesting
            let (rows, cols) = (2 * ts[r], 2 * ts[c]);
            let l = Layout::new(
                IntTuple::T(vec![IntTuple::st(rows), IntTuple::st(cols)]),
                IntTuple::T(vec![IntTuple::st(cols), IntTuple::st(1)]),
            );
            let mut all = Vec::new();
            for thr in 0..nthr {
                all.extend(partition_values(&t.partition(op, thr, &Source::Plain(l.clone())).expect("partition")));
            }
            let per = covers_evenly(&all, rows * cols).unwrap_or_else(|e| panic!("{name} {op:?}: {e}"));
            if op == Operand::C {
                assert_eq!(per, 1, "{name}: C partitions are disjoint");
            }
        }
    }
}

fn atom(op: &str, ty: &str) -> cp::CopyAtom {
    let c = copy_table::lookup(op, &[]).expect("known").expect("traits");
    cp::make_copy_atom(c, ty, cute::eval::atoms::types::value_type_bits(ty).expect("type")).expect("atom")
}

/// retile round trip: the register that retile_D names for each destination element of the copy
/// is the register in which the MMA expects that element.
#[test]
fn law_retile_round_trips_with_the_mma_fragment() {
    let cases = [
        ("SM75_U32x4_LDSM_N", Operand::A, "(_2,_2,_1):(_1,_2,_0)", None),
        ("SM75_U16x8_LDSM_T", Operand::A, "(_2,_2,_1):(_1,_2,_0)", None),
        ("SM75_U32x2_LDSM_N", Operand::B, "(_2,_2,_1):(_1,_2,_0)", None),
        ("SM90_U32x4_STSM_N", Operand::C, "(_2,_2,_1):(_1,_2,_0)", Some("(_32,_32,_16)")),
    ];
    for (op, which, al, perm) in cases {
        let perm =
            perm.map(|p| Tl::from_shape(&cute::eval::atoms::lit::parse_tuple(p).expect("tuple")).expect("tiler"));
        let t = tiled("SM80_16x8x16_F16F16F16F16_TN", al, perm);
        let a = atom(op, "half_t");
        let c = cp::make_tiled_copy_mma(a, &t, which).expect("tiled copy");
        let (r, cc) = match which {
            Operand::A => (0, 2),
            Operand::B => (1, 2),
            Operand::C => (0, 1),
        };
        let x = alg::make_layout(&IntTuple::T(vec![
            IntTuple::I(t.tile_size(r).expect("t")),
            IntTuple::I(t.tile_size(cc).expect("t")),
        ]))
        .expect("x");
        let side = if which == Operand::C { Side::S } else { Side::D };
        for thr in [0, 1, 5, 37, 127] {
            let pm = t.partition(which, thr, &Source::Plain(x.clone())).expect("mma partition");
            let frag = alg::make_layout(&pm.layout.shape).expect("fragment");
            let re = c.retile(&frag).expect("retile");
            let pc = c.partition(side, thr, &Source::Plain(x.clone())).expect("copy partition");
            // register -> fragment coordinate index (frag is compact, so the inverse is a table)
            let fvals = values_of(&frag);
            let mut reg2crd = vec![0usize; fvals.len()];
            for (i, &v) in fvals.iter().enumerate() {
                reg2crd[v as usize] = i;
            }
            let mvals = partition_values(&pm);
            let cvals = partition_values(&pc);
            let rvals = values_of(&re);
            assert_eq!(cvals.len(), rvals.len(), "{op} thr {thr}");
            let mut seen = vec![false; fvals.len()];
            for (i, &reg) in rvals.iter().enumerate() {
                seen[reg as usize] = true;
                assert_eq!(cvals[i], mvals[reg2crd[reg as usize]], "{op} thr {thr} element {i}");
            }
            assert!(seen.iter().all(|&s| s), "{op} thr {thr}: retile is a permutation of the fragment");
        }
    }
}
