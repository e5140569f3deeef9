//! Divides and products of layouts, ported from `layout.hpp`: `logical_divide` and its
//! zipped/tiled/flat forms, `logical_product` and its zipped/tiled/flat forms, the
//! rank-sensitive `blocked_product` / `raked_product`, `tile_to_shape`, and the tuple helpers
//! `zip2_by` / `tile_unzip` that regroup their results.
//!
//! Definitions (checked by `tests/laws.rs`):
//!   logical_divide(L, T)  = L o (T, complement(T, shape(coalesce(L))))
//!   logical_product(L, T) = (L, complement(L, size(L)*cosize(T)) o T)
//! May import: `eval::ops::algebra` and the core types.

use crate::eval::builtins::{Args, Builtin};
use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::{
    IntTuple::{self, I},
    T,
};
use crate::eval::layout::Layout;
use crate::eval::ops::algebra::util::{ceil_div_i, compact_col_major, concat, concat2, lmode, lrank, product};
use crate::eval::ops::algebra::{
    check_composition, coalesce_int_flat_into, coalesce_shape_of, coalesce_two_modes, complement, compose_flat,
    composition_exact, composition_pair_to, flat_int_modes, int_mode_pair, int_modes_into, layout_arg, modes_shape,
    tiler_arg, BModes, IntModes, Tiler,
};
use crate::eval::ops::structure::{append_n, cosize, make_layout_right, make_ordered_layout as ordered, zip2};
use crate::eval::ops::tuple::ceil_div;
use crate::eval::value::Value;

/// `make_layout(n)` for an integer tiler: `n:_1` (`_1:_0` for a static `_1`).
fn int_layout(n: Int) -> R<Layout> {
    Ok(Layout::new(I(n), compact_col_major(&I(n), st(1))?))
}

// ----------------------------------------------------------------------------------------
// Divide
// ----------------------------------------------------------------------------------------

/// `logical_divide(L, T)` for a layout tiler: `L o (T, complement(T, shape(coalesce(L))))`.
/// Result: rank 2, (elements of a tile, tiles).
pub fn logical_divide(l: &Layout, t: &Layout) -> R<Layout> {
    logical_divide_steps(l, t)
}

/// [`logical_divide`] as a `V` (a `Value` for the built-in), made where it is returned (a
/// layout returned and then moved is copied, and the copy waits for the stores just made), its
/// errors marked as argument `arg`'s.
#[inline(never)]
pub fn logical_divide_to<V: From<Layout>>(l: &Layout, t: &Layout, arg: usize) -> R<V> {
    logical_divide_steps(l, t).map_err(|e| e.at_arg(arg))
}

/// A result as a `V`, its error marked as argument `arg`'s (the `*_to` functions' ending).
#[inline(always)]
fn as_arg_value<V: From<Layout>>(r: R<Layout>, arg: usize) -> R<V> {
    match r {
        Ok(r) => Ok(V::from(r)),
        Err(e) => Err(e.at_arg(arg)),
    }
}

/// The steps of [`logical_divide`]: a layout of two integer modes (the commonest) coalesced in
/// registers, the general steps for any other.
#[inline(always)]
fn logical_divide_steps<V: From<Layout>>(l: &Layout, t: &Layout) -> R<V> {
    // For a layout of integers whose last flat shape is not `_1`, `coalesce` (for the
    // cotarget) and `coalesce_x` (for the composition) start from the same mode and walk the
    // same way, so they are the same modes, made once here (with the same errors first), with
    // whether the flat shapes are positive; two modes (the commonest) in registers.
    let mut ints = IntModes::new();
    let positive = match int_mode_pair(l) {
        Some((m0, m1)) if !m1.0.is_const(1) => {
            let (x, y) = coalesce_two_modes(m0, m1)?;
            ints.push(x);
            if let Some(y) = y {
                ints.push(y);
            }
            Some(m0.0.v >= 1 && m1.0.v >= 1)
        }
        _ => {
            let mut flat = IntModes::new();
            if int_modes_into(l, &mut flat) && flat.last().is_some_and(|m| !m.0.is_const(1)) {
                coalesce_int_flat_into(&flat, &mut ints)?;
                Some(flat.iter().all(|(s, _)| s.v >= 1))
            } else {
                None
            }
        }
    };
    // (the law checked where the composition did not prove it)
    let check = |c: &Layout, r: &Layout| {
        check_composition(l, &concat2(t.clone(), c.clone()), r, "the composition inside logical_divide")
    };
    if let Some(positive) = positive {
        let c = complement(t, &modes_shape(&ints))?;
        composition_pair_to(l, Some((&ints, positive)), t, &c, |r| check(&c, r))
    } else {
        let c = complement(t, &coalesce_shape_of(l)?)?;
        composition_pair_to(l, None, t, &c, |r| check(&c, r))
    }
}

/// `logical_divide(L, tiler)`: by mode for a tuple tiler (at most rank(L) modes; modes of L
/// not hit are kept), L itself for `_`, `n:_1` for an integer.
pub fn logical_divide_tiler(l: &Layout, t: &Tiler) -> R<Layout> {
    match t {
        Tiler::Tuple(ts) => {
            if ts.len() > lrank(l) {
                return Err(EvalError::rule(
                    "logical_divide: too many modes in tiler",
                    format!("the tiler has {} modes but {l} has rank {}", ts.len(), lrank(l)),
                ));
            }
            by_mode(l, ts, logical_divide_tiler)
        }
        Tiler::Under => Ok(l.clone()),
        Tiler::Int(n) => logical_divide(l, &int_layout(*n)?),
        Tiler::Layout(tl) => logical_divide(l, tl),
    }
}

/// `transform_layout(L, tiler, f)`: f on the first modes, the remaining modes of L unchanged.
fn by_mode(l: &Layout, ts: &[Tiler], f: fn(&Layout, &Tiler) -> R<Layout>) -> R<Layout> {
    let mut modes = Vec::with_capacity(lrank(l));
    for (k, tk) in ts.iter().enumerate() {
        modes.push(f(&lmode(l, k)?, tk)?);
    }
    for k in ts.len()..lrank(l) {
        modes.push(lmode(l, k)?);
    }
    if modes.is_empty() {
        return Err(EvalError::rule("static assertion failed", "an empty tiler"));
    }
    Ok(concat(modes))
}

/// `zip2_by(t, guide)`: take rank-2 modes at the terminals of the guide and gather their first
/// and second parts: `((A,a),((B,b),(C,c)),d)` by `(X,(X,X))` gives `((A,(B,C)),(a,(b,c),d))`.
pub fn zip2_by(t: &IntTuple, guide: &Tiler) -> R<IntTuple> {
    match guide {
        Tiler::Tuple(gs) => {
            let Some(tv) = t.kids() else {
                return Err(EvalError::rule(
                    "mismatched ranks",
                    format!("zip2_by: {t} is not a tuple but the guide has {} modes", gs.len()),
                ));
            };
            if tv.len() < gs.len() {
                return Err(EvalError::rule(
                    "mismatched ranks",
                    format!("zip2_by: {t} has fewer modes than the guide ({})", gs.len()),
                ));
            }
            let mut first = Vec::with_capacity(gs.len());
            let mut second = Vec::with_capacity(tv.len());
            for (ti, gi) in tv.iter().zip(gs) {
                match zip2_by(ti, gi)? {
                    p if p.is_tuple() && p.rank() == 2 => {
                        let mut p = p.into_kids().unwrap_or_default();
                        let b = p.pop().unwrap_or(T(vec![]));
                        let a = p.pop().unwrap_or(T(vec![]));
                        first.push(a);
                        second.push(b);
                    }
                    other => {
                        return Err(EvalError::rule("mismatched ranks", format!("zip2_by: {other} is not rank 2")))
                    }
                }
            }
            second.extend(tv[gs.len()..].iter().cloned());
            Ok(T(vec![T(first), T(second)]))
        }
        _ => match t.kids() {
            Some(v) if v.len() == 2 => Ok(t.clone()),
            _ => Err(EvalError::rule("mismatched ranks", format!("zip2_by: {t} is not a rank-2 tuple"))),
        },
    }
}

/// `tile_unzip(L, tiler)`: `zip2_by` on shape and stride.
pub fn tile_unzip(l: &Layout, t: &Tiler) -> R<Layout> {
    Ok(Layout::new(zip2_by(&l.shape, t)?, zip2_by(&l.stride, t)?))
}

/// `zipped_divide(L, tiler)`: ((tile modes...), (rest modes...)).
pub fn zipped_divide(l: &Layout, t: &Tiler) -> R<Layout> {
    tile_unzip(&logical_divide_tiler(l, t)?, t)
}

/// Slice a rank-2 result with `(_, repeat<R1>(_))` (`spread0 = false`) or
/// `(repeat<R0>(_), repeat<R1>(_))` (`spread0 = true`): a mode of rank ≥ 2 is spliced into the
/// top level, a mode of rank 1 (integer or 1-tuple) is kept whole.
fn unpack(l: &Layout, spread0: bool) -> R<Layout> {
    fn go(t: &IntTuple, ranks: (usize, usize), spread0: bool) -> R<IntTuple> {
        let Some(v) = t.kids() else {
            return Err(EvalError::rule("mismatched ranks", format!("{t} is not rank 2")));
        };
        if v.len() != 2 {
            return Err(EvalError::rule("mismatched ranks", format!("{t} is not rank 2")));
        }
        let mut out = Vec::new();
        for (k, m) in v.iter().enumerate() {
            let r = if k == 0 { ranks.0 } else { ranks.1 };
            let spread = k == 1 || spread0;
            match m.kids() {
                Some(mv) if spread && r != 1 => {
                    if mv.len() != r {
                        return Err(EvalError::rule("mismatched ranks", format!("slicing {t}")));
                    }
                    out.extend(mv.iter().cloned());
                }
                _ if spread && r != 1 => {
                    return Err(EvalError::rule("mismatched ranks", format!("slicing {t}")));
                }
                _ => out.push(m.clone()),
            }
        }
        Ok(T(out))
    }
    let ranks = match l.shape.kids() {
        Some(v) if v.len() == 2 => (v[0].rank(), v[1].rank()),
        _ => return Err(EvalError::rule("mismatched ranks", format!("{l} is not rank 2"))),
    };
    Ok(Layout::new(go(&l.shape, ranks, spread0)?, go(&l.stride, ranks, spread0)?))
}

/// `tiled_divide(L, tiler)`: ((tile modes...), rest0, rest1, ...).
pub fn tiled_divide(l: &Layout, t: &Tiler) -> R<Layout> {
    unpack(&zipped_divide(l, t)?, false)
}

/// `flat_divide(L, tiler)`: (tile0, tile1, ..., rest0, rest1, ...).
pub fn flat_divide(l: &Layout, t: &Tiler) -> R<Layout> {
    unpack(&zipped_divide(l, t)?, true)
}

// ----------------------------------------------------------------------------------------
// Product
// ----------------------------------------------------------------------------------------

/// `logical_product(B, T)` for a layout tiler: `(B, complement(B, size(B)*cosize(T)) o T)`.
pub fn logical_product(b: &Layout, t: &Layout) -> R<Layout> {
    logical_product_steps(b, t)
}

/// [`logical_product`] as a `V`, as [`logical_divide_to`].
#[inline(never)]
pub fn logical_product_to<V: From<Layout>>(b: &Layout, t: &Layout, arg: usize) -> R<V> {
    as_arg_value(logical_product_steps(b, t), arg)
}

/// The steps of [`logical_product`].
#[inline(always)]
fn logical_product_steps(b: &Layout, t: &Layout) -> R<Layout> {
    let cotarget = product(&b.shape)?.mul(cosize(t)?)?;
    let c = complement(b, &I(cotarget))?;
    let what = "the composition inside logical_product";
    let mut tm = BModes::new();
    let r = match flat_int_modes(t, &mut tm) {
        // (most tilers: composed in place, not returned and taken apart)
        true => compose_flat(&c, t, &tm, what)?,
        false => {
            let (r, exact) = composition_exact(&c, t)?;
            if !exact {
                check_composition(&c, t, &r, what);
            }
            r
        }
    };
    Ok(concat2(b.clone(), r))
}

/// `logical_product(B, tiler)`: by mode for a tuple tiler, B for `_`, `n:_1` for an integer.
pub fn logical_product_tiler(b: &Layout, t: &Tiler) -> R<Layout> {
    match t {
        Tiler::Tuple(ts) => {
            if ts.len() > lrank(b) {
                return Err(EvalError::rule(
                    "logical_product: too many modes in tiler",
                    format!("the tiler has {} modes but {b} has rank {}", ts.len(), lrank(b)),
                ));
            }
            by_mode(b, ts, logical_product_tiler)
        }
        Tiler::Under => Ok(b.clone()),
        Tiler::Int(n) => logical_product(b, &int_layout(*n)?),
        Tiler::Layout(tl) => logical_product(b, tl),
    }
}

/// `zipped_product(B, tiler)`: ((block modes...), (product modes...)).
pub fn zipped_product(b: &Layout, t: &Tiler) -> R<Layout> {
    tile_unzip(&logical_product_tiler(b, t)?, t)
}

/// `tiled_product(B, tiler)`: ((block modes...), product0, product1, ...).
pub fn tiled_product(b: &Layout, t: &Tiler) -> R<Layout> {
    unpack(&zipped_product(b, t)?, false)
}

/// `flat_product(B, tiler)`: (block0, block1, ..., product0, product1, ...).
pub fn flat_product(b: &Layout, t: &Tiler) -> R<Layout> {
    unpack(&zipped_product(b, t)?, true)
}

/// `append<N>(layout)`: pad with `_1:_0` modes up to rank `n`.
fn pad(l: &Layout, n: usize) -> R<Layout> {
    append_n(l, n as i64, &Layout::new(I(st(1)), I(st(0))))
}

fn rank_sensitive(block: &Layout, tiler: &Layout, raked: bool) -> R<Layout> {
    let r = lrank(block).max(lrank(tiler));
    let result = logical_product(&pad(block, r)?, &pad(tiler, r)?)?;
    let (a, b) = (lmode(&result, 0)?, lmode(&result, 1)?);
    if raked {
        zip2(&b, &a)
    } else {
        zip2(&a, &b)
    }
}

/// `blocked_product(block, tiler)`: the block repeated over the tiler, mode by mode
/// (`rank(result) == max(rank(block), rank(tiler))`).
pub fn blocked_product(block: &Layout, tiler: &Layout) -> R<Layout> {
    rank_sensitive(block, tiler, false)
}

/// `raked_product(block, tiler)`: like `blocked_product` with the blocks interleaved.
pub fn raked_product(block: &Layout, tiler: &Layout) -> R<Layout> {
    rank_sensitive(block, tiler, true)
}

/// Mode order for `tile_to_shape` / `make_ordered_layout`.
#[derive(Clone, Debug, PartialEq)]
pub enum Order {
    /// `LayoutLeft` / `GenColMajor` (the default).
    Left,
    /// `LayoutRight` / `GenRowMajor`.
    Right,
    /// An explicit step/order tuple such as `(_2,_1)`.
    Tuple(IntTuple),
}

/// `make_ordered_layout(shape, order)` with a tag or an order tuple.
pub fn make_ordered_layout(shape: &IntTuple, order: &Order) -> R<Layout> {
    match order {
        Order::Left => Ok(Layout::new(shape.clone(), compact_col_major(shape, st(1))?)),
        Order::Right => make_layout_right(shape),
        Order::Tuple(o) => ordered(shape, o),
    }
}

/// `evenly_divides(a, b)` for equal-rank flat tuples, as a CuTe boolean: `Some(true/false)`
/// when static, `None` when it depends on dynamic values.
fn evenly_divides_static(a: &[Int], b: &[Int]) -> R<Option<bool>> {
    // (true_type && z0 && z1 ...): a static false anywhere makes it static false
    let mut dynamic = false;
    for (x, y) in a.iter().zip(b) {
        let q = ceil_div_i(*x, *y)?;
        let prod = y.mul(q)?;
        let eq = Int::eq(*x, prod);
        if eq.s {
            if eq.v == 0 {
                return Ok(Some(false));
            }
        } else {
            dynamic = true;
        }
    }
    Ok(if dynamic { None } else { Some(true) })
}

/// `tile_to_shape(block, target_shape, order)`: repeat `block` (in the given mode order) so the
/// result has shape `target_shape` (mode by mode, up to `compatible`).
pub fn tile_to_shape(block: &Layout, trg_shape: &IntTuple, order: &Order) -> R<Layout> {
    let r = trg_shape.rank();
    if lrank(block) > r {
        return Err(EvalError::rule(
            "rank of layout must be <= rank of target shape",
            format!("{block} has rank {} but the target shape {trg_shape} has rank {r}", lrank(block)),
        ));
    }
    let padded = pad(block, r)?;
    let block_shape: Vec<Int> = wrap_vec(&padded.shape).iter().map(product).collect::<R<_>>()?;
    let target_shape: Vec<Int> = wrap_vec(trg_shape).iter().map(product).collect::<R<_>>()?;
    if target_shape.iter().all(|x| x.s) {
        match evenly_divides_static(&target_shape, &block_shape)? {
            Some(true) => {}
            Some(false) => {
                return Err(EvalError::rule(
                    "tile_to_shape: block shape does not divide the target shape",
                    format!("{} does not divide {trg_shape}", padded.shape),
                ))
            }
            None => {
                return Err(EvalError::rule(
                    "static assertion needs a static value",
                    format!(
                    "tile_to_shape: whether {} divides the static target shape {trg_shape} is only known at run time",
                    padded.shape
                ),
                ))
            }
        }
    }
    let tv = T(target_shape.into_iter().map(I).collect());
    let bv = T(block_shape.into_iter().map(I).collect());
    let product_shape = ceil_div(&tv, &bv)?;
    blocked_product(&padded, &make_ordered_layout(&product_shape, order)?)
}

fn wrap_vec(t: &IntTuple) -> Vec<IntTuple> {
    match t.kids() {
        Some(v) => v.to_vec(),
        None => vec![t.clone()],
    }
}

// ----------------------------------------------------------------------------------------
// Built-ins
// ----------------------------------------------------------------------------------------

macro_rules! tiler_fn {
    ($fname:ident, $op:ident) => {
        pub(crate) fn $fname(a: &Args) -> R<Value> {
            let l = layout_arg(a, 0)?;
            let t = tiler_arg(a, 1)?;
            Ok(Value::Layout($op(l, &t).map_err(|e| e.at_arg(1))?))
        }
    };
}

/// A built-in of a layout and a tiler whose layout tiler (the common case) is taken where it
/// is, not copied into a `Tiler`.
macro_rules! layout_tiler_fn {
    ($fname:ident, $op_to:ident, $tiler_op:ident) => {
        pub(crate) fn $fname(a: &Args) -> R<Value> {
            let l = layout_arg(a, 0)?;
            if let Some(Value::Layout(t)) = a.args.get(1) {
                return $op_to(l, t, 1);
            }
            let t = tiler_arg(a, 1)?;
            Ok(Value::Layout($tiler_op(l, &t).map_err(|e| e.at_arg(1))?))
        }
    };
}

layout_tiler_fn!(b_logical_divide, logical_divide_to, logical_divide_tiler);
tiler_fn!(b_zipped_divide, zipped_divide);
tiler_fn!(b_tiled_divide, tiled_divide);
tiler_fn!(b_flat_divide, flat_divide);
layout_tiler_fn!(b_logical_product, logical_product_to, logical_product_tiler);
tiler_fn!(b_zipped_product, zipped_product);
tiler_fn!(b_tiled_product, tiled_product);
tiler_fn!(b_flat_product, flat_product);
tiler_fn!(b_tile_unzip, tile_unzip);

pub(crate) fn b_tile(a: &Args) -> R<Value> {
    let l = layout_arg(a, 0)?;
    let t = if a.nargs() == 2 {
        tiler_arg(a, 1)?
    } else {
        Tiler::Tuple((1..a.nargs()).map(|i| tiler_arg(a, i)).collect::<R<_>>()?)
    };
    Ok(Value::Layout(tiled_divide(l, &t)?))
}

fn b_zip2_by(a: &Args) -> R<Value> {
    let t = match a.arg(0)? {
        Value::Tuple(t) => t,
        v => return Err(EvalError::type_err(format!("zip2_by needs a tuple, got {} `{v}`", v.kind())).at_arg(0)),
    };
    // a guide that is not a tuple (a swizzle, composed layout or tag) acts like an integer one
    let g = match a.arg(1)? {
        Value::Swizzle(_) | Value::Composed(_) | Value::Tag(_) => Tiler::Int(crate::eval::int::st(1)),
        _ => tiler_arg(a, 1)?,
    };
    Ok(Value::Tuple(zip2_by(t, &g)?))
}

fn rank_sensitive_args(a: &Args) -> R<(Layout, Layout)> {
    let b = layout_arg(a, 0)?.clone();
    let t = layout_arg(a, 1)?.clone();
    Ok((b, t))
}

pub(crate) fn b_blocked_product(a: &Args) -> R<Value> {
    let (b, t) = rank_sensitive_args(a)?;
    Ok(Value::Layout(blocked_product(&b, &t)?))
}

pub(crate) fn b_raked_product(a: &Args) -> R<Value> {
    let (b, t) = rank_sensitive_args(a)?;
    Ok(Value::Layout(raked_product(&b, &t)?))
}

/// Read an order argument: `LayoutLeft`/`GenColMajor`, `LayoutRight`/`GenRowMajor`, or a tuple.
pub fn order_arg(v: &Value) -> R<Order> {
    match v {
        Value::Tag(t) if t == "LayoutLeft" || t == "GenColMajor" => Ok(Order::Left),
        Value::Tag(t) if t == "LayoutRight" || t == "GenRowMajor" => Ok(Order::Right),
        Value::Tuple(t) => Ok(Order::Tuple(t.clone())),
        v => Err(EvalError::type_err(format!(
            "expected a mode order (LayoutLeft, LayoutRight or a tuple), got {} `{v}`",
            v.kind()
        ))),
    }
}

pub(crate) fn b_tile_to_shape(a: &Args) -> R<Value> {
    let block = layout_arg(a, 0)?;
    let shape = match a.arg(1)? {
        Value::Tuple(t) => t.clone(),
        Value::Layout(l) => l.shape.clone(),
        v => {
            return Err(
                EvalError::type_err(format!("tile_to_shape needs a target shape, got {} `{v}`", v.kind())).at_arg(1)
            )
        }
    };
    let order = match a.args.get(2) {
        Some(v) => order_arg(v).map_err(|e| e.at_arg(2))?,
        None => Order::Left,
    };
    Ok(Value::Layout(tile_to_shape(block, &shape, &order)?))
}

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "logical_divide",
        sig: "logical_divide(L, tiler)",
        doc: "Split L into tiles: L o (T, complement(T, shape(L))); by mode for a tuple tiler",
        example: "logical_divide((_4,_6):(_6,_1), <_2,_3>)",
        result: "((_2,_2),(_3,_2)):((_6,_12),(_1,_3))",
        f: crate::eval::overloads::logical_divide,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "zipped_divide",
        sig: "zipped_divide(L, tiler)",
        doc: "logical_divide with the tile modes and the rest modes gathered: ((tile),(rest))",
        example: "zipped_divide((_4,_6):(_6,_1), <_2,_3>)",
        result: "((_2,_3),(_2,_2)):((_6,_1),(_12,_3))",
        f: crate::eval::overloads::zipped_divide,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "tiled_divide",
        sig: "tiled_divide(L, tiler)",
        doc: "zipped_divide with the rest modes unpacked: ((tile),rest0,rest1,...)",
        example: "tiled_divide((_4,_6):(_6,_1), <_2,_3>)",
        result: "((_2,_3),_2,_2):((_6,_1),_12,_3)",
        f: crate::eval::overloads::tiled_divide,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "flat_divide",
        sig: "flat_divide(L, tiler)",
        doc: "zipped_divide with both modes unpacked: (tile0,tile1,...,rest0,rest1,...)",
        example: "flat_divide((_4,_6):(_6,_1), <_2,_3>)",
        result: "(_2,_3,_2,_2):(_6,_1,_12,_3)",
        f: crate::eval::overloads::flat_divide,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "tile",
        sig: "tile(L, t0, t1, ...)",
        doc: "Member form L.tile(t0, ...): tiled_divide(L, <t0, ...>)",
        example: "tile((_4,_6):(_6,_1), _2, _3)",
        result: "((_2,_3),_2,_2):((_6,_1),_12,_3)",
        f: crate::eval::overloads::tile,
        arity: crate::eval::builtins::Arity::Says(
            2,
            crate::eval::builtins::MANY,
            0,
            "tile(L, t0, ...) needs a layout and at least one tiler",
        ),
    },
    Builtin {
        name: "tile_unzip",
        sig: "tile_unzip(L, tiler)",
        doc: "Regroup a divided/product layout by the tiler's profile: ((tile modes),(rest modes))",
        example: "tile_unzip(logical_divide((_4,_8):(_1,_4), <_2,_4>), <_2,_4>)",
        result: "((_2,_4),(_2,_2)):((_1,_4),(_2,_16))",
        f: crate::eval::overloads::tile_unzip,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "zip2_by",
        sig: "zip2_by(t, guide)",
        doc: "Gather the rank-2 modes at the guide's terminals: ((A,a),(B,b),x) -> ((A,B),(a,b,x))",
        example: "zip2_by(((_2,_2),(_4,_2),_3), (_2,_4))",
        result: "((_2,_4),(_2,_2,_3))",
        f: b_zip2_by,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "logical_product",
        sig: "logical_product(B, tiler)",
        doc: "Repeat B by the tiler: (B, complement(B, size(B)*cosize(T)) o T); by mode for a tuple",
        example: "logical_product((_2,_2):(_4,_1), _6:_1)",
        result: "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))",
        f: crate::eval::overloads::logical_product,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "zipped_product",
        sig: "zipped_product(B, tiler)",
        doc: "logical_product with the block modes and product modes gathered: ((block),(product))",
        example: "zipped_product((_2,_5):(_5,_1), <_3:_5, _4:_6>)",
        result: "((_2,_5),(_3,_4)):((_5,_1),(_10,_30))",
        f: crate::eval::overloads::zipped_product,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "tiled_product",
        sig: "tiled_product(B, tiler)",
        doc: "zipped_product with the product modes unpacked: ((block),p0,p1,...)",
        example: "tiled_product((_2,_5):(_5,_1), <_3:_5, _4:_6>)",
        result: "((_2,_5),_3,_4):((_5,_1),_10,_30)",
        f: crate::eval::overloads::tiled_product,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "flat_product",
        sig: "flat_product(B, tiler)",
        doc: "zipped_product with both modes unpacked: (b0,b1,...,p0,p1,...)",
        example: "flat_product((_2,_5):(_5,_1), <_3:_5, _4:_6>)",
        result: "(_2,_5,_3,_4):(_5,_1,_10,_30)",
        f: crate::eval::overloads::flat_product,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "blocked_product",
        sig: "blocked_product(block, tiler_layout)",
        doc: "Repeat the block over the tiler layout, mode by mode (rank = max of the ranks)",
        example: "blocked_product((_2,_5):(_5,_1), (_3,_4):(_1,_3))",
        result: "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))",
        f: crate::eval::overloads::blocked_product,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "raked_product",
        sig: "raked_product(block, tiler_layout)",
        doc: "Like blocked_product, with the repeated blocks interleaved",
        example: "raked_product((_2,_5):(_5,_1), (_3,_4):(_1,_3))",
        result: "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))",
        f: crate::eval::overloads::raked_product,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "tile_to_shape",
        sig: "tile_to_shape(block, shape [, order | LayoutLeft | LayoutRight])",
        doc: "Repeat the block (in the given mode order) until it has the target shape",
        example: "tile_to_shape((_2,_2):(_1,_2), (_4,_8), (_2,_1))",
        result: "((_2,_2),(_2,_4)):((_1,_16),(_2,_4))",
        f: crate::eval::overloads::tile_to_shape,
        arity: crate::eval::builtins::Arity::Says(2, 3, 0, "tile_to_shape takes 2 or 3 arguments, got {n}"),
    },
];
