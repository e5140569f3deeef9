//! The bank-conflict degrees of a generated GEMM kernel's shared-memory traffic, for its source
//! header: the cp.async stores of one copy step and the ldmatrix x4 loads of one 16x16 block,
//! each counted as `bank_conflicts` counts them. The runtime passes plain data (no runtime types).
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
                touches.push(Touch { thread: thr, addr: at(t.smem, c)? * t.elem, bytes: t.elem });
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
                touches.push(Touch { thread: lane, addr: at(t.smem, c)? * t.elem, bytes: t.elem });
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

/// `conflict-free` or `8-way`.
pub fn degree_words(d: i64) -> String {
    if d <= 1 {
        "conflict-free".into()
    } else {
        format!("{d}-way")
    }
}
