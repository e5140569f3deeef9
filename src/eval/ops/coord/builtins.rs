//! Registry entries for "coordinates" (oracle README group), the coordinate member functions
//! (`get_hier_coord`, `get_flat_coord`, `get_1d_coord`) and `__apply`, the interpreter's
//! built-in for `A(...)` on a layout.

use super as co;
use crate::eval::builtins::b;
use crate::eval::builtins::{Args, Arity::Says, Builtin};
use crate::eval::error::{EvalError, R};
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::Layout;
use crate::eval::ops::tuple::builtins::{layout_arg, nm, no_foreign, no_swizzle, tuple_arg};
use crate::eval::value::Value;

fn tv(t: IntTuple) -> R<Value> {
    Ok(Value::Tuple(t))
}
fn applied(a: co::Applied) -> Value {
    match a {
        co::Applied::Index(t) => Value::Tuple(t),
        co::Applied::Layout(l) => Value::Layout(l),
    }
}

fn f_crd2idx(a: &Args) -> R<Value> {
    // stride.hpp: crd2idx(c, s) with an integral c (`_` is an Int<0>) is c, whatever s is
    if let [c @ Value::Tuple(IntTuple::I(_) | IntTuple::Under), Value::Swizzle(_) | Value::Composed(_) | Value::Tag(_)] =
        a.args
    {
        return Ok(Value::clone(c));
    }
    no_foreign(a)?;
    // `crd2idx(i, shape)` of `stride.hpp`: an integer coordinate is already an index, whatever
    // the "shape" (a swizzled layout or a tiler has no overload of its own).
    if let [Value::Tuple(c @ IntTuple::I(_)), Value::Composed(_) | Value::Swizzle(_) | Value::Tile(_)] = a.args {
        return tv(c.clone());
    }
    no_swizzle(a)?;
    let c = tuple_arg(a, 0)?;
    match a.nargs() {
        2 => match a.arg(1)? {
            Value::Layout(l) => tv(co::crd2idx(c, &l.shape, &l.stride)?),
            Value::Tuple(s) => tv(co::crd2idx_shape(c, s)?),
            _ => nm(a),
        },
        _ => tv(co::crd2idx(c, tuple_arg(a, 1)?, tuple_arg(a, 2)?)?),
    }
}

pub(crate) fn f_idx2crd(a: &Args) -> R<Value> {
    // stride.hpp: idx2crd(idx, shape) with neither a tuple ("int" "int") returns idx as it is,
    // whatever it is (CuTe's template takes a layout, swizzle or `_` there too)
    let non_tuple = |v: &Value| {
        matches!(
            v,
            Value::Tuple(IntTuple::I(_) | IntTuple::Under) | Value::Layout(_) | Value::Swizzle(_) | Value::Composed(_)
        )
    };
    if let [i, s] = a.args {
        if non_tuple(i) && non_tuple(s) {
            return Ok(Value::clone(i));
        }
    }
    let i = tuple_arg(a, 0)?;
    let s = tuple_arg(a, 1)?;
    match a.nargs() {
        2 => tv(co::idx2crd(i, s)?),
        _ => tv(co::idx2crd_stride(i, s, tuple_arg(a, 2)?)?),
    }
}

fn f_crd2crd(a: &Args) -> R<Value> {
    let (c, s, d) = (tuple_arg(a, 0)?, tuple_arg(a, 1)?, tuple_arg(a, 2)?);
    tv(co::crd2crd(c, s, d)?)
}

/// underscore.hpp's generic `slice`/`dice` with a coordinate that is neither a tuple nor `_`
/// nor an integer (a layout or a swizzle written as the coordinate): `slice` keeps nothing,
/// `dice` keeps everything; layout.hpp applies them to the shape and the stride.
pub(crate) fn opaque_coord(a: &Args, keep: bool) -> Option<R<Value>> {
    let [c, t] = a.args else { return None };
    if !matches!(c, Value::Layout(_) | Value::Swizzle(_) | Value::Composed(_) | Value::Tag(_)) {
        return None;
    }
    Some(Ok(match (t, keep) {
        (Value::Tuple(_) | Value::Swizzle(_) | Value::Tag(_) | Value::Tile(_), true) => Value::clone(t),
        (Value::Tuple(_) | Value::Swizzle(_) | Value::Tag(_) | Value::Tile(_), false) => {
            Value::Tuple(IntTuple::T(vec![]))
        }
        (Value::Layout(_), true) => Value::clone(t),
        (Value::Layout(_), false) => Value::Layout(Layout::new(IntTuple::T(vec![]), IntTuple::T(vec![]))),
        _ => return None,
    }))
}

pub(crate) fn f_slice(a: &Args) -> R<Value> {
    if let Some(r) = opaque_coord(a, false) {
        return r;
    }
    let c = tuple_arg(a, 0)?;
    match a.arg(1)? {
        Value::Layout(l) => Ok(Value::Layout(co::slice(c, l)?)),
        Value::Tuple(t) => tv(co::slice_tuple(c, t)?),
        // CuTe's generic `slice` (composed layouts have their own, in the swizzle module)
        v @ (Value::Swizzle(_) | Value::Tile(_)) => co::slice_value(c, v).map_err(|e| e.at_arg(1)),
        _ => nm(a),
    }
}

fn f_dice(a: &Args) -> R<Value> {
    if let Some(r) = opaque_coord(a, true) {
        return r;
    }
    let c = tuple_arg(a, 0)?;
    match a.arg(1)? {
        Value::Layout(l) => Ok(Value::Layout(co::dice(c, l)?)),
        Value::Tuple(t) => tv(co::dice_tuple(c, t)?),
        // CuTe's generic `dice` (a composed layout has no overload of its own)
        v @ (Value::Composed(_) | Value::Swizzle(_) | Value::Tile(_)) => co::dice_value(c, v).map_err(|e| e.at_arg(1)),
        _ => nm(a),
    }
}

pub(crate) fn f_slice_and_offset(a: &Args) -> R<Value> {
    let c = tuple_arg(a, 0)?;
    let l = layout_arg(a, 1)?;
    let (s, o) = co::slice_and_offset(c, l)?;
    Ok(Value::Tile(vec![Value::Layout(s), Value::Tuple(o)]))
}

pub(crate) fn f_domain_offset(a: &Args) -> R<Value> {
    let c = tuple_arg(a, 0)?;
    let l = layout_arg(a, 1)?;
    let (l, o) = co::domain_offset(c, l)?;
    Ok(Value::Tile(vec![Value::Layout(l), applied(o)]))
}

fn member(a: &Args, name: &str) -> R<(Layout, IntTuple)> {
    let l = layout_arg(a, 0)?;
    let i = tuple_arg(a, 1)?;
    if !matches!(i, IntTuple::I(_)) {
        return Err(EvalError::type_err(format!("{name}: the index must be an integer, got `{i}`")).at_arg(1));
    }
    Ok((l.clone(), i.clone()))
}

fn f_get_hier_coord(a: &Args) -> R<Value> {
    let (l, i) = member(a, "get_hier_coord")?;
    tv(co::get_hier_coord(&l, &i)?)
}
fn f_get_flat_coord(a: &Args) -> R<Value> {
    let (l, i) = member(a, "get_flat_coord")?;
    tv(co::get_flat_coord(&l, &i)?)
}
fn f_get_1d_coord(a: &Args) -> R<Value> {
    let (l, i) = member(a, "get_1d_coord")?;
    tv(co::get_1d_coord(&l, &i)?)
}

/// `__apply(callee, c0, c1, ...)`: `L(c)` for a layout callee (several arguments form one
/// coordinate tuple); a coordinate with `_` slices, exactly as CuTe's `Layout::operator()`.
pub(crate) fn f_apply(a: &Args) -> R<Value> {
    let Value::Layout(l) = a.arg(0)? else { return nm(a) };
    let coords = &a.args[1..];
    let mut cs = Vec::with_capacity(coords.len());
    for (k, v) in coords.iter().enumerate() {
        match v {
            Value::Tuple(t) => cs.push(t.clone()),
            other => {
                return Err(EvalError::type_err(format!(
                    "a coordinate must be an integer, `_` or a tuple, got {} `{other}`",
                    other.kind()
                ))
                .at_arg(k + 1))
            }
        }
    }
    let c = match cs.len() {
        0 => return Err(EvalError::arity("evaluating a layout needs a coordinate: L(i), L(i,j), L(_,j)")),
        1 => cs.pop().unwrap_or(IntTuple::T(vec![])),
        _ => IntTuple::T(cs),
    };
    Ok(applied(co::apply_layout(l, &c)?))
}

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[
    b!(
        "crd2idx",
        "crd2idx(coord, shape [, stride]) | crd2idx(coord, L)",
        "Index of a coordinate (with a stride: the layout's value; without: the column-major 1-D index)",
        "crd2idx((_1,5), (_3,(_2,_3)), (_3,(_12,_1)))",
        "17",
        f_crd2idx; Says(2, 3, 1, "crd2idx takes 3 arguments, got {n}")
    ),
    b!(
        "idx2crd",
        "idx2crd(index, shape [, stride])",
        "The natural (hierarchical) coordinate of a 1-D index",
        "idx2crd(16, (_3,(_2,_3)))",
        "(1,(1,2))",
        crate::eval::overloads::idx2crd; Says(2, 3, 2, "idx2crd takes 3 arguments, got {n}")
    ),
    b!(
        "crd2crd",
        "crd2crd(coord, src_shape, dst_shape)",
        "A coordinate of one shape as a coordinate of another",
        "crd2crd((1,5), (_3,(_2,_3)), (_3,_6))",
        "(1,5)",
        f_crd2crd; Says(3, 3, 3, "crd2crd takes 3 arguments, got {n}")
    ),
    b!(
        "slice",
        "slice(coord, L)",
        "The sublayout of the modes marked `_` in coord",
        "slice((_,1), (_4,_8):(_1,_4))",
        "(_4):(_1)",
        crate::eval::overloads::slice; Says(2, 2, 1, "slice takes 2 arguments, got {n}")
    ),
    b!(
        "dice",
        "dice(coord, L)",
        "The sublayout of the modes given by integers in coord",
        "dice((_,1), (_4,_8):(_1,_4))",
        "(_8):(_4)",
        f_dice; Says(2, 2, 1, "dice takes 2 arguments, got {n}")
    ),
    b!(
        "slice_and_offset",
        "slice_and_offset(coord, L)",
        "(slice(coord, L), offset of coord with `_` as 0)",
        "slice_and_offset((_,2), (4,8):(1,4))",
        "((4):(1),8)",
        crate::eval::overloads::slice_and_offset; Says(2, 2, 2, "slice_and_offset takes 2 arguments, got {n}")
    ),
    b!(
        "domain_offset",
        "domain_offset(coord, L)",
        "(L, L(coord))",
        "domain_offset((1,2), (4,8):(1,4))",
        "((4,8):(1,4),9)",
        crate::eval::overloads::domain_offset; Says(2, 2, 2, "domain_offset takes 2 arguments, got {n}")
    ),
    b!(
        "get_hier_coord",
        "get_hier_coord(L, i)",
        "L.get_hier_coord(i): the hierarchical coordinate of index i (compact layouts)",
        "L = make_layout((_3,(_2,_3)), LayoutRight); get_hier_coord(L, 11)",
        "(1,(1,2))",
        f_get_hier_coord; Says(2, 2, 2, "get_hier_coord takes 2 arguments, got {n}")
    ),
    b!(
        "get_flat_coord",
        "get_flat_coord(L, i)",
        "L.get_flat_coord(i): the flat (rank-preserving) coordinate of index i",
        "L = make_layout((_3,(_2,_3)), LayoutRight); get_flat_coord(L, 11)",
        "(1,5)",
        f_get_flat_coord; Says(2, 2, 2, "get_flat_coord takes 2 arguments, got {n}")
    ),
    b!(
        "get_1d_coord",
        "get_1d_coord(L, i)",
        "L.get_1d_coord(i): the column-major 1-D coordinate of index i",
        "L = make_layout((_3,(_2,_3)), LayoutRight); get_1d_coord(L, 11)",
        "16",
        f_get_1d_coord; Says(2, 2, 2, "get_1d_coord takes 2 arguments, got {n}")
    ),
    b!(
        "__apply",
        "L(coord...)",
        "Evaluate a layout at a coordinate (several arguments form one coordinate); `_` slices",
        "A = ((_3,2),(2,_5,_2)):((4,1),(_2,13,100)); A((_,1),(0,_,1))",
        "(_3,_5):(4,13)",
        crate::eval::overloads::apply
    ),
];
