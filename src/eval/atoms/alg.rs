//! The slice of CuTe's layout algebra that the atoms machinery (`mma_atom.hpp`, `copy_atom.hpp`)
//! is built from, ported case by case from `layout.hpp`, `int_tuple.hpp`, `stride.hpp` with
//! CuTe's static/dynamic rules.
//!
//! A facade: the atoms code calls only these functions (CuTe's names, the signatures the atoms
//! code wants), and they delegate to the shared algebra in `eval::ops`. The internal
//! compositions of the atoms are CuTe's own, so they use the `_raw` forms (no law warnings).
//! May import: `eval::ops`, `eval::int`, `eval::int_tuple`, `eval::layout`, `eval::error`.

use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::IntTuple::{self, Under, I};
use crate::eval::layout::Layout;
use crate::eval::ops::algebra::{self as oa, Tiler};
use crate::eval::ops::{coord as oc, divide as od, structure as os, tuple as ot};

// ------------------------------------------------------------------------------------------
// IntTuple helpers
// ------------------------------------------------------------------------------------------

/// `get<i>(t)`: a tuple's element, or the non-tuple itself for `i == 0`.
pub fn get(t: &IntTuple, i: usize) -> R<IntTuple> {
    t.get(i).cloned()
}

/// `wrap(t)`: the modes of a tuple, or the non-tuple as a single mode.
pub fn wrap(t: &IntTuple) -> Vec<IntTuple> {
    t.modes()
}

/// `product(t)`.
pub fn product(t: &IntTuple) -> R<Int> {
    ot::product(t)
}

/// `product_each(t)` (always a tuple).
pub fn product_each(t: &IntTuple) -> R<IntTuple> {
    ot::product_each(t)
}

/// `ceil_div(a, b)` on IntTuples.
pub fn ceil_div(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    ot::ceil_div(a, b)
}

fn as_int(t: &IntTuple) -> R<Int> {
    match t {
        I(i) => Ok(*i),
        Under => Ok(st(0)), // CuTe's Underscore is an Int<0>
        other => Err(EvalError::type_err(format!("expected an integer, got {other}"))),
    }
}

/// `slice(coord, t)` on a tuple.
pub fn slice_t(c: &IntTuple, t: &IntTuple) -> R<IntTuple> {
    oc::slice_tuple(c, t)
}

/// `crd2idx(coord, shape, stride)`; `_` counts as a static 0.
pub fn crd2idx(c: &IntTuple, s: &IntTuple, d: &IntTuple) -> R<Int> {
    as_int(&oc::crd2idx(c, s, d)?)
}

// ------------------------------------------------------------------------------------------
// Layouts
// ------------------------------------------------------------------------------------------

/// `make_layout(shape)`: compact column-major.
pub fn make_layout(shape: &IntTuple) -> R<Layout> {
    os::make_layout(shape)
}

/// `make_layout(L0, L1, ...)`: concatenation (always a tuple, even of one layout).
pub fn concat(ls: &[Layout]) -> Layout {
    os::make_layout_cat(ls)
}

/// `layout<i>(L)`: mode `i` as a layout.
pub fn mode(l: &Layout, i: usize) -> R<Layout> {
    Ok(Layout::new(get(&l.shape, i)?, get(&l.stride, i)?))
}

pub fn rank(l: &Layout) -> usize {
    l.shape.rank()
}

pub fn size(l: &Layout) -> R<Int> {
    os::size(l)
}

/// `append<N>(L)`: pad with `_1:_0` modes up to rank N.
pub fn append_to(l: &Layout, n: usize) -> R<Layout> {
    os::append_n(l, n as i64, &Layout::new(I(st(1)), I(st(0))))
}

/// `filter(L)`.
pub fn filter(l: &Layout) -> R<Layout> {
    os::filter(l)
}

/// `coalesce(L)`.
pub fn coalesce(l: &Layout) -> R<Layout> {
    oa::coalesce(l)
}

/// `coalesce(L, profile)`.
pub fn coalesce_by(l: &Layout, prof: &IntTuple) -> R<Layout> {
    oa::coalesce_profile(l, prof)
}

/// `zip(L)`.
pub fn zip(l: &Layout) -> R<Layout> {
    os::zip(l)
}

/// `L(coord)` with underscores: the sliced layout (no offset).
pub fn slice(c: &IntTuple, l: &Layout) -> R<Layout> {
    oc::slice(c, l)
}

/// `slice_and_offset(coord, L)`.
pub fn slice_and_offset(c: &IntTuple, l: &Layout) -> R<(Layout, Int)> {
    let (s, o) = oc::slice_and_offset(c, l)?;
    Ok((s, as_int(&o)?))
}

/// `slice_and_offset(coord, L)` with the offset as CuTe computes it (a tuple for scaled-basis
/// strides).
pub fn slice_and_offset_t(c: &IntTuple, l: &Layout) -> R<(Layout, IntTuple)> {
    oc::slice_and_offset(c, l)
}

/// `L.get_flat_coord(idx)`: one integer per top-level mode.
pub fn get_flat_coord(l: &Layout, idx: Int) -> R<Vec<Int>> {
    wrap(&oc::get_flat_coord(l, &I(idx))?).iter().map(as_int).collect()
}

/// `composition(lhs, rhs)` of two layouts.
pub fn composition(lhs: &Layout, rhs: &Layout) -> R<Layout> {
    oa::composition_raw(lhs, rhs)
}

/// `composition(lhs, tiler)`.
pub fn composition_t(lhs: &Layout, rhs: &Tiler) -> R<Layout> {
    oa::composition_tiler_raw(lhs, rhs)
}

/// `complement(L, cotarget)`.
pub fn complement(l: &Layout, cotarget: &IntTuple) -> R<Layout> {
    oa::complement(l, cotarget)
}

/// `complement(L)`: cotarget `cosize(filter(L))`.
pub fn complement1(l: &Layout) -> R<Layout> {
    oa::complement_cosize(l)
}

/// `right_inverse(L)`.
pub fn right_inverse(l: &Layout) -> R<Layout> {
    oa::right_inverse(l)
}

/// `left_inverse(L)`.
pub fn left_inverse(l: &Layout) -> R<Layout> {
    oa::left_inverse(l)
}

/// `logical_divide(L, tiler)`.
pub fn logical_divide(l: &Layout, t: &Tiler) -> R<Layout> {
    od::logical_divide_tiler(l, t)
}

/// `zipped_divide(L, tiler)`.
pub fn zipped_divide(l: &Layout, t: &Tiler) -> R<Layout> {
    od::zipped_divide(l, t)
}

/// `logical_product(block, tiler)`.
pub fn logical_product(b: &Layout, t: &Tiler) -> R<Layout> {
    od::logical_product_tiler(b, t)
}

/// `tiled_product(block, tiler)`.
pub fn tiled_product(b: &Layout, t: &Tiler) -> R<Layout> {
    od::tiled_product(b, t)
}

/// `raked_product(block, tiler)` of two layouts.
pub fn raked_product(b: &Layout, t: &Layout) -> R<Layout> {
    od::raked_product(b, t)
}

/// `upcast<N>(L)`.
pub fn upcast(n: i64, l: &Layout) -> R<Layout> {
    oa::upcast(l, n)
}

/// `recast_layout<uint1_t, T>(L)` for a value type of `bits` bits: `upcast<bits>` (identity for 1).
pub fn recast_from_bits(bits: i64, l: &Layout) -> R<Layout> {
    if bits == 1 {
        Ok(l.clone())
    } else {
        upcast(bits, l)
    }
}

/// `L.with_shape(shape) = composition(L, make_layout(shape))`.
pub fn with_shape(l: &Layout, shape: &IntTuple) -> R<Layout> {
    composition(l, &make_layout(shape)?)
}

/// Evaluate a layout at a 1-D index (for the tests' laws).
pub fn eval(l: &Layout, idx: i64) -> R<i64> {
    crd2idx(&I(Int::new(idx, false)), &l.shape, &l.stride).map(|i| i.v)
}
