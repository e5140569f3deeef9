//! CUDA source generation for the multistage `mma.sync` GEMM.
//!
//! Every address the kernel computes comes from a layout of the configuration, lowered with
//! `lower` to an `Expr` (`plan`): the copy thread layouts (thread -> tile coordinate), the
//! shared-memory layouts (tile coordinate -> offset, swizzle included), the ldmatrix lane maps
//! and the MMA accumulator layout (lane, value -> tile coordinate), the global layouts. Each
//! per-thread expression is computed once; the addresses of the unrolled iterations are that
//! value with constants applied, `(base ^ x) + d`, where x and d are found on the host and the
//! identity is checked on the host for every thread before anything is emitted (when no such
//! constants exist the full expression is emitted for that access instead).
//! May import: `eval` (values), `runtime::{config, expr, lower}`.
#![allow(clippy::type_complexity)]

use super::config::{round_up, DType, GemmConfig, Major, Operand};
use super::expr::{add, div, lit, mul, rem, var, Expr};
use super::lower::{inverse_coords, layout_at_idx, value_at};
use crate::eval::error::{EvalError, R};
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::Layout;
use std::fmt::Write;

/// How one unrolled access is computed from the per-thread base.
#[derive(Clone, Debug, PartialEq)]
pub enum Access {
    /// `(base ^ x) + d`
    Fast { x: i64, d: i64 },
    /// No constant form holds for all threads: the full expression.
    Full(Expr),
}

impl Access {
    pub fn apply(&self, base: i64, env: &dyn Fn(&str) -> i64) -> Option<i64> {
        match self {
            Access::Fast { x, d } => Some((base ^ x) + d),
            Access::Full(e) => e.eval(env),
        }
    }
    fn c(&self, base: &str) -> String {
        match self {
            Access::Fast { x: 0, d: 0 } => base.to_string(),
            Access::Fast { x: 0, d } => format!("{base} + {d}"),
            Access::Fast { x, d: 0 } => format!("({base} ^ {x})"),
            Access::Fast { x, d } => format!("({base} ^ {x}) + {d}"),
            Access::Full(e) => format!("({e})"),
        }
    }
}

fn layout(shape: &[i64], stride: &[i64]) -> Layout {
    Layout::new(
        IntTuple::T(shape.iter().map(|&x| IntTuple::st(x)).collect()),
        IntTuple::T(stride.iter().map(|&x| IntTuple::st(x)).collect()),
    )
}

/// ldmatrix.x4 lane map of an operand: lane -> column-major index `mn + 16*k` in the 16x16
/// (mn, k) block the four 8x8 matrices cover, in the order the MMA fragments need
/// (A: a0..a3 = (m0,k0) (m8,k0) (m0,k8) (m8,k8); B: (n0,k0) (n0,k8) (n8,k0) (n8,k8)).
/// K-major operands use ldmatrix (each lane points at 8 k-consecutive elements), M/N-major
/// ones ldmatrix.trans (each lane points at 8 mn-consecutive elements).
pub fn ldmatrix_layout(op: char, major: Major) -> Layout {
    match (op, major) {
        ('a', Major::K) => layout(&[8, 2, 2], &[1, 8, 128]),
        ('a', Major::MN) => layout(&[8, 2, 2], &[16, 8, 128]),
        (_, Major::K) => layout(&[8, 2, 2], &[1, 128, 8]),
        (_, Major::MN) => layout(&[8, 2, 2], &[16, 128, 8]),
    }
}

/// Split a layout into tile coordinates: `idx -> (idx % rows, idx / rows)` as two layouts of
/// the same domain, possible when every stride moves along one coordinate only.
pub(crate) fn split_coords(l: &Layout, rows: i64, x: Expr) -> R<(Expr, Expr)> {
    let mut s0 = Vec::new();
    let mut s1 = Vec::new();
    for d in super::lower::int_leaves(&l.stride)? {
        if d < rows {
            s0.push(IntTuple::st(d));
            s1.push(IntTuple::st(0));
        } else if d % rows == 0 {
            s0.push(IntTuple::st(0));
            s1.push(IntTuple::st(d / rows));
        } else {
            return Err(EvalError::runtime("gemm", format!("stride {d} of {l} mixes coordinates")));
        }
    }
    let shape = IntTuple::T(l.shape.leaves());
    let l0 = Layout::new(shape.clone(), IntTuple::T(s0));
    let l1 = Layout::new(shape, IntTuple::T(s1));
    Ok((layout_at_idx(&l0, x.clone())?, layout_at_idx(&l1, x)?))
}

/// Tile rows (or columns) in the tiled MMA's order: `(r, w, blk) -> perm(r + atom * (w + W * blk))`
/// for row r of the blk-th atom of warp w (`GemmConfig::perm_m`/`perm_n`). Lowered from the
/// composition `perm o (atom, W, blocks):(1, atom, atom W)` when the algebra gives one (clean
/// expressions: `r + 64 * w` for contiguous warp blocks), else from `perm` at the index.
pub struct RowMap {
    perm: Layout,
    atom: i64,
    w: i64,
    comp: Option<Layout>,
}

impl RowMap {
    pub fn new(perm: &Layout, atom: i64, w: i64, extent: i64) -> RowMap {
        let blocks = extent / (atom * w);
        let idx = layout(&[atom, w, blocks], &[1, atom, atom * w]);
        let comp = crate::eval::ops::algebra::composition_raw(perm, &idx).ok().filter(|c| {
            c.shape.modes().len() == 3
                && (0..atom).all(|r| {
                    (0..w).all(|ww| {
                        (0..blocks).all(|b| {
                            let via = super::lower::layout_at_crd(c, &[lit(r), lit(ww), lit(b)])
                                .ok()
                                .and_then(|e| e.as_lit());
                            let direct =
                                layout_at_idx(perm, lit(r + atom * (ww + w * b))).ok().and_then(|e| e.as_lit());
                            via.is_some() && via == direct
                        })
                    })
                })
        });
        RowMap { perm: perm.clone(), atom, w, comp }
    }
    pub fn at(&self, r: Expr, w: Expr, blk: Expr) -> R<Expr> {
        match &self.comp {
            Some(c) => super::lower::layout_at_crd(c, &[r, w, blk]),
            None => layout_at_idx(&self.perm, add(add(r, mul(w, lit(self.atom))), mul(blk, lit(self.atom * self.w)))),
        }
    }
    /// On the host.
    pub fn eval(&self, r: i64, w: i64, blk: i64) -> R<i64> {
        layout_at_idx(&self.perm, lit(r + self.atom * (w + self.w * blk)))?
            .as_lit()
            .ok_or_else(|| EvalError::runtime("gemm", "row map"))
    }
}

/// The row map of operand `a` (M rows, 16-row atoms) or `b` (N columns, 8-column atoms); the
/// accumulator uses both.
pub fn row_map(cfg: &GemmConfig, op: char) -> RowMap {
    if op == 'a' {
        RowMap::new(&cfg.perm_m, 16, cfg.wm, cfg.bm)
    } else {
        RowMap::new(&cfg.perm_n, 8, cfg.wn, cfg.bn)
    }
}

/// One operand's lowered index maps.
#[derive(Clone, Debug)]
pub struct OperandPlan {
    pub name: char,
    /// Thread `tid` -> (mn, k) of its first copied element (`ca_mn`, `ca_k`).
    pub copy_mn: Expr,
    pub copy_k: Expr,
    /// Copy steps: (d_mn, d_k) of step s (elements).
    pub copy_steps: Vec<(i64, i64)>,
    /// `S(ca_mn, ca_k, 0)` over the variables `c{a,b}_mn`, `c{a,b}_k`.
    pub store: Expr,
    /// Step s: `S(ca_mn + d_mn, ca_k + d_k, 0)` from the base.
    pub store_steps: Vec<Access>,
    /// `G(b{m,n}*tile + ca_mn, ca_k)` over `bm`/`bn`, `c?_mn`, `c?_k`.
    pub gmem: Expr,
    /// Step s: `G(d_mn, d_k)` (G is linear).
    pub gmem_steps: Vec<i64>,
    /// `G(0, BK)`: offset of the next k-tile.
    pub gmem_ktile: i64,
    /// Lane -> (mn, k) inside the 16x16 block (ldmatrix addresses).
    pub ld_mn: Expr,
    pub ld_k: Expr,
    /// `S(warp_x * warp_tile + l?_mn, l?_k, 0)` over `warp_m`/`warp_n`, `l?_mn`, `l?_k`.
    pub ld: Expr,
    /// [kk][i]: block i (16 rows) of k-step kk: `S(.. + 16 i, .. + 16 kk, 0)` from the base.
    pub ld_steps: Vec<Vec<Access>>,
}

/// All lowered maps of a configuration.
#[derive(Clone, Debug)]
pub struct Plan {
    pub warp_m: Expr,
    pub warp_n: Expr,
    pub a: OperandPlan,
    pub b: OperandPlan,
    /// Lane -> (m, n) of accumulator value 0 (`c_m`, `c_n`).
    pub c_m: Expr,
    pub c_n: Expr,
    /// Value v of an MMA: (dm, dn) relative to value 0 (checked for every lane).
    pub c_vals: Vec<(i64, i64)>,
    /// Tile row of value 0 of the warp's first M atom, over `c_m`, `warp_m`; column likewise.
    pub c_r0: Expr,
    pub c_c0: Expr,
    /// [i][v]: tile row of value v of the warp's i-th M atom minus `c_r0` (the same for every
    /// lane and warp); [j][v] columns likewise.
    pub c_rows: Vec<Vec<i64>>,
    pub c_cols: Vec<Vec<i64>>,
}

/// The accumulator's tile rows (`a`, over `c_m`/`warp_m`) or columns (`b`, over `c_n`/`warp_n`):
/// the base and, per atom and value, the access from it.
fn c_lines(cfg: &GemmConfig, op: char, c_first: &Expr, c_vals: &[(i64, i64)]) -> R<(Expr, Vec<Vec<i64>>)> {
    let rows = row_map(cfg, op);
    let (cname, wname, wcount, atoms) = if op == 'a' {
        ("c_m", "warp_m", cfg.wm, cfg.bm / cfg.wm / 16)
    } else {
        ("c_n", "warp_n", cfg.wn, cfg.bn / cfg.wn / 8)
    };
    let bad = || EvalError::runtime("gemm", "accumulator coordinates");
    let (lo, hi) = c_first.range().ok_or_else(bad)?;
    let base = rows.at(var(cname, lo, hi + 1), var(wname, 0, wcount), lit(0))?;
    // (first coordinate of the lane, warp) over every lane and warp
    let mut firsts = Vec::new();
    for w in 0..wcount {
        for l in 0..32 {
            firsts.push((c_first.eval(&|_| l).ok_or_else(bad)?, w));
        }
    }
    // A permutation CuTe accepts (its sizes divide into 16-row and 8-column atoms) moves every
    // accumulator by a constant from its thread's first one; the epilogue relies on that.
    let mut out = Vec::new();
    for blk in 0..atoms {
        let mut row = Vec::new();
        for &(dm, dn) in c_vals {
            let d = if op == 'a' { dm } else { dn };
            let mut delta = None;
            for &(c, w) in &firsts {
                let dd = rows.eval(c + d, w, blk)? - rows.eval(c, w, 0)?;
                if delta.is_some_and(|x| x != dd) {
                    return Err(EvalError::rule(
                        "gemm mma",
                        format!(
                            "{}: the accumulators of a thread are not at constant offsets from its first one",
                            cfg.tiled_mma
                        ),
                    ));
                }
                delta = Some(dd);
            }
            row.push(delta.unwrap_or(0));
        }
        out.push(row);
    }
    Ok((base, out))
}

/// Try to express `f(env, it)` as `(f(env, 0) ^ x) + d` for every env; else the full expression.
fn decompose(
    envs: &[Vec<(String, i64)>],
    base: &dyn Fn(&dyn Fn(&str) -> i64) -> Option<i64>,
    at: &dyn Fn(&dyn Fn(&str) -> i64) -> Option<i64>,
    full: Expr,
    prefer: Option<i64>,
) -> Access {
    // evaluate both sides once per environment
    let mut pairs = Vec::with_capacity(envs.len());
    for env in envs {
        let g = |n: &str| env.iter().find(|(k, _)| k == n).map(|(_, v)| *v).unwrap_or(0);
        match (base(&g), at(&g)) {
            (Some(b), Some(a)) => pairs.push((b, a)),
            _ => return Access::Full(full),
        }
    }
    let Some(&(b0, a0)) = pairs.first() else { return Access::Full(full) };
    // Candidates: the preferred xor, pure add, pure xor, then xor with the low differing bits.
    let mut cands = Vec::new();
    if let Some(x) = prefer {
        cands.push((x, a0 - (b0 ^ x)));
    }
    cands.extend([(0, a0 - b0), (b0 ^ a0, 0)]);
    for bit in 0..24 {
        let x = (b0 ^ a0) & ((1i64 << bit) - 1);
        cands.push((x, a0 - (b0 ^ x)));
    }
    for (x, d) in cands {
        if pairs.iter().all(|&(b, a)| (b ^ x) + d == a) {
            return Access::Fast { x, d };
        }
    }
    Access::Full(full)
}

fn operand_plan(cfg: &GemmConfig, op: &Operand, threads: i64) -> R<OperandPlan> {
    let n = op.name;
    let tid = var("tid", 0, threads);
    // copy: thread coordinate (in vectors) -> first element
    let tc = inverse_coords(&op.copy, tid)?;
    let (copy_mn, copy_k) = match op.major {
        Major::K => (tc[0].clone(), mul(tc[1].clone(), lit(8))),
        Major::MN => (mul(tc[0].clone(), lit(8)), tc[1].clone()),
    };
    let (cm, ck) = op.copy_tile;
    let mut copy_steps = Vec::new();
    for j in 0..cfg.bk / ck {
        for i in 0..op.tile_mn / cm {
            copy_steps.push((i * cm, j * ck));
        }
    }
    let (cmax_mn, cmax_k) = match op.major {
        Major::K => (cm, ck - 7),
        Major::MN => (cm - 7, ck),
    };
    let v_mn = var(&format!("c{n}_mn"), 0, cmax_mn);
    let v_k = var(&format!("c{n}_k"), 0, cmax_k);
    let store = value_at(&op.smem, &[v_mn.clone(), v_k.clone(), lit(0)])?;
    // all threads' coordinates
    let mut envs = Vec::new();
    for t in 0..threads {
        let env = |_: &str| t;
        let (Some(a), Some(b)) = (copy_mn.eval(&env), copy_k.eval(&env)) else {
            return Err(EvalError::runtime("gemm", "copy coordinates"));
        };
        envs.push(vec![(format!("c{n}_mn"), a), (format!("c{n}_k"), b)]);
    }
    let s_at = |mn: i64, k: i64| -> Box<dyn Fn(&dyn Fn(&str) -> i64) -> Option<i64>> {
        let e = value_at(&op.smem, &[add(v_mn.clone(), lit(mn)), add(v_k.clone(), lit(k)), lit(0)]);
        Box::new(move |g: &dyn Fn(&str) -> i64| e.as_ref().ok()?.eval(g))
    };
    let base = s_at(0, 0);
    let mut store_steps = Vec::new();
    for &(dm, dk) in &copy_steps {
        let full = value_at(&op.smem, &[add(v_mn.clone(), lit(dm)), add(v_k.clone(), lit(dk)), lit(0)])?;
        store_steps.push(decompose(&envs, &*base, &*s_at(dm, dk), full, None));
    }
    // global
    let bvar = var(if n == 'a' { "bm" } else { "bn" }, 0, (op.extent_mn + op.tile_mn - 1) / op.tile_mn);
    let gmem = layout_at_crd_l(&op.gmem, &[add(mul(bvar, lit(op.tile_mn)), v_mn.clone()), v_k.clone()])?;
    let g = |mn: i64, k: i64| -> R<i64> {
        layout_at_crd_l(&op.gmem, &[lit(mn), lit(k)])?.as_lit().ok_or_else(|| EvalError::runtime("gemm", "gmem"))
    };
    let gmem_steps = copy_steps.iter().map(|&(dm, dk)| g(dm, dk)).collect::<R<Vec<_>>>()?;
    let gmem_ktile = g(0, cfg.bk)?;
    // ldmatrix
    let lane = var("lane", 0, 32);
    let (ld_mn, ld_k) = split_coords(&ldmatrix_layout(n, op.major), 16, lane)?;
    let (wcount, wtile, wname) =
        if n == 'a' { (cfg.wm, cfg.bm / cfg.wm, "warp_m") } else { (cfg.wn, cfg.bn / cfg.wn, "warp_n") };
    let wv = var(wname, 0, wcount);
    let l_mn = var(&format!("l{n}_mn"), 0, 16);
    let l_k = var(&format!("l{n}_k"), 0, 16);
    // Tile row of ldmatrix row mn (0..16) of the i-th 16-row block of the warp: A's block is one
    // 16-row atom; B's holds two 8-column atoms, 2i and 2i + 1.
    let rows = row_map(cfg, n);
    let row_at = |i: i64| -> R<Expr> {
        if n == 'a' {
            rows.at(l_mn.clone(), wv.clone(), lit(i))
        } else {
            rows.at(rem(l_mn.clone(), lit(8)), wv.clone(), add(div(l_mn.clone(), lit(8)), lit(2 * i)))
        }
    };
    let ld = value_at(&op.smem, &[row_at(0)?, l_k.clone(), lit(0)])?;
    let mut lenvs = Vec::new();
    for w in 0..wcount {
        for l in 0..32i64 {
            let env = |_: &str| l;
            let (Some(a), Some(b)) = (ld_mn.eval(&env), ld_k.eval(&env)) else {
                return Err(EvalError::runtime("gemm", "ldmatrix coordinates"));
            };
            lenvs.push(vec![(wname.to_string(), w), (format!("l{n}_mn"), a), (format!("l{n}_k"), b)]);
        }
    }
    let l_at = |i: i64, dk: i64| -> R<Expr> { value_at(&op.smem, &[row_at(i)?, add(l_k.clone(), lit(dk)), lit(0)]) };
    let lbase = l_at(0, 0)?;
    let lb = |g: &dyn Fn(&str) -> i64| lbase.eval(g);
    let mut ld_steps = Vec::new();
    for kk in 0..cfg.bk / 16 {
        let mut row = Vec::new();
        for i in 0..wtile / 16 {
            let full = l_at(i, 16 * kk)?;
            let f2 = full.clone();
            let prefer = match row.first() {
                Some(Access::Fast { x, .. }) => Some(*x),
                _ => None,
            };
            row.push(decompose(&lenvs, &lb, &move |g: &dyn Fn(&str) -> i64| f2.eval(g), full, prefer));
        }
        ld_steps.push(row);
    }
    Ok(OperandPlan {
        name: n,
        copy_mn,
        copy_k,
        copy_steps,
        store,
        store_steps,
        gmem,
        gmem_steps,
        gmem_ktile,
        ld_mn,
        ld_k,
        ld,
        ld_steps,
    })
}

fn layout_at_crd_l(l: &Layout, crd: &[Expr]) -> R<Expr> {
    super::lower::layout_at_crd(l, crd)
}

/// Lower every map of the configuration (and check the constant forms on the host).
pub fn plan(cfg: &GemmConfig) -> R<Plan> {
    let threads = cfg.threads();
    let w = inverse_coords(&cfg.warps, var("warp", 0, cfg.wm * cfg.wn))?;
    let a = operand_plan(cfg, &cfg.a, threads)?;
    let b = operand_plan(cfg, &cfg.b, threads)?;
    let cl = cfg.atom.c.clone();
    let lane = var("lane", 0, 32);
    let (c_m, c_n) = split_coords(
        &Layout::new(IntTuple::T(vec![cl.shape.modes()[0].clone()]), IntTuple::T(vec![cl.stride.modes()[0].clone()])),
        16,
        lane,
    )?;
    // value offsets: CLayout(lane, v) - CLayout(lane, 0), the same for every lane
    let mut c_vals = Vec::new();
    let full = super::lower::layout_at_crd(&cl, &[var("lane", 0, 32), var("v", 0, 4)])?;
    for v in 0..4i64 {
        let mut d: Option<(i64, i64)> = None;
        for l in 0..32i64 {
            let at = |vv: i64| full.eval(&|n| if n == "lane" { l } else { vv });
            let (Some(i0), Some(iv)) = (at(0), at(v)) else { return Err(EvalError::runtime("gemm", "C layout")) };
            let dd = (iv % 16 - i0 % 16, iv / 16 - i0 / 16);
            if d.is_some_and(|x| x != dd) {
                return Err(EvalError::runtime("gemm", "the accumulator layout is not a constant shift per value"));
            }
            d = Some(dd);
        }
        c_vals.push(d.unwrap_or((0, 0)));
    }
    let (c_r0, c_rows) = c_lines(cfg, 'a', &c_m, &c_vals)?;
    let (c_c0, c_cols) = c_lines(cfg, 'b', &c_n, &c_vals)?;
    Ok(Plan { warp_m: w[0].clone(), warp_n: w[1].clone(), a, b, c_m, c_n, c_vals, c_r0, c_c0, c_rows, c_cols })
}

/// Which k-tile a copy loads.
#[derive(Clone, Debug, PartialEq)]
pub enum TileRef {
    /// k-tile q (prologue)
    Fixed(i64),
    /// k-tile kt + d of the current loop iteration (skipped past the last tile)
    Ahead(i64),
}

/// One step of the software pipeline, in program order (all threads run the same sequence).
#[derive(Clone, Debug, PartialEq)]
pub enum PipeOp {
    /// cp.async of copy part `part` of a k-tile into `stage` (None: the write stage `wr`).
    Copy { stage: Option<i64>, tile: TileRef, part: usize },
    /// cp.async.commit_group; `advance`: then wr = (wr + 1) % stages.
    Commit { advance: bool },
    /// cp.async.wait_group pending; __syncthreads(); `advance`: then rd = (rd + 1) % stages.
    WaitSync { pending: i64, advance: bool },
    /// ldmatrix of k-step `kstep` of the read stage `rd` into fragment buffer `buf`.
    Frags { buf: usize, kstep: usize },
    /// The MMAs of the fragments in buffer `buf`.
    Mma { buf: usize },
    /// A comment marking k-step kk.
    Step(usize),
}

/// The pipeline: prologue and loop bodies (two when a tile has an odd number of k-steps).
#[derive(Clone, Debug)]
pub struct Schedule {
    pub stages: i64,
    pub ksteps: usize,
    pub parts: usize,
    pub prologue: Vec<PipeOp>,
    pub bodies: Vec<Vec<PipeOp>>,
}

/// The multistage schedule: stages-1 k-tiles in flight; within a tile, the fragments of the
/// next k-step are loaded before the MMAs of this one; the copy of tile kt+stages-1 goes into
/// the stage read during the previous tile and is committed before the wait for tile kt+1
/// (so each wait leaves stages-2 groups pending). `parts` > 1 would spread the copy over the
/// first k-steps (`load_part0..`).
pub fn schedule(cfg: &GemmConfig) -> Schedule {
    let st = cfg.stages;
    let kk_n = (cfg.bk / 16) as usize;
    // Measured on the H200 (BENCHMARKS.md): issuing the whole tile's copy after the first
    // fragment load, or in parts over the first k-steps, runs the same; copying before the
    // fragment load is slower. So: one part, after the fragments, except with one k-step per
    // tile, where the commit must precede that step's wait.
    let parts = 1;
    let copy_first = kk_n == 1;
    let mut prologue = Vec::new();
    for q in 0..st - 1 {
        if q < (cfg.k + cfg.bk - 1) / cfg.bk {
            for part in 0..parts {
                prologue.push(PipeOp::Copy { stage: Some(q), tile: TileRef::Fixed(q), part });
            }
        }
        prologue.push(PipeOp::Commit { advance: false });
    }
    prologue.push(PipeOp::WaitSync { pending: st - 2, advance: false });
    prologue.push(PipeOp::Frags { buf: 0, kstep: 0 });
    let nbodies = if kk_n.is_multiple_of(2) { 1 } else { 2 };
    let mut bodies = Vec::new();
    for par in 0..nbodies {
        let mut b = Vec::new();
        for kk in 0..kk_n {
            let g = par * kk_n + kk;
            b.push(PipeOp::Step(kk));
            let mut copy = Vec::new();
            if kk < parts {
                copy.push(PipeOp::Copy { stage: None, tile: TileRef::Ahead(st - 1), part: kk });
                if kk + 1 == parts {
                    copy.push(PipeOp::Commit { advance: true });
                }
            }
            if copy_first {
                b.append(&mut copy);
            }
            if kk + 1 == kk_n {
                b.push(PipeOp::WaitSync { pending: st - 2, advance: true });
            }
            b.push(PipeOp::Frags { buf: (g + 1) % 2, kstep: (kk + 1) % kk_n });
            b.append(&mut copy);
            b.push(PipeOp::Mma { buf: g % 2 });
        }
        bodies.push(b);
    }
    Schedule { stages: st, ksteps: kk_n, parts, prologue, bodies }
}

fn ctype(d: DType) -> &'static str {
    match d {
        DType::F32 => "float",
        _ => "u16",
    }
}

/// The complete CUDA source for the configuration.
pub fn generate(cfg: &GemmConfig) -> R<String> {
    let p = plan(cfg)?;
    let mut s = String::new();
    emit(&mut s, cfg, &p).map_err(|_| EvalError::runtime("gemm", "formatting"))?;
    Ok(s)
}

/// Name of the kernel function in the generated source.
pub const KERNEL_NAME: &str = "cute_gemm";

/// Sizes the sm80 emitters share.
#[derive(Clone, Copy)]
struct Dims {
    bm: i64,
    bn: i64,
    bk: i64,
    st: i64,
    threads: i64,
    mi_n: i64,
    ni_n: i64,
    kt_n: i64,
    gm: i64,
    gn: i64,
    wide: bool,
    a_stage_bytes: i64,
    b_stage_bytes: i64,
    a_bytes: i64,
    ab: &'static str,
}

impl Dims {
    fn new(cfg: &GemmConfig) -> Dims {
        let (bm, bn, bk, st) = (cfg.bm, cfg.bn, cfg.bk, cfg.stages);
        let (wtm, wtn) = cfg.warp_tile();
        Dims {
            bm,
            bn,
            bk,
            st,
            threads: cfg.threads(),
            mi_n: wtm / 16,
            ni_n: wtn / 8,
            kt_n: (cfg.k + bk - 1) / bk,
            gm: (cfg.m + bm - 1) / bm,
            gn: (cfg.n + bn - 1) / bn,
            wide: cfg.m * cfg.k >= 1 << 31 || cfg.n * cfg.k >= 1 << 31 || cfg.m * cfg.n >= 1 << 31,
            a_stage_bytes: cfg.a.stage_stride * 2,
            b_stage_bytes: cfg.b.stage_stride * 2,
            a_bytes: round_up(cfg.a.smem_elems, 64) * 2,
            ab: if cfg.dtype == DType::BF16 { "bf16" } else { "f16" },
        }
    }
}

/// The sm80 kernel, stage by stage.
fn emit(s: &mut String, cfg: &GemmConfig, p: &Plan) -> std::fmt::Result {
    emit_header(s, cfg)?;
    emit_prelude(s, cfg)?;
    emit_prologue(s, cfg, p)?;
    emit_loads(s, cfg, p)?;
    emit_mainloop(s, cfg, p)?;
    emit_epilogue(s, cfg, p)?;
    // the output conversion helpers must precede the kernel
    let helpers = out_helpers(cfg.out);
    let pos = s.find("extern \"C\" __global__").ok_or(std::fmt::Error)?;
    s.insert_str(pos, &helpers);
    Ok(())
}

/// The header comment: the configuration and every layout the kernel is built from.
fn emit_header(s: &mut String, cfg: &GemmConfig) -> std::fmt::Result {
    let Dims { bm, bn, bk, st, threads, gm, gn, .. } = Dims::new(cfg);
    writeln!(s, "// cute: generated GEMM kernel (header-free CUDA C++ for NVRTC, sm_80 instructions)")?;
    writeln!(s, "// {}", cfg.describe())?;
    if !cfg.given.is_empty() {
        writeln!(s, "// options: {}", cfg.given.join(" "))?;
    }
    writeln!(
        s,
        "// C ({}x{}, row-major) = A ({}x{}, {}) * B ({}x{}, {}), fp32 accumulation",
        cfg.m,
        cfg.n,
        cfg.m,
        cfg.k,
        if cfg.a.major == Major::K { "K-major" } else { "M-major" },
        cfg.k,
        cfg.n,
        if cfg.b.major == Major::K { "K-major" } else { "N-major" }
    )?;
    writeln!(s, "// Layouts (every index below is one of these, lowered with static values folded in):")?;
    writeln!(s, "//   gA = {}   gB = {}   gC = {}", cfg.a.gmem, cfg.b.gmem, cfg.gmem_c)?;
    writeln!(s, "//   smem_a = tile_to_shape({}, (_{bm},_{bk},_{st})) = {}", cfg.a.smem_given, cfg.a.smem)?;
    writeln!(s, "//   smem_b = tile_to_shape({}, (_{bn},_{bk},_{st})) = {}", cfg.b.smem_given, cfg.b.smem)?;
    writeln!(s, "//   copy_a = {} (thread layout, 16-byte vectors)   copy_b = {}", cfg.a.copy, cfg.b.copy)?;
    writeln!(
        s,
        "//   warps = {}   MMA {}, C layout (lane, value) -> m + 16n: {}",
        cfg.warps, cfg.atom.name, cfg.atom.c
    )?;
    writeln!(s, "//   tiled MMA = {}", cfg.tiled_mma)?;
    writeln!(
        s,
        "//   tile rows/columns in its order (its permutations over the {bm}x{bn} tile): perm_m = {}   perm_n = {}",
        cfg.perm_m, cfg.perm_n
    )?;
    writeln!(
        s,
        "//   ldmatrix lanes: A {}  B {}  (lane -> mn + 16*k in a 16x16 block)",
        ldmatrix_layout('a', cfg.a.major),
        ldmatrix_layout('b', cfg.b.major)
    )?;
    emit_bank_conflicts(s, cfg)?;
    writeln!(
        s,
        "// grid {} blocks of {threads} threads, {} bytes of dynamic shared memory",
        gm * gn,
        cfg.smem_bytes()
    )?;
    Ok(())
}

/// The bank-conflict degree of each shared-memory store and ldmatrix load (the analysis module
/// counts them); a conflicting one is also a `warning:`.
fn emit_bank_conflicts(s: &mut String, cfg: &GemmConfig) -> std::fmt::Result {
    use crate::eval::analysis::gemm::{degree_words, degrees, SmemTraffic};
    let mut parts = Vec::new();
    for op in [&cfg.a, &cfg.b] {
        let lanes = ldmatrix_layout(op.name, op.major);
        let t = SmemTraffic {
            operand: op.name,
            k_major: op.major == Major::K,
            smem: &op.smem,
            elem: cfg.dtype.bytes(),
            copy: &op.copy,
            vec: op.vec,
            lanes: &lanes,
        };
        match degrees(&t) {
            Ok(ds) => {
                for (what, d) in ds {
                    parts.push(format!("{what} {}", degree_words(d)));
                    if d > 1 {
                        crate::eval::error::warn(format!(
                            "smem_{}: the {what} is {d}-way bank-conflicted ({} = {}); a swizzle such as Sw<3,3,3> o ... avoids it",
                            op.name,
                            format_args!("smem_{}", op.name),
                            op.smem_given
                        ));
                    }
                }
            }
            Err(e) => parts.push(format!("{}: not counted ({e})", op.name.to_ascii_uppercase())),
        }
    }
    writeln!(s, "//   bank conflicts (32 banks x 4 bytes, per warp): {}", parts.join(", "))
}

/// Header-free helpers (inline PTX) and the MMA instruction.
fn emit_prelude(s: &mut String, cfg: &GemmConfig) -> std::fmt::Result {
    let Dims { ab, .. } = Dims::new(cfg);
    s.push_str(PRELUDE);
    let mma = format!("mma.sync.aligned.m16n8k16.row.col.f32.{ab}.{ab}.f32");
    writeln!(s, "__device__ __forceinline__ void mma16816(float (&d)[4], const u32 (&a)[4], u32 b0, u32 b1) {{")?;
    writeln!(s, "  asm volatile(\"{mma} {{%0,%1,%2,%3}}, {{%4,%5,%6,%7}}, {{%8,%9}}, {{%0,%1,%2,%3}};\\n\"")?;
    writeln!(s, "      : \"+f\"(d[0]), \"+f\"(d[1]), \"+f\"(d[2]), \"+f\"(d[3])")?;
    writeln!(s, "      : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(b0), \"r\"(b1));")?;
    writeln!(s, "}}\n")?;
    Ok(())
}

/// The kernel signature, block and warp coordinates, and each thread's per-operand bases
/// (copy coordinates, shared and global offsets, predicates, ldmatrix addresses).
fn emit_prologue(s: &mut String, cfg: &GemmConfig, p: &Plan) -> std::fmt::Result {
    let Dims { threads, gm, gn, wide, a_bytes, .. } = Dims::new(cfg);

    writeln!(s, "extern \"C\" __global__ void __launch_bounds__({threads}, 1)")?;
    writeln!(
        s,
        "{KERNEL_NAME}(const u16* __restrict__ A, const u16* __restrict__ B, {}* __restrict__ C) {{",
        ctype(cfg.out)
    )?;
    writeln!(s, "  extern __shared__ __align__(128) unsigned char smem[];")?;
    writeln!(s, "  const u32 sa = smem_u32(smem);")?;
    writeln!(s, "  const u32 sb = sa + {a_bytes};")?;
    writeln!(s, "  const int tid = threadIdx.x;")?;
    writeln!(s, "  const int lane = tid % 32;")?;
    writeln!(s, "  const int warp = tid / 32;")?;
    writeln!(s, "  // block (bm, bn): blocks are rasterised in groups of {} block rows", cfg.raster)?;
    let r = cfg.raster.min(gm);
    writeln!(s, "  const int pid = blockIdx.x;")?;
    writeln!(s, "  const int first = pid / {} * {r};", r * gn)?;
    writeln!(s, "  const int rows = {gm} - first < {r} ? {gm} - first : {r};")?;
    writeln!(s, "  const int bm = first + pid % {} % rows;", r * gn)?;
    writeln!(s, "  const int bn = pid % {} / rows;", r * gn)?;
    writeln!(s, "  // warp coordinates: inverse of the warp layout {}", cfg.warps)?;
    writeln!(s, "  const int warp_m = {};", p.warp_m)?;
    writeln!(s, "  const int warp_n = {};", p.warp_n)?;

    for (op, o) in [(&cfg.a, &p.a), (&cfg.b, &p.b)] {
        let n = op.name;
        let base = if n == 'a' { "sa" } else { "sb" };
        let gptr = if n == 'a' { "A" } else { "B" };
        writeln!(s, "  // {}: copy coordinates (inverse of {}), shared and global offsets", n.to_uppercase(), op.copy)?;
        writeln!(s, "  const int c{n}_mn = {};", o.copy_mn)?;
        writeln!(s, "  const int c{n}_k = {};", o.copy_k)?;
        writeln!(s, "  const int c{n}_s = {};", o.store)?;
        writeln!(s, "  const u16* c{n}_g = {gptr} + ({});", o.gmem.to_c(wide))?;
        // row predicates (mn) per step, when the extent is not a multiple of the tile
        let bvar = if n == 'a' { "bm" } else { "bn" };
        if op.extent_mn % op.tile_mn != 0 {
            let mut rows: Vec<i64> = o.copy_steps.iter().map(|x| x.0).collect();
            rows.sort();
            rows.dedup();
            for dm in rows {
                let subs: Vec<i64> =
                    if op.major == Major::MN { (0..8 / op.vec).map(|q| q * op.vec).collect() } else { vec![0] };
                for q in subs {
                    writeln!(
                        s,
                        "  const bool c{n}_p{}_{} = {bvar} * {} + c{n}_mn + {} < {};",
                        dm,
                        q,
                        op.tile_mn,
                        dm + q,
                        op.extent_mn
                    )?;
                }
            }
        }
        writeln!(
            s,
            "  // {}: ldmatrix{} lane coordinates and per-warp shared offset",
            n.to_uppercase(),
            if op.major == Major::MN { ".trans" } else { "" }
        )?;
        writeln!(s, "  const int l{n}_mn = {};", o.ld_mn)?;
        writeln!(s, "  const int l{n}_k = {};", o.ld_k)?;
        writeln!(s, "  const int l{n}_s = {};", o.ld)?;
        for (kk, row) in o.ld_steps.iter().enumerate() {
            // per k-step byte address of block 0; blocks i add constants (or are full expressions)
            match &row[0] {
                Access::Fast { x: 0, .. } => writeln!(s, "  const u32 l{n}_{kk} = {base} + 2 * l{n}_s;")?,
                Access::Fast { x, .. } => writeln!(s, "  const u32 l{n}_{kk} = {base} + 2 * (l{n}_s ^ {x});")?,
                Access::Full(_) => writeln!(s, "  const u32 l{n}_{kk} = {base};")?,
            }
        }
    }

    Ok(())
}

/// The global->shared copy of one k-tile (`load_part*`), cp.async zero-filled at the edges.
fn emit_loads(s: &mut String, cfg: &GemmConfig, p: &Plan) -> std::fmt::Result {
    let Dims { bk, wide, a_stage_bytes, b_stage_bytes, .. } = Dims::new(cfg);
    // ---- load one k-tile into a stage
    let sched = schedule(cfg);
    writeln!(s, "\n  // copy k-tile kt into shared-memory stage st (cp.async, zero-filled outside the matrix),")?;
    writeln!(s, "  // in {} part(s) spread over the k-steps", sched.parts)?;
    for part in 0..sched.parts {
        writeln!(s, "  auto load_part{part} = [&](int st, int kt) {{")?;
        for (op, o) in [(&cfg.a, &p.a), (&cfg.b, &p.b)] {
            let n = op.name;
            let ns = o.copy_steps.len();
            let (lo, hi) = (part * ns / sched.parts, (part + 1) * ns / sched.parts);
            if lo == hi {
                continue;
            }
            let base = if n == 'a' { "sa" } else { "sb" };
            let sb = if n == 'a' { a_stage_bytes } else { b_stage_bytes };
            writeln!(s, "    {{")?;
            writeln!(s, "      const u32 so = {base} + st * {sb};")?;
            if wide {
                writeln!(s, "      const u16* g = c{n}_g + (long long)kt * {};", o.gmem_ktile)?;
            } else {
                writeln!(s, "      const u16* g = c{n}_g + kt * {};", o.gmem_ktile)?;
            }
            let k_pred = cfg.k % bk != 0;
            for (si, ((dm, dk), acc)) in o.copy_steps.iter().zip(&o.store_steps).enumerate() {
                if si < lo || si >= hi {
                    continue;
                }
                let gd = o.gmem_steps[si];
                let soff = acc.c(&format!("c{n}_s"));
                for q in 0..8 / op.vec {
                    let qo = q * op.vec;
                    let mut conds = Vec::new();
                    let (mn_add, k_add) = if op.major == Major::K { (0, qo) } else { (qo, 0) };
                    if op.extent_mn % op.tile_mn != 0 {
                        conds.push(format!("c{n}_p{}_{}", dm, mn_add));
                    }
                    if k_pred {
                        conds.push(format!("kt * {bk} + c{n}_k + {} < {}", dk + k_add, cfg.k));
                    }
                    let pred = if conds.is_empty() { "true".to_string() } else { conds.join(" && ") };
                    let contiguous_stride = 1;
                    let goff = gd + qo * contiguous_stride;
                    let dst =
                        if qo == 0 { format!("so + 2 * ({soff})") } else { format!("so + 2 * ({soff}) + {}", 2 * qo) };
                    match op.vec {
                        8 | 4 | 2 => {
                            let f = match op.vec {
                                8 => "cp_async16",
                                4 => "cp_async8",
                                _ => "cp_async4",
                            };
                            if conds.is_empty() {
                                writeln!(s, "      {f}({dst}, g + {goff}, {});", op.vec * 2)?;
                            } else {
                                writeln!(
                                    s,
                                    "      {{ const bool p = {pred}; {f}({dst}, p ? g + {goff} : {}, p ? {} : 0); }}",
                                    if n == 'a' { "A" } else { "B" },
                                    op.vec * 2
                                )?;
                            }
                        }
                        _ => {
                            if conds.is_empty() {
                                writeln!(s, "      st_shared_u16({dst}, g[{goff}]);")?;
                            } else {
                                writeln!(s, "      st_shared_u16({dst}, ({pred}) ? g[{goff}] : (u16)0);")?;
                            }
                        }
                    }
                }
            }
            writeln!(s, "    }}")?;
        }
        writeln!(s, "  }};")?;
    }

    Ok(())
}

/// The sm80 main loop: fragment buffers, ldmatrix + mma.sync, and the software pipeline
/// (`schedule`) rendered as prologue and loop bodies.
fn emit_mainloop(s: &mut String, cfg: &GemmConfig, p: &Plan) -> std::fmt::Result {
    let Dims { st, mi_n, ni_n, kt_n, a_stage_bytes, b_stage_bytes, .. } = Dims::new(cfg);
    let sched = schedule(cfg);
    // ---- fragments
    writeln!(s, "\n  float acc[{mi_n}][{ni_n}][4];")?;
    writeln!(s, "  #pragma unroll")?;
    writeln!(s, "  for (int i = 0; i < {mi_n}; ++i)")?;
    writeln!(s, "    #pragma unroll")?;
    writeln!(s, "    for (int j = 0; j < {ni_n}; ++j) {{ acc[i][j][0] = 0.f; acc[i][j][1] = 0.f; acc[i][j][2] = 0.f; acc[i][j][3] = 0.f; }}")?;
    writeln!(s, "  u32 fa[2][{mi_n}][4];")?;
    writeln!(s, "  u32 fb[2][{ni_n}][2];")?;

    // load_frags(buf, kk) reading stage offsets ra/rb
    let frag_code = |buf: usize, kk: usize| -> String {
        let mut t = String::new();
        for (op, o) in [(&cfg.a, &p.a), (&cfg.b, &p.b)] {
            let n = op.name;
            let trans = if op.major == Major::MN { "_t" } else { "" };
            let roff = if n == 'a' { "ra" } else { "rb" };
            for (i, acc) in o.ld_steps[kk].iter().enumerate() {
                let addr = match (acc, &o.ld_steps[kk][0]) {
                    (Access::Fast { x, d }, Access::Fast { x: x0, .. }) if x == x0 => {
                        format!("l{n}_{kk} + {roff} + {}", 2 * d)
                    }
                    (Access::Fast { x, d }, _) => {
                        format!("{} + 2 * ((l{n}_s ^ {x}) + {d}) + {roff}", if n == 'a' { "sa" } else { "sb" })
                    }
                    (Access::Full(e), _) => format!("{} + 2 * ({e}) + {roff}", if n == 'a' { "sa" } else { "sb" }),
                };
                if n == 'a' {
                    let _ = writeln!(t, "      ldsm_x4{trans}(fa[{buf}][{i}], {addr});");
                } else {
                    let _ = writeln!(t, "      {{ u32 r[4]; ldsm_x4{trans}(r, {addr}); fb[{buf}][{}][0] = r[0]; fb[{buf}][{}][1] = r[1]; fb[{buf}][{}][0] = r[2]; fb[{buf}][{}][1] = r[3]; }}", 2 * i, 2 * i, 2 * i + 1, 2 * i + 1);
                }
            }
        }
        t
    };
    let mma_code = |buf: usize| -> String {
        let mut t = String::new();
        for i in 0..mi_n {
            for jj in 0..ni_n {
                let j = if i % 2 == 0 { jj } else { ni_n - 1 - jj };
                let _ =
                    writeln!(t, "      mma16816(acc[{i}][{j}], fa[{buf}][{i}], fb[{buf}][{j}][0], fb[{buf}][{j}][1]);");
            }
        }
        t
    };

    writeln!(s, "  u32 ra = 0, rb = 0;  // byte offsets of the stage being read")?;
    writeln!(s, "  int rd = 0, wr = {};", st - 1)?;
    let render = |ops: &[PipeOp], kt: &str, ind: &str| -> String {
        let mut t = String::new();
        for op in ops {
            let _ = match op {
                PipeOp::Copy { stage, tile, part } => {
                    let st_s = stage.map(|x| x.to_string()).unwrap_or_else(|| "wr".to_string());
                    match tile {
                        TileRef::Fixed(q) => writeln!(t, "{ind}load_part{part}({st_s}, {q});"),
                        TileRef::Ahead(d) => {
                            writeln!(t, "{ind}if ({kt} + {d} < {kt_n}) load_part{part}({st_s}, {kt} + {d});")
                        }
                    }
                }
                PipeOp::Commit { advance } => {
                    if *advance {
                        writeln!(t, "{ind}cp_commit();\n{ind}wr = wr + 1 == {st} ? 0 : wr + 1;")
                    } else {
                        writeln!(t, "{ind}cp_commit();")
                    }
                }
                PipeOp::WaitSync { pending, advance } => {
                    let _ = writeln!(t, "{ind}cp_wait<{pending}>();\n{ind}__syncthreads();");
                    if *advance {
                        writeln!(t, "{ind}rd = rd + 1 == {st} ? 0 : rd + 1;\n{ind}ra = rd * {a_stage_bytes}; rb = rd * {b_stage_bytes};")
                    } else {
                        Ok(())
                    }
                }
                PipeOp::Frags { buf, kstep } => {
                    t.push_str(&frag_code(*buf, *kstep));
                    Ok(())
                }
                PipeOp::Mma { buf } => {
                    t.push_str(&mma_code(*buf));
                    Ok(())
                }
                PipeOp::Step(kk) => writeln!(t, "    // k-step {kk}"),
            };
        }
        t
    };
    writeln!(s, "\n  // prologue: k-tiles 0..{} in flight", st - 2)?;
    s.push_str(&render(&sched.prologue, "0", "  "));
    writeln!(s, "  #pragma unroll 1")?;
    if sched.bodies.len() == 1 {
        writeln!(s, "  for (int kt = 0; kt < {kt_n}; ++kt) {{")?;
        s.push_str(&render(&sched.bodies[0], "kt", "    "));
    } else {
        // odd number of k-steps per tile: the fragment buffers alternate every other tile
        writeln!(s, "  for (int kt = 0; kt < {kt_n}; kt += 2) {{")?;
        s.push_str(&render(&sched.bodies[0], "kt", "    "));
        writeln!(s, "    if (kt + 1 == {kt_n}) break;")?;
        s.push_str(&render(&sched.bodies[1], "(kt + 1)", "    "));
    }
    writeln!(s, "  }}")?;
    writeln!(s, "  cp_wait<0>();")?;

    Ok(())
}

/// The epilogue: accumulators to C through the C layout and the tiled MMA's order.
fn emit_epilogue(s: &mut String, cfg: &GemmConfig, p: &Plan) -> std::fmt::Result {
    let Dims { bm, bn, mi_n, ni_n, wide, .. } = Dims::new(cfg);
    // ---- epilogue
    writeln!(s, "\n  // epilogue: accumulator (lane, value) -> (m, n) by the C layout, then the tiled MMA's")?;
    writeln!(
        s,
        "  // order: tile row perm_m(m + 16 (warp_m + {} i)), column perm_n(n + 8 (warp_n + {} j)); C = gC",
        cfg.wm, cfg.wn
    )?;
    writeln!(s, "  const int c_m = {};", p.c_m)?;
    writeln!(s, "  const int c_n = {};", p.c_n)?;
    writeln!(s, "  const int c_r0 = {};", p.c_r0)?;
    writeln!(s, "  const int c_c0 = {};", p.c_c0)?;
    let mpred = cfg.m % bm != 0;
    let npred = cfg.n % bn != 0;
    let vals = p.c_vals.len();
    // every (row, column) is (c_r0 + dr, c_c0 + dc): one pointer plus constants
    writeln!(s, "  const int row0 = bm * {bm} + c_r0;")?;
    writeln!(s, "  const int col0 = bn * {bn} + c_c0;")?;
    let gc = super::lower::layout_at_crd(&cfg.gmem_c, &[var("row0", 0, cfg.m), var("col0", 0, cfg.n)])
        .map_err(|_| std::fmt::Error)?;
    writeln!(s, "  {}* const cp = C + ({});", ctype(cfg.out), gc.to_c(wide))?;
    // value pairs (2h, 2h+1) in adjacent columns of one row, starting at an even column for
    // every lane and warp (so 4- or 8-byte aligned): one paired store
    let pair_ok = |j: usize, h: usize| -> bool {
        let (c0, c1) = (p.c_cols[j][2 * h], p.c_cols[j][2 * h + 1]);
        let (r0, r1) = (p.c_vals[2 * h].0, p.c_vals[2 * h + 1].0);
        cfg.n % 2 == 0 && c1 == c0 + 1 && c0 % 2 == 0 && r0 == r1
    };
    let c0_even = (0..cfg.wn).all(|w| {
        (0..32).all(|l| {
            let cn = p.c_n.eval(&|_| l);
            cn.and_then(|cn| p.c_c0.eval(&|v| if v == "c_n" { cn } else { w })).is_some_and(|c| c % 2 == 0)
        })
    });
    for i in 0..mi_n as usize {
        for j in 0..ni_n as usize {
            for h in 0..vals / 2 {
                let pair = c0_even && pair_ok(j, h);
                let members: Vec<usize> = if pair { vec![2 * h] } else { vec![2 * h, 2 * h + 1] };
                for v in members {
                    let (dm, dn) = (p.c_rows[i][v], p.c_cols[j][v]);
                    let off = super::lower::layout_at_crd(&cfg.gmem_c, &[lit(dm), lit(dn)])
                        .ok()
                        .and_then(|e| e.as_lit())
                        .ok_or(std::fmt::Error)?;
                    let mut conds = Vec::new();
                    if mpred {
                        conds.push(format!("row0 + {dm} < {}", cfg.m));
                    }
                    if npred || (!pair && cfg.n % 2 != 0) {
                        conds.push(format!("col0 + {dn} < {}", cfg.n));
                    }
                    let guard = if conds.is_empty() { String::new() } else { format!("if ({}) ", conds.join(" && ")) };
                    if pair {
                        writeln!(s, "  {guard}st_pair(cp + {off}, acc[{i}][{j}][{v}], acc[{i}][{j}][{}]);", v + 1)?;
                    } else {
                        writeln!(s, "  {guard}st_one(cp + {off}, acc[{i}][{j}][{v}]);")?;
                    }
                }
            }
        }
    }
    writeln!(s, "}}")?;
    Ok(())
}

fn out_helpers(out: DType) -> String {
    match out {
        DType::F32 => "__device__ __forceinline__ void st_pair(float* p, float a, float b) {\n  asm volatile(\"st.global.v2.f32 [%0], {%1, %2};\\n\" :: \"l\"(p), \"f\"(a), \"f\"(b));\n}\n__device__ __forceinline__ void st_one(float* p, float a) {\n  asm volatile(\"st.global.f32 [%0], %1;\\n\" :: \"l\"(p), \"f\"(a));\n}\n\n".to_string(),
        d => {
            let t = if d == DType::BF16 { "bf16" } else { "f16" };
            format!("__device__ __forceinline__ void st_pair(u16* p, float a, float b) {{\n  u32 v;\n  asm(\"cvt.rn.{t}x2.f32 %0, %1, %2;\\n\" : \"=r\"(v) : \"f\"(b), \"f\"(a));\n  asm volatile(\"st.global.b32 [%0], %1;\\n\" :: \"l\"(p), \"r\"(v));\n}}\n__device__ __forceinline__ void st_one(u16* p, float a) {{\n  u16 v;\n  asm(\"cvt.rn.{t}.f32 %0, %1;\\n\" : \"=h\"(v) : \"f\"(a));\n  asm volatile(\"st.global.b16 [%0], %1;\\n\" :: \"l\"(p), \"h\"(v));\n}}\n\n")
        }
    }
}

const PRELUDE: &str = r#"
typedef unsigned short u16;
typedef unsigned int u32;

__device__ __forceinline__ u32 smem_u32(const void* p) {
  u32 r;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(r) : "l"(p));
  return r;
}
__device__ __forceinline__ void cp_async16(u32 dst, const void* src, u32 bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(dst), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void cp_async8(u32 dst, const void* src, u32 bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" :: "r"(dst), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void cp_async4(u32 dst, const void* src, u32 bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" :: "r"(dst), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void st_shared_u16(u32 dst, u16 v) {
  asm volatile("st.shared.u16 [%0], %1;\n" :: "r"(dst), "h"(v));
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;\n" :: "n"(N)); }
__device__ __forceinline__ void ldsm_x4(u32 (&r)[4], u32 addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldsm_x4_t(u32 (&r)[4], u32 addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
"#;
