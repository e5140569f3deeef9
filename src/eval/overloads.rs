//! The functions CuTe overloads on the argument kind, one entry each: `size` of a tuple or
//! layout (`ops::structure`), of a swizzled layout (`ops::swizzle`), of a TiledMMA or tensor
//! (`atoms`). Each function here matches on the argument kinds and calls the implementation of
//! the module that owns them; that module's form refuses the kinds it does not take
//! (`Args::refuse`). The registry entry of each name lives with its plain implementation
//! (`ops::*`'s tables point here); the other modules document their forms in `FORMS`.
//! Adding a kind to a function: its implementation, its form (`FORMS`), its arm here.
//! May import: everything under `eval`.

use super::atoms::{self, AtomValue};
use super::builtins::{Args, TArg};
use super::error::R;
use super::int_tuple::{IntTuple, V};
use super::ops::coord::builtins as coord;
use super::ops::structure::builtins as structure;
use super::ops::tuple::builtins::foreign;
use super::ops::{algebra, divide, swizzle};
use super::value::Value;

fn sw(v: &Value) -> bool {
    matches!(v, Value::Swizzle(_) | Value::Composed(_))
}

fn is_layout(v: &Value) -> bool {
    matches!(v, Value::Layout(_))
}

fn is_tuple(v: &Value) -> bool {
    matches!(v, Value::Tuple(_))
}

/// Argument `i` satisfies `f` (false when it is missing).
fn arg_is(a: &Args, i: usize, f: fn(&Value) -> bool) -> bool {
    a.args.get(i).is_some_and(|v| f(v))
}

fn n_in(a: &Args, lo: usize, hi: usize) -> bool {
    (lo..=hi).contains(&a.args.len())
}

/// An MMA/copy object, text or tag among the arguments, or a swizzle or swizzled layout:
/// values the plain tuple and layout functions of `ops::structure` do not take.
fn foreign_or_swizzled(a: &Args) -> bool {
    a.args.iter().any(|v| foreign(v) || sw(v))
}

/// What `Tiler::read` would make of a value, without building the tiler: a plain tiler, a
/// swizzle or swizzled layout met first (`None`), or an error met first (`Some(false)`).
fn tiler_of(v: &Value) -> Option<bool> {
    fn tuple_ok(t: &IntTuple) -> bool {
        match t.view() {
            V::T(v) => v.iter().all(tuple_ok),
            V::Basis(..) => false,
            _ => true,
        }
    }
    match v {
        Value::Layout(_) => Some(true),
        Value::Tuple(t) => Some(tuple_ok(t)),
        Value::Tile(vs) => {
            for x in vs {
                if !tiler_of(x)? {
                    return Some(false);
                }
            }
            Some(true)
        }
        Value::Swizzle(_) | Value::Composed(_) => None,
        _ => Some(false),
    }
}

/// `f(L, t1, t2, ...)` with a plain layout L: the first tiler argument that is not a plain
/// tiler is a swizzle or swizzled layout (rather than some other kind).
fn swizzled_tiler(a: &Args, from: usize) -> bool {
    for v in &a.args[from.min(a.args.len())..] {
        // (a layout, the common tiler, without the call)
        if is_layout(v) {
            continue;
        }
        match tiler_of(v) {
            None => return true,
            Some(false) => return false,
            Some(true) => {}
        }
    }
    false
}

/// `f(L, tiler)` of `ops::divide`: two arguments, a swizzled layout first or as the tiler.
fn divide_form(a: &Args) -> bool {
    a.args.len() == 2 && (sw(a.args[0]) || (is_layout(a.args[0]) && swizzled_tiler(a, 1)))
}

/// `f(L, t0, t1, ...)`, the member forms `compose` and `tile`.
fn member_form(a: &Args) -> bool {
    a.args.len() >= 2 && (sw(a.args[0]) || (is_layout(a.args[0]) && swizzled_tiler(a, 1)))
}

/// `f(A, B)` of two layouts with a swizzled layout as either.
fn two_layouts(a: &Args) -> bool {
    a.args.len() == 2 && (sw(a.args[0]) || (is_layout(a.args[0]) && sw(a.args[1])))
}

/// One argument, a swizzled layout.
fn one_swizzled(a: &Args) -> bool {
    a.args.len() == 1 && sw(a.args[0])
}

/// `f(coord, L)` of `ops::coord`: a coordinate and a layout, or else the swizzle module's.
fn coord_form(a: &Args) -> bool {
    !a.args.is_empty() && (!is_tuple(a.args[0]) || (a.args.len() >= 2 && !is_layout(a.args[1])))
}

/// The atom object in argument 0, if there is one.
fn atom0<'a>(a: &Args<'a>) -> Option<&'a AtomValue> {
    match a.args.first() {
        Some(Value::Atom(x)) => Some(x),
        _ => None,
    }
}

/// A tensor (a thread's partition) in argument 0: the atoms module's tensor form.
fn tensor(a: &Args) -> bool {
    matches!(atom0(a), Some(AtomValue::Partition(_)))
}

/// One MMA atom, TiledMMA, copy atom or TiledCopy alone, without template arguments: CuTe
/// treats it as a non-tuple value (`shape`, `rank`, `depth`).
fn atom_object(a: &Args) -> bool {
    a.args.len() == 1
        && a.targs.is_empty()
        && matches!(
            atom0(a),
            Some(AtomValue::MmaAtom(_) | AtomValue::TiledMma(_) | AtomValue::CopyAtom(_) | AtomValue::TiledCopy(_))
        )
}

/// The swizzle module's form where `$swizzled` says the arguments are its kinds, else the plain
/// form (which words its own errors and refusals). (Written out in each function, not passed
/// as function pointers: the plain form, the common one, is then called directly and can be
/// inlined.)
macro_rules! pick {
    ($a:expr, $swizzled:expr, $plain:path, $swz:path) => {{
        let a = $a;
        let swizzled: fn(&Args) -> bool = $swizzled;
        if swizzled(a) {
            $swz(a)
        } else {
            $plain(a)
        }
    }};
}

/// `$name`: the plain form, or the swizzle module's for the kinds `$swizzled` describes.
macro_rules! by_kind {
    ($name:ident, $swizzled:expr, $plain:path, $swz:path) => {
        pub fn $name(a: &Args) -> R<Value> {
            pick!(a, $swizzled, $plain, $swz)
        }
    };
}

/// Functions whose tensor form applies the same function to the tensor's layout and keeps
/// its iterator (`flatten(P)`, `logical_divide(P, T)`, ...).
macro_rules! relayout {
    ($name:ident, $swizzled:expr, $plain:path, $swz:path) => {
        pub fn $name(a: &Args) -> R<Value> {
            if tensor(a) {
                atoms::quiet(|| atoms::f_tensor_relayout(a, stringify!($name)))
            } else {
                pick!(a, $swizzled, $plain, $swz)
            }
        }
    };
}

/// Queries with a tensor form (the same query of its layout) and a non-tuple form for the MMA
/// and copy objects.
macro_rules! query {
    ($name:ident, $plain:path, $swz:path) => {
        pub fn $name(a: &Args) -> R<Value> {
            if tensor(a) {
                atoms::quiet(|| atoms::f_tensor_query(a, stringify!($name)))
            } else if atom_object(a) {
                atoms::quiet(|| atoms::f_atom_non_tuple(a, stringify!($name)))
            } else {
                pick!(a, foreign_or_swizzled, $plain, $swz)
            }
        }
    };
}

// Each predicate says when the plain form does not take the arguments (before any other error
// of its own): a swizzled layout where it looks first, in the order it looks.
by_kind!(
    append,
    |a| a.args.iter().any(|v| foreign(v)) || arg_is(a, 0, |v| matches!(v, Value::Composed(_))),
    structure::f_append,
    swizzle::f_append
);
by_kind!(
    prepend,
    |a| a.args.iter().any(|v| foreign(v)) || arg_is(a, 0, |v| matches!(v, Value::Composed(_))),
    structure::f_prepend,
    swizzle::f_prepend
);
by_kind!(
    replace,
    |a| a.args.iter().any(|v| foreign(v)) || arg_is(a, 0, |v| matches!(v, Value::Composed(_))),
    structure::f_replace,
    swizzle::f_replace
);
by_kind!(get, foreign_or_swizzled, structure::f_get, swizzle::f_get);
by_kind!(group, foreign_or_swizzled, structure::f_group, swizzle::f_group);
by_kind!(select, foreign_or_swizzled, structure::f_select, swizzle::f_select);
by_kind!(cosize, |a| arg_is(a, 0, sw), structure::f_cosize, swizzle::f_cosize);
by_kind!(
    make_fragment_like,
    |a| a.targs.is_empty() && a.args.len() == 1 && !matches!(a.args[0], Value::Tuple(_) | Value::Layout(_)),
    structure::f_make_fragment_like,
    swizzle::f_make_fragment_like
);
by_kind!(
    make_layout,
    |a| a.args.iter().any(|v| matches!(v, Value::Atom(_) | Value::Text(_)) || sw(v)),
    structure::f_make_layout,
    swizzle::f_make_layout
);
by_kind!(
    zip,
    |a| a.args.iter().any(|v| foreign(v)) || matches!(a.args, [Value::Composed(_)]),
    structure::f_zip,
    swizzle::f_zip
);
/// `domain_offset(coord, x)`: of a tensor (the atoms module's), else by the layout's kind.
pub fn domain_offset(a: &Args) -> R<Value> {
    if matches!(a.args.get(1), Some(Value::Atom(x)) if matches!(**x, AtomValue::Partition(_))) {
        atoms::quiet(|| atoms::f_tensor_domain_offset(a))
    } else {
        pick!(a, coord_form, coord::f_domain_offset, swizzle::f_domain_offset)
    }
}
by_kind!(slice_and_offset, coord_form, coord::f_slice_and_offset, swizzle::f_slice_and_offset);
by_kind!(
    slice,
    |a| coord::opaque_coord(a, false).is_none()
        && !a.args.is_empty()
        && (!is_tuple(a.args[0])
            || (a.args.len() == 2
                && !matches!(a.args[1], Value::Layout(_) | Value::Tuple(_) | Value::Swizzle(_) | Value::Tile(_)))),
    coord::f_slice,
    swizzle::f_slice
);
by_kind!(idx2crd, idx2crd_swizzled, coord::f_idx2crd, swizzle::f_idx2crd);
by_kind!(
    complement,
    |a| n_in(a, 1, 2) && (sw(a.args[0]) || (is_layout(a.args[0]) && arg_is(a, 1, |v| matches!(v, Value::Swizzle(_))))),
    algebra::b_complement,
    swizzle::f_complement
);
by_kind!(compose, member_form, algebra::b_compose, swizzle::f_compose);
by_kind!(tile, member_form, divide::b_tile, swizzle::f_tile);
by_kind!(with_shape, with_shape_swizzled, algebra::b_with_shape, swizzle::f_with_shape);
by_kind!(left_inverse, one_swizzled, algebra::b_left_inverse, swizzle::f_left_inverse);
by_kind!(right_inverse, one_swizzled, algebra::b_right_inverse, swizzle::f_right_inverse);
by_kind!(max_alignment, one_swizzled, algebra::b_max_alignment, swizzle::f_max_alignment);
by_kind!(nullspace, one_swizzled, algebra::b_nullspace, swizzle::f_nullspace);
by_kind!(max_common_layout, two_layouts, algebra::b_max_common_layout, swizzle::f_max_common_layout);
by_kind!(max_common_vector, two_layouts, algebra::b_max_common_vector, swizzle::f_max_common_vector);
by_kind!(upcast, upcast_swizzled, algebra::b_upcast, swizzle::f_upcast);
by_kind!(downcast, |a| matches!(a.targs, [TArg::Int(_)]) && one_swizzled(a), algebra::b_downcast, swizzle::f_downcast);
by_kind!(recast_layout, recast_swizzled, algebra::b_recast_layout, swizzle::f_recast_layout);
by_kind!(blocked_product, two_layouts, divide::b_blocked_product, swizzle::f_blocked_product);
by_kind!(raked_product, two_layouts, divide::b_raked_product, swizzle::f_raked_product);
by_kind!(tile_to_shape, |a| n_in(a, 2, 3) && sw(a.args[0]), divide::b_tile_to_shape, swizzle::f_tile_to_shape);
by_kind!(logical_product, divide_form, divide::b_logical_product, swizzle::f_logical_product);
by_kind!(zipped_product, divide_form, divide::b_zipped_product, swizzle::f_zipped_product);
by_kind!(tiled_product, divide_form, divide::b_tiled_product, swizzle::f_tiled_product);
by_kind!(flat_product, divide_form, divide::b_flat_product, swizzle::f_flat_product);
by_kind!(tile_unzip, divide_form, divide::b_tile_unzip, swizzle::f_tile_unzip);

relayout!(coalesce, |a| n_in(a, 1, 2) && sw(a.args[0]), algebra::b_coalesce, swizzle::f_coalesce);
relayout!(composition, composition_swizzled, algebra::b_composition, swizzle::f_composition);
/// `flatten`: a relayout (of a tensor, its layout flattened), and of an MMA/copy object, which is
/// not a tuple, the object itself (as `query!`'s non-tuple form).
pub fn flatten(a: &Args) -> R<Value> {
    if tensor(a) {
        atoms::quiet(|| atoms::f_tensor_relayout(a, "flatten"))
    } else if atom_object(a) {
        atoms::quiet(|| atoms::f_atom_non_tuple(a, "flatten"))
    } else {
        pick!(a, foreign_or_swizzled, structure::f_flatten, swizzle::f_flatten)
    }
}
relayout!(filter, |a| arg_is(a, 0, sw), structure::f_filter, swizzle::f_filter);
relayout!(filter_zeros, filter_zeros_swizzled, structure::f_filter_zeros, swizzle::f_filter_zeros);
relayout!(flat_divide, divide_form, divide::b_flat_divide, swizzle::f_flat_divide);
relayout!(logical_divide, divide_form, divide::b_logical_divide, swizzle::f_logical_divide);
relayout!(take, foreign_or_swizzled, structure::f_take, swizzle::f_take);
relayout!(tiled_divide, divide_form, divide::b_tiled_divide, swizzle::f_tiled_divide);
relayout!(zipped_divide, divide_form, divide::b_zipped_divide, swizzle::f_zipped_divide);

query!(depth, structure::f_depth, swizzle::f_depth);
query!(rank, structure::f_rank, swizzle::f_rank);
query!(shape, structure::f_shape, swizzle::f_shape);

/// `idx2crd(i, S)`: unless both are non-tuples (the index itself), a non-tuple index or shape.
fn idx2crd_swizzled(a: &Args) -> bool {
    let non_tuple = |v: &Value| {
        matches!(
            v,
            Value::Tuple(IntTuple::I(_) | IntTuple::Under) | Value::Layout(_) | Value::Swizzle(_) | Value::Composed(_)
        )
    };
    if let [i, s] = a.args {
        if non_tuple(i) && non_tuple(s) {
            return false;
        }
    }
    !a.args.is_empty() && (!is_tuple(a.args[0]) || (a.args.len() >= 2 && !is_tuple(a.args[1])))
}

/// `with_shape(S, shape)` / `with_shape(L, s0, s1, ...)`: a swizzled layout, or a swizzle
/// where a shape was expected first.
fn with_shape_swizzled(a: &Args) -> bool {
    if a.args.len() < 2 {
        return false;
    }
    if sw(a.args[0]) {
        return true;
    }
    is_layout(a.args[0]) && a.args[1..].iter().find(|v| !is_tuple(v)).is_some_and(|v| sw(v))
}

/// `upcast<N>(S)`, `upcast<N>(shape, stride)`.
fn upcast_swizzled(a: &Args) -> bool {
    if !matches!(a.targs, [TArg::Int(_)]) {
        return false;
    }
    match a.args {
        [x] => sw(x),
        [x, y] => sw(x) || (is_tuple(x) && sw(y)),
        _ => false,
    }
}

/// `recast_layout<Old,New>(S)` with two known value types.
fn recast_swizzled(a: &Args) -> bool {
    let known = |t: &TArg| matches!(t, TArg::Name(n) if algebra::type_bits(n).is_some());
    matches!(a.targs, [x, y] if known(x) && known(y)) && one_swizzled(a)
}

/// `composition(A, offset, B)`, or `composition(A, B)` with a swizzle or swizzled layout as A
/// or in the tiler B.
fn composition_swizzled(a: &Args) -> bool {
    a.args.len() == 3 || divide_form(a)
}

/// `filter_zeros` of a swizzled layout, unless CuTe's generic `filter_zeros(a, b)` of an opaque
/// `a` answers first.
fn filter_zeros_swizzled(a: &Args) -> bool {
    let opaque = |v: &Value| match v {
        Value::Tuple(IntTuple::I(i)) => !i.is_const(0),
        Value::Tuple(IntTuple::Under) | Value::Swizzle(_) | Value::Composed(_) | Value::Tag(_) => true,
        _ => false,
    };
    let generic = match a.args {
        [Value::Layout(_), p] => opaque(p),
        [x, y] if opaque(x) && !is_tuple(y) => true,
        [x @ (Value::Swizzle(_) | Value::Composed(_) | Value::Tag(_)), Value::Tuple(_)] => opaque(x),
        _ => false,
    };
    !generic && a.args.iter().any(|v| sw(v))
}

/// `stride(P)` of a tensor; otherwise a layout's.
pub fn stride(a: &Args) -> R<Value> {
    if tensor(a) {
        atoms::quiet(|| atoms::f_tensor_query(a, "stride"))
    } else {
        structure::f_stride(a)
    }
}

/// `size(T)`, `size(C)`, `size<I...>(T)` of a TiledMMA or TiledCopy, `size<I...>(P)` of a
/// tensor; otherwise a tuple's, layout's or swizzled layout's.
pub fn size(a: &Args) -> R<Value> {
    let all_int = a.targs.iter().all(|t| matches!(t, TArg::Int(_)));
    let threads = a.args.len() == 1
        && match atom0(a) {
            Some(AtomValue::TiledMma(_)) => a.targs.is_empty() || all_int,
            Some(AtomValue::TiledCopy(_) | AtomValue::Partition(_)) => a.targs.is_empty(),
            _ => false,
        };
    if threads {
        atoms::quiet(|| atoms::f_size(a))
    } else if tensor(a) {
        atoms::quiet(|| atoms::f_tensor_query(a, "size"))
    } else {
        pick!(a, foreign_or_swizzled, structure::f_size, swizzle::f_size)
    }
}

/// `layout(P)`, `layout<I...>(P)` of a tensor; otherwise a layout's or swizzled layout's.
pub fn layout(a: &Args) -> R<Value> {
    if tensor(a) && a.args.len() == 1 && a.targs.is_empty() {
        atoms::quiet(|| atoms::f_layout(a))
    } else if tensor(a) {
        atoms::quiet(|| atoms::f_tensor_query(a, "layout"))
    } else {
        pick!(a, |a| arg_is(a, 0, sw), structure::f_layout, swizzle::f_layout)
    }
}

/// `P(coord...)` of a tensor, `S(coord)` of a swizzled layout, `L(coord)` of a layout.
pub fn apply(a: &Args) -> R<Value> {
    if tensor(a) {
        atoms::quiet(|| atoms::f_tensor_apply(a))
    } else {
        pick!(a, |a| arg_is(a, 0, sw), coord::f_apply, swizzle::f_apply)
    }
}
