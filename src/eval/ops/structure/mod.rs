//! Layout construction and structure: CuTe's `layout.hpp` (make_layout and its forms, get,
//! take, select, flatten, filter, append/prepend/replace/group, size/cosize/coshape, ...),
//! each applying the IntTuple function of `ops::tuple` to the shape and the stride.
//!
//! May import: `eval::{int, int_tuple, layout, error, value, builtins}`, `ops::tuple`, `ops::coord`,
//! `ops::algebra` (coalesce, complement) and `ops::divide` (tiled_product).

pub(crate) mod builtins;
pub use builtins::BUILTINS;

use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::{IntTuple, IntTuple::*, T, V};
use crate::eval::layout::Layout;
use crate::eval::ops::tuple as tp;

/// `make_layout(shape, stride)`.
pub fn make_layout_with(shape: &IntTuple, stride: &IntTuple) -> Layout {
    Layout::new(shape.clone(), stride.clone())
}

/// `make_layout(shape)` = `make_layout(shape, LayoutLeft)`: CuTe's `compact_major<LayoutLeft>`,
/// which gives a static size-1 mode the stride `_0` (`make_layout(8)` is `8:_1`).
pub fn make_layout(shape: &IntTuple) -> R<Layout> {
    Ok(Layout::new(shape.clone(), tp::compact_col_major(shape, &IntTuple::st(1))?))
}

/// `make_layout(shape, LayoutRight)`.
pub fn make_layout_right(shape: &IntTuple) -> R<Layout> {
    Ok(Layout::new(shape.clone(), tp::compact_row_major(shape, &IntTuple::st(1))?))
}

/// `make_layout(L0, L1, ...)`: concatenation, `(s0,s1,...):(d0,d1,...)`. One layout is wrapped:
/// `make_layout(8:1)` is `(8):(1)`.
pub fn make_layout_cat(ls: &[Layout]) -> Layout {
    Layout::new(T(ls.iter().map(|l| l.shape.clone()).collect()), T(ls.iter().map(|l| l.stride.clone()).collect()))
}

/// `make_ordered_layout(shape, order)`: compact strides following `order`.
pub fn make_ordered_layout(shape: &IntTuple, order: &IntTuple) -> R<Layout> {
    Ok(Layout::new(shape.clone(), tp::compact_order(shape, order)?))
}

/// `make_layout_like(L)`: compact, same shape, strides ordered like L's (static `_0` strides kept).
pub fn make_layout_like(l: &Layout) -> R<Layout> {
    let s = tp::filter_zeros_with(&l.stride, &l.shape)?;
    Ok(Layout::new(l.shape.clone(), tp::compact_order(&s, &l.stride)?))
}

/// `make_identity_layout(shape)`: strides are the basis elements `_1@i`.
pub fn make_identity_layout(shape: &IntTuple) -> Layout {
    Layout::new(shape.clone(), tp::make_basis_like(shape))
}

/// `make_fragment_like(shape)` = `make_layout(shape)`.
pub fn make_fragment_like_shape(shape: &IntTuple) -> R<Layout> {
    make_layout(shape)
}

/// Parts of `make_fragment_like(L)` for a static rank>1 layout: CuTe computes
/// `tiled_product(A, B)` of these two layouts. Returns `None` when the result is simply
/// `make_layout(shape(L))`.
pub fn make_fragment_like_parts(l: &Layout) -> R<Option<(Layout, Layout)>> {
    let r = l.shape.rank();
    if r > 1 && l.shape.is_tuple() && l.shape.is_static() {
        let s0 = tp::get_mode(&l.shape, 0)?;
        let d0 = tp::get_mode(&l.stride, 0)?;
        let a = Layout::new(s0.clone(), tp::compact_col_major(&tp::filter_zeros_with(&d0, &s0)?, &IntTuple::st(1))?);
        let b = make_ordered_layout(&tp::take(&l.shape, 1, r as i64)?, &tp::take(&l.stride, 1, r as i64)?)?;
        Ok(Some((a, b)))
    } else {
        Ok(None)
    }
}

/// `get<I...>(L)` / `layout<I...>(L)`: the sublayout of a mode.
pub fn layout_get(l: &Layout, path: &[usize]) -> R<Layout> {
    Ok(Layout::new(tp::get_path(&l.shape, path)?, tp::get_path(&l.stride, path)?))
}

/// `size(L)`.
pub fn size(l: &Layout) -> R<Int> {
    tp::size(&l.shape)
}

/// `rank(L)`.
pub fn rank(l: &Layout) -> usize {
    l.shape.rank()
}

/// `depth(L)` (an empty tuple in the shape is an error, as in CuTe).
pub fn depth(l: &Layout) -> R<usize> {
    tp::depth_of(&l.shape)
}

fn abs_leaf(t: &IntTuple) -> R<IntTuple> {
    Ok(match t.view() {
        V::I(i) => I(i.abs()?),
        V::Basis(b) => IntTuple::basis(b.v.abs()?, b.modes.clone()),
        V::T(v) => T(v.iter().map(abs_leaf).collect::<R<_>>()?),
        V::Under => Under,
    })
}

/// `coshape(L)`: `inner_product(shape - 1, abs(stride)) + 1` at every leaf (a tuple for
/// ScaledBasis strides).
pub fn coshape(l: &Layout) -> R<IntTuple> {
    let m1 = l.shape.map_ints(&mut |s| s.sub(st(1)))?;
    let ab = abs_leaf(&l.stride)?;
    let co = tp::inner_product(&m1, &ab)?;
    let co = match &co {
        Basis(b) if !b.modes.is_empty() => tp::basis_to_arith(b.v, &b.modes),
        x => x.clone(),
    };
    co.map_ints(&mut |c| c.add(st(1)))
}

/// `cosize(L)` = `size(coshape(L))`.
pub fn cosize(l: &Layout) -> R<Int> {
    // Integer strides of the shape's form (nearly every layout): the same operations on the
    // leaves, without the trees `coshape` builds; the general path otherwise, and on any error.
    if let Some(c) = int_coshape(&l.shape, &l.stride).and_then(|c| c.add(st(1)).ok()) {
        return Ok(c);
    }
    tp::size(&tp::to_plain(&coshape(l)?))
}

/// `inner_product(shape - 1, abs(stride))` where shape and stride have the same form and integer
/// leaves, as `tp::inner_product` computes it (a tuple's sum from `_0`, mode by mode); `None`
/// otherwise or on overflow.
fn int_coshape(s: &IntTuple, d: &IntTuple) -> Option<Int> {
    // (a leaf's term, in place: a call for each leaf was most of a flat layout's cosize)
    #[inline(always)]
    fn term(a: Int, b: Int) -> Option<Int> {
        a.sub(st(1)).ok()?.mul(b.abs().ok()?).ok()
    }
    match (s.view(), d.view()) {
        (V::I(a), V::I(b)) => term(*a, *b),
        (V::T(x), V::T(y)) if x.len() == y.len() => {
            let mut acc = st(0);
            for (xi, yi) in x.iter().zip(y.iter()) {
                let t = match (xi, yi) {
                    (I(a), I(b)) => term(*a, *b)?,
                    _ => int_coshape(xi, yi)?,
                };
                acc = acc.add(t).ok()?;
            }
            Some(acc)
        }
        _ => None,
    }
}

/// `coprofile(L)`: `_0`s congruent with the codomain.
pub fn coprofile(l: &Layout) -> R<IntTuple> {
    let s = tp::sum(&l.stride)?;
    let s = match &s {
        Basis(b) if !b.modes.is_empty() => tp::basis_to_arith(b.v, &b.modes),
        x => x.clone(),
    };
    Ok(tp::repeat_like(&s, &IntTuple::st(0)))
}

/// `flatten(L)`.
pub fn flatten(l: &Layout) -> Layout {
    Layout::new(tp::flatten(&l.shape), tp::flatten(&l.stride))
}

/// `unflatten(L, profile)`.
pub fn unflatten(l: &Layout, profile: &IntTuple) -> R<Layout> {
    Ok(Layout::new(tp::unflatten(&l.shape, profile)?, tp::unflatten(&l.stride, profile)?))
}

/// `filter_zeros(L)`: modes with a static `_0` stride get size `_1`.
pub fn filter_zeros(l: &Layout) -> R<Layout> {
    Ok(Layout::new(tp::filter_zeros_with(&l.stride, &l.shape)?, l.stride.clone()))
}

/// `filter_zeros(L, profile)`: modes at a static `_0` of the profile get size `_1`.
pub fn filter_zeros_profile(l: &Layout, profile: &IntTuple) -> R<Layout> {
    Ok(Layout::new(tp::filter_zeros_with(profile, &l.shape)?, l.stride.clone()))
}

/// `filter(L)` = `coalesce(filter_zeros(L))`: removes stride-0 and size-1 modes.
pub fn filter(l: &Layout) -> R<Layout> {
    filter_modes(l).map(|m| crate::eval::ops::algebra::util::from_modes(&m))
}

/// The flat modes of `filter(L)` (a coalesced layout has depth at most 1: its modes are the
/// layout, `from_modes` builds it).
pub fn filter_modes(l: &Layout) -> R<crate::eval::ops::algebra::util::Modes> {
    let mut out = crate::eval::ops::algebra::util::Modes::new();
    filter_modes_into(l, &mut out)?;
    Ok(out)
}

/// [`filter_modes`] pushed onto `out` (empty; filled in place, not copied on the way back).
pub fn filter_modes_into(l: &Layout, out: &mut crate::eval::ops::algebra::util::Modes) -> R<()> {
    use crate::eval::ops::algebra::{coalesce_flat_into, coalesce_into, util::congruent_into, util::Modes};
    // Shape and stride of the same form (nearly always): `filter_zeros` acts leaf by leaf, so
    // the modes are filtered as `coalesce` flattens them, without building the filtered layout.
    let mut modes = Modes::new();
    if congruent_into(l, &mut modes) {
        for (s, d) in modes.iter_mut() {
            if matches!(d, crate::eval::ops::algebra::util::Stride::I(z) if z.is_const(0)) {
                *s = st(1);
            }
        }
        return coalesce_flat_into(&modes, out);
    }
    coalesce_into(&filter_zeros(l)?, out)
}

/// [`filter_modes_into`] of a layout of integers only (`int_modes_into`: most layouts), as
/// integers pushed onto `out` (empty); `None` for any other layout.
#[inline]
pub fn filter_int_modes_into(l: &Layout, out: &mut crate::eval::ops::algebra::IntModes) -> Option<R<()>> {
    use crate::eval::ops::algebra::{coalesce_int_flat_into, int_modes_into, IntModes};
    if let (I(s), I(d)) = (&l.shape, &l.stride) {
        // one mode (most calls): a `_0` stride makes its shape `_1`, and coalesce makes a lone
        // `_1` mode `_1:_0`
        out.push(if d.is_const(0) || s.is_const(1) { (st(1), st(0)) } else { (*s, *d) });
        return Some(Ok(()));
    }
    let mut modes = IntModes::new();
    if !int_modes_into(l, &mut modes) {
        return None;
    }
    // (as `filter_modes_into`: `filter_zeros` leaf by leaf, then coalesce)
    for (s, d) in modes.iter_mut() {
        if d.is_const(0) {
            *s = st(1);
        }
    }
    Some(coalesce_int_flat_into(&modes, out))
}

/// `filter(L, profile)`: filter at the terminals of the profile.
pub fn filter_profile(l: &Layout, profile: &IntTuple) -> R<Layout> {
    match profile.view() {
        V::T(p) => {
            if p.len() > rank(l) {
                return Err(EvalError::rule(
                    "tuple_size<IntTuple>::value <= Layout::rank",
                    format!("filter of `{l}` by the profile `{profile}` of rank {}", p.len()),
                ));
            }
            transform_layout(l, &p, filter_profile)
        }
        _ => filter(l),
    }
}

/// CuTe's `transform_layout(L, profile, f)`: f on the first rank(profile) modes, the rest kept,
/// then concatenated with `make_layout(...)` (so a single mode comes back wrapped).
pub fn transform_layout(l: &Layout, p: &[IntTuple], f: fn(&Layout, &IntTuple) -> R<Layout>) -> R<Layout> {
    let r = rank(l);
    let mut parts = Vec::new();
    for (i, pi) in p.iter().enumerate() {
        parts.push(f(&layout_get(l, &[i])?, pi)?);
    }
    for i in p.len()..r {
        parts.push(layout_get(l, &[i])?);
    }
    Ok(make_layout_cat(&parts))
}

/// `append(L, x)`, `prepend(L, x)` (x defaults to `_1:_0`).
pub fn append(l: &Layout, x: &Layout) -> Layout {
    Layout::new(tp::append(&l.shape, &x.shape), tp::append(&l.stride, &x.stride))
}
pub fn prepend(l: &Layout, x: &Layout) -> Layout {
    Layout::new(tp::prepend(&l.shape, &x.shape), tp::prepend(&l.stride, &x.stride))
}
/// `append<N>(L, x)`.
pub fn append_n(l: &Layout, n: i64, x: &Layout) -> R<Layout> {
    Ok(Layout::new(tp::append_n(&l.shape, n, &x.shape)?, tp::append_n(&l.stride, n, &x.stride)?))
}
/// `prepend<N>(L, x)`.
pub fn prepend_n(l: &Layout, n: i64, x: &Layout) -> R<Layout> {
    Ok(Layout::new(tp::prepend_n(&l.shape, n, &x.shape)?, tp::prepend_n(&l.stride, n, &x.stride)?))
}
/// `replace<N>(L, x)`.
pub fn replace(l: &Layout, n: i64, x: &Layout) -> R<Layout> {
    Ok(Layout::new(tp::replace(&l.shape, n, &x.shape)?, tp::replace(&l.stride, n, &x.stride)?))
}
/// `select<I...>(L)`.
pub fn select(l: &Layout, idx: &[i64]) -> R<Layout> {
    Ok(Layout::new(tp::select(&l.shape, idx)?, tp::select(&l.stride, idx)?))
}
/// `take<B,E>(L)`: CuTe requires `B < E` ("take: empty range error") and `E <= rank`.
pub fn take(l: &Layout, b: i64, e: i64) -> R<Layout> {
    if b >= e {
        return Err(EvalError::rule("take: empty range error", format!("take<{b},{e}> of `{l}`")));
    }
    if b < 0 || e > rank(l) as i64 {
        return Err(EvalError::rule(
            "take: range out of bounds",
            format!("take<{b},{e}> of `{l}`, which has rank {}", rank(l)),
        ));
    }
    Ok(Layout::new(tp::take(&l.shape, b, e)?, tp::take(&l.stride, b, e)?))
}
/// `group<B,E>(L)`.
pub fn group(l: &Layout, b: i64, e: i64) -> R<Layout> {
    Ok(Layout::new(tp::group(&l.shape, b, e)?, tp::group(&l.stride, b, e)?))
}
/// `zip(L)`.
pub fn zip(l: &Layout) -> R<Layout> {
    Ok(Layout::new(tp::zip(&l.shape)?, tp::zip(&l.stride)?))
}
/// `zip(A, B)`.
pub fn zip2(a: &Layout, b: &Layout) -> R<Layout> {
    Ok(Layout::new(
        tp::zip(&T(vec![a.shape.clone(), b.shape.clone()]))?,
        tp::zip(&T(vec![a.stride.clone(), b.stride.clone()]))?,
    ))
}

#[cfg(test)]
mod tests;

/// `ceil_div(target, tiler)` for a layout tiler: `shape(complement(tiler, shape(target)))`.
pub fn ceil_div_by_layout(target: &IntTuple, tiler: &Layout) -> R<IntTuple> {
    Ok(crate::eval::ops::algebra::complement(tiler, target)?.shape)
}

/// `make_fragment_like(L)`: `make_layout(shape(L))`, except for a static layout of rank > 1,
/// where CuTe builds `tiled_product(mode 0 made compact, make_ordered_layout(rest))`.
pub fn make_fragment_like(l: &Layout) -> R<Layout> {
    match make_fragment_like_parts(l)? {
        None => make_layout(&l.shape),
        Some((a, b)) => crate::eval::ops::divide::tiled_product(&a, &crate::eval::ops::algebra::Tiler::Layout(b)),
    }
}
