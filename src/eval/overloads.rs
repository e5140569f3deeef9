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
use super::ops::coord::builtins as coord;
use super::ops::structure::builtins as structure;
use super::ops::{algebra, divide, swizzle};
use super::value::Value;

/// A swizzle or a swizzled (composed) layout among the arguments: the swizzle module's form.
fn swizzled(a: &Args) -> bool {
    a.args.iter().any(|v| matches!(v, Value::Swizzle(_) | Value::Composed(_)))
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

type F = fn(&Args) -> R<Value>;

/// The plain form, or the swizzle module's for a swizzle or swizzled layout.
fn plain_or_swizzled(a: &Args, plain: F, swz: F) -> R<Value> {
    if swizzled(a) {
        swz(a)
    } else {
        plain(a)
    }
}

macro_rules! by_kind {
    ($name:ident, $plain:path, $swz:path) => {
        pub fn $name(a: &Args) -> R<Value> {
            plain_or_swizzled(a, $plain, $swz)
        }
    };
}

/// Functions whose tensor form applies the same function to the tensor's layout and keeps
/// its iterator (`flatten(P)`, `logical_divide(P, T)`, ...).
macro_rules! relayout {
    ($name:ident, $plain:path, $swz:path) => {
        pub fn $name(a: &Args) -> R<Value> {
            if tensor(a) {
                atoms::quiet(|| atoms::f_tensor_relayout(a, stringify!($name)))
            } else {
                plain_or_swizzled(a, $plain, $swz)
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
                plain_or_swizzled(a, $plain, $swz)
            }
        }
    };
}

by_kind!(append, structure::f_append, swizzle::f_append);
by_kind!(blocked_product, divide::b_blocked_product, swizzle::f_blocked_product);
by_kind!(complement, algebra::b_complement, swizzle::f_complement);
by_kind!(compose, algebra::b_compose, swizzle::f_compose);
by_kind!(cosize, structure::f_cosize, swizzle::f_cosize);
by_kind!(domain_offset, coord::f_domain_offset, swizzle::f_domain_offset);
by_kind!(downcast, algebra::b_downcast, swizzle::f_downcast);
by_kind!(flat_product, divide::b_flat_product, swizzle::f_flat_product);
by_kind!(get, structure::f_get, swizzle::f_get);
by_kind!(group, structure::f_group, swizzle::f_group);
by_kind!(idx2crd, coord::f_idx2crd, swizzle::f_idx2crd);
by_kind!(left_inverse, algebra::b_left_inverse, swizzle::f_left_inverse);
by_kind!(logical_product, divide::b_logical_product, swizzle::f_logical_product);
by_kind!(make_fragment_like, structure::f_make_fragment_like, swizzle::f_make_fragment_like);
by_kind!(make_layout, structure::f_make_layout, swizzle::f_make_layout);
by_kind!(max_alignment, algebra::b_max_alignment, swizzle::f_max_alignment);
by_kind!(max_common_layout, algebra::b_max_common_layout, swizzle::f_max_common_layout);
by_kind!(max_common_vector, algebra::b_max_common_vector, swizzle::f_max_common_vector);
by_kind!(nullspace, algebra::b_nullspace, swizzle::f_nullspace);
by_kind!(prepend, structure::f_prepend, swizzle::f_prepend);
by_kind!(raked_product, divide::b_raked_product, swizzle::f_raked_product);
by_kind!(recast_layout, algebra::b_recast_layout, swizzle::f_recast_layout);
by_kind!(replace, structure::f_replace, swizzle::f_replace);
by_kind!(right_inverse, algebra::b_right_inverse, swizzle::f_right_inverse);
by_kind!(select, structure::f_select, swizzle::f_select);
by_kind!(slice, coord::f_slice, swizzle::f_slice);
by_kind!(slice_and_offset, coord::f_slice_and_offset, swizzle::f_slice_and_offset);
by_kind!(tile, divide::b_tile, swizzle::f_tile);
by_kind!(tile_to_shape, divide::b_tile_to_shape, swizzle::f_tile_to_shape);
by_kind!(tile_unzip, divide::b_tile_unzip, swizzle::f_tile_unzip);
by_kind!(tiled_product, divide::b_tiled_product, swizzle::f_tiled_product);
by_kind!(upcast, algebra::b_upcast, swizzle::f_upcast);
by_kind!(with_shape, algebra::b_with_shape, swizzle::f_with_shape);
by_kind!(zip, structure::f_zip, swizzle::f_zip);
by_kind!(zipped_product, divide::b_zipped_product, swizzle::f_zipped_product);

relayout!(coalesce, algebra::b_coalesce, swizzle::f_coalesce);
relayout!(composition, algebra::b_composition, swizzle::f_composition);
relayout!(filter, structure::f_filter, swizzle::f_filter);
relayout!(filter_zeros, structure::f_filter_zeros, swizzle::f_filter_zeros);
relayout!(flat_divide, divide::b_flat_divide, swizzle::f_flat_divide);
relayout!(flatten, structure::f_flatten, swizzle::f_flatten);
relayout!(logical_divide, divide::b_logical_divide, swizzle::f_logical_divide);
relayout!(take, structure::f_take, swizzle::f_take);
relayout!(tiled_divide, divide::b_tiled_divide, swizzle::f_tiled_divide);
relayout!(zipped_divide, divide::b_zipped_divide, swizzle::f_zipped_divide);

query!(depth, structure::f_depth, swizzle::f_depth);
query!(rank, structure::f_rank, swizzle::f_rank);
query!(shape, structure::f_shape, swizzle::f_shape);

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
        plain_or_swizzled(a, structure::f_size, swizzle::f_size)
    }
}

/// `layout(P)`, `layout<I...>(P)` of a tensor; otherwise a layout's or swizzled layout's.
pub fn layout(a: &Args) -> R<Value> {
    if tensor(a) && a.args.len() == 1 && a.targs.is_empty() {
        atoms::quiet(|| atoms::f_layout(a))
    } else if tensor(a) {
        atoms::quiet(|| atoms::f_tensor_query(a, "layout"))
    } else {
        plain_or_swizzled(a, structure::f_layout, swizzle::f_layout)
    }
}

/// `P(coord...)` of a tensor, `S(coord)` of a swizzled layout, `L(coord)` of a layout.
pub fn apply(a: &Args) -> R<Value> {
    if tensor(a) {
        atoms::quiet(|| atoms::f_tensor_apply(a))
    } else {
        plain_or_swizzled(a, coord::f_apply, swizzle::f_apply)
    }
}
