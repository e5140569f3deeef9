//! Atoms (issue 4): the laws of thread-value layouts, calling the atoms API directly. (Every
//! MMA/copy golden record and oracle case is replayed by `tests/oracle.rs`.)

use cute::eval::int::Int;
use cute::eval::int_tuple::IntTuple;
use cute::eval::layout::Layout;

// ------------------------------------------------------------------------------------------
// Laws
// ------------------------------------------------------------------------------------------

use cute::eval::atoms::copy::{self as cp, Side};
use cute::eval::atoms::mma::{self, Operand, TiledMma};
use cute::eval::atoms::tensor::{Partition, Source};
use cute::eval::atoms::{copy_table, mma_table};
use cute::eval::builtins::TArg;
use cute::eval::ops::algebra::Tiler;
use cute::eval::ops::{coord as oc, structure as os};

fn values_of(l: &Layout) -> Vec<i64> {
    let n = os::size(l).expect("size").v;
    (0..n)
        .map(|i| {
            oc::crd2idx(&IntTuple::I(Int::new(i, false)), &l.shape, &l.stride).expect("eval").as_int().expect("eval").v
        })
        .collect()
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
                let thr = os::layout_get(l, &[0]).expect("mode");
                assert!(
                    thr.stride.leaves().iter().all(|d| d.as_int().expect("int").v == 0),
                    "{name} {what}: thread stride"
                );
                let per = covers_evenly(&values_of(&os::layout_get(l, &[1]).expect("mode")), tile)
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

fn tiled(name: &str, atom_layout: &str, perm: Option<Tiler>) -> TiledMma {
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
        let nthr = os::size(&t.thr_layout_vmnk).expect("size").v;
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
            perm.map(|p| Tiler::from_shape(&cute::eval::atoms::lit::parse_tuple(p).expect("tuple")).expect("tiler"));
        let t = tiled("SM80_16x8x16_F16F16F16F16_TN", al, perm);
        let a = atom(op, "half_t");
        let c = cp::make_tiled_copy_mma(a, &t, which).expect("tiled copy");
        let (r, cc) = match which {
            Operand::A => (0, 2),
            Operand::B => (1, 2),
            Operand::C => (0, 1),
        };
        let x = os::make_layout(&IntTuple::T(vec![
            IntTuple::I(t.tile_size(r).expect("t")),
            IntTuple::I(t.tile_size(cc).expect("t")),
        ]))
        .expect("x");
        let side = if which == Operand::C { Side::S } else { Side::D };
        for thr in [0, 1, 5, 37, 127] {
            let pm = t.partition(which, thr, &Source::Plain(x.clone())).expect("mma partition");
            let frag = os::make_layout(&pm.layout.shape).expect("fragment");
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
