//! The bank-conflict degrees of a generated GEMM kernel's shared-memory traffic, for its source
//! header: the cp.async stores of one copy step and the ldmatrix x4 loads of one 16x16 block,
//! each counted as `bank_conflicts` counts them; for the Hopper kernel, the rows its TMA boxes
//! write and the 8x16-byte core matrices wgmma reads. The runtime passes plain data (no runtime
//! types).
//! May import: `analysis::{access, banks}`.

use super::access::{at, int, int_of, threads_per_group, Group, Pattern, Touch};
use super::banks;
use crate::eval::builtins::TArg;
use crate::eval::error::R;
use crate::eval::int::dy;
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::Layout;
use crate::eval::value::Value;

/// One operand's shared-memory accesses in the kernel.
pub struct SmemTraffic<'a> {
    /// 'a' or 'b'
    pub operand: char,
    /// K contiguous in shared memory (else M or N).
    pub k_major: bool,
    /// `(MN, K, stages) -> element offset`, swizzled or plain.
    pub smem: &'a Value,
    pub elem: i64,
    /// cp.async threads: `(mn, k) -> thread`, in units of `vec` elements along the contiguous
    /// dimension.
    pub copy: &'a Layout,
    pub vec: i64,
    /// ldmatrix lanes: `lane -> mn + 16 * k` of its 8-element row in a 16x16 block.
    pub lanes: &'a Layout,
}

fn coord3(a: i64, b: i64) -> Value {
    Value::Tuple(IntTuple::T(vec![IntTuple::I(dy(a)), IntTuple::I(dy(b)), IntTuple::I(dy(0))]))
}

fn coord2(a: i64, b: i64) -> Value {
    Value::Tuple(IntTuple::T(vec![IntTuple::I(dy(a)), IntTuple::I(dy(b))]))
}

/// The cp.async stores of one copy step (every warp).
pub fn store_pattern(t: &SmemTraffic) -> R<Pattern> {
    let cv = Value::Layout(t.copy.clone());
    let n = int_of("size", &[], &cv)?;
    let s0 = int_of("size", &[TArg::Int(0)], &cv)?.max(1);
    // thread -> (mn, k) coordinate of its vector
    let mut of = vec![(0, 0); n.max(0) as usize];
    for idx in 0..n {
        let (i, j) = (idx % s0, idx / s0);
        let thr = at(&cv, coord2(i, j))?;
        if (0..n).contains(&thr) {
            of[thr as usize] = (i, j);
        }
    }
    let width = t.vec * t.elem;
    let per = threads_per_group(width);
    let mut groups = Vec::new();
    for g in (0..n).step_by(per as usize) {
        let mut touches = Vec::new();
        for thr in g..(g + per).min(n) {
            let (i, j) = of[thr as usize];
            for e in 0..t.vec {
                let c = if t.k_major { coord3(i, t.vec * j + e) } else { coord3(t.vec * i + e, j) };
                touches.push(Touch::element(thr, at(t.smem, c)?, t.elem)?);
            }
        }
        groups.push(Group { label: format!("threads {g}..{}", g + per), touches });
    }
    let what =
        format!("cp.async stores of {}: {width}-byte vectors, groups of {per} threads", t.operand.to_ascii_uppercase());
    Ok(Pattern { what, elem: t.elem, width, group_threads: per, groups })
}

/// The ldmatrix x4 loads of one 16x16 block (4 phases of 8 lanes).
pub fn load_pattern(t: &SmemTraffic) -> R<Pattern> {
    let lv = Value::Layout(t.lanes.clone());
    let mut groups = Vec::new();
    for p in 0..4 {
        let mut touches = Vec::new();
        for lane in 8 * p..8 * p + 8 {
            let start = at(&lv, int(lane))?;
            let (mn, k) = (start % 16, start / 16);
            for e in 0..16 / t.elem {
                let c = if t.k_major { coord3(mn, k + e) } else { coord3(mn + e, k) };
                touches.push(Touch::element(lane, at(t.smem, c)?, t.elem)?);
            }
        }
        groups.push(Group { label: format!("phase {p}, lanes {}..{}", 8 * p, 8 * p + 8), touches });
    }
    let what = format!("ldmatrix x4 loads of {}", t.operand.to_ascii_uppercase());
    Ok(Pattern { what, elem: t.elem, width: 16, group_threads: 8, groups })
}

/// `(what, degree)` for the stores and the loads of one operand.
pub fn degrees(t: &SmemTraffic) -> R<Vec<(String, i64)>> {
    let mut out = Vec::new();
    for (what, p) in [("cp.async store", store_pattern(t)?), ("ldmatrix load", load_pattern(t)?)] {
        out.push((format!("{what} of {}", t.operand.to_ascii_uppercase()), banks::count(&p).degree()));
    }
    Ok(out)
}

/// One operand of the Hopper kernel: TMA writes it in boxes of `box_rows` rows (M or N) by
/// `box_k` elements of K, one swizzled row (K-major: along K; MN-major: along the rows) after
/// another; wgmma reads it through descriptors in core matrices of 8 x 16 bytes (8 x 8 elements
/// of 16 bits, whichever way is contiguous). Neither is a warp's lanes: each swizzled row of a box
/// and each core matrix is counted as one request.
pub struct Sm90Traffic<'a> {
    /// 'a' or 'b'
    pub operand: char,
    /// K contiguous (else M or N).
    pub k_major: bool,
    /// `(rows, K, stages) -> element offset`, swizzled.
    pub smem: &'a Value,
    pub rows: i64,
    pub bk: i64,
    pub box_rows: i64,
    pub box_k: i64,
    pub elem: i64,
}

/// Stage 0's boxes as TMA writes them: one request per swizzled row of a box.
pub fn tma_pattern(t: &Sm90Traffic) -> R<Pattern> {
    let mut groups = Vec::new();
    let step = |n: i64| n.max(1) as usize;
    if t.k_major {
        for k0 in (0..t.bk).step_by(step(t.box_k)) {
            for r in 0..t.rows {
                let mut touches = Vec::new();
                for c in k0..(k0 + t.box_k).min(t.bk) {
                    touches.push(Touch::element(0, at(t.smem, coord3(r, c))?, t.elem)?);
                }
                groups.push(Group { label: format!("box at k {k0}, row {r}"), touches });
            }
        }
    } else {
        for r0 in (0..t.rows).step_by(step(t.box_rows)) {
            for k in 0..t.bk {
                let mut touches = Vec::new();
                for r in r0..(r0 + t.box_rows).min(t.rows) {
                    touches.push(Touch::element(0, at(t.smem, coord3(r, k))?, t.elem)?);
                }
                groups.push(Group { label: format!("box at row {r0}, k {k}"), touches });
            }
        }
    }
    let width = if t.k_major { t.box_k } else { t.box_rows } * t.elem;
    let what =
        format!("TMA writes of {}: {width}-byte swizzled box rows, one request each", t.operand.to_ascii_uppercase());
    Ok(Pattern { what, elem: t.elem, width, group_threads: 1, groups })
}

/// Stage 0's core matrices as wgmma reads them: 8 x 16 bytes, one request each.
pub fn core_matrix_pattern(t: &Sm90Traffic) -> R<Pattern> {
    let per_row = (16 / t.elem).max(1);
    // K-major: 8 rows x 16 bytes of K; MN-major: 8 k x 16 bytes of rows.
    let (rr, kk) = if t.k_major { (8, per_row) } else { (per_row, 8) };
    let mut groups = Vec::new();
    for r0 in (0..t.rows).step_by(rr as usize) {
        for k0 in (0..t.bk).step_by(kk as usize) {
            let mut touches = Vec::new();
            for r in r0..(r0 + rr).min(t.rows) {
                for c in k0..(k0 + kk).min(t.bk) {
                    touches.push(Touch::element(0, at(t.smem, coord3(r, c))?, t.elem)?);
                }
            }
            groups.push(Group { label: format!("core matrix at row {r0}, k {k0}"), touches });
        }
    }
    let what = format!("wgmma reads of {}: core matrices of 8 x 16 bytes", t.operand.to_ascii_uppercase());
    Ok(Pattern { what, elem: t.elem, width: 16, group_threads: 8, groups })
}

/// The Hopper TMA-store epilogue: each consumer warp writes its accumulators into 64-row boxes
/// of `box_cols` columns of C, 128-byte rows swizzled `Sw<3,4,3>` on the byte address (as TMA
/// reads them), one store instruction per value (or pair of adjacent 16-bit values).
pub struct Sm90Epilogue<'a> {
    /// The wgmma atom's C layout `(thread, value) -> m + 64 n` (128 threads).
    pub c: &'a Value,
    pub bn: i64,
    pub box_cols: i64,
    pub out_bytes: i64,
    /// Values v, v+1 stored together (adjacent 16-bit columns).
    pub paired: bool,
}

/// The epilogue's shared-memory stores of one 64-row atom: per warp, box and store, the 32
/// threads' bytes.
pub fn epilogue_pattern(e: &Sm90Epilogue) -> R<Pattern> {
    let nv = int_of("size", &[TArg::Int(1)], e.c)?;
    let step = if e.paired { 2 } else { 1 };
    let bytes = e.out_bytes * step;
    let swizzle = Value::Swizzle(crate::eval::layout::Swizzle { b: 3, m: 4, s: 3 });
    let mut groups = Vec::new();
    for w in 0..4 {
        for j in 0..e.bn / e.box_cols.max(1) {
            for v in (0..nv).step_by(step as usize) {
                let mut touches = Vec::new();
                for t in 32 * w..32 * w + 32 {
                    let idx = at(e.c, coord2(t, v))?;
                    let (m, n) = (idx % 64, idx / 64);
                    if n < j * e.box_cols || n >= (j + 1) * e.box_cols {
                        continue;
                    }
                    let lin = m * 128 + (n - j * e.box_cols) * e.out_bytes;
                    touches.push(Touch::bytes_at(t, at(&swizzle, int(lin))?, bytes)?);
                }
                if !touches.is_empty() {
                    groups.push(Group { label: format!("warp {w}, box {j}, value {v}"), touches });
                }
            }
        }
    }
    let what = format!("epilogue stores of C: {bytes}-byte stores into 128B-swizzled boxes of {} columns", e.box_cols);
    Ok(Pattern { what, elem: e.out_bytes, width: bytes, group_threads: 32, groups })
}

/// `(what, degree)` for the TMA writes and the wgmma reads of one operand.
pub fn sm90_degrees(t: &Sm90Traffic) -> R<Vec<(String, i64)>> {
    let mut out = Vec::new();
    for (what, p) in [("TMA write", tma_pattern(t)?), ("wgmma read", core_matrix_pattern(t)?)] {
        out.push((format!("{what} of {}", t.operand.to_ascii_uppercase()), banks::count(&p).degree()));
    }
    Ok(out)
}

/// `conflict-free` or `8-way`.
pub fn degree_words(d: i64) -> String {
    if d <= 1 {
        "conflict-free".into()
    } else {
        format!("{d}-way")
    }
}
