//! Coordinates: CuTe's `stride.hpp` (crd2idx, idx2crd, crd2crd), `underscore.hpp` (slice, dice)
//! and the coordinate members of `Layout` (operator(), get_hier_coord, get_flat_coord,
//! get_1d_coord, slice_and_offset, domain_offset).
//!
//! Index values are IntTuples: usually an integer, but ScaledBasis strides (identity layouts)
//! give basis elements (`5@0`) or ArithmeticTuples (`(1,2)`).
//! May import: `eval::{int, int_tuple, layout, error, value, builtins}`, `ops::tuple`, `ops::structure`.

pub(crate) mod builtins;
pub use builtins::BUILTINS;

use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::{IntTuple, IntTuple::*, T, V};
use crate::eval::layout::Layout;
use crate::eval::ops::tuple as tp;
use crate::eval::value::Value;

/// An integer coordinate (`_` counts as CuTe's `Int<0>` subclass).
fn cint(c: &IntTuple) -> R<Int> {
    match c {
        I(i) => Ok(*i),
        Under => Ok(st(0)),
        other => Err(EvalError::type_err(format!("expected an integer coordinate, got `{other}`"))),
    }
}

fn is_zero_const(c: &IntTuple) -> bool {
    matches!(c, I(i) if i.is_const(0)) || matches!(c, Under)
}

/// True if the coordinate contains `_` (then `L(c)` slices).
pub fn has_underscore(c: &IntTuple) -> bool {
    match c.view() {
        V::Under => true,
        V::T(v) => v.iter().any(has_underscore),
        _ => false,
    }
}

/// CuTe's `crd2idx(coord, shape, stride)`:
/// tuple tuple tuple: sum over modes (ranks must match: "Mismatched Ranks");
/// int tuple tuple: the integer is split over the modes colexicographically (the last mode
/// takes the rest); int int int: `coord * stride`.
pub fn crd2idx(coord: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> R<IntTuple> {
    match (coord.view(), shape.view()) {
        (V::T(c), V::T(s)) => {
            if c.len() != s.len() {
                return Err(EvalError::rule("Mismatched Ranks", format!("coordinate `{coord}` for shape `{shape}`")));
            }
            let d = match stride.view() {
                V::T(d) if d.len() == c.len() => d,
                _ => {
                    return Err(EvalError::rule(
                        "Mismatched Ranks",
                        format!("coordinate `{coord}` for stride `{stride}`"),
                    ))
                }
            };
            if c.is_empty() {
                return Err(EvalError::rule("Invalid parameters", "crd2idx of an empty coordinate"));
            }
            let mut acc = crd2idx(&c[0], &s[0], &d[0])?;
            for k in 1..c.len() {
                acc = tp::arith_add(&acc, &crd2idx(&c[k], &s[k], &d[k])?)?;
            }
            Ok(acc)
        }
        (V::T(_), _) => Err(EvalError::rule(
            "Invalid parameters",
            format!("tuple coordinate `{coord}` for the integer shape `{shape}`"),
        )),
        (_, V::T(s)) => {
            let d = match stride.view() {
                V::T(d) if d.len() == s.len() => d,
                _ => return Err(EvalError::rule("Mismatched Ranks", format!("shape `{shape}` and stride `{stride}`"))),
            };
            if s.is_empty() {
                return Err(EvalError::rule("Invalid parameters", "crd2idx into an empty shape"));
            }
            crd2idx_itt(coord, &s, &d)
        }
        _ => match stride.view() {
            V::T(_) => Err(EvalError::rule(
                "Invalid parameters",
                format!("integer shape `{shape}` with tuple stride `{stride}`"),
            )),
            _ => tp::arith_mul(&I(cint(coord)?), stride),
        },
    }
}

fn crd2idx_itt(coord: &IntTuple, s: &[IntTuple], d: &[IntTuple]) -> R<IntTuple> {
    if s.len() == 1 {
        return crd2idx(coord, &s[0], &d[0]);
    }
    if is_zero_const(coord) {
        let z = IntTuple::st(0);
        let first = crd2idx(&z, &s[0], &d[0])?;
        let mut rest = IntTuple::st(0);
        for k in 1..s.len() {
            rest = tp::arith_add(&rest, &crd2idx(&z, &s[k], &d[k])?)?;
        }
        return tp::arith_add(&first, &rest);
    }
    let c = cint(coord)?;
    let p = tp::product(&s[0])?;
    let div = c.div(p)?;
    let md = c.rem(p)?;
    let a = crd2idx(&I(md), &s[0], &d[0])?;
    let b = crd2idx_itt(&I(div), &s[1..], &d[1..])?;
    tp::arith_add(&a, &b)
}

/// CuTe's `crd2idx(coord, shape)`: the generalized column-major 1-D index of a coordinate
/// (an integer coordinate is already an index).
pub fn crd2idx_shape(coord: &IntTuple, shape: &IntTuple) -> R<IntTuple> {
    match (coord.view(), shape.view()) {
        (V::T(c), V::T(s)) => {
            if c.len() != s.len() {
                return Err(EvalError::rule("Mismatched Ranks", format!("coordinate `{coord}` for shape `{shape}`")));
            }
            let fc = tp::flatten(coord).modes();
            let fs = tp::flatten(&tp::product_like(shape, coord)?).modes();
            if fc.len() != fs.len() || fc.is_empty() {
                return Err(EvalError::rule("Mismatched Ranks", format!("coordinate `{coord}` for shape `{shape}`")));
            }
            // Horner: c0 + s0 * (c1 + s1 * (...))
            let n = fc.len();
            let mut acc = cint(&fc[n - 1])?;
            for k in (0..n - 1).rev() {
                acc = cint(&fc[k])?.add(cint(&fs[k])?.mul(acc)?)?;
            }
            Ok(I(acc))
        }
        (V::T(_), _) => Err(EvalError::rule(
            "Invalid parameters",
            format!("tuple coordinate `{coord}` for the integer shape `{shape}`"),
        )),
        _ => Ok(coord.clone()),
    }
}

/// CuTe's `idx2crd(idx, shape)`: the natural (hierarchical) coordinate of a 1-D index.
/// Computed as CuTe does, `crd2idx(idx, shape, make_basis_like(shape))`.
pub fn idx2crd(idx: &IntTuple, shape: &IntTuple) -> R<IntTuple> {
    match (idx.view(), shape.view()) {
        (V::T(i), V::T(s)) => {
            if i.len() != s.len() {
                return Err(EvalError::rule("Mismatched Ranks", format!("index `{idx}` for shape `{shape}`")));
            }
            Ok(T(i.iter().zip(s.iter()).map(|(a, b)| idx2crd(a, b)).collect::<R<_>>()?))
        }
        (V::T(_), _) => {
            Err(EvalError::rule("Invalid parameters", format!("tuple index `{idx}` for the integer shape `{shape}`")))
        }
        (_, V::T(_)) => {
            let r = crd2idx(idx, shape, &tp::make_basis_like(shape))?;
            Ok(tp::to_plain(&r))
        }
        _ => Ok(idx.clone()),
    }
}

/// CuTe's `idx2crd(idx, shape, stride)`: `(idx / stride) % shape` at every leaf.
pub fn idx2crd_stride(idx: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> R<IntTuple> {
    match (idx.view(), shape.view()) {
        (V::T(i), V::T(s)) => {
            let d = match stride.view() {
                V::T(d) if d.len() == i.len() && s.len() == i.len() => d,
                _ => {
                    return Err(EvalError::rule(
                        "Mismatched Ranks",
                        format!("index `{idx}`, shape `{shape}`, stride `{stride}`"),
                    ))
                }
            };
            Ok(T(i.iter().zip(s.iter()).zip(d.iter()).map(|((a, b), c)| idx2crd_stride(a, b, c)).collect::<R<_>>()?))
        }
        (V::T(_), _) => {
            Err(EvalError::rule("Invalid parameters", format!("tuple index `{idx}` for the integer shape `{shape}`")))
        }
        (_, V::T(s)) => match stride.view() {
            V::T(d) => {
                if d.len() != s.len() {
                    return Err(EvalError::rule("Mismatched Ranks", format!("shape `{shape}` and stride `{stride}`")));
                }
                Ok(T(s.iter().zip(d.iter()).map(|(a, b)| idx2crd_stride(idx, a, b)).collect::<R<_>>()?))
            }
            _ => {
                let d = tp::compact_col_major(shape, stride)?;
                idx2crd_stride(idx, shape, &d)
            }
        },
        _ => {
            let sh = cint(shape)?;
            if sh.is_const(1) {
                return Ok(IntTuple::st(0));
            }
            let i = cint(idx)?;
            let d = match stride {
                I(d) => *d,
                Under => st(0),
                other => return Err(EvalError::type_err(format!("idx2crd: stride `{other}` is not an integer"))),
            };
            Ok(I(i.div(d)?.rem(sh)?))
        }
    }
}

/// CuTe's `crd2crd(coord, src_shape, dst_shape)`.
pub fn crd2crd(coord: &IntTuple, src: &IntTuple, dst: &IntTuple) -> R<IntTuple> {
    match (coord.view(), src.view(), dst.view()) {
        (V::T(c), V::T(s), V::T(d)) => {
            if c.len() != s.len() || c.len() != d.len() {
                return Err(EvalError::rule(
                    "Mismatched Ranks",
                    format!("crd2crd of `{coord}` from `{src}` to `{dst}`"),
                ));
            }
            Ok(T(c.iter().zip(s.iter()).zip(d.iter()).map(|((a, b), e)| crd2crd(a, b, e)).collect::<R<_>>()?))
        }
        _ => idx2crd(&crd2idx_shape(coord, src)?, dst),
    }
}

/// `L(c)` for a coordinate without `_`: `crd2idx(c, shape(L), stride(L))`.
pub fn eval_layout(l: &Layout, c: &IntTuple) -> R<IntTuple> {
    if has_underscore(c) {
        return Err(EvalError::type_err(format!("coordinate `{c}` contains `_`: that slices the layout")));
    }
    crd2idx(c, &l.shape, &l.stride)
}

fn lift(a: &IntTuple, b: &IntTuple, keep_under: bool) -> R<Vec<IntTuple>> {
    match a.view() {
        V::T(x) => {
            let y = match b.view() {
                V::T(y) if y.len() == x.len() => y,
                _ => return Err(EvalError::rule("Mismatched Ranks", format!("coordinate `{a}` for `{b}`"))),
            };
            let mut out = Vec::new();
            for (p, q) in x.iter().zip(y.iter()) {
                out.extend(lift(p, q, keep_under)?);
            }
            Ok(out)
        }
        V::Under => Ok(if keep_under { vec![b.clone()] } else { vec![] }),
        _ => Ok(if keep_under { vec![] } else { vec![b.clone()] }),
    }
}

/// `lift` on values: CuTe's generic `lift_slice`/`lift_dice` for a `b` that is a heterogeneous
/// tuple (a tiler), a swizzle or a composed layout. Elements are taken whole (a layout inside a
/// tuple is not sliced: the generic functions recurse with themselves, not with the Layout
/// overload); a tuple coordinate needs a tuple of the same rank.
fn lift_value(a: &IntTuple, b: &Value, keep_under: bool) -> R<Vec<Value>> {
    match a.view() {
        V::T(x) => {
            let y = match tp::Tup::modes_of(b) {
                Some(y) if y.len() == x.len() => y,
                _ => return Err(EvalError::rule("Mismatched Ranks", format!("coordinate `{a}` for `{b}`"))),
            };
            let mut out = Vec::new();
            for (p, q) in x.iter().zip(&y) {
                out.extend(lift_value(p, q, keep_under)?);
            }
            Ok(out)
        }
        V::Under => Ok(if keep_under { vec![b.clone()] } else { vec![] }),
        _ => Ok(if keep_under { vec![] } else { vec![b.clone()] }),
    }
}

/// CuTe's generic `slice(a, b)` for a value without its own overload (a tiler, a swizzle):
/// `slice(_, b) == b`, an integer keeps nothing, a tuple keeps the parts paired with `_`.
pub fn slice_value(a: &IntTuple, b: &Value) -> R<Value> {
    match a.view() {
        V::T(_) => Ok(Value::tuple(lift_value(a, b, true)?)),
        V::Under => Ok(b.clone()),
        _ => Ok(Value::Tuple(T(vec![]))),
    }
}

/// CuTe's generic `dice(a, b)` (also for a composed layout, which has no overload):
/// `dice(1, b) == b`, `dice(_, b)` is `()`, a tuple keeps the parts paired with integers.
pub fn dice_value(a: &IntTuple, b: &Value) -> R<Value> {
    match a.view() {
        V::T(_) => Ok(Value::tuple(lift_value(a, b, false)?)),
        V::Under => Ok(Value::Tuple(T(vec![]))),
        _ => Ok(b.clone()),
    }
}

/// `slice(a, b)` on IntTuples: keep the parts of b paired with `_` in a (`slice(_, b) == b`).
pub fn slice_tuple(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    match a.view() {
        V::T(_) => Ok(T(lift(a, b, true)?)),
        V::Under => Ok(b.clone()),
        _ => Ok(T(vec![])),
    }
}

/// `dice(a, b)` on IntTuples: keep the parts of b paired with integers in a (`dice(1, b) == b`).
pub fn dice_tuple(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    match a.view() {
        V::T(_) => Ok(T(lift(a, b, false)?)),
        V::Under => Ok(T(vec![])),
        _ => Ok(b.clone()),
    }
}

/// `slice(c, L)`: the sublayout of the modes marked `_`.
pub fn slice(c: &IntTuple, l: &Layout) -> R<Layout> {
    Ok(Layout::new(slice_tuple(c, &l.shape)?, slice_tuple(c, &l.stride)?))
}

/// `dice(c, L)`: the sublayout of the modes given by integers.
pub fn dice(c: &IntTuple, l: &Layout) -> R<Layout> {
    Ok(Layout::new(dice_tuple(c, &l.shape)?, dice_tuple(c, &l.stride)?))
}

/// `slice_and_offset(c, L)`: `(slice(c, L), crd2idx(c, L))` (`_` counts as 0 in the offset).
pub fn slice_and_offset(c: &IntTuple, l: &Layout) -> R<(Layout, IntTuple)> {
    Ok((slice(c, l)?, crd2idx(c, &l.shape, &l.stride)?))
}

/// The result of `L(c)`: an index for a plain coordinate, a layout when `c` contains `_`.
#[derive(Clone, Debug, PartialEq)]
pub enum Applied {
    Index(IntTuple),
    Layout(Layout),
}

/// CuTe's `Layout::operator()(c)`: slices if `c` has `_`, else evaluates.
pub fn apply_layout(l: &Layout, c: &IntTuple) -> R<Applied> {
    if has_underscore(c) {
        Ok(Applied::Layout(slice(c, l)?))
    } else {
        Ok(Applied::Index(crd2idx(c, &l.shape, &l.stride)?))
    }
}

/// `domain_offset(c, L)` = `(L, L(c))`.
pub fn domain_offset(c: &IntTuple, l: &Layout) -> R<(Layout, Applied)> {
    Ok((l.clone(), apply_layout(l, c)?))
}

/// `L.get_hier_coord(i)` = `idx2crd(i, shape, stride)`.
pub fn get_hier_coord(l: &Layout, i: &IntTuple) -> R<IntTuple> {
    idx2crd_stride(i, &l.shape, &l.stride)
}

/// `L.get_flat_coord(i)` = `crd2crd(hier, shape, repeat<rank>(_1))`.
pub fn get_flat_coord(l: &Layout, i: &IntTuple) -> R<IntTuple> {
    let h = get_hier_coord(l, i)?;
    let ones = tp::repeat(l.shape.rank() as i64, &IntTuple::st(1))?;
    crd2crd(&h, &l.shape, &ones)
}

/// `L.get_1d_coord(i)` = `crd2idx(hier, shape)`.
pub fn get_1d_coord(l: &Layout, i: &IntTuple) -> R<IntTuple> {
    let h = get_hier_coord(l, i)?;
    crd2idx_shape(&h, &l.shape)
}

#[cfg(test)]
mod tests;
