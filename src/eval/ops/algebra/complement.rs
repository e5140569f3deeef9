//! `complement(L, cotarget)`, ported from `layout.hpp` (`detail::complement`).
//!
//! Post: the result is ordered (strides increasing), disjoint from L (their images meet only at
//! 0), and `size(result) >= cotarget / size(filter(L))`. CuTe refuses dynamic strides for rank > 1.

use super::coalesce::{coalesce, coalesce_shape};
use super::composition::CHECK_LIMIT;
use super::util::{compact_col_major, leaf_int, leaf_refs, Leaves};
use crate::eval::error::{warn, EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::IntTuple::{self, I, T};
use crate::eval::layout::Layout;
use crate::eval::ops::structure::{cosize, filter};
use crate::eval::ops::tuple::ceil_div;

/// `detail::complement(shape, stride, cotarget)` on a filtered layout.
fn complement_impl(shape: &IntTuple, stride: &IntTuple, cotarget: &IntTuple) -> R<Layout> {
    if let I(d) = stride {
        if d.is_const(0) {
            // irreducible rank-1 stride-0 layout
            let s = coalesce_shape(cotarget)?;
            let d = compact_col_major(&s, st(1))?;
            return Ok(Layout::new(s, d));
        }
    }
    let ints = |t: &IntTuple| -> R<smallvec::SmallVec<[Int; 16]>> {
        let mut v = Leaves::new();
        leaf_refs(t, &mut v);
        v.iter().map(|x| leaf_int(x, "complement")).collect()
    };
    let mut shp = ints(shape)?;
    let mut strd = ints(stride)?;
    let r = shp.len();
    if r != strd.len() || r == 0 {
        return Err(EvalError::rule("mismatched ranks", format!("complement of {shape}:{stride}")));
    }
    if r > 1 && !strd.iter().all(|d| d.s) {
        return Err(EvalError::rule(
            "dynamic-stride complement only for rank-1 layouts",
            format!("{shape}:{stride} has rank {r} and dynamic strides"),
        ));
    }
    // CuTe divides each stride by the extent before it and truncates: where a division is
    // inexact its answer may not be a complement, so the law is checked then (and only then)
    let mut inexact = false;
    let mut result_shape: Vec<Int> = Vec::with_capacity(r);
    let mut result_stride: Vec<Int> = vec![st(1)];
    let non_injective = || {
        EvalError::rule(
            "non-injective layout detected in complement",
            format!("{shape}:{stride} maps two coordinates to the same index"),
        )
    };
    for i in 0..r - 1 {
        // min stride (all static here) and its first position
        let mut min_idx = 0;
        for (k, d) in strd.iter().enumerate() {
            if d.v < strd[min_idx].v {
                min_idx = k;
            }
        }
        let min_stride = strd[min_idx];
        let new_shape = min_stride.div(result_stride[i])?;
        inexact |= min_stride.v.checked_rem(result_stride[i].v) != Some(0);
        let new_stride = min_stride.mul(shp[min_idx])?;
        if new_shape.is_const(0) {
            return Err(non_injective());
        }
        shp.remove(min_idx);
        strd.remove(min_idx);
        result_shape.push(new_shape);
        result_stride.push(new_stride);
    }
    let new_shape = strd[0].div(result_stride[r - 1])?;
    inexact |= strd[0].v.checked_rem(result_stride[r - 1].v) != Some(0);
    if new_shape.is_const(0) {
        return Err(non_injective());
    }
    result_shape.push(new_shape);
    let new_stride = strd[0].mul(shp[0])?;
    let rest_shape = coalesce_shape(&ceil_div(cotarget, &I(new_stride))?)?;
    let rest_stride = compact_col_major(&rest_shape, new_stride)?;
    let rs = T(result_shape.into_iter().map(I).collect());
    let rd = T(result_stride.into_iter().map(I).collect());
    let res = coalesce(&Layout::new(T(vec![rs, rest_shape]), T(vec![rd, rest_stride])))?;
    if inexact {
        check_complement(shape, stride, cotarget, &res);
    }
    Ok(res)
}

/// Records a warning when `res` breaks complement's postconditions (`layout.hpp`): ordered,
/// disjoint from L except at 0, and `size(res) >= cotarget / size(L)` (L filtered). Both domains
/// are enumerated, so only for at most `CHECK_LIMIT` points each.
fn check_complement(shape: &IntTuple, stride: &IntTuple, cotarget: &IntTuple, res: &Layout) {
    let l = Layout::new(shape.clone(), stride.clone());
    let (Some(mut vl), Some(vr), Some(cot)) = (offsets(&l), offsets(res), product(cotarget)) else {
        return;
    };
    let why = if !vl.is_empty() && (vr.len() as i128) < cot / vl.len() as i128 {
        format!("it has {} points, fewer than {cot}/{}", vr.len(), vl.len())
    } else if let Some(i) = (1..vr.len()).find(|&i| vr[i - 1] >= vr[i]) {
        format!("it is not ordered at index {i}")
    } else {
        vl.sort_unstable();
        match (1..vr.len()).find(|&i| vl.binary_search(&vr[i]).is_ok()) {
            Some(i) => format!("its value {} at index {i} is also a value of L", vr[i]),
            None => return,
        }
    };
    warn(format!(
        "complement is not a complement of L = {l} for cotarget {cotarget}: {why} (CuTe truncates a stride \
         that is not a multiple of the extent before it)"
    ));
}

/// The product of the integer leaves of `t`, or `None`.
fn product(t: &IntTuple) -> Option<i128> {
    let mut v = Leaves::new();
    leaf_refs(t, &mut v);
    v.iter().try_fold(1i128, |acc, x| match x {
        I(i) => acc.checked_mul(i.v as i128),
        _ => None,
    })
}

/// `L(0), ..., L(size - 1)` for integer leaves and at most `CHECK_LIMIT` points, or `None`.
fn offsets(l: &Layout) -> Option<Vec<i128>> {
    let (mut s, mut d) = (Leaves::new(), Leaves::new());
    leaf_refs(&l.shape, &mut s);
    leaf_refs(&l.stride, &mut d);
    if s.len() != d.len() {
        return None;
    }
    let mut modes = Vec::with_capacity(s.len());
    let mut n: i128 = 1;
    for (a, b) in s.iter().zip(d.iter()) {
        let (I(e), I(st)) = (a, b) else { return None };
        if e.v < 0 {
            return None;
        }
        n = n.checked_mul(e.v as i128).filter(|&n| n <= CHECK_LIMIT as i128)?;
        modes.push((e.v as i128, st.v as i128));
    }
    Some(
        (0..n)
            .map(|i| {
                let mut r = i;
                modes.iter().fold(0i128, |off, &(e, st)| {
                    let x = off + (r % e) * st;
                    r /= e;
                    x
                })
            })
            .collect(),
    )
}

/// `complement(L, cotarget)`: the layout of the "rest" of `[0, cotarget)` not covered by L.
pub fn complement(l: &Layout, cotarget: &IntTuple) -> R<Layout> {
    let f = filter(l)?;
    complement_impl(&f.shape, &f.stride, cotarget)
}

/// `complement(L)`: the complement with respect to `cosize(filter(L))`.
pub fn complement_cosize(l: &Layout) -> R<Layout> {
    let f = filter(l)?;
    let c = cosize(&f)?;
    complement_impl(&f.shape, &f.stride, &I(c))
}
