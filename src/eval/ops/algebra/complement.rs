//! `complement(L, cotarget)`, ported from `layout.hpp` (`detail::complement`).
//!
//! Post: the result is ordered (strides increasing), disjoint from L (their images meet only at
//! 0), and `size(result) >= cotarget / size(filter(L))`. CuTe refuses dynamic strides for rank > 1.

use super::coalesce::{coalesce, coalesce_shape};
use super::util::{compact_col_major, leaf_int, leaf_refs, Leaves};
use crate::eval::error::{EvalError, R};
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
    if new_shape.is_const(0) {
        return Err(non_injective());
    }
    result_shape.push(new_shape);
    let new_stride = strd[0].mul(shp[0])?;
    let rest_shape = coalesce_shape(&ceil_div(cotarget, &I(new_stride))?)?;
    let rest_stride = compact_col_major(&rest_shape, new_stride)?;
    let rs = T(result_shape.into_iter().map(I).collect());
    let rd = T(result_stride.into_iter().map(I).collect());
    coalesce(&Layout::new(T(vec![rs, rest_shape]), T(vec![rd, rest_stride])))
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
