//! Swizzles and composed (swizzled) layouts: CuTe's `swizzle.hpp`, `swizzle_layout.hpp` and
//! `layout_composed.hpp`.
//!
//! - `bits`: the `Swizzle<B,M,S>` functor, `make_swizzle`, merging, casts, `MixedBits`.
//! - `composed`: `ComposedLayout` (`A o O o B`): composition in every direction, evaluation,
//!   slicing (with the decay of a sliced swizzled layout to a plain layout), inverses, ...
//!
//! Most functions here are forms of overloaded functions (`FORMS`): the entry of each name is
//! `eval::overloads`', which calls the form here for swizzles and composed layouts; the
//! plain-layout work inside a composed layout is delegated back through the registry.
//! May import: `eval::{builtins, value, layout, int, int_tuple, error}`.

pub mod bits;
pub mod composed;

use crate::eval::builtins::{b, form};
use crate::eval::builtins::{Args, Builtin, Form, TArg};
use crate::eval::error::{EvalError, R};
use crate::eval::int::st;
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::{Composed, Func, Layout};
use crate::eval::value::Value;
use composed::{call, compose3, delegate, lift, to_func};

/// The composed layout in argument `i`, if it is one.
fn composed_arg<'a>(a: &'a Args, i: usize) -> Option<&'a Composed> {
    match a.args.get(i) {
        Some(Value::Composed(c)) => Some(c),
        _ => None,
    }
}

/// The call's refusal: these are not the kinds of this form (see `Args::refuse`).
fn refused<T>(a: &Args) -> R<T> {
    Err(a.refuse())
}

fn int_arg(a: &Args, i: usize) -> R<crate::eval::int::Int> {
    a.arg(i)?.as_int().map_err(|e| e.at_arg(i))
}

// ------------------------------------------------------------------------------------------
// construction and evaluation
// ------------------------------------------------------------------------------------------

/// CuTe's `make_swizzle<Y,Z>()` (from the two bit masks). There is no `make_swizzle<B,M,S>()`
/// in CuTe (the literal `Sw<B,M,S>` is `Swizzle<B,M,S>{}`): any other count is refused.
fn f_make_swizzle(a: &Args) -> R<Value> {
    match a.targs.len() {
        2 => {
            let y = a.tint(0)?;
            let z = a.tint(1)?;
            let u = |v: i64| {
                u32::try_from(v)
                    .map_err(|_| EvalError::rule("make_swizzle masks are uint32_t", format!("{v} is not one")))
            };
            Ok(Value::Swizzle(bits::from_masks(u(y)?, u(z)?)?))
        }
        n => Err(EvalError::arity(format!(
            "no matching function: make_swizzle takes 2 template arguments (the masks <Y,Z>), got {n}; write Sw<B,M,S> for Swizzle<B,M,S>"
        ))),
    }
}

/// `composition(A, B)` and `composition(A, O, B)` with swizzles or composed layouts.
pub(crate) fn f_composition(a: &Args) -> R<Value> {
    match a.nargs() {
        2 => composed::composition(a, a.args[0], a.args[1]),
        3 => {
            let o = int_arg(a, 1)?;
            compose3(to_func(a.args[0].clone()).map_err(|e| e.at_arg(0))?, o, a.args[2].clone())
                .map_err(|e| e.at_arg(2))
        }
        _ => refused(a),
    }
}

/// `make_composed_layout(A, O, B)`: always a ComposedLayout.
fn f_make_composed_layout(a: &Args) -> R<Value> {
    let outer = to_func(a.args[0].clone()).map_err(|e| e.at_arg(0))?;
    let o = int_arg(a, 1)?;
    let inner = to_func(a.args[2].clone()).map_err(|e| e.at_arg(2))?;
    Ok(Value::Composed(Box::new(Composed { outer, offset: o, inner, mixed: None })))
}

/// `__apply(callee, coords...)`: `Sw(k)`, `S(i)`, `S(i,j)`, `S(_,j)`.
pub(crate) fn f_apply(a: &Args) -> R<Value> {
    let coord = || -> R<Value> {
        match a.args.len() {
            0 | 1 => Err(EvalError::arity("a coordinate is needed")),
            2 => Ok(a.args[1].clone()),
            _ => Ok(Value::tuple(crate::eval::builtins::owned(&a.args[1..]))),
        }
    };
    match a.args.first() {
        Some(Value::Swizzle(sw)) => {
            if a.args.len() != 2 {
                return Err(EvalError::arity(format!("{sw}(k) takes one integer")));
            }
            match &a.args[1] {
                Value::Tuple(IntTuple::I(i)) => Ok(Value::from(bits::apply(*sw, *i))),
                // CuTe's Underscore is an Int<0>.
                Value::Tuple(IntTuple::Under) => Ok(Value::from(bits::apply(*sw, st(0)))),
                v => {
                    Err(EvalError::type_err(format!("a swizzle applies to an integer, not {} `{v}`", v.kind()))
                        .at_arg(1))
                }
            }
        }
        Some(Value::Composed(c)) => composed::apply_composed(c, coord()?),
        _ => refused(a),
    }
}

/// `make_layout(Swizzle)` = `Sw o _0 o _(M+B+|S|):_1`.
pub(crate) fn f_make_layout(a: &Args) -> R<Value> {
    match a.args {
        [Value::Swizzle(sw)] => {
            let n = sw.m as i64 + sw.b as i64 + (sw.s as i64).abs();
            compose3(Func::Swizzle(*sw), st(0), Value::Layout(Layout::new(IntTuple::st(n), IntTuple::st(1))))
        }
        [Value::Composed(c), ..] => Err(EvalError::rule(
            "make_layout takes plain layouts",
            format!("`{c}` is a composed layout (CuTe's make_layout does not accept one)"),
        )
        .at_arg(0)),
        _ => refused(a),
    }
}

// ------------------------------------------------------------------------------------------
// operations applied to the inner layout
// ------------------------------------------------------------------------------------------

/// `f(B, rest...)` without re-wrapping (shape, size, rank, depth, cosize, make_fragment_like).
macro_rules! delegated {
    ($fname:ident, $name:literal) => {
        pub(crate) fn $fname(a: &Args) -> R<Value> {
            match composed_arg(a, 0) {
                Some(c) => delegate(c, $name, a.targs, &a.args[1..]),
                None => refused(a),
            }
        }
    };
}

/// `composition(A, O, f(B, rest...))`.
macro_rules! lifted {
    ($fname:ident, $name:literal) => {
        pub(crate) fn $fname(a: &Args) -> R<Value> {
            match composed_arg(a, 0) {
                Some(c) => lift(c, $name, a.targs, &a.args[1..]),
                None => refused(a),
            }
        }
    };
}

delegated!(f_shape_c, "shape");
delegated!(f_size, "size");
delegated!(f_rank_c, "rank");
delegated!(f_depth_c, "depth");
delegated!(f_cosize, "cosize");
lifted!(f_flatten_c, "flatten");

/// A bare swizzle is not a tuple: CuTe's generic functions treat it as a single element.
fn bare_swizzle(a: &Args) -> Option<Value> {
    match (a.args, a.targs.is_empty()) {
        ([v @ Value::Swizzle(_)], true) => Some(Value::clone(v)),
        _ => None,
    }
}

/// `shape(S)`; `shape(Sw)` is the swizzle itself (generic `shape` of a non-tuple).
pub(crate) fn f_shape(a: &Args) -> R<Value> {
    bare_swizzle(a).map_or_else(|| f_shape_c(a), Ok)
}
/// `rank(S)`; `rank(Sw)` is `_1`.
pub(crate) fn f_rank(a: &Args) -> R<Value> {
    bare_swizzle(a).map_or_else(|| f_rank_c(a), |_| Ok(Value::from(st(1))))
}
/// `depth(S)`; `depth(Sw)` is `_0`.
pub(crate) fn f_depth(a: &Args) -> R<Value> {
    bare_swizzle(a).map_or_else(|| f_depth_c(a), |_| Ok(Value::from(st(0))))
}
/// `flatten(S)`; `flatten(Sw)` is the swizzle itself.
pub(crate) fn f_flatten(a: &Args) -> R<Value> {
    bare_swizzle(a).map_or_else(|| f_flatten_c(a), Ok)
}

lifted!(f_layout, "layout");
lifted!(f_take, "take");
lifted!(f_group, "group");
lifted!(f_zip, "zip");
lifted!(f_coalesce, "coalesce");
lifted!(f_tile_to_shape, "tile_to_shape");
lifted!(f_logical_divide, "logical_divide");

/// `tile_unzip(S, tiler)` lifted; `tile_unzip(L, Sw o O o B)`: a composed tiler is not a tuple,
/// so zip2_by keeps the rank-2 shape and stride as they are (as for an integer guide).
pub(crate) fn f_tile_unzip(a: &Args) -> R<Value> {
    if let Some(c) = composed_arg(a, 0) {
        return lift(c, "tile_unzip", a.targs, &a.args[1..]);
    }
    match a.args {
        [l @ Value::Layout(_), Value::Composed(_) | Value::Swizzle(_)] => {
            call("tile_unzip", &[], vec![Value::clone(l), Value::Tuple(IntTuple::I(crate::eval::int::st(1)))])
        }
        _ => refused(a),
    }
}
lifted!(f_tiled_divide, "tiled_divide");
lifted!(f_zipped_divide, "zipped_divide");
lifted!(f_flat_divide, "flat_divide");

/// `zipped_product(S, tiler)` lifted; `zipped_product(L, C)` for a composed tiler C is
/// `tile_unzip(logical_product(L, C), C)`, as layout.hpp writes it.
pub(crate) fn f_zipped_product(a: &Args) -> R<Value> {
    if let Some(c) = composed_arg(a, 0) {
        return lift(c, "zipped_product", a.targs, &a.args[1..]);
    }
    match a.args {
        [l @ Value::Layout(_), c @ Value::Composed(_)] => {
            let p = call("logical_product", &[], vec![Value::clone(l), Value::clone(c)])?;
            call("tile_unzip", &[], vec![p, Value::clone(c)])
        }
        _ => refused(a),
    }
}

/// `tiled_product`/`flat_product(L, C)` for a composed tiler C: layout.hpp slices the
/// zipped product with `(_, repeat<R1>(_))` / `(repeat<R0>(_), repeat<R1>(_))`.
fn unpacked_product(a: &Args, name: &str, spread0: bool) -> R<Value> {
    if let Some(c) = composed_arg(a, 0) {
        return lift(c, name, a.targs, &a.args[1..]);
    }
    let [l @ Value::Layout(_), c @ Value::Composed(_)] = a.args else { return refused(a) };
    let z = call("zipped_product", &[], vec![Value::clone(l), Value::clone(c)])?;
    let rep = |mode: i64| -> R<IntTuple> {
        let r = match call("rank", &[TArg::Int(mode)], vec![z.clone()])? {
            Value::Tuple(IntTuple::I(i)) => i.v,
            v => return Err(EvalError::type_err(format!("{name}: rank of {v}"))),
        };
        Ok(if r == 1 { IntTuple::Under } else { IntTuple::T(vec![IntTuple::Under; r.max(0) as usize]) })
    };
    let c0 = if spread0 { rep(0)? } else { IntTuple::Under };
    let coord = IntTuple::T(vec![c0, rep(1)?]);
    call("slice", &[], vec![Value::Tuple(coord), z])
}
pub(crate) fn f_tiled_product(a: &Args) -> R<Value> {
    unpacked_product(a, "tiled_product", false)
}
pub(crate) fn f_flat_product(a: &Args) -> R<Value> {
    unpacked_product(a, "flat_product", true)
}
lifted!(f_blocked_product, "blocked_product");
lifted!(f_raked_product, "raked_product");

/// `get<I...>(S)`: `get<I0,I1>(S)` is `get<I1>(get<I0>(S))`, each a composed layout.
pub(crate) fn f_get(a: &Args) -> R<Value> {
    let Some(c) = composed_arg(a, 0) else { return refused(a) };
    if a.targs.is_empty() || a.nargs() != 1 {
        return Err(EvalError::arity(format!("get<I...>({c}) takes template indices and one argument")));
    }
    let mut v = Value::Composed(Box::new(c.clone()));
    for t in a.targs {
        v = match &v {
            Value::Composed(c) => lift(c, "get", std::slice::from_ref(t), &[])?,
            other => call("get", std::slice::from_ref(t), vec![other.clone()])?,
        };
    }
    Ok(v)
}

/// `select<I...>(S)`: the tuple of `get<I>(S)`.
pub(crate) fn f_select(a: &Args) -> R<Value> {
    let Some(c) = composed_arg(a, 0) else { return refused(a) };
    if a.nargs() != 1 {
        return Err(EvalError::arity("select<I...>(S) takes one argument"));
    }
    let parts = a.targs.iter().map(|t| lift(c, "get", std::slice::from_ref(t), &[])).collect::<R<Vec<_>>>()?;
    Ok(Value::tuple(parts))
}

/// `append<N>(S, x)` appends to the inner layout; plain `append(S, x)` is CuTe's generic
/// tuple append of a non-tuple: `(S, x)`.
pub(crate) fn f_append(a: &Args) -> R<Value> {
    if let ([Value::Swizzle(_), x], true) = (a.args, a.targs.is_empty()) {
        return Ok(Value::tuple(vec![a.args[0].clone(), Value::clone(x)]));
    }
    let Some(c) = composed_arg(a, 0) else { return refused(a) };
    if a.nargs() != 2 {
        return Err(EvalError::arity("append(S, x) takes two arguments"));
    }
    if a.targs.is_empty() {
        return Ok(Value::tuple(vec![a.args[0].clone(), a.args[1].clone()]));
    }
    lift(c, "append", a.targs, &a.args[1..])
}

/// `prepend([N])(S, x)`: CuTe's generic prepend of a non-tuple: `(x, ..., x, S)`.
pub(crate) fn f_prepend(a: &Args) -> R<Value> {
    if !matches!(a.args.first(), Some(Value::Composed(_) | Value::Swizzle(_))) {
        return refused(a);
    }
    if a.nargs() != 2 {
        return Err(EvalError::arity("prepend(S, x) takes two arguments"));
    }
    let n = if a.targs.is_empty() { 2 } else { a.tint(0)? };
    if n < 1 {
        return Err(EvalError::rule("prepend<N> needs N > 1", format!("N = {n}")));
    }
    if n == 1 {
        return Ok(a.args[0].clone());
    }
    let mut v: Vec<Value> = (0..n - 1).map(|_| a.args[1].clone()).collect();
    v.push(a.args[0].clone());
    Ok(Value::tuple(v))
}

/// `replace<N>(S, x)`: a composed layout is not a tuple, so only N = 0 works and gives x.
pub(crate) fn f_replace(a: &Args) -> R<Value> {
    let Some(_) = composed_arg(a, 0) else { return refused(a) };
    if a.nargs() != 2 {
        return Err(EvalError::arity("replace<N>(S, x) takes two arguments"));
    }
    if a.targs.len() != 1 {
        return Err(EvalError::arity(format!("replace needs 1 template argument, got {}", a.targs.len())));
    }
    match a.tint(0)? {
        0 => Ok(a.args[1].clone()),
        n => Err(EvalError::rule("static_assert(N == 0)", format!("replace<{n}> of the non-tuple `{}`", a.args[0]))),
    }
}

/// `idx2crd(i, S)`: a composed layout is not a tuple shape, so the index is returned as is.
pub(crate) fn f_idx2crd(a: &Args) -> R<Value> {
    match a.args {
        [i @ Value::Tuple(IntTuple::I(_)), Value::Composed(_) | Value::Swizzle(_)] => Ok(Value::clone(i)),
        _ => refused(a),
    }
}

/// `filter_zeros(S)`: CuTe's generic version leaves a non-tuple unchanged.
pub(crate) fn f_filter_zeros(a: &Args) -> R<Value> {
    match a.args {
        [c @ (Value::Composed(_) | Value::Swizzle(_))] => Ok(Value::clone(c)),
        _ => refused(a),
    }
}

/// `filter(S, profile)`: only the two-argument form exists for composed layouts.
pub(crate) fn f_filter(a: &Args) -> R<Value> {
    let Some(c) = composed_arg(a, 0) else { return refused(a) };
    if a.nargs() != 2 {
        return Err(EvalError::rule(
            "filter of a composed layout needs a profile",
            format!("CuTe has filter(ComposedLayout, profile) only: filter({c}, P)"),
        ));
    }
    lift(c, "filter", a.targs, &a.args[1..])
}

/// `logical_product(S, tiler)` and `logical_product(L, Sw o _0 o T)`.
pub(crate) fn f_logical_product(a: &Args) -> R<Value> {
    if let Some(c) = composed_arg(a, 0) {
        return lift(c, "logical_product", a.targs, &a.args[1..]);
    }
    match a.args {
        [l @ Value::Layout(_), Value::Composed(c)] => composed::logical_product_layout_composed(a, l, c),
        _ => refused(a),
    }
}

/// `make_fragment_like(Sw o O o B)` = `make_fragment_like(B)`.
pub(crate) fn f_make_fragment_like(a: &Args) -> R<Value> {
    match composed_arg(a, 0) {
        Some(c) if matches!(c.outer, Func::Swizzle(_)) => delegate(c, "make_fragment_like", a.targs, &a.args[1..]),
        _ => refused(a),
    }
}

/// `complement(S [, cotarget])` = `complement(B, cotarget or cosize(S))`.
pub(crate) fn f_complement(a: &Args) -> R<Value> {
    let Some(c) = composed_arg(a, 0) else { return refused(a) };
    let cotarget = match a.args.get(1) {
        Some(t) => Value::clone(t),
        None => delegate(c, "cosize", &[], &[])?,
    };
    delegate(c, "complement", a.targs, &[&cotarget])
}

fn inverse(a: &Args, which: &str) -> R<Value> {
    match a.args {
        [Value::Swizzle(sw)] => Ok(Value::Swizzle(*sw)),
        [Value::Composed(c)] => composed::inverse(c, which),
        _ => refused(a),
    }
}
pub(crate) fn f_right_inverse(a: &Args) -> R<Value> {
    inverse(a, "right_inverse")
}
pub(crate) fn f_left_inverse(a: &Args) -> R<Value> {
    inverse(a, "left_inverse")
}

fn cast(a: &Args, which: &str) -> R<Value> {
    let is_ours = matches!(a.args, [Value::Swizzle(_)] | [Value::Composed(_)]);
    if !is_ours {
        return refused(a);
    }
    let n = a.tint(0)?;
    match &a.args[0] {
        Value::Swizzle(sw) => {
            Ok(Value::Swizzle(if which == "upcast" { bits::upcast(*sw, n)? } else { bits::downcast(*sw, n)? }))
        }
        Value::Composed(c) => composed::cast(c, which, a.targs, n),
        _ => refused(a),
    }
}
pub(crate) fn f_upcast(a: &Args) -> R<Value> {
    cast(a, "upcast")
}
pub(crate) fn f_downcast(a: &Args) -> R<Value> {
    cast(a, "downcast")
}

/// `sizeof_bits` of the value types the notation knows.
fn sizeof_bits(t: &TArg) -> R<i64> {
    let TArg::Name(n) = t else {
        return Err(EvalError::type_err(format!("recast_layout needs type names, got {t}")));
    };
    Ok(match n.as_str() {
        "uint1b_t" | "bool" => 1, // sizeof_bits<bool> is 1 in CuTe
        "int4b_t" | "uint4b_t" => 4,
        "int8_t" | "uint8_t" | "float_e4m3_t" | "float_e5m2_t" => 8,
        "int16_t" | "uint16_t" | "half_t" | "bfloat16_t" => 16,
        "int32_t" | "uint32_t" | "float" | "tfloat32_t" => 32,
        "int64_t" | "uint64_t" | "double" => 64,
        "uint128_t" => 128,
        other => return Err(EvalError::type_err(format!("unknown value type {other}"))),
    })
}

/// `recast_layout<Old,New>(Swizzle or composed)`: downcast or upcast by the ratio of the sizes.
pub(crate) fn f_recast_layout(a: &Args) -> R<Value> {
    if !matches!(a.args, [Value::Swizzle(_)] | [Value::Composed(_)]) {
        return refused(a);
    }
    if a.targs.len() != 2 {
        return Err(EvalError::arity("recast_layout<OldType, NewType>(L) takes two type arguments"));
    }
    let old = sizeof_bits(&a.targs[0])?;
    let new = sizeof_bits(&a.targs[1])?;
    let g = crate::eval::int::gcd_i64(old, new);
    let (num, den) = (new / g, old / g);
    let x = a.args[0].clone();
    if num == 1 && den == 1 {
        Ok(x)
    } else if num == 1 {
        call("downcast", &[TArg::Int(den)], vec![x])
    } else if den == 1 {
        call("upcast", &[TArg::Int(num)], vec![x])
    } else {
        let u = call("upcast", &[TArg::Int(num)], vec![x])?;
        call("downcast", &[TArg::Int(den)], vec![u])
    }
}

pub(crate) fn f_max_alignment(a: &Args) -> R<Value> {
    match a.args {
        [Value::Swizzle(sw)] => Ok(Value::from(st(1i64 << sw.m))),
        [Value::Composed(c)] => composed::max_alignment(c),
        _ => refused(a),
    }
}

pub(crate) fn f_max_common_layout(a: &Args) -> R<Value> {
    match a.args {
        [Value::Composed(c), l @ Value::Layout(_)] | [l @ Value::Layout(_), Value::Composed(c)] => {
            composed::max_common_layout(a, c, l)
        }
        _ => refused(a),
    }
}

pub(crate) fn f_max_common_vector(a: &Args) -> R<Value> {
    match a.args {
        [x, y] => composed::max_common_vector(a, x, y),
        _ => refused(a),
    }
}

pub(crate) fn f_nullspace(a: &Args) -> R<Value> {
    match a.args {
        [Value::Composed(_)] => Ok(Value::Layout(Layout::new(IntTuple::st(1), IntTuple::st(0)))),
        _ => refused(a),
    }
}

fn f_get_swizzle_portion(a: &Args) -> R<Value> {
    match a.args {
        [Value::Layout(_)] => Ok(Value::Swizzle(bits::make(0, 4, 3)?)),
        [Value::Composed(c)] => match c.outer {
            Func::Swizzle(sw) => Ok(Value::Swizzle(sw)),
            _ => Err(EvalError::type_err(format!("get_swizzle_portion needs a swizzled layout, got `{c}`"))),
        },
        _ => refused(a),
    }
}

fn f_get_nonswizzle_portion(a: &Args) -> R<Value> {
    match a.args {
        [l @ Value::Layout(_)] => Ok(Value::clone(l)),
        [Value::Composed(c)] => match c.outer {
            Func::Swizzle(_) => Ok(Value::from(c.inner.clone())),
            _ => Err(EvalError::type_err(format!("get_nonswizzle_portion needs a swizzled layout, got `{c}`"))),
        },
        _ => refused(a),
    }
}

// ------------------------------------------------------------------------------------------
// member functions
// ------------------------------------------------------------------------------------------

/// `S.with_shape(shape)` / `S.with_shape(s0, s1, ...)`.
pub(crate) fn f_with_shape(a: &Args) -> R<Value> {
    let Some(_) = composed_arg(a, 0) else { return refused(a) };
    let shape = match a.args.len() {
        // (at least two arguments: the registry's arity)
        2 => a.args[1].clone(),
        _ => Value::tuple(crate::eval::builtins::owned(a.args.get(1..).unwrap_or_default())),
    };
    // (an error of make_layout is about the shape: argument 1, or the tuple of all after L)
    let l = call("make_layout", &[], vec![shape]).map_err(|e| e.as_arg((a.args.len() == 2).then_some(1)))?;
    composed::composition(a, a.args[0], &l)
}

/// `S.compose(t)` / `S.compose(t0, t1, ...)`.
pub(crate) fn f_compose(a: &Args) -> R<Value> {
    let Some(_) = composed_arg(a, 0) else { return refused(a) };
    let t = match a.args.len() {
        // (at least two arguments: the registry's arity)
        2 => a.args[1].clone(),
        _ => Value::tuple(crate::eval::builtins::owned(a.args.get(1..).unwrap_or_default())),
    };
    composed::composition(a, a.args[0], &t)
}

/// `S.tile(t)` / `S.tile(t0, t1, ...)` = `tiled_divide`.
pub(crate) fn f_tile(a: &Args) -> R<Value> {
    let Some(c) = composed_arg(a, 0) else { return refused(a) };
    let t = match a.args.len() {
        // (at least two arguments: the registry's arity)
        2 => a.args[1].clone(),
        _ => Value::tuple(crate::eval::builtins::owned(a.args.get(1..).unwrap_or_default())),
    };
    lift(c, "tiled_divide", &[], &[&t])
}

fn part(a: &Args, which: &str) -> R<Value> {
    match a.args {
        [Value::Composed(c)] => Ok(match which {
            "a" => Value::from(c.outer.clone()),
            "o" => Value::from(c.offset),
            _ => Value::from(c.inner.clone()),
        }),
        [v] => {
            Err(EvalError::type_err(format!("layout_a/offset/layout_b need a composed layout, got {} `{v}`", v.kind())))
        }
        // (one argument: the registry's arity)
        _ => Err(a.refuse()),
    }
}
fn f_layout_a(a: &Args) -> R<Value> {
    part(a, "a")
}
fn f_offset(a: &Args) -> R<Value> {
    part(a, "o")
}
fn f_layout_b(a: &Args) -> R<Value> {
    part(a, "b")
}

// ------------------------------------------------------------------------------------------
// slicing
// ------------------------------------------------------------------------------------------

pub(crate) fn f_slice(a: &Args) -> R<Value> {
    match a.args {
        // (a coordinate is a tuple or an integer: anything else is refused here, in this
        // function's name, rather than by the calls slicing takes inside)
        [coord @ Value::Tuple(_), Value::Composed(c)] => Ok(composed::slice_and_offset(coord, c)?.0),
        _ => refused(a),
    }
}

pub(crate) fn f_slice_and_offset(a: &Args) -> R<Value> {
    match a.args {
        [coord @ Value::Tuple(_), Value::Composed(c)] => {
            let (l, o) = composed::slice_and_offset(coord, c)?;
            Ok(Value::tuple(vec![l, o]))
        }
        _ => refused(a),
    }
}

pub(crate) fn f_domain_offset(a: &Args) -> R<Value> {
    match a.args {
        [coord, Value::Composed(c)] => composed::domain_offset(coord, c),
        _ => refused(a),
    }
}

/// Built-in functions of this module (overloads for swizzles and composed layouts).
pub const BUILTINS: &[Builtin] = &[
    b!(
        "make_swizzle",
        "make_swizzle<Y,Z>()",
        "the swizzle functor whose yyy and zzz bit masks are Y and Z (the literal `Sw<B,M,S>` is Swizzle<B,M,S>)",
        "make_swizzle<448,56>()",
        "Sw<3,3,3>",
        f_make_swizzle; crate::eval::builtins::Arity::Says(0, 0, 0, "make_swizzle takes template arguments only: make_swizzle<Y,Z>()")
    ),
    b!(
        "make_composed_layout",
        "make_composed_layout(A, offset, B)",
        "the composed layout A o offset o B: x -> A(offset + B(x))",
        "make_composed_layout(Sw<3,3,3>, _0, (_8,_64):(_64,_1))",
        "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)",
        f_make_composed_layout; crate::eval::builtins::Arity::Says(3, 3, 0, "make_composed_layout(A, offset, B) takes 3 arguments")
    ),
    b!(
        "get_swizzle_portion",
        "get_swizzle_portion(S)",
        "the swizzle of a swizzled layout (Sw<0,4,3>, the identity, for a plain layout)",
        "S = Sw<3,3,3> o (_8,_64):(_64,_1); get_swizzle_portion(S)",
        "Sw<3,3,3>",
        f_get_swizzle_portion
    ),
    b!(
        "get_nonswizzle_portion",
        "get_nonswizzle_portion(S)",
        "the plain layout inside a swizzled layout (a plain layout itself)",
        "S = Sw<3,3,3> o (_8,_64):(_64,_1); get_nonswizzle_portion(S)",
        "(_8,_64):(_64,_1)",
        f_get_nonswizzle_portion
    ),
    b!(
        "layout_a",
        "layout_a(S)",
        "the outer function A of A o O o B",
        "S = Sw<3,3,3> o (_8,_64):(_64,_1); layout_a(S)",
        "Sw<3,3,3>",
        f_layout_a; crate::eval::builtins::Arity::Says(1, 1, 0, "takes one composed layout")
    ),
    b!(
        "offset",
        "offset(S)",
        "the offset O of A o O o B",
        "S = Sw<3,3,3> o (_8,_64):(_64,_1); offset(S)",
        "_0",
        f_offset; crate::eval::builtins::Arity::Says(1, 1, 0, "takes one composed layout")
    ),
    b!(
        "layout_b",
        "layout_b(S)",
        "the inner layout B of A o O o B",
        "S = Sw<3,3,3> o (_8,_64):(_64,_1); layout_b(S)",
        "(_8,_64):(_64,_1)",
        f_layout_b; crate::eval::builtins::Arity::Says(1, 1, 0, "takes one composed layout")
    ),
];

/// The forms of the overloaded functions this module implements for its kinds (the entry
/// of each name is `eval::overloads`').
pub const FORMS: &[Form] = &[
    form!("composition", "composition(A, B) | composition(A, offset, B)", "with swizzles and composed layouts: Sw o L, Sw o Sw (merge), L o Sw, L o (Sw o L), (Sw o L) o tiler; the 3-argument form builds A o offset o B", "Sw<2,3,3> o Sw<1,5,3>", "Sw<3,3,3>"),
    form!("__apply", "S(coord) | Sw(k)", "evaluate a composed layout at a coordinate or slice it (`_` in the coordinate); apply a swizzle to an integer", "S = Sw<3,3,3> o (_8,_64):(_64,_1); S(3,17)", "201"),
    form!("make_layout", "make_layout(Sw)", "a swizzle as a composed layout over _(B+M+|S|):_1", "make_layout(Sw<3,3,3>)", "Sw<3,3,3> o _0 o _9:_1"),
    form!("shape", "shape(S)", "shape of a composed layout (its inner layout's)", "S = Sw<3,3,3> o (_8,_64):(_64,_1); shape(S)", "(_8,_64)"),
    form!("size", "size(S)", "size of a composed layout", "S = Sw<3,3,3> o (_8,_64):(_64,_1); size(S)", "_512"),
    form!("rank", "rank(S)", "rank of a composed layout", "S = Sw<3,3,3> o (_8,_64):(_64,_1); rank(S)", "_2"),
    form!("depth", "depth(S)", "depth of a composed layout", "S = Sw<3,3,3> o (_8,_64):(_64,_1); depth(S)", "_1"),
    form!("cosize", "cosize(S)", "codomain size of a composed layout (its inner layout's)", "S = Sw<3,3,3> o (_8,_64):(_64,_1); cosize(S)", "_512"),
    form!("layout", "layout<I...>(S)", "a mode of a composed layout, still composed", "S = Sw<3,3,3> o (_8,_64):(_64,_1); layout<1>(S)", "Sw<3,3,3> o _0 o _64:_1"),
    form!("get", "get<I...>(S)", "mode I (or a nested mode) of a composed layout, still composed", "S = Sw<3,3,3> o (_8,_64):(_64,_1); get<0>(S)", "Sw<3,3,3> o _0 o _8:_64"),
    form!("take", "take<B,E>(S)", "modes [B,E) of a composed layout", "S = Sw<3,3,3> o (_8,_64):(_64,_1); take<1,2>(S)", "Sw<3,3,3> o _0 o (_64):(_1)"),
    form!("flatten", "flatten(S)", "flatten the inner layout of a composed layout", "flatten(Sw<3,3,3> o ((_8,_8),_8):((_64,_1),_8))", "Sw<3,3,3> o _0 o (_8,_8,_8):(_64,_1,_8)"),
    form!("append", "append<N>(S, L) | append(S, x)", "append<N>: append a mode to the inner layout of a composed layout; without N, CuTe's generic (S, x)", "S = Sw<3,3,3> o (_8,_64):(_64,_1); append<3>(S, _2:_512)", "Sw<3,3,3> o _0 o (_8,_64,_2):(_64,_1,_512)"),
    form!("prepend", "prepend(S, x)", "CuTe's generic prepend of a non-tuple: (x, S)", "S = Sw<3,3,3> o (_8,_64):(_64,_1); prepend(S, _2:_512)", "(_2:_512,Sw<3,3,3> o _0 o (_8,_64):(_64,_1))"),
    form!("replace", "replace<0>(S, x)", "CuTe's generic replace of a non-tuple: x", "S = Sw<3,3,3> o (_8,_64):(_64,_1); replace<0>(S, _2:_512)", "_2:_512"),
    form!("select", "select<I...>(S)", "the tuple of modes get<I>(S) of a composed layout", "S = Sw<3,3,3> o (_8,_64):(_64,_1); select<1,0>(S)", "(Sw<3,3,3> o _0 o _64:_1,Sw<3,3,3> o _0 o _8:_64)"),
    form!("idx2crd", "idx2crd(i, S)", "a composed layout is not a tuple shape: the index itself", "S = Sw<3,3,3> o (_8,_64):(_64,_1); idx2crd(5, S)", "5"),
    form!("filter_zeros", "filter_zeros(S)", "CuTe's generic filter_zeros leaves a composed layout unchanged", "S = Sw<3,3,3> o (_8,_64):(_64,_1); filter_zeros(S)", "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"),
    form!("group", "group<B,E>(S)", "group modes [B,E) of the inner layout", "group<0,2>(Sw<3,3,3> o (_8,_8,_8):(_64,_1,_8))", "Sw<3,3,3> o _0 o ((_8,_8),_8):((_64,_1),_8)"),
    form!("zip", "zip(S)", "zip the inner layout of a composed layout", "zip(Sw<3,3,3> o ((_8,_8),(_2,_4)):((_64,_1),(_8,_16)))", "Sw<3,3,3> o _0 o ((_8,_2),(_8,_4)):((_64,_8),(_1,_16))"),
    form!("coalesce", "coalesce(S [, profile])", "coalesce the inner layout of a composed layout", "S = Sw<3,3,3> o (_8,_64):(_64,_1); coalesce(S)", "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"),
    form!("filter", "filter(S, profile)", "filter the inner layout of a composed layout", "filter(Sw<3,3,3> o (_8,_2,_64):(_64,_0,_1), (_1,_1,_1))", "Sw<3,3,3> o _0 o (_8,_1,_64):(_64,_0,_1)"),
    form!("tile_to_shape", "tile_to_shape(S, shape [, order])", "tile a swizzled layout to a shape", "tile_to_shape(Sw<3,3,3> o (_8,_64):(_64,_1), (_128,_64))", "Sw<3,3,3> o _0 o ((_8,_16),(_64,_1)):((_64,_512),(_1,_0))"),
    form!("logical_divide", "logical_divide(S, tiler)", "divide a composed layout (its inner layout)", "S = Sw<3,3,3> o (_8,_64):(_64,_1); logical_divide(S, <_4,_16>)", "Sw<3,3,3> o _0 o ((_4,_2),(_16,_4)):((_64,_256),(_1,_16))"),
    form!("tile_unzip", "tile_unzip(S, tiler)", "tile_unzip of a composed layout", "S = Sw<3,3,3> o (_8,_64):(_64,_1); tile_unzip(logical_divide(S, <_4,_16>), <_4,_16>)", "Sw<3,3,3> o _0 o ((_4,_16),(_2,_4)):((_64,_1),(_256,_16))"),
    form!("tiled_divide", "tiled_divide(S, tiler)", "tiled_divide of a composed layout", "S = Sw<3,3,3> o (_8,_64):(_64,_1); tiled_divide(S, (_8,_8))", "Sw<3,3,3> o _0 o ((_8,_8),_1,_8):((_64,_1),_0,_8)"),
    form!("zipped_divide", "zipped_divide(S, tiler)", "zipped_divide of a composed layout", "S = Sw<3,3,3> o (_8,_64):(_64,_1); zipped_divide(S, <_8,_8>)", "Sw<3,3,3> o _0 o ((_8,_8),(_1,_8)):((_64,_1),(_0,_8))"),
    form!("flat_divide", "flat_divide(S, tiler)", "flat_divide of a composed layout", "S = Sw<3,3,3> o (_8,_64):(_64,_1); flat_divide(S, (_8,_8))", "Sw<3,3,3> o _0 o (_8,_8,_1,_8):(_64,_1,_0,_8)"),
    form!("logical_product", "logical_product(S, tiler) | logical_product(L, Sw o _0 o T)", "products with a composed layout: on its inner layout, or moving a swizzle through the product", "logical_product(_2:_1, Sw<1,0,1> o _0 o (_2,_2):(_1,_2))", "Sw<1,1,1> o _0 o (_2,(_2,_2)):(_1,(_2,_4))"),
    form!("zipped_product", "zipped_product(S, tiler)", "zipped_product of a composed layout", "zipped_product(Sw<1,1,1> o (_2,_2):(_1,_2), (_2,_2))", "Sw<1,1,1> o _0 o ((_2,_2),(_2,_2)):((_1,_2),(_2,_1))"),
    form!("tiled_product", "tiled_product(S, tiler)", "tiled_product of a composed layout", "tiled_product(Sw<1,1,1> o (_2,_2):(_1,_2), (_2,_2))", "Sw<1,1,1> o _0 o ((_2,_2),_2,_2):((_1,_2),_2,_1)"),
    form!("flat_product", "flat_product(S, tiler)", "flat_product of a composed layout", "flat_product(Sw<1,1,1> o (_2,_2):(_1,_2), (_2,_2))", "Sw<1,1,1> o _0 o (_2,_2,_2,_2):(_1,_2,_2,_1)"),
    form!("blocked_product", "blocked_product(S, L)", "blocked_product of a composed layout", "blocked_product(Sw<1,1,1> o (_2,_2):(_1,_2), (_2,_2):(_1,_2))", "Sw<1,1,1> o _0 o ((_2,_2),(_2,_2)):((_1,_4),(_2,_8))"),
    form!("raked_product", "raked_product(S, L)", "raked_product of a composed layout", "raked_product(Sw<1,1,1> o (_2,_2):(_1,_2), (_2,_2):(_1,_2))", "Sw<1,1,1> o _0 o ((_2,_2),(_2,_2)):((_4,_1),(_8,_2))"),
    form!("make_fragment_like", "make_fragment_like(S)", "register fragment layout of a swizzled layout (from its inner layout)", "S = Sw<3,3,3> o (_8,_64):(_64,_1); make_fragment_like(S)", "(_8,(_64)):(_1,(_8))"),
    form!("complement", "complement(S [, cotarget])", "complement of a composed layout's inner layout (cotarget defaults to its cosize)", "S = Sw<3,3,3> o (_8,_64):(_64,_1); complement(S)", "_1:_0"),
    form!("right_inverse", "right_inverse(S) | right_inverse(Sw)", "right inverse of a swizzled layout (the swizzle moves through); a swizzle is its own inverse", "S = Sw<3,3,3> o (_8,_64):(_64,_1); right_inverse(S)", "Sw<3,0,-6> o _0 o (_64,_8):(_8,_1)"),
    form!("left_inverse", "left_inverse(S) | left_inverse(Sw)", "left inverse of a swizzled layout; a swizzle is its own inverse", "S = Sw<3,3,3> o (_8,_64):(_64,_1); left_inverse(S)", "Sw<3,0,-6> o _0 o (_64,_8):(_8,_1)"),
    form!("upcast", "upcast<N>(S) | upcast<N>(Sw)", "a swizzle or composed layout over N-times wider elements", "S = Sw<3,3,3> o (_8,_64):(_64,_1); upcast<2>(S)", "Sw<3,2,3> o _0 o (_8,_32):(_32,_1)"),
    form!("downcast", "downcast<N>(S) | downcast<N>(Sw)", "a swizzle or composed layout over N-times narrower elements", "S = Sw<3,3,3> o (_8,_64):(_64,_1); downcast<2>(S)", "Sw<3,4,3> o _0 o (_8,_128):(_128,_1)"),
    form!("recast_layout", "recast_layout<Old,New>(S)", "a swizzle or composed layout re-expressed in elements of type New", "recast_layout<half_t,uint32_t>(Sw<3,3,3> o (_8,_64):(_64,_1))", "Sw<3,2,3> o _0 o (_8,_32):(_32,_1)"),
    form!("max_alignment", "max_alignment(S) | max_alignment(Sw)", "largest N for which upcast<N> works: gcd(2^M, offset, max_alignment(inner))", "S = Sw<3,3,3> o (_8,_64):(_64,_1); max_alignment(S)", "_8"),
    form!("max_common_layout", "max_common_layout(S, L) | max_common_layout(L, S)", "the common layout of a swizzled and a plain layout, cut to the swizzle's 2^M unswizzled elements", "S = Sw<3,3,3> o (_8,_64):(_64,_1); max_common_layout(S, (_8,_64):(_64,_1))", "_8:_8"),
    form!("max_common_vector", "max_common_vector(S, L)", "common vector length with a swizzled layout, at most 2^M", "S = Sw<3,3,3> o (_8,_64):(_64,_1); max_common_vector(S, (_8,_64):(_64,_1))", "_8"),
    form!("nullspace", "nullspace(S)", "CuTe does not attempt a composed layout's nullspace: _1:_0", "S = Sw<3,3,3> o (_8,_64):(_64,_1); nullspace(S)", "_1:_0"),
    form!("with_shape", "with_shape(S, shape) | with_shape(S, s0, s1, ...)", "S composed with a compact layout of that shape", "S = Sw<3,3,3> o (_8,_64):(_64,_1); with_shape(S, (_64,_8))", "Sw<3,3,3> o _0 o ((_8,_8),_8):((_64,_1),_8)"),
    form!("compose", "compose(S, t0, t1, ...)", "S composed with a tiler", "S = Sw<3,3,3> o (_8,_64):(_64,_1); compose(S, _4, _8)", "Sw<3,3,3> o _0 o (_4,_8):(_64,_1)"),
    form!("tile", "tile(S, t0, t1, ...)", "tiled_divide of S by a tiler", "S = Sw<3,3,3> o (_8,_64):(_64,_1); tile(S, _4, _8)", "Sw<3,3,3> o _0 o ((_4,_8),_2,_8):((_64,_1),_256,_8)"),
    form!("slice", "slice(coord, S)", "slice a composed layout; a swizzled layout decays to a plain layout where it can", "S = Sw<3,3,3> o (_8,_64):(_64,_1); slice((_,2), S)", "((_2,_2,_2)):((72,144,288))"),
    form!("slice_and_offset", "slice_and_offset(coord, S)", "the slice of a composed layout and the offset it drops", "S = Sw<3,3,3> o (_8,_64):(_64,_1); slice_and_offset((2,_), S)", "(((_8,_2,_2,_2)):((_1,8,-16,32)),144)"),
    form!("domain_offset", "domain_offset(coord, S)", "move a coordinate's offset into a composed layout", "S = Sw<3,3,3> o (_8,_64):(_64,_1); domain_offset((1,2), S)", "(Sw<3,3,3> o 66 o (_8,_64):(_64,_1),_0)"),
];
