//! The GEMM kernel's index arithmetic against the layout algebra (CPU only).
//!
//! Every expression the generator emits (copy coordinates, shared and global offsets with their
//! per-step constants, ldmatrix lane maps and addresses, accumulator coordinates) is
//! interpreted on the host and compared with the layouts' values at every point of its domain,
//! for every configuration of `gemm_common`. The edge handling of odd sizes is checked by
//! running the generated copy and store maps over whole problems.

mod gemm_common;

use cute::eval::builtins;
use cute::eval::int_tuple::{IntTuple, V};
use cute::eval::layout::{Func, Layout};
use cute::eval::value::Value;
use cute::runtime::config::{self, GemmConfig, Major, Operand};
use cute::runtime::expr::Expr;
use cute::runtime::kernel::{self, Access, OperandPlan};
use std::collections::HashSet;

// ---------------------------------------------------------------------------------------------
// Reference evaluation of layout values, written from CuTe's definitions, independent of the
// generator's lowering: crd2idx (colexicographic, the last mode takes the remainder),
// Swizzle::apply, ComposedLayout = outer(offset + inner(crd)).

fn leaves(t: &IntTuple) -> Vec<i64> {
    t.leaves()
        .iter()
        .map(|l| match l {
            IntTuple::I(i) => i.v,
            other => panic!("not an integer: {other}"),
        })
        .collect()
}

fn size(t: &IntTuple) -> i64 {
    leaves(t).iter().product()
}

fn crd2idx_int(c: i64, shape: &IntTuple, stride: &IntTuple) -> i64 {
    match (shape.view(), stride.view()) {
        (V::T(ss), V::T(ds)) => {
            let mut acc = 0;
            let mut c = c;
            for (i, (s, d)) in ss.iter().zip(ds.iter()).enumerate() {
                if i + 1 == ss.len() {
                    acc += crd2idx_int(c, s, d);
                } else {
                    acc += crd2idx_int(c % size(s), s, d);
                    c /= size(s);
                }
            }
            acc
        }
        (V::I(_), V::I(d)) => c * d.v,
        _ => panic!("incongruent {shape} {stride}"),
    }
}

fn layout_eval(l: &Layout, crd: &[i64]) -> i64 {
    if crd.len() == 1 {
        return crd2idx_int(crd[0], &l.shape, &l.stride);
    }
    let (ss, ds) = (l.shape.modes(), l.stride.modes());
    assert_eq!(ss.len(), crd.len(), "coordinate rank for {l}");
    crd.iter().zip(ss.iter().zip(&ds)).map(|(c, (s, d))| crd2idx_int(*c, s, d)).sum()
}

fn func_eval(f: &Func, crd: &[i64]) -> i64 {
    match f {
        Func::Layout(l) => layout_eval(l, crd),
        Func::Swizzle(sw) => {
            assert_eq!(crd.len(), 1);
            let x = crd[0];
            let yyy = ((1i64 << sw.b) - 1) << (sw.m + sw.s.max(0));
            let t = x & yyy;
            x ^ if sw.s >= 0 { t >> sw.s } else { t << -sw.s }
        }
        Func::Composed(c) => func_eval(&c.outer, &[c.offset.v + func_eval(&c.inner, crd)]),
    }
}

/// The layout algebra's value of `v` at `crd` (the evaluator behind `L(i, j, ...)`).
fn eval(v: &Value, crd: &[i64]) -> i64 {
    let mut args = vec![v.clone()];
    args.extend(crd.iter().map(|&c| Value::Tuple(IntTuple::dy(c))));
    match builtins::call("__apply", &[], &args) {
        Ok(Value::Tuple(IntTuple::I(i))) => {
            debug_assert_eq!(i.v, direct_eval(v, crd), "{v} at {crd:?}: the algebra and CuTe's definition differ");
            i.v
        }
        other => panic!("{v} at {crd:?}: {other:?}"),
    }
}

/// The same from CuTe's definitions directly (for the whole-problem coverage runs).
fn direct_eval(v: &Value, crd: &[i64]) -> i64 {
    match v {
        Value::Layout(l) => layout_eval(l, crd),
        Value::Composed(c) => func_eval(&c.outer, &[c.offset.v + func_eval(&c.inner, crd)]),
        Value::Swizzle(s) => func_eval(&Func::Swizzle(*s), crd),
        other => panic!("not a layout: {other}"),
    }
}

// ---------------------------------------------------------------------------------------------

fn ev(e: &Expr, env: &[(&str, i64)]) -> i64 {
    e.eval(&|n| env.iter().find(|(k, _)| *k == n).map(|(_, v)| *v).unwrap_or_else(|| panic!("unbound {n} in {e}")))
        .unwrap_or_else(|| panic!("cannot evaluate {e}"))
}

fn access(a: &Access, base: i64, env: &[(&str, i64)]) -> i64 {
    a.apply(base, &|n| env.iter().find(|(k, _)| *k == n).map(|(_, v)| *v).unwrap_or(0)).expect("access")
}

fn configs() -> Vec<(String, GemmConfig)> {
    gemm_common::configurations()
        .into_iter()
        .map(|(d, (m, n, k, opts))| {
            let c = config::parse(m, n, k, &opts).unwrap_or_else(|e| panic!("{d}: {e}"));
            (d, c)
        })
        .collect()
}

/// The copy vector's first element for thread `tid`: the thread layout maps
/// (row vector index, k vector index) -> tid, vectors are 8 elements along the contiguous dim.
fn check_copy(d: &str, cfg: &GemmConfig, op: &Operand, p: &OperandPlan) {
    let n = op.name;
    let threads = cfg.threads();
    let mut written = HashSet::new();
    let cl = Value::Layout(op.copy.clone());
    let vars = (format!("c{n}_mn"), format!("c{n}_k"));
    for tid in 0..threads {
        let mn = ev(&p.copy_mn, &[("tid", tid)]);
        let k = ev(&p.copy_k, &[("tid", tid)]);
        let (a, b) = match op.major {
            Major::K => (mn, k / 8),
            Major::MN => (mn / 8, k),
        };
        assert_eq!(eval(&cl, &[a, b]), tid, "{d}: copy_{n} coordinate of thread {tid}");
        let env = [(vars.0.as_str(), mn), (vars.1.as_str(), k)];
        let base = ev(&p.store, &env);
        assert_eq!(base, eval(&op.smem, &[mn, k, 0]), "{d}: smem_{n} store base, thread {tid}");
        for (s, (&(dm, dk), acc)) in p.copy_steps.iter().zip(&p.store_steps).enumerate() {
            for stage in 0..cfg.stages {
                let got = access(acc, base, &env) + stage * op.stage_stride;
                let (m2, k2) = (mn + dm, k + dk);
                assert_eq!(got, eval(&op.smem, &[m2, k2, stage]), "{d}: smem_{n} step {s} stage {stage} thread {tid}");
            }
            // the 8 elements of the vector: contiguous in shared memory (stage 0)
            let got = access(acc, base, &env);
            for e in 0..8 {
                let (m3, k3) = if op.major == Major::K { (mn + dm, k + dk + e) } else { (mn + dm + e, k + dk) };
                assert_eq!(got + e, eval(&op.smem, &[m3, k3, 0]), "{d}: smem_{n} vector element {e}");
                assert!(written.insert((m3, k3)), "{d}: copy_{n} writes ({m3},{k3}) twice");
            }
            // global offset of the step, for every block index and a few k-tiles
            let blocks = (op.extent_mn + op.tile_mn - 1) / op.tile_mn;
            for bx in [0, blocks / 2, blocks - 1] {
                let bname = if n == 'a' { "bm" } else { "bn" };
                let genv = [(bname, bx), (vars.0.as_str(), mn), (vars.1.as_str(), k)];
                let gbase = ev(&p.gmem, &genv);
                let kts = (cfg.k + cfg.bk - 1) / cfg.bk;
                for kt in [0, kts - 1] {
                    let got = gbase + p.gmem_steps[s] + kt * p.gmem_ktile;
                    let want =
                        eval(&Value::Layout(op.gmem.clone()), &[bx * op.tile_mn + mn + dm, kt * cfg.bk + k + dk]);
                    assert_eq!(got, want, "{d}: g{n} offset, block {bx} k-tile {kt} step {s} thread {tid}");
                }
            }
        }
    }
    assert_eq!(written.len() as i64, op.tile_mn * cfg.bk, "{d}: copy_{n} covers the tile");
}

/// ldmatrix: the lane maps are the PTX fragment layouts; the addresses are smem at those points.
fn check_ldmatrix(d: &str, cfg: &GemmConfig, op: &Operand, p: &OperandPlan) {
    let n = op.name;
    let lm = Value::Layout(kernel::ldmatrix_layout(n, op.major));
    let (wcount, wname) = if n == 'a' { (cfg.wm, "warp_m") } else { (cfg.wn, "warp_n") };
    // tile row of ldmatrix row mn of the warp's 16-row block i (checked against CuTe's
    // partitions in `the_kernel_partitions_the_tile_as_its_tiled_mma`)
    let rows = kernel::row_map(cfg, n);
    let row = |w: i64, i: i64, mn: i64| -> i64 {
        if n == 'a' {
            rows.eval(mn, w, i).unwrap()
        } else {
            rows.eval(mn % 8, w, 2 * i + mn / 8).unwrap()
        }
    };
    for lane in 0..32 {
        let mn = ev(&p.ld_mn, &[("lane", lane)]);
        let k = ev(&p.ld_k, &[("lane", lane)]);
        let idx = eval(&lm, &[lane]);
        assert_eq!((mn, k), (idx % 16, idx / 16), "{d}: ldmatrix lane map {n} lane {lane}");
        // PTX: matrix q = lane / 8 takes the address of lane 8q + r for its row r.
        let (q, r) = (lane / 8, lane % 8);
        let want = match (n, op.major) {
            ('a', Major::K) => (r + 8 * (q % 2), 8 * (q / 2)),
            ('a', Major::MN) => (8 * (q % 2), r + 8 * (q / 2)),
            (_, Major::K) => (r + 8 * (q / 2), 8 * (q % 2)),
            (_, Major::MN) => (8 * (q / 2), r + 8 * (q % 2)),
        };
        assert_eq!((mn, k), want, "{d}: ldmatrix {n} lane {lane} vs the mma fragment order");
        let lmn = format!("l{n}_mn");
        let lk = format!("l{n}_k");
        for w in 0..wcount {
            let env = [(wname, w), (lmn.as_str(), mn), (lk.as_str(), k)];
            let base = ev(&p.ld, &env);
            assert_eq!(base, eval(&op.smem, &[row(w, 0, mn), k, 0]), "{d}: ldmatrix {n} base");
            for (kk, steps) in p.ld_steps.iter().enumerate() {
                for (i, acc) in steps.iter().enumerate() {
                    let got = access(acc, base, &env);
                    let want = eval(&op.smem, &[row(w, i as i64, mn), k + 16 * kk as i64, 0]);
                    assert_eq!(got, want, "{d}: ldmatrix {n} k-step {kk} block {i} warp {w} lane {lane}");
                }
            }
        }
    }
}

#[test]
fn lowered_maps_equal_the_layouts_everywhere() {
    for (d, cfg) in configs() {
        let p = kernel::plan(&cfg).unwrap_or_else(|e| panic!("{d}: {e}"));
        // warp coordinates invert the warp layout
        let wl = Value::Layout(cfg.warps.clone());
        for w in 0..cfg.wm * cfg.wn {
            let (a, b) = (ev(&p.warp_m, &[("warp", w)]), ev(&p.warp_n, &[("warp", w)]));
            assert_eq!(eval(&wl, &[a, b]), w, "{d}: warp {w}");
        }
        check_copy(&d, &cfg, &cfg.a, &p.a);
        check_copy(&d, &cfg, &cfg.b, &p.b);
        check_ldmatrix(&d, &cfg, &cfg.a, &p.a);
        check_ldmatrix(&d, &cfg, &cfg.b, &p.b);
        // accumulators: SM80_16x8_Row, and the PTX fragment (row = lane/4 + 8*(v/2), col = 2*(lane%4) + v%2)
        let cl = Value::Layout(cfg.atom.c.clone());
        for lane in 0..32 {
            let (m, n) = (ev(&p.c_m, &[("lane", lane)]), ev(&p.c_n, &[("lane", lane)]));
            for v in 0..4 {
                let idx = eval(&cl, &[lane, v]);
                let (dm, dn) = p.c_vals[v as usize];
                assert_eq!((m + dm, n + dn), (idx % 16, idx / 16), "{d}: C layout lane {lane} value {v}");
                assert_eq!((m + dm, n + dn), (lane / 4 + 8 * (v / 2), 2 * (lane % 4) + v % 2), "{d}: mma C fragment");
            }
        }
    }
}

/// Odd sizes: over the whole problem, the predicated copies load every in-bounds element of A
/// and B exactly once per k-tile position and never touch one outside; the epilogue writes
/// every C element exactly once. Uses the generated maps and the predicates as emitted
/// (first element of each sub-vector against the extent).
#[test]
fn predicated_edges_cover_odd_problems_exactly() {
    let mut thousand = 0;
    for (d, cfg) in configs() {
        // the 257x129xK problems, and the first two 1000^3 ones (CPU time is shared)
        if cfg.m == 1000 {
            thousand += 1;
        }
        if cfg.m * cfg.n > 1 << 20 || (cfg.m == 1000 && thousand > 2) {
            continue;
        }
        let p = kernel::plan(&cfg).unwrap();
        for (op, pl) in [(&cfg.a, &p.a), (&cfg.b, &p.b)] {
            let n = op.name;
            let blocks = (op.extent_mn + op.tile_mn - 1) / op.tile_mn;
            let kts = (cfg.k + cfg.bk - 1) / cfg.bk;
            let mut loaded = vec![0u8; (op.extent_mn * cfg.k) as usize];
            for bx in 0..blocks {
                for kt in 0..kts {
                    for tid in 0..cfg.threads() {
                        let mn = ev(&pl.copy_mn, &[("tid", tid)]);
                        let k = ev(&pl.copy_k, &[("tid", tid)]);
                        for &(dm, dk) in &pl.copy_steps {
                            for q in 0..8 / op.vec {
                                let (qm, qk) = if op.major == Major::K { (0, q * op.vec) } else { (q * op.vec, 0) };
                                let (gm, gk) = (bx * op.tile_mn + mn + dm + qm, kt * cfg.bk + k + dk + qk);
                                let pred = gm < op.extent_mn && gk < cfg.k;
                                let elems: Vec<(i64, i64)> = (0..op.vec)
                                    .map(|e| if op.major == Major::K { (gm, gk + e) } else { (gm + e, gk) })
                                    .collect();
                                let inside =
                                    elems.iter().filter(|(a, b)| *a < op.extent_mn && *b < cfg.k).count() as i64;
                                assert!(inside == 0 || inside == op.vec, "{d}: {n} vector partly outside");
                                assert_eq!(pred, inside == op.vec, "{d}: {n} predicate at ({gm},{gk})");
                                if pred {
                                    for (a, b) in elems {
                                        let off = direct_eval(&Value::Layout(op.gmem.clone()), &[a, b]);
                                        assert!(
                                            off >= 0 && off < op.extent_mn * cfg.k,
                                            "{d}: {n} offset {off} outside"
                                        );
                                        loaded[(a * cfg.k + b) as usize] += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
            // each element is loaded once per block of the other operand's dimension: once here
            assert!(loaded.iter().all(|&c| c as i64 == 1), "{d}: {n} elements loaded != once");
        }
        // epilogue coverage
        let mut written = vec![0u8; (cfg.m * cfg.n) as usize];
        let gm = (cfg.m + cfg.bm - 1) / cfg.bm;
        let gn = (cfg.n + cfg.bn - 1) / cfg.bn;
        for bm in 0..gm {
            for bn in 0..gn {
                for tid in 0..cfg.threads() {
                    for (tm, tn) in accumulator_coords(&p, tid) {
                        let (m, n) = (bm * cfg.bm + tm, bn * cfg.bn + tn);
                        if m < cfg.m && n < cfg.n {
                            let off = direct_eval(&Value::Layout(cfg.gmem_c.clone()), &[m, n]);
                            written[off as usize] += 1;
                        }
                    }
                }
            }
        }
        assert!(written.iter().all(|&c| c == 1), "{d}: C elements written != once");
    }
}

#[test]
fn emitted_source_uses_the_lowered_expressions() {
    for (d, cfg) in configs() {
        let p = kernel::plan(&cfg).unwrap();
        let src = kernel::generate(&cfg).unwrap();
        for (name, e) in [
            ("ca_mn", &p.a.copy_mn),
            ("ca_k", &p.a.copy_k),
            ("ca_s", &p.a.store),
            ("la_mn", &p.a.ld_mn),
            ("la_s", &p.a.ld),
            ("cb_s", &p.b.store),
            ("lb_s", &p.b.ld),
            ("c_m", &p.c_m),
            ("c_n", &p.c_n),
            ("warp_m", &p.warp_m),
        ] {
            let line = format!("const int {name} = {e};");
            assert!(src.contains(&line), "{d}: the source lacks `{line}`");
        }
    }
}

/// The registers ldmatrix delivers (PTX: thread t gets row t/4, columns 2(t%4), 2(t%4)+1 of
/// each 8x8 matrix; `.trans` the transpose) hold exactly the elements the MMA atom's
/// LayoutA_TV / LayoutB_TV (from the atoms module) assign to that thread and value.
#[test]
fn ldmatrix_fragments_match_the_atom_tv_layouts() {
    for (d, cfg) in configs() {
        let p = kernel::plan(&cfg).unwrap();
        for (op, pl, tv) in [(&cfg.a, &p.a, &cfg.atom.a), (&cfg.b, &p.b, &cfg.atom.b)] {
            let tv = Value::Layout(tv.clone());
            let lane_mn = |l: i64| ev(&pl.ld_mn, &[("lane", l)]);
            let lane_k = |l: i64| ev(&pl.ld_k, &[("lane", l)]);
            for t in 0..32 {
                for q in 0..4 {
                    for h in 0..2 {
                        // element (mn, k) of the 16x16 block in register q, half h, of thread t
                        let (mn, k) = if op.major == Major::K {
                            let l = 8 * q + t / 4;
                            (lane_mn(l), lane_k(l) + 2 * (t % 4) + h)
                        } else {
                            let l = 8 * q + 2 * (t % 4) + h;
                            (lane_mn(l) + t / 4, lane_k(l))
                        };
                        if op.name == 'a' {
                            // a0..a3 = values 2q + h of the 16x16 (m,k) atom tile: index m + 16k
                            assert_eq!(eval(&tv, &[t, 2 * q + h]), mn + 16 * k, "{d}: A fragment t{t} q{q} h{h}");
                        } else {
                            // registers 0,1 -> n-block 0 (b0, b1), 2,3 -> n-block 1: index n + 8k
                            let (nb, j) = (q / 2, q % 2);
                            assert_eq!(
                                eval(&tv, &[t, 2 * j + h]),
                                (mn - 8 * nb) + 8 * k,
                                "{d}: B fragment t{t} q{q} h{h}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The padded, swizzled layout of `gemm_common` really exercises the full-expression path.
#[test]
fn some_accesses_use_the_full_expression() {
    let (d, cfg) = configs().into_iter().find(|(d, _)| d.contains("(_8,_64):(_72,_1)")).expect("the padded case");
    let p = kernel::plan(&cfg).unwrap();
    let full = p.a.ld_steps.iter().flatten().filter(|a| matches!(a, Access::Full(_))).count();
    assert!(full > 0, "{d}: expected some full-expression ldmatrix addresses");
}

/// The tile coordinates (m, n) of thread `tid`'s accumulators, as the generated epilogue
/// computes them (`c_r0`/`c_c0` and the per-atom accesses of the plan).
fn accumulator_coords(p: &kernel::Plan, tid: i64) -> Vec<(i64, i64)> {
    let (lane, warp) = (tid % 32, tid / 32);
    let (wm, wn) = (ev(&p.warp_m, &[("warp", warp)]), ev(&p.warp_n, &[("warp", warp)]));
    let (cm, cn) = (ev(&p.c_m, &[("lane", lane)]), ev(&p.c_n, &[("lane", lane)]));
    let renv = [("c_m", cm), ("warp_m", wm)];
    let cenv = [("c_n", cn), ("warp_n", wn)];
    let (r0, c0) = (ev(&p.c_r0, &renv), ev(&p.c_c0, &cenv));
    let mut out = Vec::new();
    for rows in &p.c_rows {
        for cols in &p.c_cols {
            for v in 0..p.c_vals.len() {
                out.push((r0 + rows[v], c0 + cols[v]));
            }
        }
    }
    out
}

/// The kernel computes what its tiled MMA (the `.cute` expression in the source's header, with
/// its permutations) assigns: for every thread, the accumulator coordinates equal the thread's
/// `partition_C` of the tile, and the rows of A and B the ldmatrix addresses use (with the atom's
/// TV layouts) equal its `partition_A`/`partition_B` (first k-step). CuTe's partitions come from
/// the atoms module (identical to CuTe on the oracle cases).
#[test]
fn the_kernel_partitions_the_tile_as_its_tiled_mma() {
    use cute::eval::atoms::mma::Operand as Op;
    use cute::eval::atoms::tensor::Source;
    use cute::eval::atoms::AtomValue;
    let mut permuted = 0;
    for (d, cfg) in configs() {
        let p = kernel::plan(&cfg).unwrap();
        let tiled = match gemm_common::value_of(&cfg.tiled_mma) {
            Value::Atom(a) => match *a {
                AtomValue::TiledMma(t) => t,
                other => panic!("{d}: {} is {other}", cfg.tiled_mma),
            },
            other => panic!("{d}: {} is {other}", cfg.tiled_mma),
        };
        if d.contains("TiledMMA") && !d.contains("PermutationMNK: (_,_,_)") {
            permuted += 1;
        }
        let cl = |r: i64, c: i64| Layout::new(gemm_common::t(&[r, c]), gemm_common::t(&[1, r]));
        let image = |op: Op, tid: i64, rows: i64, cols: i64| -> Vec<(i64, i64)> {
            let part = tiled.partition(op, tid, &Source::Plain(cl(rows, cols))).unwrap_or_else(|e| panic!("{d}: {e}"));
            let off = match part.offset {
                IntTuple::I(i) => i.v,
                other => panic!("{d}: offset {other}"),
            };
            let n = size(&part.layout.shape);
            let mut v: Vec<(i64, i64)> = (0..n)
                .map(|j| {
                    let x = off + crd2idx_int(j, &part.layout.shape, &part.layout.stride);
                    (x % rows, x / rows)
                })
                .collect();
            v.sort();
            v
        };
        let (ra, rb) = (kernel::row_map(&cfg, 'a'), kernel::row_map(&cfg, 'b'));
        let tva = Value::Layout(cfg.atom.a.clone());
        let tvb = Value::Layout(cfg.atom.b.clone());
        for tid in 0..cfg.threads() {
            let (lane, warp) = (tid % 32, tid / 32);
            let (wm, wn) = (ev(&p.warp_m, &[("warp", warp)]), ev(&p.warp_n, &[("warp", warp)]));
            let mut c = accumulator_coords(&p, tid);
            c.sort();
            assert_eq!(c, image(Op::C, tid, cfg.bm, cfg.bn), "{d}: thread {tid}: accumulators vs partition_C");
            let mut a = Vec::new();
            for i in 0..cfg.bm / cfg.wm / 16 {
                for v in 0..8 {
                    let x = eval(&tva, &[lane, v]);
                    a.push((ra.eval(x % 16, wm, i).unwrap(), x / 16));
                }
            }
            a.sort();
            assert_eq!(a, image(Op::A, tid, cfg.bm, 16), "{d}: thread {tid}: A fragments vs partition_A");
            let mut b = Vec::new();
            for j in 0..cfg.bn / cfg.wn / 8 {
                for v in 0..4 {
                    let x = eval(&tvb, &[lane, v]);
                    b.push((rb.eval(x % 8, wn, j).unwrap(), x / 8));
                }
            }
            b.sort();
            assert_eq!(b, image(Op::B, tid, cfg.bn, 16), "{d}: thread {tid}: B fragments vs partition_B");
        }
    }
    assert!(permuted >= 4, "the permuted tiled MMA configurations are exercised ({permuted})");
}
