//! Registry entries for "layout construction" and "structure" (oracle README groups). Functions
//! that CuTe defines on tuples and on layouts (get, size, append, flatten, zip, ...) dispatch on
//! the argument kinds; a call with kinds an entry does not take is refused (`Args::refuse`), and
//! `eval::overloads` sends swizzles and composed layouts to the swizzle module's forms.

use super as st;
use crate::eval::builtins::b;
use crate::eval::builtins::{Args, Builtin};
use crate::eval::error::{EvalError, R};
use crate::eval::int::{self, Int};
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::Layout;
use crate::eval::ops::tuple as tp;
use crate::eval::ops::tuple::builtins::{layout_arg, nm, no_foreign, no_swizzle, path, tints, tuple_arg, want_targs};
use crate::eval::value::Value;

fn lv(l: Layout) -> R<Value> {
    Ok(Value::Layout(l))
}
fn tv(t: IntTuple) -> R<Value> {
    Ok(Value::Tuple(t))
}
fn iv(i: Int) -> R<Value> {
    Ok(Value::Tuple(IntTuple::I(i)))
}
fn static_rank(n: usize) -> R<Value> {
    iv(int::st(n as i64))
}

/// Mode `i` of a value: a layout's sublayout, a tuple's element, a non-tuple's mode 0.
pub(crate) fn vget(v: &Value, i: usize) -> R<Value> {
    match v {
        Value::Layout(l) => Ok(Value::Layout(st::layout_get(l, &[i])?)),
        // a swizzled layout inside a tuple: its own `get` (the swizzle module's)
        Value::Composed(_) => {
            crate::eval::builtins::call("get", &[crate::eval::builtins::TArg::Int(i as i64)], std::slice::from_ref(v))
        }
        Value::Swizzle(_) if i != 0 => Err(EvalError::type_err(format!("get<{i}> of {} `{v}`", v.kind()))),
        _ => tp::get_mode(v, i),
    }
}

/// `get<path>(v)` on values.
pub(crate) fn vget_path(v: &Value, p: &[usize]) -> R<Value> {
    let mut cur = v.clone();
    for &i in p {
        cur = vget(&cur, i)?;
    }
    Ok(cur)
}

/// First argument, refusing kinds this module does not handle.
fn arg0<'a>(a: &Args<'a>) -> R<&'a Value> {
    no_foreign(a)?;
    no_swizzle(a)?;
    a.arg(0)
}

// ----- construction --------------------------------------------------------------------------

pub(crate) fn f_make_layout(a: &Args) -> R<Value> {
    no_foreign_except_tags(a)?;
    no_swizzle(a)?;
    if !a.targs.is_empty() {
        return Err(EvalError::arity("make_layout takes no template arguments"));
    }
    match a.args {
        [Value::Tuple(s)] => lv(st::make_layout(s)?),
        [Value::Tuple(s), Value::Tuple(d)] => lv(st::make_layout_with(s, d)),
        [Value::Tuple(s), Value::Tag(t)] => match t.as_str() {
            "LayoutLeft" | "GenColMajor" => lv(st::make_layout(s)?),
            "LayoutRight" | "GenRowMajor" => lv(st::make_layout_right(s)?),
            _ => Err(EvalError::type_err(format!("make_layout: `{t}` is not LayoutLeft or LayoutRight")).at_arg(1)),
        },
        ls if !ls.is_empty() && ls.iter().all(|v| matches!(v, Value::Layout(_))) => {
            let ls: Vec<Layout> =
                ls.iter().filter_map(|v| if let Value::Layout(l) = v { Some(l.clone()) } else { None }).collect();
            lv(st::make_layout_cat(&ls))
        }
        _ => nm(a),
    }
}

fn no_foreign_except_tags(a: &Args) -> R<()> {
    if a.args.iter().any(|v| matches!(v, Value::Atom(_) | Value::Text(_))) {
        return nm(a);
    }
    Ok(())
}

fn f_make_tuple(a: &Args) -> R<Value> {
    no_foreign(a)?;
    if !a.targs.is_empty() {
        return Err(EvalError::arity("make_tuple takes no template arguments"));
    }
    Ok(Value::tuple(crate::eval::builtins::owned(a.args)))
}

fn f_make_ordered_layout(a: &Args) -> R<Value> {
    let (s, o) = (tuple_arg(a, 0)?, tuple_arg(a, 1)?);
    lv(st::make_ordered_layout(s, o)?)
}

fn f_make_layout_like(a: &Args) -> R<Value> {
    let l = layout_arg(a, 0)?;
    lv(st::make_layout_like(l)?)
}

pub(crate) fn f_make_fragment_like(a: &Args) -> R<Value> {
    match a.arg(0)? {
        Value::Tuple(s) => lv(st::make_fragment_like_shape(s)?),
        Value::Layout(l) => lv(st::make_fragment_like(l)?),
        _ => nm(a),
    }
}

fn f_make_identity_layout(a: &Args) -> R<Value> {
    let s = tuple_arg(a, 0)?;
    lv(st::make_identity_layout(s))
}

// ----- structure -----------------------------------------------------------------------------

pub(crate) fn f_get(a: &Args) -> R<Value> {
    let v = arg0(a)?;
    if a.nargs() != 1 {
        return Err(EvalError::arity("get<I...>(x) takes 1 argument"));
    }
    if a.targs.is_empty() {
        return Err(EvalError::arity("get needs at least one template argument: get<I...>(x)"));
    }
    vget_path(v, &path(a)?)
}

pub(crate) fn f_layout(a: &Args) -> R<Value> {
    let l = layout_arg(a, 0)?;
    lv(st::layout_get(l, &path(a)?)?)
}

/// CuTe's `shape(x)`: a layout's shape, an IntTuple itself, a tuple of the shapes of a tuple
/// (a swizzled layout in it gives its inner layout's shape).
fn shape_of(v: &Value) -> R<Value> {
    match v {
        Value::Layout(_) | Value::Tuple(_) | Value::Tile(_) | Value::Composed(_) => Ok(tp::shape_value(v)),
        other => Err(EvalError::type_err(format!("shape of {} `{other}`", other.kind()))),
    }
}

pub(crate) fn f_shape(a: &Args) -> R<Value> {
    let v = arg0(a)?;
    let p = path(a)?;
    match v {
        Value::Layout(l) => tv(tp::get_path(&l.shape, &p)?),
        Value::Tuple(t) => tv(tp::get_path(t, &p)?),
        Value::Tile(_) => shape_of(&vget_path(v, &p)?),
        _ => nm(a),
    }
}

pub(crate) fn f_stride(a: &Args) -> R<Value> {
    let l = layout_arg(a, 0)?;
    tv(tp::get_path(&l.stride, &path(a)?)?)
}

/// The value a `size<I...>`-style call looks at.
fn sub(a: &Args) -> R<Value> {
    let v = arg0(a)?;
    vget_path(v, &path(a)?)
}

pub(crate) fn f_size(a: &Args) -> R<Value> {
    match sub(a)? {
        Value::Layout(l) => iv(st::size(&l)?),
        Value::Tuple(IntTuple::Under) => tv(IntTuple::Under), // `size(_)` is `_`
        Value::Tuple(t) => iv(tp::size(&t)?),
        // a swizzled layout inside a tuple (`size<1>(x)`): the size of its shape
        Value::Composed(c) => match tp::shape_value(&Value::Composed(c)) {
            Value::Tuple(t) => iv(tp::size(&t)?),
            other => Err(EvalError::type_err(format!("size of `{other}`"))),
        },
        other => Err(EvalError::type_err(format!("size of {} `{other}`", other.kind()))),
    }
}

fn rank_v(v: &Value) -> usize {
    match v {
        Value::Layout(l) => l.shape.rank(),
        Value::Tuple(t) => t.rank(),
        Value::Tile(v) => v.len(),
        Value::Composed(_) => rank_v(&tp::shape_value(v)),
        _ => 1,
    }
}

fn depth_v(v: &Value) -> R<usize> {
    match v {
        Value::Layout(l) => st::depth(l),
        Value::Tuple(t) => tp::depth_of(t),
        Value::Tile(v) => {
            let mut d = 0;
            for e in v {
                d = d.max(depth_v(e)?);
            }
            Ok(1 + d)
        }
        // a swizzled layout inside a tuple: the depth of its shape; a swizzle is a non-tuple
        Value::Composed(_) => depth_v(&tp::shape_value(v)),
        Value::Swizzle(_) => Ok(0),
        other => Err(EvalError::type_err(format!("depth of {} `{other}`", other.kind()))),
    }
}

pub(crate) fn f_rank(a: &Args) -> R<Value> {
    // (a swizzled layout as the argument itself is the swizzle module's: `sub` refuses it)
    let v = sub(a)?;
    static_rank(rank_v(&v))
}

pub(crate) fn f_depth(a: &Args) -> R<Value> {
    // (a swizzled layout as the argument itself is the swizzle module's: `sub` refuses it)
    let v = sub(a)?;
    static_rank(depth_v(&v)?)
}

fn sub_layout(a: &Args) -> R<Layout> {
    let l = layout_arg(a, 0)?;
    st::layout_get(l, &path(a)?)
}

pub(crate) fn f_cosize(a: &Args) -> R<Value> {
    iv(st::cosize(&sub_layout(a)?)?)
}
fn f_coshape(a: &Args) -> R<Value> {
    tv(st::coshape(&sub_layout(a)?)?)
}
fn f_coprofile(a: &Args) -> R<Value> {
    tv(st::coprofile(&sub_layout(a)?)?)
}

pub(crate) fn f_filter(a: &Args) -> R<Value> {
    let l = layout_arg(a, 0)?;
    match a.nargs() {
        1 => lv(st::filter(l)?),
        _ => {
            // a profile that is not a tuple (a layout, swizzle, tag or `_`) is a leaf: filter(L)
            if let Value::Layout(_)
            | Value::Swizzle(_)
            | Value::Composed(_)
            | Value::Tag(_)
            | Value::Tuple(IntTuple::Under) = a.arg(1)?
            {
                return lv(st::filter(l)?);
            }
            lv(st::filter_profile(l, tuple_arg(a, 1)?)?)
        }
    }
}

pub(crate) fn f_filter_zeros(a: &Args) -> R<Value> {
    // int_tuple.hpp's generic filter_zeros(a, b): an `a` that is not a tuple and not `_0`
    // gives `b` as it is; layout.hpp's filter_zeros(L, p) applies it to L's shape
    let opaque = |v: &Value| match v {
        Value::Tuple(IntTuple::I(i)) => !i.is_const(0),
        Value::Tuple(IntTuple::Under) | Value::Swizzle(_) | Value::Composed(_) | Value::Tag(_) => true,
        _ => false,
    };
    match a.args {
        [Value::Layout(l), p] if opaque(p) => return lv(l.clone()),
        [x, y] if opaque(x) && !matches!(y, Value::Tuple(_)) => return Ok((*y).clone()),
        [x @ (Value::Swizzle(_) | Value::Composed(_) | Value::Tag(_)), y @ Value::Tuple(_)] if opaque(x) => {
            return Ok(Value::clone(y))
        }
        _ => {}
    }
    no_swizzle(a)?;
    match (a.args, a.nargs()) {
        ([Value::Layout(l)], _) => lv(st::filter_zeros(l)?),
        ([Value::Layout(l), Value::Tuple(p)], _) => lv(st::filter_zeros_profile(l, p)?),
        ([Value::Tuple(t)], _) => tv(tp::filter_zeros(t)?),
        ([Value::Tuple(x), Value::Tuple(y)], _) => tv(tp::filter_zeros_with(x, y)?),
        _ => nm(a),
    }
}

pub(crate) fn f_flatten(a: &Args) -> R<Value> {
    let v = arg0(a)?;
    match v {
        Value::Layout(l) => lv(st::flatten(l)),
        v => Ok(tp::flatten(v)),
    }
}

fn f_unflatten(a: &Args) -> R<Value> {
    let v = arg0(a)?;
    let p = tuple_arg(a, 1)?;
    match v {
        Value::Layout(l) => lv(st::unflatten(l, p)?),
        v => tp::unflatten(v, p),
    }
}

pub(crate) fn f_zip(a: &Args) -> R<Value> {
    no_foreign(a)?;
    if matches!(a.args, [Value::Composed(_)]) {
        return nm(a); // the swizzle module's: zips the inner layout
    }
    if !a.targs.is_empty() {
        return Err(EvalError::arity("zip takes no template arguments"));
    }
    match a.args {
        [Value::Layout(l)] => lv(st::zip(l)?),
        [Value::Layout(x), Value::Layout(y)] => lv(st::zip2(x, y)?),
        [v] => tp::zip(v),
        // CuTe's variadic `zip(a, b, ...)` is `zip(make_tuple(a, b, ...))`
        vs => tp::zip(&Value::tuple(crate::eval::builtins::owned(vs))),
    }
}

/// The `x` of `append(L, x)`: a layout, `_1:_0` when absent.
fn layout_x(a: &Args) -> R<Layout> {
    match a.args.get(1) {
        None => Ok(Layout::new(IntTuple::st(1), IntTuple::st(0))),
        Some(Value::Layout(x)) => Ok(x.clone()),
        Some(_) => nm(a),
    }
}

/// First argument of the generic tuple functions (append, prepend, replace): the other
/// arguments may be anything CuTe puts in a tuple (a swizzled layout too); a swizzle or a
/// composed layout *first* is the swizzle module's.
fn arg0_elems<'a>(a: &Args<'a>) -> R<&'a Value> {
    no_foreign(a)?;
    let v = a.arg(0)?;
    if matches!(v, Value::Composed(_)) {
        return nm(a);
    }
    Ok(v)
}

fn append_like(a: &Args, name: &str, front: bool) -> R<Value> {
    let v = arg0_elems(a)?;
    if a.nargs() > 2 {
        return Err(EvalError::arity(format!("{name} takes 1 or 2 arguments")));
    }
    let n = match a.targs.len() {
        0 => None,
        1 => Some(tints(a)?[0]),
        _ => return Err(EvalError::arity(format!("{name} takes at most one template argument"))),
    };
    match v {
        // A layout and a non-layout: CuTe's tuple `append` sees the layout as one element
        // (`append(_16:_1, _2)` is `(_16:_1,_2)`).
        Value::Layout(l) if matches!(a.args.get(1), None | Some(Value::Layout(_))) => {
            let x = layout_x(a)?;
            match (n, front) {
                (None, false) => lv(st::append(l, &x)),
                (None, true) => lv(st::prepend(l, &x)),
                (Some(n), false) => lv(st::append_n(l, n, &x)?),
                (Some(n), true) => lv(st::prepend_n(l, n, &x)?),
            }
        }
        v => {
            let Some(x) = a.args.get(1) else {
                return Err(EvalError::arity(format!("{name}(t, x) needs the element x for a tuple")));
            };
            match (n, front) {
                (None, false) => Ok(tp::append(v, x)),
                (None, true) => Ok(tp::prepend(v, x)),
                (Some(n), false) => tp::append_n(v, n, x),
                (Some(n), true) => tp::prepend_n(v, n, x),
            }
        }
    }
}

pub(crate) fn f_append(a: &Args) -> R<Value> {
    append_like(a, "append", false)
}
pub(crate) fn f_prepend(a: &Args) -> R<Value> {
    append_like(a, "prepend", true)
}

pub(crate) fn f_replace(a: &Args) -> R<Value> {
    let v = arg0_elems(a)?;
    let n = want_targs(a, 1, "replace")?[0];
    if a.nargs() != 2 {
        return Err(EvalError::arity("replace<N>(x, y) takes 2 arguments"));
    }
    match v {
        Value::Layout(l) => match a.arg(1)? {
            Value::Layout(x) => lv(st::replace(l, n, x)?),
            // the tuple `replace` on a layout as one element: `replace<0>(L, x)` is `x`
            x => tp::replace(v, n, x),
        },
        v => tp::replace(v, n, a.arg(1)?),
    }
}

pub(crate) fn f_group(a: &Args) -> R<Value> {
    let v = arg0(a)?;
    let be = want_targs(a, 2, "group")?;
    match v {
        Value::Layout(l) => lv(st::group(l, be[0], be[1])?),
        v => tp::group(v, be[0], be[1]),
    }
}

fn want_one(a: &Args, name: &str) -> R<()> {
    if a.nargs() != 1 {
        return Err(EvalError::arity(format!("{name} takes 1 argument")));
    }
    Ok(())
}

pub(crate) fn f_take(a: &Args) -> R<Value> {
    let v = arg0(a)?;
    let be = want_targs(a, 2, "take")?;
    match v {
        Value::Layout(l) => lv(st::take(l, be[0], be[1])?),
        v => tp::take(v, be[0], be[1]),
    }
}

pub(crate) fn f_select(a: &Args) -> R<Value> {
    let v = arg0(a)?;
    want_one(a, "select")?;
    let idx = tints(a)?;
    match v {
        Value::Layout(l) => lv(st::select(l, &idx)?),
        v => tp::select(v, &idx),
    }
}

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[
    // layout construction
    b!("make_layout", "make_layout(shape [, stride | LayoutLeft | LayoutRight]) | make_layout(L0, L1, ...)",
       "A layout from a shape (column-major), shape and stride, shape and a major tag, or the concatenation of layouts",
       "make_layout((_2,4), LayoutRight)", "(_2,4):(4,_1)", crate::eval::overloads::make_layout),
    b!(
        "make_shape",
        "make_shape(s0, s1, ...)",
        "A tuple of the arguments (a shape)",
        "make_shape(2, _3)",
        "(2,_3)",
        f_make_tuple; crate::eval::builtins::Arity::Any
    ),
    b!(
        "make_stride",
        "make_stride(d0, d1, ...)",
        "A tuple of the arguments (a stride)",
        "make_stride(_1, 4)",
        "(_1,4)",
        f_make_tuple; crate::eval::builtins::Arity::Any
    ),
    b!(
        "make_coord",
        "make_coord(c0, c1, ...)",
        "A tuple of the arguments (a coordinate)",
        "make_coord(1, (2,_3))",
        "(1,(2,_3))",
        f_make_tuple; crate::eval::builtins::Arity::Any
    ),
    b!(
        "make_step",
        "make_step(s0, s1, ...)",
        "A tuple of the arguments (a step / order)",
        "make_step(_1, _0)",
        "(_1,_0)",
        f_make_tuple; crate::eval::builtins::Arity::Any
    ),
    b!(
        "make_tuple",
        "make_tuple(x0, x1, ...)",
        "A tuple of the arguments",
        "make_tuple(8, _2)",
        "(8,_2)",
        f_make_tuple; crate::eval::builtins::Arity::Any
    ),
    b!(
        "make_tile",
        "make_tile(t0, t1, ...)",
        "A tiler: a tuple of layouts, shapes or integers",
        "make_tile(_3:_3, (_2,_4):(_1,_8))",
        "(_3:_3,(_2,_4):(_1,_8))",
        f_make_tuple; crate::eval::builtins::Arity::Any
    ),
    b!(
        "make_ordered_layout",
        "make_ordered_layout(shape, order)",
        "Compact layout whose strides follow the order of the leaves of order",
        "make_ordered_layout((_2,_2,_2,_2), (_0,_2,_3,_1))",
        "(_2,_2,_2,_2):(_1,_4,_8,_2)",
        f_make_ordered_layout; crate::eval::builtins::Arity::Says(2, 2, 2, "make_ordered_layout takes 2 arguments, got {n}")
    ),
    b!(
        "make_layout_like",
        "make_layout_like(L)",
        "Compact layout of L's shape, strides ordered like L's (static _0 strides kept)",
        "make_layout_like((2,3,4,5):(_0,42,_1,_0))",
        "(2,3,4,5):(_0,4,_1,_0)",
        f_make_layout_like; crate::eval::builtins::Arity::Says(1, 1, 1, "make_layout_like takes 1 argument, got {n}")
    ),
    b!(
        "make_fragment_like",
        "make_fragment_like(L | shape)",
        "Register-fragment layout: mode 0 column-major, the rest ordered like L",
        "make_fragment_like((_4,_8):(_8,_1))",
        "(_4,(_8)):(_1,(_4))",
        crate::eval::overloads::make_fragment_like; crate::eval::builtins::Arity::Says(1, 1, 0, "make_fragment_like takes 1 argument, got {n}")
    ),
    b!(
        "make_identity_layout",
        "make_identity_layout(shape)",
        "Layout mapping each coordinate to itself (ScaledBasis strides)",
        "make_identity_layout((_4,_8))",
        "(_4,_8):(_1@0,_1@1)",
        f_make_identity_layout; crate::eval::builtins::Arity::Says(1, 1, 1, "make_identity_layout takes 1 argument, got {n}")
    ),
    // structure
    b!(
        "get",
        "get<I...>(x)",
        "Mode I (nested: get<i,j> = get<j>(get<i>)) of a tuple or layout",
        "get<2,0>(((_2,_2),_4,(_2,_4)):((_1,_2),_4,(_16,_32)))",
        "_2:_16",
        crate::eval::overloads::get
    ),
    b!(
        "layout",
        "layout<I...>(L)",
        "The sublayout of mode I... (L itself without indices)",
        "a = make_layout((_4,(_3,_6))); layout<1>(a)",
        "(_3,_6):(_4,_12)",
        crate::eval::overloads::layout; crate::eval::builtins::Arity::Says(1, 1, 1, "layout<I...>(L) takes 1 argument")
    ),
    b!(
        "shape",
        "shape<I...>(x)",
        "The shape of a layout (of mode I...), or an IntTuple's mode",
        "shape<0>(((2,_3),4):((1,2),_6))",
        "(2,_3)",
        crate::eval::overloads::shape; crate::eval::builtins::Arity::Says(1, 1, 1, "shape<I...>(x) takes 1 argument")
    ),
    b!(
        "stride",
        "stride<I...>(L)",
        "The stride of a layout (of mode I...)",
        "stride<0,1>(((2,_3),4):((1,2),_6))",
        "2",
        crate::eval::overloads::stride; crate::eval::builtins::Arity::Says(1, 1, 1, "stride<I...>(L) takes 1 argument")
    ),
    b!(
        "size",
        "size<I...>(x)",
        "Number of elements: product of the shape (of mode I...)",
        "size(((2,_3),4):((1,2),_6))",
        "24",
        crate::eval::overloads::size; crate::eval::builtins::Arity::Says(1, 1, 1, "size<I...>(x) takes 1 argument")
    ),
    b!(
        "rank",
        "rank<I...>(x)",
        "Number of top-level modes (static)",
        "rank<0>(((2,_3),4):((1,2),_6))",
        "_2",
        crate::eval::overloads::rank; crate::eval::builtins::Arity::Says(1, 1, 1, "rank<I...>(x) takes 1 argument")
    ),
    b!(
        "depth",
        "depth<I...>(x)",
        "Nesting depth of the shape (static; an integer has depth 0)",
        "depth(((2,_3),4):((1,2),_6))",
        "_2",
        crate::eval::overloads::depth; crate::eval::builtins::Arity::Says(1, 1, 1, "depth<I...>(x) takes 1 argument")
    ),
    b!(
        "cosize",
        "cosize<I...>(L)",
        "Size of the codomain: L(size-1)+1 for non-negative strides",
        "cosize((_4,_2):(_-1,_4))",
        "_8",
        crate::eval::overloads::cosize; crate::eval::builtins::Arity::Says(1, 1, 1, "cosize<I...>(L) takes 1 argument")
    ),
    b!(
        "coshape",
        "coshape<I...>(L)",
        "Shape of the codomain (a tuple for ScaledBasis strides)",
        "coshape((_4,(_2,_3)):(_2,(_1,_8)))",
        "_24",
        f_coshape; crate::eval::builtins::Arity::Says(1, 1, 1, "coshape<I...>(L) takes 1 argument")
    ),
    b!(
        "coprofile",
        "coprofile<I...>(L)",
        "_0s congruent with the codomain",
        "coprofile((4,8):(1,4))",
        "_0",
        f_coprofile; crate::eval::builtins::Arity::Says(1, 1, 1, "coprofile<I...>(L) takes 1 argument")
    ),
    b!(
        "filter",
        "filter(L [, profile])",
        "Remove stride-0 and size-1 modes and coalesce (at the profile's terminals)",
        "filter((_4,_1,_2,_3):(_1,_7,_0,_4))",
        "_12:_1",
        crate::eval::overloads::filter; crate::eval::builtins::Arity::Says(1, 2, 1, "filter takes 2 arguments, got {n}")
    ),
    b!(
        "filter_zeros",
        "filter_zeros(L [, profile]) | filter_zeros(a [, b])",
        "Give the static stride-0 modes size _1",
        "filter_zeros((_4,_2,_3):(_1,_0,_4))",
        "(_4,_1,_3):(_1,_0,_4)",
        crate::eval::overloads::filter_zeros
    ),
    b!(
        "flatten",
        "flatten(x)",
        "Depth at most 1: all leaves as top-level modes",
        "flatten(((4,2),(3,(5,6))):((1,4),(8,(24,120))))",
        "(4,2,3,5,6):(1,4,8,24,120)",
        crate::eval::overloads::flatten; crate::eval::builtins::Arity::Says(1, 1, 1, "flatten takes 1 argument, got {n}")
    ),
    b!(
        "unflatten",
        "unflatten(x, profile)",
        "Fold a flat tuple or layout into the profile's nesting",
        "unflatten((1,2,3,4,5), (_0,(_0,(_0,_0)),_0))",
        "(1,(2,(3,4)),5)",
        f_unflatten; crate::eval::builtins::Arity::Says(2, 2, 2, "unflatten takes 2 arguments, got {n}")
    ),
    b!(
        "zip",
        "zip(x [, y ...])",
        "Transpose a tuple of tuples (layouts: shape and stride alike)",
        "zip(((_2,_3),(_4,_5)):((_1,_2),(_6,_24)))",
        "((_2,_4),(_3,_5)):((_1,_6),(_2,_24))",
        crate::eval::overloads::zip; crate::eval::builtins::Arity::Says(1, crate::eval::builtins::MANY, 0, "zip takes at least 1 argument")
    ),
    b!(
        "append",
        "append[<N>](x [, y])",
        "Add y as the last mode (to rank N); a layout's default y is _1:_0",
        "append<3>((2,3):(1,2), _5:_6)",
        "(2,3,_5):(1,2,_6)",
        crate::eval::overloads::append
    ),
    b!(
        "prepend",
        "prepend[<N>](x [, y])",
        "Add y as the first mode (to rank N); a layout's default y is _1:_0",
        "prepend(_3:_1, _4:_3)",
        "(_4,_3):(_3,_1)",
        crate::eval::overloads::prepend
    ),
    b!(
        "replace",
        "replace<N>(x, y)",
        "Mode N replaced by y",
        "replace<1>((1,5,3), _2)",
        "(1,_2,3)",
        crate::eval::overloads::replace
    ),
    b!(
        "group",
        "group<B,E>(x)",
        "Modes [B,E) grouped into one mode",
        "group<1,3>((1,2,3,4))",
        "(1,(2,3),4)",
        crate::eval::overloads::group; crate::eval::builtins::Arity::Says(1, 1, 1, "group takes 1 argument")
    ),
    b!(
        "take",
        "take<B,E>(x)",
        "Modes [B,E)",
        "a = make_layout((_2,_3,_5,_7)); take<1,3>(a)",
        "(_3,_5):(_2,_6)",
        crate::eval::overloads::take; crate::eval::builtins::Arity::Says(1, 1, 1, "take takes 1 argument")
    ),
    b!(
        "select",
        "select<I...>(x)",
        "The modes I... in that order",
        "a = make_layout((_2,_3,_5,_7)); select<1,3>(a)",
        "(_3,_7):(_2,_30)",
        crate::eval::overloads::select
    ),
];
