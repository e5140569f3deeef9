//! MMA and copy atoms, tiled MMAs and tiled copies, their partitions (issue 4: thread-value
//! layouts).
//!
//! - `mma_table`, `copy_table`: the instructions as data (CuTe's `MMA_Traits` / `Copy_Traits`).
//! - `mma`: `MMA_Atom`, `TiledMMA`, `ThrMMA` (`mma_atom.hpp`).
//! - `copy`: `Copy_Atom`, `TiledCopy`, `ThrCopy`, `make_tiled_copy*` (`copy_atom.hpp`).
//! - `tensor`: counting tensors and what their partitions print.
//! - `lit`, `types`: table literals and value-type sizes.
//!
//! This file holds the values (`AtomValue`), the built-in table and `named_value`. The atoms call
//! the algebra in `eval::ops` directly, in its warning-free `_raw` forms where CuTe composes
//! internally (`composition_raw`, `composition_tiler_raw`).
//! May import: `eval::*` algebra modules; never the parser, interpreter, render or runtime.

pub mod copy;
pub mod copy_table;
pub mod latex;
pub mod lit;
pub mod mma;
pub mod mma_table;
pub mod tensor;
pub mod types;

use crate::eval::builtins::{b, form};
use crate::eval::builtins::{Args, Arity, Builtin, Form, TArg};
use crate::eval::error::{EvalError, R};
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::layout::{Composed, Func, Layout};
use crate::eval::ops::algebra::Tiler;
use crate::eval::ops::{coord as oc, structure as os, tuple as ot};
use crate::eval::value::Value;
use copy::{CopyAtom, Side, TiledCopy};
use copy_table::CopyTraits;
use mma::{Operand, TiledMma};
use mma_table::MmaTraits;
use std::fmt;
use tensor::{Partition, Source};

/// Values of the atoms world.
#[derive(Clone, Debug, PartialEq)]
pub enum AtomValue {
    /// An MMA operation named bare (`SM80_16x8x16_F16F16F16F16_TN`).
    MmaOp(MmaTraits),
    /// `MMA_Atom<Op>` (`mma_atom(OP)`).
    MmaAtom(MmaTraits),
    TiledMma(Box<TiledMma>),
    /// A copy operation named bare (`SM75_U32x4_LDSM_N`).
    CopyOp(CopyTraits),
    /// `Copy_Atom<Op, T>` (`copy_atom(OP, T)`).
    CopyAtom(Box<CopyAtom>),
    TiledCopy(Box<TiledCopy>),
    /// A counting tensor (`ArithTuple<offset> o <layout>`): a thread's partition of one, or
    /// `make_identity_tensor(shape)`, `make_coord_tensor(L)`, `make_tensor(iter, L)`.
    Partition(Partition),
    /// CuTe's `ArithmeticTupleIterator` at a coordinate (an integer or a tuple of them),
    /// printed `ArithTuple` then the coordinate: `ArithTuple(_0,_0)`, `ArithTuple145`.
    Iter(IntTuple),
}

impl AtomValue {
    /// What the value is, for error messages (`Value::kind`).
    pub fn kind(&self) -> &'static str {
        match self {
            AtomValue::MmaOp(_) => "an MMA operation",
            AtomValue::MmaAtom(_) => "an MMA atom",
            AtomValue::TiledMma(_) => "a TiledMMA",
            AtomValue::CopyOp(_) => "a copy operation",
            AtomValue::CopyAtom(_) => "a copy atom",
            AtomValue::TiledCopy(_) => "a TiledCopy",
            AtomValue::Partition(_) => "a tensor",
            AtomValue::Iter(_) => "an iterator",
        }
    }
    /// CuTe has no `print` for an operation type (`print(SM80_16x8x16_F16F16F16F16_TN{})` does
    /// not compile): the interpreter should refuse to print these values.
    pub fn check_printable(&self) -> R<()> {
        match self {
            AtomValue::MmaOp(m) => Err(EvalError::rule(
                "no print for an MMA operation",
                format!("{} is an operation type; print mma_atom({0}) instead", m.name),
            )),
            AtomValue::CopyOp(c) => Err(EvalError::rule(
                "no print for a copy operation",
                format!("{} is an operation type; print copy_atom({0}, T) instead", c.name),
            )),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for AtomValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AtomValue::MmaOp(m) => write!(f, "{}", m.name),
            AtomValue::MmaAtom(m) => mma::fmt_atom(m, f),
            AtomValue::TiledMma(t) => write!(f, "{t}"),
            AtomValue::CopyOp(c) => write!(f, "{}", c.name),
            AtomValue::CopyAtom(a) => write!(f, "{a}"),
            AtomValue::TiledCopy(c) => write!(f, "{c}"),
            AtomValue::Partition(p) => write!(f, "{p}"),
            AtomValue::Iter(c) => write!(f, "ArithTuple{c}"),
        }
    }
}

fn atom(v: AtomValue) -> Value {
    Value::Atom(Box::new(v))
}

/// The value of a bare operation name such as `SM80_16x8x16_F16F16F16F16_TN` or
/// `SM90_64x64x16_F16F16F16_SS<K,K>` (with its template arguments), or `None` if `name`
/// is not an MMA/copy operation this module knows.
pub fn named_value(name: &str, targs: &[TArg]) -> Option<R<Value>> {
    if let Some(m) = mma_table::lookup(name, targs) {
        return Some(m.map(|m| atom(AtomValue::MmaOp(m))));
    }
    if let Some(c) = copy_table::lookup(name, targs) {
        return Some(c.map(|c| atom(AtomValue::CopyOp(c))));
    }
    if is_op_name(name) {
        return Some(Err(mma_table::unknown_op(name)));
    }
    None
}

/// Every MMA and copy operation name of the tables, sorted (GMMA ones without template
/// arguments): completion, suggestions and help.
pub fn op_names() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut v = mma_table::all_names();
        v.extend(copy_table::fixed_names().into_iter().map(str::to_string));
        v.sort();
        v.dedup();
        v
    })
}

/// `SM<digits>_...`: a name the notation reserves for MMA and copy operations.
fn is_op_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("SM") else { return false };
    let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && rest[digits..].starts_with('_')
}

// ------------------------------------------------------------------------------------------
// Argument helpers
// ------------------------------------------------------------------------------------------

fn atom_arg<'a>(a: &Args<'a>, i: usize) -> R<&'a AtomValue> {
    match a.arg(i)? {
        Value::Atom(x) => Ok(x),
        _ => Err(a.refuse()),
    }
}

/// The MMA traits of an operation (argument `i`).
fn mma_op(a: &Args, i: usize) -> R<MmaTraits> {
    match atom_arg(a, i)? {
        AtomValue::MmaOp(m) => Ok(m.clone()),
        // MMA_Traits<MMA_Atom<Op>> does not exist (mma_layout_A(mma_atom(OP)) is refused)
        AtomValue::MmaAtom(m) => Err(EvalError::rule(
            "MMA_Traits not implemented for this MMA_Operation.",
            format!("MMA_Atom<{}> is an atom, not an MMA operation", m.name),
        )
        .at_arg(i)),
        _ => mma_op_or_atom(a, i),
    }
}

/// The MMA traits of an operation or an MMA_Atom (argument `i`): `make_tiled_mma` takes both.
fn mma_op_or_atom(a: &Args, i: usize) -> R<MmaTraits> {
    match atom_arg(a, i)? {
        AtomValue::MmaOp(m) | AtomValue::MmaAtom(m) => Ok(m.clone()),
        other => Err(EvalError::rule(
            "MMA_Traits not implemented for this MMA_Operation.",
            format!("expected an MMA operation, got `{}`", short(other)),
        )
        .at_arg(i)),
    }
}

fn tiled_mma<'a>(a: &Args<'a>, i: usize) -> R<&'a TiledMma> {
    match atom_arg(a, i)? {
        AtomValue::TiledMma(t) => Ok(t),
        other => {
            Err(EvalError::type_err(format!("expected a TiledMMA (make_tiled_mma(...)), got `{}`", short(other)))
                .at_arg(i))
        }
    }
}

fn copy_op(a: &Args, i: usize) -> R<CopyTraits> {
    match atom_arg(a, i)? {
        AtomValue::CopyOp(c) => Ok(c.clone()),
        // Copy_Traits<X> of anything but a copy operation is CuTe's unimplemented primary template
        other => Err(EvalError::rule(
            "Copy_Traits not implemented for this CopyOperation.",
            format!("expected a copy operation, got `{}`", short(other)),
        )
        .at_arg(i)),
    }
}

fn copy_atom_arg(a: &Args, i: usize) -> R<CopyAtom> {
    match atom_arg(a, i)? {
        AtomValue::CopyAtom(c) => Ok((**c).clone()),
        AtomValue::TiledCopy(c) => Ok(c.atom.clone()),
        other => {
            Err(EvalError::type_err(format!("expected a copy atom (copy_atom(OP, T)), got `{}`", short(other)))
                .at_arg(i))
        }
    }
}

fn tiled_copy<'a>(a: &Args<'a>, i: usize) -> R<&'a TiledCopy> {
    match atom_arg(a, i)? {
        AtomValue::TiledCopy(c) => Ok(c),
        other => Err(EvalError::type_err(format!("expected a TiledCopy, got `{}`", short(other))).at_arg(i)),
    }
}

/// First line of a value's print, for error messages.
fn short(v: &AtomValue) -> String {
    v.to_string().lines().next().unwrap_or("").to_string()
}

fn layout_arg(a: &Args, i: usize) -> R<Layout> {
    match a.arg(i)? {
        Value::Layout(l) => Ok(l.clone()),
        v => Err(EvalError::type_err(format!("expected a layout, got {} `{v}`", v.kind())).at_arg(i)),
    }
}

/// The tensor argument of the partition functions: a layout (or a swizzled layout).
fn source_arg(a: &Args, i: usize) -> R<Source> {
    match a.arg(i)? {
        Value::Layout(l) => Ok(Source::Plain(l.clone())),
        Value::Composed(c) => match (&c.outer, &c.inner) {
            (Func::Swizzle(sw), Func::Layout(l)) => {
                Ok(Source::Swizzled { sw: *sw, offset: c.offset, inner: l.clone() })
            }
            (Func::Layout(outer), Func::Layout(l)) if c.mixed.is_none() => {
                Ok(Source::Composed { outer: outer.clone(), offset: c.offset, inner: l.clone() })
            }
            _ => Err(tensor::unsupported_tensor(
                "this composed layout (only Sw<B,M,S> o offset o layout, or layout o offset o layout)",
            )
            .at_arg(i)),
        },
        v => Err(EvalError::type_err(format!(
            "expected a layout (the counting tensor's layout), got {} `{v}`",
            v.kind()
        ))
        .at_arg(i)),
    }
}

fn thr_arg(a: &Args, i: usize) -> R<i64> {
    match a.arg(i)? {
        // the thread index is an `int` in CuTe: a value outside it would be truncated
        Value::Tuple(IntTuple::I(n)) if i32::try_from(n.v).is_ok() => Ok(n.v),
        Value::Tuple(IntTuple::I(n)) => Err(EvalError::new(
            crate::eval::error::ErrorKind::Overflow,
            "thread index out of range",
            format!("{n} does not fit in CuTe's int thread index (32 bits)"),
        )
        .at_arg(i)),
        v => Err(EvalError::type_err(format!("expected a thread index, got {} `{v}`", v.kind())).at_arg(i)),
    }
}

/// A tiler value (`<...>`, a shape, a layout, an integer, `_`).
fn tiler_of(v: &Value) -> R<Tiler> {
    match v {
        Value::Tuple(t) => Tiler::from_shape(t),
        Value::Layout(l) => Ok(Tiler::Layout(l.clone())),
        Value::Tile(items) => Ok(Tiler::Tuple(items.iter().map(tiler_of).collect::<R<_>>()?)),
        other => Err(EvalError::type_err(format!("expected a tiler, got {} `{other}`", other.kind()))),
    }
}

// ------------------------------------------------------------------------------------------
// MMA built-ins
// ------------------------------------------------------------------------------------------

fn f_mma_layout(a: &Args, which: char) -> R<Value> {
    let m = mma_op(a, 0)?;
    Ok(Value::Layout(match which {
        'A' => m.a,
        'B' => m.b,
        'C' => m.c,
        'T' => m.thr_id,
        _ => return Ok(Value::Tuple(m.shape_mnk)),
    }))
}

fn f_mma_atom(a: &Args) -> R<Value> {
    Ok(atom(AtomValue::MmaAtom(mma_op(a, 0)?)))
}

fn f_make_tiled_mma(a: &Args) -> R<Value> {
    make_tiled_mma_traced(a, None)
}

/// `make_tiled_mma(OP, atom_layout [, permutation])`; for `explain`, what it made: the atom,
/// the atom layout at rank 3, the thread layout `tiled_product(ThrID, atom_layout)` and the tile
/// each mode spans (the atom's extent times the atom layout's, or the permutation's size).
fn make_tiled_mma_traced(a: &Args, steps: Option<&mut Vec<String>>) -> R<Value> {
    let v = make_tiled_mma_value(a)?;
    if let (Some(steps), Value::Atom(x)) = (steps, &v) {
        if let AtomValue::TiledMma(t) = &**x {
            steps.push(format!("  the atom {}: Shape_MNK {}, ThrID {}", t.atom.name, t.atom.shape_mnk, t.atom.thr_id));
            steps.push(format!(
                "  the atom layout at rank 3 (AtomLayoutMNK) = {}: copies of the atom over (M,N,K)",
                t.atom_layout
            ));
            steps.push(format!(
                "  tiled_product(ThrID, AtomLayoutMNK) = {}: (ThrV,ThrM,ThrN,ThrK) -> thread index, {} threads",
                t.thr_layout_vmnk,
                crate::eval::ops::structure::size(&t.thr_layout_vmnk)?.v
            ));
            for (i, m) in ["M", "N", "K"].iter().enumerate() {
                let how = match &t.perm[i] {
                    Tiler::Under => format!(
                        "the atom's {} times the atom layout's {}",
                        t.atom.shape_mnk.get(i)?,
                        t.atom_layout.shape.get(i)?
                    ),
                    p => format!("the permutation {p}'s size"),
                };
                steps.push(format!("  tile {m}: {} ({how})", t.tile_size(i)?));
            }
        }
    }
    Ok(v)
}

fn make_tiled_mma_value(a: &Args) -> R<Value> {
    let m = mma_op_or_atom(a, 0)?;
    let atom_layout = match a.args.get(1) {
        None => None,
        Some(Value::Layout(l)) => Some(l.clone()),
        Some(_) => {
            // (CuTe's TiledMMA requires static permutation modes before the tiled_product that
            // refuses a shape as the atom layout; its other checks of them come after)
            if let Some(v) = a.args.get(2) {
                mma::static_modes(&tiler_of(v).map_err(|e| e.at_arg(2))?).map_err(|e| e.at_arg(2))?;
            }
            return Err(mma::shape_as_atom_layout_error().at_arg(1));
        }
    };
    let perm = match a.args.get(2) {
        None => None,
        Some(v) => Some(tiler_of(v).map_err(|e| e.at_arg(2))?),
    };
    Ok(atom(AtomValue::TiledMma(Box::new(mma::make_tiled_mma(m, atom_layout.as_ref(), perm)?))))
}

fn f_tile_shape(a: &Args) -> R<Value> {
    Ok(Value::Tuple(tiled_mma(a, 0)?.tile_shape()?))
}

fn f_tile_size(a: &Args) -> R<Value> {
    let mode = match a.targs {
        [] => None,
        [TArg::Int(i)] if *i >= 0 => Some(*i as usize),
        _ => return Err(EvalError::type_err("tile_size takes at most one integer template argument")),
    };
    match atom_arg(a, 0)? {
        AtomValue::TiledMma(t) => match mode {
            Some(i) if i < 3 => Ok(Value::Tuple(IntTuple::I(t.tile_size(i)?))),
            Some(i) => Err(EvalError::rule(
                "static assertion failed",
                format!("tile_size<{i}> of a TiledMMA: I must be 0, 1 or 2"),
            )),
            None => Err(EvalError::arity(
                "tile_size of a TiledMMA needs the mode: tile_size<0>(T), tile_size<1>(T), tile_size<2>(T)",
            )),
        },
        AtomValue::TiledCopy(c) => Ok(Value::Tuple(IntTuple::I(c.tile_size(mode)?))),
        other => Err(EvalError::type_err(format!("expected a TiledMMA or TiledCopy, got `{}`", short(other)))),
    }
}

pub(crate) fn f_size(a: &Args) -> R<Value> {
    if a.nargs() != 1 {
        return Err(a.refuse());
    }
    if let (AtomValue::TiledMma(t), [_, ..]) = (atom_arg(a, 0)?, a.targs) {
        // size<I...>(TiledMMA) = size<I...>(ThrLayoutVMNK)
        let mut mode = t.thr_layout_vmnk.shape.clone();
        for targ in a.targs {
            let i = match targ {
                TArg::Int(i) => {
                    usize::try_from(*i).map_err(|_| EvalError::rule("index out of range", format!("size<{i}>")))?
                }
                _ => return Err(a.refuse()),
            };
            mode = mode.get(i)?.into_owned();
        }
        return Ok(Value::Tuple(IntTuple::I(ot::product(&mode)?)));
    }
    if !a.targs.is_empty() {
        return Err(a.refuse());
    }
    match atom_arg(a, 0)? {
        AtomValue::TiledMma(t) => Ok(Value::Tuple(IntTuple::I(os::size(&t.thr_layout_vmnk)?))),
        AtomValue::TiledCopy(c) => Ok(Value::Tuple(IntTuple::I(c.num_thr()?))),
        AtomValue::Partition(p) => Ok(Value::Tuple(IntTuple::I(os::size(&p.layout)?))),
        _ => Err(a.refuse()),
    }
}

pub(crate) fn f_layout(a: &Args) -> R<Value> {
    if a.nargs() != 1 || !a.targs.is_empty() {
        return Err(a.refuse());
    }
    match atom_arg(a, 0)? {
        AtomValue::Partition(p) => Ok(partition_layout_value(p)),
        _ => Err(a.refuse()),
    }
}

/// A partition's layout as a value: a layout, or the ComposedLayout of a swizzled/composed
/// tensor.
fn partition_layout_value(p: &Partition) -> Value {
    match (&p.swizzle, &p.composed) {
        (Some((sw, off)), _) => Value::Composed(Box::new(Composed {
            outer: Func::Swizzle(*sw),
            offset: off.offset,
            inner: Func::Layout(p.layout.clone()),
            mixed: off.mixed,
        })),
        (None, Some((outer, off))) => Value::Composed(Box::new(Composed {
            outer: Func::Layout(outer.clone()),
            offset: *off,
            inner: Func::Layout(p.layout.clone()),
            mixed: None,
        })),
        (None, None) => Value::Layout(p.layout.clone()),
    }
}

/// A tensor with iterator `offset` over the layout value `v` (a layout or a swizzled/composed
/// layout); any other value is returned as it is. `unsigned`: the iterator's integer is a
/// `uint32_t` (`Partition::unsigned`).
fn tensor_of(offset: IntTuple, v: Value, unsigned: bool) -> R<Value> {
    let p = match v {
        Value::Layout(layout) => Partition { offset, layout, swizzle: None, composed: None, unsigned },
        Value::Composed(c) => match (c.outer, c.inner) {
            (Func::Swizzle(sw), Func::Layout(layout)) => Partition {
                offset,
                layout,
                swizzle: Some((sw, tensor::SwOffset { offset: c.offset, mixed: c.mixed })),
                composed: None,
                unsigned,
            },
            (Func::Layout(outer), Func::Layout(layout)) if c.mixed.is_none() => {
                Partition { offset, layout, swizzle: None, composed: Some((outer, c.offset)), unsigned }
            }
            (o, i) => return Err(tensor::unsupported_tensor(&format!("a tensor laid out by {o} o {i}"))),
        },
        other => return Ok(other),
    };
    Ok(atom(AtomValue::Partition(p)))
}

/// The partition argument 0 of a tensor-level function, or the call's refusal.
fn partition_arg<'a>(a: &Args<'a>) -> R<&'a Partition> {
    match a.args.first() {
        Some(Value::Atom(x)) => match &**x {
            AtomValue::Partition(p) => Ok(p),
            _ => Err(a.refuse()),
        },
        _ => Err(a.refuse()),
    }
}

/// `shape/stride/rank/depth/size/layout<I...>(tensor)`: the same function of its layout.
pub(crate) fn f_tensor_query(a: &Args, name: &str) -> R<Value> {
    let p = partition_arg(a)?;
    let mut args = vec![partition_layout_value(p)];
    args.extend(a.args.iter().skip(1).map(|&v| v.clone()));
    let mut v = crate::eval::builtins::call(name, a.targs, &args)?;
    keep_mixed(p, &mut v);
    Ok(v)
}

/// `flatten/filter/take/...(tensor)`: the same iterator over the transformed layout (a swizzled
/// or composed layout stays one). (`coalesce(P)` is CuTe's too, but the shared `coalesce`
/// refuses an atoms value instead of passing it on.)
pub(crate) fn f_tensor_relayout(a: &Args, name: &str) -> R<Value> {
    let p = partition_arg(a)?;
    let mut args = vec![partition_layout_value(p)];
    args.extend(a.args.iter().skip(1).map(|&v| v.clone()));
    let mut v = crate::eval::builtins::call(name, a.targs, &args)?;
    keep_mixed(p, &mut v);
    tensor_of(p.offset.clone(), v, p.unsigned)
}

/// `group_modes<B,E>(T)`: the tensor with its layout's modes [B,E) grouped into one, the same
/// iterator (CuTe's `make_tensor(data, group<B,E>(layout))`; CuTe has it for tensors only).
pub(crate) fn f_group_modes(a: &Args) -> R<Value> {
    tensor_only(a, "group", "group_modes<B,E>(T)", "group<B,E>(x) groups the modes of a layout or tuple")
}

/// `tensor<I...>(T)`: the tensor of mode I (of mode I's mode ...) of T, the same iterator
/// (CuTe's `make_tensor(data, get<I...>(layout))`; `tensor<>(T)` is T).
pub(crate) fn f_tensor_mode(a: &Args) -> R<Value> {
    tensor_only(a, "layout", "tensor<I...>(T)", "layout<I...>(x) is the mode of a layout")
}

/// A function CuTe has for tensors only: `via` of the tensor's layout, the same iterator; any
/// other argument is refused with `usage` and a pointer to the layout function (`hint`).
fn tensor_only(a: &Args, via: &str, usage: &str, hint: &str) -> R<Value> {
    match a.args.first() {
        Some(Value::Atom(x)) if matches!(**x, AtomValue::Partition(_)) => f_tensor_relayout(a, via),
        Some(v) => {
            Err(EvalError::type_err(format!("{usage} takes a tensor, not {} `{v}`: {hint}", v.kind())).at_arg(0))
        }
        None => Err(a.refuse()),
    }
}

/// `domain_offset(coord, T)`: `domain_offset(coord, layout(T))` gives a layout and an offset; the
/// tensor on that layout with its iterator moved by the offset (CuTe's tensor form).
pub(crate) fn f_tensor_domain_offset(a: &Args) -> R<Value> {
    let (Some(&coord), Some(Value::Atom(x))) = (a.args.first(), a.args.get(1)) else { return Err(a.refuse()) };
    let AtomValue::Partition(p) = &**x else { return Err(a.refuse()) };
    // (the arguments keep their places: an error's caret stays on the one it blames)
    let v = crate::eval::builtins::call("domain_offset", a.targs, &[coord.clone(), partition_layout_value(p)])?;
    let Value::Tile(pair) = v else { return Err(a.refuse()) };
    let [layout, off] = <[Value; 2]>::try_from(pair).map_err(|_| a.refuse())?;
    let offset = crate::eval::ops::tuple::arith_add(&p.offset, off.as_tuple()?)?;
    tensor_of(wrap_unsigned(offset, p.unsigned), layout, p.unsigned)
}

/// An iterator's integer as a `uint32_t` holds it (modulo 2^32) where `unsigned`.
fn wrap_unsigned(offset: IntTuple, unsigned: bool) -> IntTuple {
    match offset {
        IntTuple::I(i) if unsigned => IntTuple::I(crate::eval::int::dy(i.v.rem_euclid(1 << 32))),
        other => other,
    }
}

/// Functions that reshape a ComposedLayout keep its offset object (a `MixedBits` stays one);
/// the shared composed-layout code rebuilds the offset from its integer value, so put the
/// tensor's `MixedBits` back on a result with the same offset.
fn keep_mixed(p: &Partition, v: &mut Value) {
    if let (Some((_, off)), Value::Composed(c)) = (&p.swizzle, v) {
        if off.mixed.is_some() && c.mixed.is_none() && c.offset == off.offset {
            c.mixed = off.mixed;
        }
    }
}

/// `shape/rank/depth` of an atom object: CuTe treats it as a non-tuple value (shape returns
/// it, rank is 1, depth is 0).
pub(crate) fn f_atom_non_tuple(a: &Args, name: &str) -> R<Value> {
    if a.nargs() != 1 || !a.targs.is_empty() {
        return Err(a.refuse());
    }
    let x = atom_arg(a, 0)?;
    if !matches!(x, AtomValue::MmaAtom(_) | AtomValue::TiledMma(_) | AtomValue::CopyAtom(_) | AtomValue::TiledCopy(_)) {
        return Err(a.refuse());
    }
    Ok(match name {
        // CuTe's `shape` and `flatten` of a non-tuple are the object itself
        "shape" | "flatten" => atom(x.clone()),
        "rank" => Value::Tuple(IntTuple::I(crate::eval::int::st(1))),
        _ => Value::Tuple(IntTuple::I(crate::eval::int::st(0))),
    })
}

/// `P(coord)`: the element (iterator + layout(coord)) or, with `_`, the sliced tensor.
pub(crate) fn f_tensor_apply(a: &Args) -> R<Value> {
    let p = partition_arg(a)?;
    let coord = match &a.args[1..] {
        [] => return Err(EvalError::arity("a tensor is evaluated at a coordinate: P(i) or P(i,j)")),
        [one] => one.as_tuple()?.clone(),
        many => IntTuple::T(many.iter().map(|v| v.as_tuple().cloned()).collect::<R<_>>()?),
    };
    let sliced = coord.leaves().iter().any(|x| matches!(x, IntTuple::Under));
    if let Value::Composed(c) = partition_layout_value(p) {
        // Tensor::operator(): slice_and_offset of the ComposedLayout moves the iterator by the
        // returned offset; a full coordinate reads iterator + layout(coord)
        let comp = crate::eval::ops::swizzle::composed::slice_and_offset;
        return if sliced {
            let (mut v, off) = comp(&Value::Tuple(coord.clone()), &c)?;
            // the consumed modes add nothing to a MixedBits offset when their part of the
            // offset is statically zero: CuTe's offset object is unchanged
            let (_, plain_off) = oc::slice_and_offset(&coord, &p.layout)?;
            if matches!(plain_off, IntTuple::I(i) if i.is_const(0)) {
                keep_mixed(p, &mut v);
            }
            let offset = crate::eval::ops::tuple::arith_add(&p.offset, off.as_tuple()?)?;
            // (the slice's offset of a layout whose offset is a `MixedBits` or a `uint32_t` made
            // from one is unsigned: so is the iterator it moves)
            let unsigned = p.unsigned || c.unsigned_offset();
            tensor_of(wrap_unsigned(offset, unsigned), v, unsigned)
        } else {
            Ok(Value::Tuple(tensor_element(p, coord)?))
        };
    }
    if !sliced {
        return Ok(Value::Tuple(tensor_element(p, coord)?));
    }
    let (layout, offset) = oc::slice_and_offset(&coord, &p.layout)?;
    let offset = wrap_unsigned(crate::eval::ops::tuple::arith_add(&p.offset, &offset)?, p.unsigned);
    Ok(atom(AtomValue::Partition(Partition { offset, layout, swizzle: None, composed: None, unsigned: p.unsigned })))
}

/// `P(coord)` at a full coordinate (no `_`): the iterator plus the layout's value there, the
/// static-ness as CuTe's `Tensor::operator()` gives it.
pub fn tensor_element(p: &Partition, coord: IntTuple) -> R<IntTuple> {
    Ok(tensor_element_typed(p, coord)?.0)
}

/// [`tensor_element`], and whether CuTe's element is a `uint32_t` (a swizzled tensor whose
/// offset is a `MixedBits` or made from one: the sum is unsigned, which `print_tensor` writes
/// with `%d`).
pub fn tensor_element_typed(p: &Partition, coord: IntTuple) -> R<(IntTuple, bool)> {
    if p.swizzle.is_some() || p.composed.is_some() {
        if let Value::Composed(c) = partition_layout_value(p) {
            let unsigned = p.unsigned || c.unsigned_offset();
            let v = crate::eval::ops::swizzle::composed::eval_composed(&c, Value::Tuple(coord))?;
            let e = crate::eval::ops::tuple::arith_add(&p.offset, &IntTuple::I(v))?;
            return Ok((wrap_unsigned(e, unsigned), unsigned));
        }
    }
    let (_, off) = oc::slice_and_offset(&coord, &p.layout)?;
    let e = crate::eval::ops::tuple::arith_add(&p.offset, &off)?;
    Ok((wrap_unsigned(e, p.unsigned), p.unsigned))
}

/// `print_latex(MMA_Atom / TiledMMA / TiledCopy)`: CuTe's TikZ picture of the thread-value
/// layouts (other values go to the layout printer).
pub(crate) fn f_print_latex(a: &Args) -> R<Value> {
    if a.nargs() != 1 || !a.targs.is_empty() {
        return Err(a.refuse());
    }
    Ok(Value::Text(match atom_arg(a, 0)? {
        AtomValue::MmaAtom(m) => latex::print_latex_mma(&mma::make_tiled_mma(m.clone(), None, None)?)?,
        AtomValue::TiledMma(t) => latex::print_latex_mma(t)?,
        AtomValue::TiledCopy(c) => latex::print_latex_copy(c)?,
        other => {
            return Err(EvalError::type_err(format!(
                "print_latex draws a layout, an MMA atom, a TiledMMA or a TiledCopy, not `{}`",
                short(other)
            )))
        }
    }))
}

fn f_layout_tv(a: &Args, op: Operand) -> R<Value> {
    layout_tv_traced(a, op, None)
}

/// `get_layoutA/B/C_TV(T)`, its steps written to `steps` (`explain`).
fn layout_tv_traced(a: &Args, op: Operand, steps: Option<&mut Vec<String>>) -> R<Value> {
    Ok(Value::Layout(tiled_mma(a, 0)?.get_layout_tv_traced(op, steps)?))
}

/// Apply a layout function to a layout or to the layout of a swizzled layout (CuTe's divide,
/// compose and slice-by-`_` act on `layout_b` of a ComposedLayout).
fn on_layout_arg(a: &Args, i: usize, f: impl Fn(&Layout) -> R<Layout>) -> R<Value> {
    match a.arg(i)? {
        Value::Layout(l) => Ok(Value::Layout(f(l)?)),
        Value::Composed(c) => match (&c.outer, &c.inner) {
            (Func::Swizzle(_) | Func::Layout(_), Func::Layout(l)) => Ok(Value::Composed(Box::new(Composed {
                outer: c.outer.clone(),
                offset: c.offset,
                inner: Func::Layout(f(l)?),
                mixed: c.mixed,
            }))),
            _ => Err(EvalError::type_err("expected a layout or a composed layout A o offset o L").at_arg(i)),
        },
        v => Err(EvalError::type_err(format!("expected a layout, got {} `{v}`", v.kind())).at_arg(i)),
    }
}

fn f_thrfrg(a: &Args, op: Operand) -> R<Value> {
    let t = tiled_mma(a, 0)?;
    on_layout_arg(a, 1, |l| t.thrfrg(op, l))
}

fn f_vmnk(a: &Args) -> R<Value> {
    Ok(Value::Layout(tiled_mma(a, 0)?.thr_layout_vmnk.clone()))
}

fn f_partition_mma(a: &Args, op: Operand) -> R<Value> {
    partition_mma(a, op, None)
}

/// `partition_A/B/C(T, thr, L)`, its steps written to `steps` (`explain`).
fn partition_mma(a: &Args, op: Operand, steps: Option<&mut Vec<String>>) -> R<Value> {
    let t = match atom_arg(a, 0)? {
        AtomValue::TiledMma(t) => t,
        _ => return Err(a.refuse()),
    };
    let thr = thr_arg(a, 1)?;
    let src = source_arg(a, 2)?;
    Ok(atom(AtomValue::Partition(t.partition_traced(op, thr, &src, steps)?)))
}

// ------------------------------------------------------------------------------------------
// Copy built-ins
// ------------------------------------------------------------------------------------------

fn f_copy_layout(a: &Args, which: char) -> R<Value> {
    let c = copy_op(a, 0)?;
    Ok(Value::Layout(match which {
        'S' => c.src,
        'D' => c.dst,
        'R' => c.r#ref,
        _ => c.thr_id,
    }))
}

fn f_copy_atom(a: &Args) -> R<Value> {
    let op = copy_op(a, 0)?;
    let ty = match a.arg(1)? {
        Value::Tag(t) => t.clone(),
        v => {
            return Err(EvalError::type_err(format!(
                "expected a value type (half_t, float, uint128_t, ...), got {} `{v}`",
                v.kind()
            ))
            .at_arg(1))
        }
    };
    let bits = types::value_type_bits(&ty).ok_or_else(|| {
        EvalError::type_err(format!("expected a value type (half_t, float, uint128_t, ...), got `{ty}`")).at_arg(1)
    })?;
    Ok(atom(AtomValue::CopyAtom(Box::new(copy::make_copy_atom(op, &ty, bits)?))))
}

fn f_val_layout(a: &Args, which: char) -> R<Value> {
    let c = copy_atom_arg(a, 0)?;
    Ok(Value::Layout(match which {
        'S' => c.src,
        'D' => c.dst,
        _ => c.r#ref,
    }))
}

fn tiled_copy_value(c: TiledCopy) -> Value {
    atom(AtomValue::TiledCopy(Box::new(c)))
}

fn f_make_tiled_copy(a: &Args) -> R<Value> {
    make_tiled_copy_traced(a, None)
}

/// `make_tiled_copy(A, thr_layout [, val_layout])`, its steps written to `steps` (`explain`).
fn make_tiled_copy_traced(a: &Args, steps: Option<&mut Vec<String>>) -> R<Value> {
    let at = copy_atom_arg(a, 0)?;
    if a.nargs() < 2 {
        return Err(EvalError::arity(
            "make_tiled_copy needs a thread layout: make_tiled_copy(A, thr_layout [, val_layout])",
        ));
    }
    let thr = layout_arg(a, 1)?;
    let val = if a.nargs() > 2 { Some(layout_arg(a, 2)?) } else { None };
    Ok(tiled_copy_value(copy::make_tiled_copy(at, &thr, val.as_ref(), steps)?))
}

fn f_make_tiled_copy_mma(a: &Args, op: Operand) -> R<Value> {
    let at = copy_atom_arg(a, 0)?;
    let t = tiled_mma(a, 1)?;
    Ok(tiled_copy_value(copy::make_tiled_copy_mma(at, t, op)?))
}

fn f_make_tiled_copy_c_atom(a: &Args) -> R<Value> {
    let at = copy_atom_arg(a, 0)?;
    let t = tiled_mma(a, 1)?;
    Ok(tiled_copy_value(copy::make_tiled_copy_c_atom(at, t)?))
}

fn f_make_tiled_copy_sd(a: &Args, side: Side) -> R<Value> {
    let at = copy_atom_arg(a, 0)?;
    let c = tiled_copy(a, 1)?;
    let tv = c.get_layout_tv(side)?;
    Ok(tiled_copy_value(copy::make_tiled_copy_impl(at, tv, c.tiler.clone())?))
}

/// `make_tiled_copy_impl(atom, layout_tv, tiler)`: the TiledCopy of exactly these type
/// parameters (what `cpp` writes and `cute --decode` reads a `TiledCopy<...>` type as).
fn f_make_tiled_copy_impl(a: &Args) -> R<Value> {
    let at = copy_atom_arg(a, 0)?;
    let tiler = tiler_of(a.arg(2)?).map_err(|e| e.at_arg(2))?;
    Ok(tiled_copy_value(copy::make_tiled_copy_impl(at, layout_arg(a, 1)?, tiler)?))
}

fn f_make_cotiled_copy(a: &Args) -> R<Value> {
    let at = copy_atom_arg(a, 0)?;
    Ok(tiled_copy_value(copy::make_cotiled_copy(at, &layout_arg(a, 1)?, &layout_arg(a, 2)?)?))
}

fn f_tiler_mn(a: &Args) -> R<Value> {
    Ok(tiled_copy(a, 0)?.tiler.to_value())
}

fn f_tiled_layout_tv(a: &Args) -> R<Value> {
    Ok(Value::Layout(tiled_copy(a, 0)?.layout_tv.clone()))
}

fn f_copy_layout_tv(a: &Args, side: Side) -> R<Value> {
    copy_layout_tv(a, side, None)
}

/// `get_layoutS/D_TV(C)`, its steps written to `steps` (`explain`).
fn copy_layout_tv(a: &Args, side: Side, steps: Option<&mut Vec<String>>) -> R<Value> {
    Ok(Value::Layout(tiled_copy(a, 0)?.get_layout_tv_traced(side, steps)?))
}

fn f_tidfrg(a: &Args, side: Side) -> R<Value> {
    let c = tiled_copy(a, 0)?;
    on_layout_arg(a, 1, |l| c.tidfrg(side, l))
}

fn f_partition_copy(a: &Args, side: Side) -> R<Value> {
    partition_copy(a, side, None)
}

/// `partition_S/D(C, thr, L)`, its steps written to `steps` (`explain`).
fn partition_copy(a: &Args, side: Side, steps: Option<&mut Vec<String>>) -> R<Value> {
    let c = tiled_copy(a, 0)?;
    let thr = thr_arg(a, 1)?;
    let src = source_arg(a, 2)?;
    Ok(atom(AtomValue::Partition(c.partition_traced(side, thr, &src, steps)?)))
}

fn f_retile(a: &Args) -> R<Value> {
    let c = tiled_copy(a, 0)?;
    thr_arg(a, 1)?;
    let src = source_arg(a, 2)?;
    Ok(atom(AtomValue::Partition(src.relayout(|l| c.retile_unsliced(l))?)))
}

// ------------------------------------------------------------------------------------------
// Counting tensors and their iterators (`tensor_impl.hpp`, `arithmetic_tuple.hpp`)
// ------------------------------------------------------------------------------------------

/// An iterator's coordinate: an integer or a tuple of them (what `ArithTuple` prints).
pub(crate) fn as_iter_coord(v: &Value) -> Option<&IntTuple> {
    fn ok(t: &IntTuple) -> bool {
        match t.view() {
            V::I(_) => true,
            V::T(v) => v.iter().all(ok),
            _ => false,
        }
    }
    match v {
        Value::Tuple(t) if ok(t) => Some(t),
        _ => None,
    }
}

fn iter_coord(a: &Args, i: usize) -> R<IntTuple> {
    let v = a.arg(i)?;
    as_iter_coord(v).cloned().ok_or_else(|| {
        EvalError::type_err(format!(
            "an ArithmeticTupleIterator's coordinate is an integer or a tuple of integers, got {} `{v}`",
            v.kind()
        ))
        .at_arg(i)
    })
}

/// A shape argument (an integer or a tuple of them).
fn shape_arg(a: &Args, i: usize, usage: &str) -> R<IntTuple> {
    iter_coord(a, i).map_err(|_| {
        let v = a.args.get(i).map(|v| format!("{} `{v}`", v.kind())).unwrap_or_default();
        EvalError::type_err(format!("{usage}: the shape is an integer or a tuple of integers, got {v}")).at_arg(i)
    })
}

/// `make_identity_tensor(shape)`: `make_coord_tensor(make_identity_layout(shape))`, the
/// tensor whose element at each coordinate is the coordinate.
fn f_make_identity_tensor(a: &Args) -> R<Value> {
    let shape = shape_arg(a, 0, "make_identity_tensor(shape)")?;
    coord_tensor(crate::eval::ops::structure::make_identity_layout(&shape))
}

/// `make_coord_tensor(L)`: the counting tensor of a layout, its iterator at `coprofile(L)`.
fn f_make_coord_tensor(a: &Args) -> R<Value> {
    coord_tensor(layout_arg(a, 0)?)
}

fn coord_tensor(layout: Layout) -> R<Value> {
    let offset = crate::eval::ops::structure::coprofile(&layout)?;
    Ok(atom(AtomValue::Partition(Partition { offset, layout, swizzle: None, composed: None, unsigned: false })))
}

/// `inner_partition(T, tiler, coord)` and `outer_partition(T, tiler, coord)` (CuTe's
/// `tensor_impl.hpp`): `zipped_divide(T, tiler)`, then one mode kept whole (a `_` for each of
/// its modes: `repeat<R>(_)`) and the other sliced at `coord`: the rest mode for `inner` (the
/// tile at `coord`), the tile mode for `outer` (the element `coord` of every tile). A tuple
/// `coord` is first padded with `_` to that mode's rank (`append<R>(coord, _)`); an integer
/// indexes it flat. `steps`, when given, receives the intermediate values (for `explain`).
fn tensor_partition(a: &Args, inner: bool, steps: Option<&mut Vec<String>>) -> R<Value> {
    use crate::eval::builtins::call;
    let (t, tiler, coord) = (a.arg(0)?, a.arg(1)?, a.arg(2)?);
    partition_arg(a)?;
    let z = call("zipped_divide", &[], &[t.clone(), tiler.clone()])?;
    let Value::Atom(x) = &z else { return Err(a.refuse()) };
    let AtomValue::Partition(p) = &**x else { return Err(a.refuse()) };
    let ranks = match p.layout.shape.view() {
        V::T(m) if m.len() == 2 => (m[0].rank(), m[1].rank()),
        _ => return Err(EvalError::type_err("zipped_divide of a tensor has two modes").at_arg(0)),
    };
    // (`repeat<R>(_)`: a lone `_` for R = 1, as in CuTe)
    let whole = |n: usize| Value::Tuple(tensor::repeat_under(n));
    let at = |n: usize| -> R<Value> {
        match coord {
            Value::Tuple(c) if c.is_tuple() => {
                call("append", &[TArg::Int(n as i64)], &[coord.clone(), Value::Tuple(IntTuple::Under)])
                    .map_err(|e| e.at_arg(2))
            }
            _ => Ok(coord.clone()),
        }
    };
    let (first, second) = if inner { (whole(ranks.0), at(ranks.1)?) } else { (at(ranks.0)?, whole(ranks.1)) };
    if let Some(s) = steps {
        let (kept, sliced, all, at) =
            if inner { ("tile", "rest", &first, &second) } else { ("rest", "tile", &second, &first) };
        s.push(format!("  zipped_divide(T, {tiler}) = {z}  (tile modes, rest modes)"));
        s.push(format!("  keep the {kept} modes ({all}), slice the {sliced} modes at {at}:"));
        s.push(format!("  Z({first}, {second})"));
    }
    // (a coordinate the rest or the tile cannot take is the caller's `coord`)
    call("__apply", &[], &[z, first, second]).map_err(|e| e.at_arg(2))
}

/// `local_tile(T, tiler, coord)`: the tile of `T` at `coord` (`inner_partition`); with a
/// projection `proj` (CuTe's `Step<_1,X,_1>`, written `(_1,_,_1)`: `X` is CuTe's `_`), the
/// tiler's and the coordinate's modes where `proj` is `_` are dropped first (`dice`).
fn f_local_tile(a: &Args) -> R<Value> {
    local_tile(a, None)
}

fn local_tile(a: &Args, mut steps: Option<&mut Vec<String>>) -> R<Value> {
    match a.args {
        [t, tiler, coord, proj] => {
            let tiler = dice(proj, tiler, 1)?;
            let coord = dice(proj, coord, 2)?;
            if let Some(s) = steps.as_deref_mut() {
                s.push(format!(
                    "  dice({proj}, tiler) = {tiler}; dice({proj}, coord) = {coord}  (modes where proj is _ dropped)"
                ));
            }
            tensor_partition(&a.with_args(&[t, &tiler, &coord]), true, steps)
        }
        _ => tensor_partition(a, true, steps),
    }
}

/// `dice(proj, v)` for the projection argument of `local_tile`/`local_partition` (`v` their
/// argument `k`).
fn dice(proj: &Value, v: &Value, k: usize) -> R<Value> {
    crate::eval::builtins::call("dice", &[], &[proj.clone(), v.clone()]).map_err(|e| e.at_arg(k))
}

/// `local_partition(T, L, i [, proj])`: thread `i`'s elements of `T` when the threads are laid
/// out by `L` over each tile: `outer_partition(T, product_each(shape(L)), L.get_flat_coord(i))`
/// (`L` diced by `proj` first, as for `local_tile`).
fn f_local_partition(a: &Args) -> R<Value> {
    local_partition(a, None)
}

fn local_partition(a: &Args, mut steps: Option<&mut Vec<String>>) -> R<Value> {
    use crate::eval::builtins::call;
    let (t, l, i) = (a.arg(0)?, a.arg(1)?, a.arg(2)?);
    // (with a projection: the thread layout's modes where it is `_` dropped first)
    let diced;
    let l = match a.args.get(3) {
        Some(proj) => {
            diced = dice(proj, l, 1)?;
            if let Some(s) = steps.as_deref_mut() {
                s.push(format!("  dice({proj}, L) = {diced}  (modes where proj is _ dropped)"));
            }
            &diced
        }
        None => l,
    };
    partition_arg(a)?;
    let Value::Layout(tile) = l else {
        return Err(
            EvalError::type_err(format!("local_partition needs a layout of threads, got {} `{l}`", l.kind())).at_arg(1)
        );
    };
    let Value::Tuple(IntTuple::I(_)) = i else {
        return Err(EvalError::type_err(format!(
            "local_partition needs an integer thread index, got {} `{i}`",
            i.kind()
        ))
        .at_arg(2));
    };
    let tiler = call("product_each", &[], &[Value::Tuple(tile.shape.clone())]).map_err(|e| e.at_arg(1))?;
    let coord = call("get_flat_coord", &[], &[l.clone(), i.clone()]).map_err(|e| e.at_arg(2))?;
    if let Some(s) = steps.as_deref_mut() {
        s.push(format!(
            "  tiler = product_each(shape(L)) = {tiler}; thread {i} sits at L.get_flat_coord({i}) = {coord}"
        ));
    }
    tensor_partition(&a.with_args(&[t, &tiler, &coord]), false, steps)
}

/// `inner_partition(T, tiler, coord)`.
fn f_inner_partition(a: &Args) -> R<Value> {
    tensor_partition(a, true, None)
}

/// `outer_partition(T, tiler, coord)`.
fn f_outer_partition(a: &Args) -> R<Value> {
    tensor_partition(a, false, None)
}

/// `explain partition_A/B/C`'s definition line.
const PARTITION_MMA: &str = "partition_X(T, thr, L): thread thr's elements of a tensor laid out by L: thrfrg_X(T, L) splits the tile into (thread, value) modes, and the thread's coordinate slices the thread modes";

/// `explain get_layoutX_TV`'s definition line.
const LAYOUT_TV: &str = "get_layoutX_TV(T): (thread index, value) -> index in the TiledMMA's tile of X: thrfrg_X of the tile's index layout, its thread mode taken from thread indices (thridx_2_thrid)";

/// `explain get_layoutS/D_TV`'s definition line.
const COPY_LAYOUT_TV: &str = "get_layoutX_TV(C): (thread index, value) -> index in the TiledCopy's tile, for its source (S) or destination (D): tile2thrfrg of the tile's index layout, sliced at the rest's first element";

/// `explain partition_S/D`'s definition line.
const PARTITION_COPY: &str = "partition_X(C, thr, L): thread thr's elements of a tensor laid out by L for the TiledCopy C: tidfrg_X(C, L) splits the tile into (thread, value) modes, and the thread index slices the thread mode";

/// `explain` of the tensor partitions: the steps their functions take, recorded as they take
/// them (`None` for other functions).
pub fn explain(name: &str, args: &[Value]) -> Option<R<Vec<String>>> {
    type Traced = fn(&Args, Option<&mut Vec<String>>) -> R<Value>;
    let (definition, f): (&str, Traced) = match (name, args.len()) {
        ("local_tile", 3 | 4) => (
            "local_tile(T, tiler, coord) = inner_partition: zipped_divide(T, tiler), keep the tile, slice the rest at coord",
            local_tile,
        ),
        ("inner_partition", 3) => (
            "inner_partition(T, tiler, coord): zipped_divide(T, tiler), keep the tile, slice the rest at coord",
            |a, s| tensor_partition(a, true, s),
        ),
        ("local_partition", 3 | 4) => (
            "local_partition(T, L, i) = outer_partition(T, product_each(shape(L)), L.get_flat_coord(i)): zipped_divide, slice every tile at the thread's place, keep the rest",
            local_partition,
        ),
        ("outer_partition", 3) => (
            "outer_partition(T, tiler, coord): zipped_divide(T, tiler), slice every tile at coord, keep the rest",
            |a, s| tensor_partition(a, false, s),
        ),
        ("partition_A", 3) => (PARTITION_MMA, |a, s| partition_mma(a, Operand::A, s)),
        ("partition_B", 3) => (PARTITION_MMA, |a, s| partition_mma(a, Operand::B, s)),
        ("partition_C", 3) => (PARTITION_MMA, |a, s| partition_mma(a, Operand::C, s)),
        ("make_tiled_mma", 1..=3) => (
            "make_tiled_mma(OP, atom_layout [, permutation]): copies of the MMA atom laid out by atom_layout over (M,N,K), each with its own threads; a permutation reorders the tile's rows, columns or k",
            make_tiled_mma_traced,
        ),
        ("make_tiled_copy", 2 | 3) => (
            "make_tiled_copy(A, thr_layout [, val_layout]): each thread of thr_layout copies a val_layout block; the (M,N) tile they cover is their raked product, and its inverse is the (thread, value) layout",
            make_tiled_copy_traced,
        ),
        ("get_layoutA_TV", 1) => (LAYOUT_TV, |a, s| layout_tv_traced(a, Operand::A, s)),
        ("get_layoutB_TV", 1) => (LAYOUT_TV, |a, s| layout_tv_traced(a, Operand::B, s)),
        ("get_layoutC_TV", 1) => (LAYOUT_TV, |a, s| layout_tv_traced(a, Operand::C, s)),
        ("get_layoutS_TV", 1) => (COPY_LAYOUT_TV, |a, s| copy_layout_tv(a, Side::S, s)),
        ("get_layoutD_TV", 1) => (COPY_LAYOUT_TV, |a, s| copy_layout_tv(a, Side::D, s)),
        ("partition_S", 3) => (PARTITION_COPY, |a, s| partition_copy(a, Side::S, s)),
        ("partition_D", 3) => (PARTITION_COPY, |a, s| partition_copy(a, Side::D, s)),
        _ => return None,
    };
    let refs: Vec<&Value> = args.iter().collect();
    let mut steps = vec![format!("  {definition}")];
    Some(f(&Args { name, sig: "", targs: &[], args: &refs }, Some(&mut steps)).map(|_| steps))
}

/// `make_inttuple_iter(c)`: an ArithmeticTupleIterator at the coordinate `c`.
fn f_make_inttuple_iter(a: &Args) -> R<Value> {
    Ok(atom(AtomValue::Iter(iter_coord(a, 0)?)))
}

/// `make_tensor(iter, L)`: a counting tensor of an ArithmeticTupleIterator laid out by a
/// layout, a swizzled or composed layout, or a shape (its compact layout). What CuTe prints
/// `iter o L`.
fn f_make_tensor(a: &Args) -> R<Value> {
    let offset = match atom_arg(a, 0) {
        Ok(AtomValue::Iter(c)) => c.clone(),
        _ => {
            let v = &a.args[0];
            return Err(EvalError::type_err(format!(
                "make_tensor(iter, L) takes an ArithmeticTupleIterator (ArithTuple(...), make_inttuple_iter(c)), got {} `{v}`",
                v.kind()
            ))
            .at_arg(0));
        }
    };
    let layout = match a.args[1] {
        Value::Tuple(_) => {
            Value::Layout(crate::eval::ops::structure::make_layout(&shape_arg(a, 1, "make_tensor(iter, shape)")?)?)
        }
        v @ (Value::Layout(_) | Value::Composed(_)) => v.clone(),
        v => {
            return Err(EvalError::type_err(format!(
                "make_tensor(iter, L) lays the iterator out by a layout, got {} `{v}`",
                v.kind()
            ))
            .at_arg(1))
        }
    };
    tensor_of(offset, layout, false).map_err(|e| e.at_arg(1))
}

/// Run an atoms built-in without the law warnings of the algebra it calls internally: the
/// compositions inside thrfrg/tidfrg/... are CuTe's own construction, not the user's (warnings
/// recorded before the call are kept).
pub(crate) fn quiet(f: impl FnOnce() -> R<Value>) -> R<Value> {
    let before = crate::eval::error::take_warnings();
    let r = f();
    let _ = crate::eval::error::take_warnings();
    for w in before {
        crate::eval::error::warn(w);
    }
    r
}

/// What CuTe prints for the `print_latex` example (from the oracle).
const PRINT_LATEX_COPY_EXAMPLE: &str = "% Layout S TV: ArithTuple(_0,_0) o (_2,(_2,_1)):(_1@0,(_1@1,_0))\n% Layout D TV: ArithTuple(_0,_0) o (_2,(_2,_1)):(_1@0,(_1@1,_0))\n\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n\\node[fill={rgb,255:red,175;green,175;blue,255}] at (0,0) {\\shortstack{T0 \\\\ V0}};\n\\node[fill={rgb,255:red,175;green,175;blue,255}] at (0,1) {\\shortstack{T0 \\\\ V1}};\n\\node[fill={rgb,255:red,175;green,255;blue,175}] at (1,0) {\\shortstack{T1 \\\\ V0}};\n\\node[fill={rgb,255:red,175;green,255;blue,175}] at (1,1) {\\shortstack{T1 \\\\ V1}};\n\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,2);\n\n\\node at (0,-1) {\\Large{\\texttt{0}}};\n\\node at (1,-1) {\\Large{\\texttt{1}}};\n\\node at (-1,0) {\\Large{\\texttt{0}}};\n\\node at (-1,1) {\\Large{\\texttt{1}}};\n\\node[fill={rgb,255:red,175;green,175;blue,255}] at (0,5) {\\shortstack{T0 \\\\ V0}};\n\\node[fill={rgb,255:red,175;green,175;blue,255}] at (0,6) {\\shortstack{T0 \\\\ V1}};\n\\node[fill={rgb,255:red,175;green,255;blue,175}] at (1,5) {\\shortstack{T1 \\\\ V0}};\n\\node[fill={rgb,255:red,175;green,255;blue,175}] at (1,6) {\\shortstack{T1 \\\\ V1}};\n\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,5) grid (2,7);\n\n\\node at (0,7) {\\Large{\\texttt{0}}};\n\\node at (1,7) {\\Large{\\texttt{1}}};\n\\node at (-1,5) {\\Large{\\texttt{0}}};\n\\node at (-1,6) {\\Large{\\texttt{1}}};\n\\end{tikzpicture}\n\\end{document}";

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[
    b!(quiet; "mma_layout_A", "mma_layout_A(OP)", "the MMA traits' ALayout: (thread, value) -> (m,k) index",
       "mma_layout_A(SM80_16x8x16_F16F16F16F16_TN)", "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))", |a| f_mma_layout(a, 'A'); Arity::Usage(1, 1, "mma_layout_A(OP)")),
    b!(quiet; "mma_layout_B", "mma_layout_B(OP)", "the MMA traits' BLayout: (thread, value) -> (n,k) index",
       "mma_layout_B(SM80_16x8x16_F16F16F16F16_TN)", "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))", |a| f_mma_layout(a, 'B'); Arity::Usage(1, 1, "mma_layout_B(OP)")),
    b!(quiet; "mma_layout_C", "mma_layout_C(OP)", "the MMA traits' CLayout: (thread, value) -> (m,n) index",
       "mma_layout_C(SM80_16x8x16_F16F16F16F16_TN)", "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))", |a| f_mma_layout(a, 'C'); Arity::Usage(1, 1, "mma_layout_C(OP)")),
    b!(quiet; "mma_thr_id", "mma_thr_id(OP)", "the MMA traits' ThrID layout",
       "mma_thr_id(SM90_64x64x16_F16F16F16_SS<K,K>)", "_128:_1", |a| f_mma_layout(a, 'T'); Arity::Usage(1, 1, "mma_thr_id(OP)")),
    b!(quiet; "mma_shape_mnk", "mma_shape_mnk(OP)", "the MMA traits' Shape_MNK",
       "mma_shape_mnk(SM80_16x8x16_F16F16F16F16_TN)", "(_16,_8,_16)", |a| f_mma_layout(a, 'S'); Arity::Usage(1, 1, "mma_shape_mnk(OP)")),
    b!(quiet; "mma_atom", "mma_atom(OP)", "MMA_Atom<OP> (prints ThrID, Shape_MNK, LayoutA/B/C_TV)",
       "mma_atom(SM70_8x8x4_F16F16F16F16_TN)",
       "MMA_Atom\n  ThrID:      (_4,_2):(_1,_16)\n  Shape_MNK:  (_8,_8,_4)\n  LayoutA_TV: (_8,_4):(_1,_8)\n  LayoutB_TV: (_8,_4):(_1,_8)\n  LayoutC_TV: (_8,_8):(_1,_8)",
       f_mma_atom; Arity::Usage(1, 1, "mma_atom(OP)")),
    b!(quiet; "make_tiled_mma", "make_tiled_mma(OP, atom_layout [, permutation])", "a TiledMMA: atoms laid out by atom_layout (a layout), tile permuted by <M,N,K>",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1)), (_32,_32,_16)); T",
       "TiledMMA\n  ThrLayoutVMNK:  (_32,_2,_2,_1):(_1,_32,_64,_0)\n  PermutationMNK: (_32,_32,_16)\nMMA_Atom\n  ThrID:      _32:_1\n  Shape_MNK:  (_16,_8,_16)\n  LayoutA_TV: ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))\n  LayoutB_TV: ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))\n  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))",
       f_make_tiled_mma; Arity::Usage(1, 3, "make_tiled_mma(OP [, atom_layout [, permutation]])")),
    b!(quiet; "tile_shape", "tile_shape(T)", "the (M,N,K) tile a TiledMMA computes",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); tile_shape(T)", "(_32,_16,_16)", f_tile_shape; Arity::Usage(1, 1, "tile_shape(T)")),
    b!(quiet; "tile_size", "tile_size<I>(T) / tile_size(C) / tile_size<I>(C)", "size of mode I of a TiledMMA's tile; size of a TiledCopy's tile (or of its mode I)",
       "G = make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))); tile_size(G)", "_1024", f_tile_size; Arity::Usage(1, 1, "tile_size<I>(T) or tile_size(C)")),
    b!(quiet; "get_layoutA_TV", "get_layoutA_TV(T)", "(thread index, value) -> (m,k) index in the TiledMMA's A tile",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); get_layoutA_TV(T)",
       "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))", |a| f_layout_tv(a, Operand::A); Arity::Usage(1, 1, "get_layoutA_TV(T)")),
    b!(quiet; "get_layoutB_TV", "get_layoutB_TV(T)", "(thread index, value) -> (n,k) index in the TiledMMA's B tile",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); get_layoutB_TV(T)",
       "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_32,_1,_0,_8),((_16,_128),(_0,_0)))", |a| f_layout_tv(a, Operand::B); Arity::Usage(1, 1, "get_layoutB_TV(T)")),
    b!(quiet; "get_layoutC_TV", "get_layoutC_TV(T)", "(thread index, value) -> (m,n) index in the TiledMMA's C tile",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); get_layoutC_TV(T)",
       "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))", |a| f_layout_tv(a, Operand::C); Arity::Usage(1, 1, "get_layoutC_TV(T)")),
    b!(quiet; "thrfrg_A", "thrfrg_A(T, L)", "L (M,K) tiled to ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK)))",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); thrfrg_A(T, make_layout((_64,_32)))",
       "(((_4,_8),(_2,_1)),((_2,_2,_2),(_2,_2))):(((_128,_1),(_16,_0)),((_64,_8,_512),(_32,_1024)))", |a| f_thrfrg(a, Operand::A); Arity::Usage(2, 2, "thrfrg_A(T, L)")),
    b!(quiet; "thrfrg_B", "thrfrg_B(T, L)", "L (N,K) tiled to ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK)))",
       "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1)), <_32,(_8,_2,_2):(_1,_16,_8),_16>); thrfrg_B(T, make_layout((_64,_32)))",
       "(((_4,_8),(_2,_1)),((_2,_2),((_2,_2),_2))):(((_128,_1),(_16,_0)),((_64,_512),((_8,_32),_1024)))", |a| f_thrfrg(a, Operand::B); Arity::Usage(2, 2, "thrfrg_B(T, L)")),
    b!(quiet; "thrfrg_C", "thrfrg_C(T, L)", "L (M,N) tiled to ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))",
       "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1)), <_32,(_8,_2,_2):(_1,_16,_8),_16>); thrfrg_C(T, make_layout((_64,_64)))",
       "(((_4,_8),(_2,_2)),((_2,_2),(_2,(_2,_2)))):(((_128,_1),(_16,_1024)),((_64,_8),(_32,(_512,_2048))))", |a| f_thrfrg(a, Operand::C); Arity::Usage(2, 2, "thrfrg_C(T, L)")),
    b!(quiet; "get_thr_layout_vmnk", "get_thr_layout_vmnk(T)", "(ThrV,ThrM,ThrN,ThrK) -> thread index",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1), LayoutRight)); get_thr_layout_vmnk(T)",
       "(_32,_2,_2,_1):(_1,_64,_32,_0)", f_vmnk; Arity::Usage(1, 1, "get_thr_layout_vmnk(T)")),
    b!(quiet; "partition_A", "partition_A(T, thr, L)", "thread thr's partition of a counting tensor laid out by L (M,K)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); partition_A(T, 0, make_layout((_64,_32)))",
       "ArithTuple0 o ((_2,_2,_2),_2,_2):((_64,_8,_512),_32,_1024)", |a| f_partition_mma(a, Operand::A); Arity::Usage(3, 3, "partition_A(T, thr, L)")),
    b!(quiet; "partition_B", "partition_B(T, thr, L)", "thread thr's partition of a counting tensor laid out by L (N,K)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); partition_B(T, 5, (_32,_32):(_32,_1))",
       "ArithTuple34 o ((_2,_2),_2,_2):((_1,_8),_512,_16)", |a| f_partition_mma(a, Operand::B); Arity::Usage(3, 3, "partition_B(T, thr, L)")),
    b!(quiet; "partition_C", "partition_C(T, thr, L)", "thread thr's partition of a counting tensor laid out by L (M,N)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); partition_C(T, 37, make_layout((_64,_32)))",
       "ArithTuple145 o ((_2,_2),_2,_2):((_64,_8),_32,_1024)", |a| f_partition_mma(a, Operand::C); Arity::Usage(3, 3, "partition_C(T, thr, L)")),
    b!(quiet; "copy_thr_id", "copy_thr_id(OP)", "the copy traits' ThrID layout",
       "copy_thr_id(SM75_U32x1_LDSM_N)", "_32:_1", |a| f_copy_layout(a, 'T'); Arity::Usage(1, 1, "copy_thr_id(OP)")),
    b!(quiet; "copy_layout_src", "copy_layout_src(OP)", "the copy traits' SrcLayout: (thread, value) -> bit",
       "copy_layout_src(SM75_U32x4_LDSM_N)", "(_32,_128):(_128,_1)", |a| f_copy_layout(a, 'S'); Arity::Usage(1, 1, "copy_layout_src(OP)")),
    b!(quiet; "copy_layout_dst", "copy_layout_dst(OP)", "the copy traits' DstLayout: (thread, value) -> bit",
       "copy_layout_dst(SM75_U32x4_LDSM_N)", "(_32,(_32,_4)):(_32,(_1,_1024))", |a| f_copy_layout(a, 'D'); Arity::Usage(1, 1, "copy_layout_dst(OP)")),
    b!(quiet; "copy_layout_ref", "copy_layout_ref(OP)", "the copy traits' RefLayout: (thread, value) -> bit",
       "copy_layout_ref(SM90_U32x4_STSM_N)", "(_32,(_32,_4)):(_32,(_1,_1024))", |a| f_copy_layout(a, 'R'); Arity::Usage(1, 1, "copy_layout_ref(OP)")),
    b!(quiet; "copy_atom", "copy_atom(OP, T)", "Copy_Atom<OP, T>: the copy's layouts in units of the value type T",
       "copy_atom(SM75_U32x4_LDSM_N, half_t)",
       "Copy_Atom\n  ThrID:        _32:_1\n  ValLayoutSrc: (_32,_8):(_8,_1)\n  ValLayoutDst: (_32,(_2,_4)):(_2,(_1,_64))\n  ValLayoutRef: (_32,(_2,_4)):(_2,(_1,_64))\n  ValueType:    16b",
       f_copy_atom; Arity::Usage(2, 2, "copy_atom(OP, T)")),
    b!(quiet; "val_layout_src", "val_layout_src(A)", "a copy atom's ValLayoutSrc (thread, value) -> value index",
       "val_layout_src(copy_atom(SM75_U16x4_LDSM_T, half_t))", "((_16,_2),_8):((_8,_0),_1)", |a| f_val_layout(a, 'S'); Arity::Usage(1, 1, "val_layout_src(A)")),
    b!(quiet; "val_layout_dst", "val_layout_dst(A)", "a copy atom's ValLayoutDst",
       "val_layout_dst(copy_atom(SM75_U32x4_LDSM_N, half_t))", "(_32,(_2,_4)):(_2,(_1,_64))", |a| f_val_layout(a, 'D'); Arity::Usage(1, 1, "val_layout_dst(A)")),
    b!(quiet; "val_layout_ref", "val_layout_ref(A)", "a copy atom's ValLayoutRef",
       "val_layout_ref(copy_atom(SM90_U32x4_STSM_N, half_t))", "(_32,(_2,_4)):(_2,(_1,_64))", |a| f_val_layout(a, 'R'); Arity::Usage(1, 1, "val_layout_ref(A)")),
    b!(quiet; "make_tiled_copy", "make_tiled_copy(A, thr_layout [, val_layout])", "a TiledCopy: threads laid out by thr_layout, each copying val_layout",
       "G = make_tiled_copy(copy_atom(UniversalCopy<uint128_t>, half_t), (_16,_8):(_1,_16), make_layout((_8,_1))); G",
       "TiledCopy\n  Tiler_MN:       (_128,_8)\n  TiledLayout_TV: (_128,_8):(_8,_1)\nCopy_Atom\n  ThrID:        _1:_0\n  ValLayoutSrc: (_1,_8):(_0,_1)\n  ValLayoutDst: (_1,_8):(_0,_1)\n  ValLayoutRef: (_1,_8):(_0,_1)\n  ValueType:    16b",
       f_make_tiled_copy; Arity::Usage(1, 3, "make_tiled_copy(A, thr_layout [, val_layout])")),
    b!(quiet; "make_tiled_copy_A", "make_tiled_copy_A(A, TM)", "a TiledCopy with the TiledMMA's A thread-value layout",
       "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1))); L = make_tiled_copy_A(copy_atom(SM75_U32x4_LDSM_N, half_t), T); get_layoutS_TV(L)",
       "((_16,_2,_2,_2),(_8,_1)):((_1,_256,_16,_0),(_32,_0))", |a| f_make_tiled_copy_mma(a, Operand::A); Arity::Usage(2, 2, "make_tiled_copy_A(A, TM)")),
    b!(quiet; "make_tiled_copy_B", "make_tiled_copy_B(A, TM)", "a TiledCopy with the TiledMMA's B thread-value layout",
       "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1)), <_32,(_8,_2,_2):(_1,_16,_8),_16>); L = make_tiled_copy_B(copy_atom(SM75_U32x4_LDSM_N, half_t), T); partition_S(L, 37, (_32,_32):(_32,_1))",
       "ArithTuple160 o ((_8,_1),_1,_2):((_1,_0),_0,_16)", |a| f_make_tiled_copy_mma(a, Operand::B); Arity::Usage(2, 2, "make_tiled_copy_B(A, TM)")),
    b!(quiet; "make_tiled_copy_C", "make_tiled_copy_C(A, TM)", "a TiledCopy with the TiledMMA's C thread-value layout",
       "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1)), (_32,_32,_16)); S = make_tiled_copy_C(copy_atom(SM90_U32x4_STSM_N, half_t), T); partition_D(S, 37, (_32,_32):(_32,_1))",
       "ArithTuple672 o ((_8,_1),_1,_1):((_1,_0),_0,_0)", |a| f_make_tiled_copy_mma(a, Operand::C); Arity::Usage(2, 2, "make_tiled_copy_C(A, TM)")),
    b!(quiet; "make_tiled_copy_C_atom", "make_tiled_copy_C_atom(A, TM)", "a TiledCopy over the smallest tile covering the atom's values of the MMA's C",
       "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1)), (_32,_32,_16)); tiler_mn(make_tiled_copy_C_atom(copy_atom(SM90_U32x2_STSM_N, half_t), T))",
       "((_8,_2,_2):(_1,_16,_8),(_8,_2):(_2,_1))", f_make_tiled_copy_c_atom; Arity::Usage(2, 2, "make_tiled_copy_C_atom(A, TM)")),
    b!(quiet; "make_tiled_copy_S", "make_tiled_copy_S(A, C)", "a TiledCopy with C's source thread-value layout and another atom",
       "G = make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))); tiled_layout_tv(make_tiled_copy_S(copy_atom(UniversalCopy<uint128_t>, half_t), G))",
       "((_4,_32),(_8,_1)):((_256,_1),(_32,_0))", |a| f_make_tiled_copy_sd(a, Side::S); Arity::Usage(2, 2, "make_tiled_copy_S(A, C)")),
    b!(quiet; "make_tiled_copy_D", "make_tiled_copy_D(A, C)", "a TiledCopy with C's destination thread-value layout and another atom",
       "G = make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))); tiled_layout_tv(make_tiled_copy_D(copy_atom(UniversalCopy<uint128_t>, half_t), G))",
       "((_4,_32),(_8,_1)):((_256,_1),(_32,_0))", |a| f_make_tiled_copy_sd(a, Side::D); Arity::Usage(2, 2, "make_tiled_copy_D(A, C)")),
    b!(quiet; "make_tiled_copy_impl", "make_tiled_copy_impl(A, layout_tv, tiler)", "the TiledCopy<A, layout_tv, tiler> itself: (thread, value) -> coordinate in the tiler's tile",
       "tiler_mn(make_tiled_copy_impl(copy_atom(UniversalCopy<uint128_t>, half_t), ((_4,_32),_8):((_256,_1),_32), <_32,_32>))",
       "(_32,_32)", f_make_tiled_copy_impl; Arity::Usage(3, 3, "make_tiled_copy_impl(A, layout_tv, tiler)")),
    b!(quiet; "make_cotiled_copy", "make_cotiled_copy(A, atom_tv_layout, data_layout)", "a TiledCopy from (thread,value) -> address and coordinate -> address",
       "tiler_mn(make_cotiled_copy(copy_atom(UniversalCopy<uint128_t>, half_t), (_32,_8):(_8,_1), (_16,_16):(_16,_1)))",
       "(_16:_1,(_2,_8):(_8,_1))", f_make_cotiled_copy; Arity::Usage(3, 3, "make_cotiled_copy(A, atom_tv_layout, data_layout)")),
    b!(quiet; "tiler_mn", "tiler_mn(C)", "a TiledCopy's Tiler_MN",
       "G = make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))); tiler_mn(G)", "(_32,_32)", f_tiler_mn; Arity::Usage(1, 1, "tiler_mn(C)")),
    b!(quiet; "tiled_layout_tv", "tiled_layout_tv(C)", "a TiledCopy's TiledLayout_TV",
       "L = make_tiled_copy(copy_atom(SM75_U32x4_LDSM_N, half_t), make_layout((_32,_1)), make_layout((_1,_8))); tiled_layout_tv(L)", "(_32,_8):(_1,_32)", f_tiled_layout_tv; Arity::Usage(1, 1, "tiled_layout_tv(C)")),
    b!(quiet; "get_layoutS_TV", "get_layoutS_TV(C)", "(thread, value) -> index in the tile, for the source",
       "G = make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))); get_layoutS_TV(G)",
       "((_4,_32),(_8,_1)):((_256,_1),(_32,_0))", |a| f_copy_layout_tv(a, Side::S); Arity::Usage(1, 1, "get_layoutS_TV(C)")),
    b!(quiet; "get_layoutD_TV", "get_layoutD_TV(C)", "(thread, value) -> index in the tile, for the destination",
       "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1))); L = make_tiled_copy_A(copy_atom(SM75_U32x4_LDSM_N, half_t), T); get_layoutD_TV(L)",
       "((_4,_8,_2,_2),((_2,_2,_2),_1)):((_64,_1,_16,_0),((_32,_8,_256),_0))", |a| f_copy_layout_tv(a, Side::D); Arity::Usage(1, 1, "get_layoutD_TV(C)")),
    b!(quiet; "tidfrg_S", "tidfrg_S(C, L)", "L tiled to (Thr, (FrgV,FrgX), (RestM,RestN,...)), source side",
       "G = make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))); tidfrg_S(G, (_128,_32):(_32,_1))",
       "((_4,_32),(_8,_1),(_4,_1)):((_8,_32),(_1,_0),(_1024,_0))", |a| f_tidfrg(a, Side::S); Arity::Usage(2, 2, "tidfrg_S(C, L)")),
    b!(quiet; "tidfrg_D", "tidfrg_D(C, L)", "L tiled to (Thr, (FrgV,FrgX), (RestM,RestN,...)), destination side",
       "G = make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))); tidfrg_D(G, (_128,_32):(_32,_1))",
       "((_4,_32),(_8,_1),(_4,_1)):((_8,_32),(_1,_0),(_1024,_0))", |a| f_tidfrg(a, Side::D); Arity::Usage(2, 2, "tidfrg_D(C, L)")),
    b!(quiet; "partition_S", "partition_S(C, thr, L)", "thread thr's source partition of a counting tensor laid out by L",
       "G = make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))); partition_S(G, 37, (_128,_32):(256,_1))",
       "ArithTuple2312 o ((_8,_1),_4,_1):((_1,_0),8192,_0)", |a| f_partition_copy(a, Side::S); Arity::Usage(3, 3, "partition_S(C, thr, L)")),
    b!(quiet; "partition_D", "partition_D(C, thr, L)", "thread thr's destination partition of a counting tensor laid out by L",
       "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1))); L = make_tiled_copy_A(copy_atom(SM75_U32x4_LDSM_N, half_t), T); partition_D(L, 37, make_layout((_64,_32)))",
       "ArithTuple145 o (((_2,_2,_2),_1),_2,_2):(((_64,_8,_512),_0),_32,_1024)", |a| f_partition_copy(a, Side::D); Arity::Usage(3, 3, "partition_D(C, thr, L)")),
    b!(quiet; "retile_S", "retile_S(C, thr, L)", "a register tensor laid out by L reshaped to the copy's value order",
       "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1)), (_32,_32,_16)); S = make_tiled_copy_C(copy_atom(SM90_U32x4_STSM_N, half_t), T); retile_S(S, 37, make_fragment_like(layout(partition_C(T, 37, make_layout((_32,_32))))))",
       "ArithTuple_0 o ((_8,_1),_1,_1):((_1,_0),_0,_0)", f_retile; Arity::Usage(3, 3, "retile_S(C, thr, L)")),
    b!(quiet; "retile_D", "retile_D(C, thr, L)", "a register tensor laid out by L reshaped to the copy's value order",
       "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1))); L = make_tiled_copy_A(copy_atom(SM75_U32x4_LDSM_N, half_t), T); retile_D(L, 37, make_fragment_like(layout(partition_A(T, 37, (_64,_32):(_32,_1)))))",
       "ArithTuple_0 o ((_8,_1),_2,_2):((_1,_0),_16,_8)", f_retile; Arity::Usage(3, 3, "retile_D(C, thr, L)")),
    // The results of these are CuTe's prints of the same C++ (g++ against the CuTe 4.2
    // headers, as tests/cpp_compile.rs does; the oracle has no tensor functions). The partitions'
    // cases: tests/oracle_cpp/tensor_partition.txt, compiled by scripts/oracle_cpp.py.
    b!(quiet; "make_identity_tensor", "make_identity_tensor(shape)", "the counting tensor whose element at each coordinate of shape is that coordinate",
       "make_identity_tensor((_4,_8))", "ArithTuple(_0,_0) o (_4,_8):(_1@0,_1@1)", f_make_identity_tensor; Arity::Usage(1, 1, "make_identity_tensor(shape)")),
    b!(quiet; "make_coord_tensor", "make_coord_tensor(L)", "the counting tensor of a layout: its element at a coordinate is L's value there",
       "make_coord_tensor((_4,_8):(_1,_4))", "ArithTuple_0 o (_4,_8):(_1,_4)", f_make_coord_tensor; Arity::Usage(1, 1, "make_coord_tensor(L)")),
    b!(quiet; "make_inttuple_iter", "make_inttuple_iter(coord)", "an ArithmeticTupleIterator at coord (an integer or a tuple of them)",
       "make_inttuple_iter((_0,3))", "ArithTuple(_0,3)", f_make_inttuple_iter; Arity::Usage(1, 1, "make_inttuple_iter(coord)")),
    b!(quiet; "local_tile", "local_tile(T, tiler, coord [, proj])", "the tile of tensor T at coord after tiling T by tiler (CuTe's inner_partition: zipped_divide, tile modes kept, rest sliced at coord); proj (CuTe's Step<_1,X,_1>, written (_1,_,_1)) drops the modes where it is _",
       "local_tile(make_coord_tensor((_8,_8):(_8,_1)), (_2,_4), (1,1))", "ArithTuple20 o (_2,_4):(_8,_1)", f_local_tile; Arity::Usage(3, 4, "local_tile(T, tiler, coord [, proj])")),
    b!(quiet; "local_partition", "local_partition(T, L, i [, proj])", "thread i's elements of tensor T, threads laid out by L over each tile (outer_partition by product_each(shape(L)) at L.get_flat_coord(i)); proj drops L's modes where it is _",
       "local_partition(make_coord_tensor((_16,_64):(_64,_1)), (_2,_16):(_16,_1), 5)", "ArithTuple5 o (_8,_4):(_128,_16)", f_local_partition; Arity::Usage(3, 4, "local_partition(T, L, i [, proj])")),
    b!(quiet; "inner_partition", "inner_partition(T, tiler, coord)", "zipped_divide(T, tiler) with the tile modes kept and the rest sliced at coord (local_tile)",
       "inner_partition(make_coord_tensor((_8,_8):(_8,_1)), (_2,_4), 5)", "ArithTuple20 o (_2,_4):(_8,_1)", f_inner_partition; Arity::Usage(3, 3, "inner_partition(T, tiler, coord)")),
    b!(quiet; "outer_partition", "outer_partition(T, tiler, coord)", "zipped_divide(T, tiler) with the tile modes sliced at coord and the rest kept (local_partition)",
       "outer_partition(make_coord_tensor((_8,_8):(_8,_1)), (_2,_4), (1,3))", "ArithTuple11 o (_4,_2):(_16,_4)", f_outer_partition; Arity::Usage(3, 3, "outer_partition(T, tiler, coord)")),
    b!(quiet; "group_modes", "group_modes<B,E>(T)", "a tensor with its modes [B,E) grouped into one mode (group<B,E> of its layout, same iterator)",
       "group_modes<0,2>(make_coord_tensor((_4,_4,_2):(_1,_8,_4)))", "ArithTuple_0 o ((_4,_4),_2):((_1,_8),_4)", f_group_modes; Arity::Usage(1, 1, "group_modes<B,E>(T)")),
    b!(quiet; "tensor", "tensor<I...>(T)", "the tensor of mode I of T (get<I...> of its layout, same iterator)",
       "tensor<1>(make_identity_tensor((_4,(_2,_3))))", "ArithTuple(_0,(_0,_0)) o (_2,_3):(_1@0@1,_1@1@1)", f_tensor_mode; Arity::Usage(1, 1, "tensor<I...>(T)")),
    b!(quiet; "make_tensor", "make_tensor(iter, L)", "a counting tensor: the iterator laid out by L (a layout, swizzled layout or shape); printed iter o L",
       "make_tensor(make_inttuple_iter((3,3)), (_4,_8):(_1@0,_1@1))", "ArithTuple(3,3) o (_4,_8):(_1@0,_1@1)", f_make_tensor; Arity::Usage(2, 2, "make_tensor(iter, L)")),
];

/// The forms of the overloaded functions this module implements for its kinds (the entry
/// of each name is `eval::overloads`').
pub const FORMS: &[Form] = &[
    form!("size", "size(T) / size(C)", "number of threads of a TiledMMA or TiledCopy",
       "G = make_tiled_copy(copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))); size(G)", "_128"),
    form!("layout", "layout(P)", "the layout of a partition (partition_A/..., retile_S/...)",
       "T = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_4,_1,_1))); layout(partition_A(T, 5, make_layout((_64,_64))))", "((_2,_2,_2),_1,_4):((_64,_8,_512),_0,_1024)"),
    form!("shape", "shape(P)", "the shape of a partition (a tensor)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); P = partition_C(T, 37, make_layout((_64,_32))); shape(P)",
       "((_2,_2),_2,_2)"),
    form!("stride", "stride(P)", "the stride of a partition (a tensor)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); P = partition_C(T, 37, make_layout((_64,_32))); stride(P)",
       "((_64,_8),_32,_1024)"),
    form!("rank", "rank(P)", "the rank of a partition (a tensor)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); P = partition_C(T, 37, make_layout((_64,_32))); rank(P)",
       "_3"),
    form!("depth", "depth(P)", "the depth of a partition (a tensor)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); P = partition_C(T, 37, make_layout((_64,_32))); depth(P)",
       "_2"),
    form!("size", "size<I...>(P)", "the size of (a mode of) a partition (a tensor)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); P = partition_C(T, 37, make_layout((_64,_32))); size<0>(P)",
       "_4"),
    form!("layout", "layout<I...>(P)", "a mode of a partition's layout",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); P = partition_C(T, 37, make_layout((_64,_32))); layout<0>(P)",
       "(_2,_2):(_64,_8)"),
    form!("flatten", "flatten(P)", "a partition with its layout flattened (same iterator)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); P = partition_C(T, 37, make_layout((_64,_32))); flatten(P)",
       "ArithTuple145 o (_2,_2,_2,_2):(_64,_8,_32,_1024)"),
    form!("filter", "filter(P)", "a partition with its layout filtered (same iterator)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); P = partition_C(T, 37, make_layout((_64,_32))); filter(P)",
       "ArithTuple145 o (_2,_2,_2,_2):(_64,_8,_32,_1024)"),
    form!("shape", "shape(X)", "an MMA atom, TiledMMA, copy atom or TiledCopy is not a tuple: CuTe's shape returns it unchanged",
       "shape(mma_atom(SM80_16x8x16_F16F16F16F16_TN))", MMA_ATOM_EXAMPLE),
    form!("rank", "rank(X)", "rank of an MMA atom, TiledMMA, copy atom or TiledCopy (not a tuple): _1",
       "rank(copy_atom(SM90_U32x2_STSM_N, int8_t))", "_1"),
    form!("depth", "depth(X)", "depth of an MMA atom, TiledMMA, copy atom or TiledCopy (not a tuple): _0",
       "depth(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))))", "_0"),
    form!("filter_zeros", "filter_zeros(P)", "a partition with its stride-0 modes replaced by _1:_0 (same iterator)",
       "G = make_tiled_copy(copy_atom(UniversalCopy<uint128_t>, half_t), (_32,_4):(_4,_1), make_layout((_1,_8))); filter_zeros(partition_S(G, 37, (_128,_32):(_32,_1)))",
       "ArithTuple296 o ((_8,_1),_4,_1):((_1,_0),_1024,_0)"),
    form!("coalesce", "coalesce(P [, profile])", "a partition with its layout coalesced (same iterator)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); coalesce(partition_C(T, 5, make_layout((_64,_32))))",
       "ArithTuple129 o (_2,_2,_2,_2):(_64,_8,_32,_1024)"),
    form!("logical_divide", "logical_divide(P, tiler)", "a partition with its layout divided by the tiler (same iterator)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); logical_divide(partition_C(T, 5, make_layout((_64,_32))), (_2,_2))",
       "ArithTuple129 o ((_2,_2),(_2,_1),_2):((_64,_8),(_32,_0),_1024)"),
    form!("zipped_divide", "zipped_divide(P, tiler)", "a partition with its layout zipped-divided by the tiler (same iterator)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); zipped_divide(partition_C(T, 5, make_layout((_64,_32))), (_2))",
       "ArithTuple129 o ((_2),(_2,_2,_2)):((_64),(_8,_32,_1024))"),
    form!("tiled_divide", "tiled_divide(P, tiler)", "a partition with its layout tiled-divided by the tiler (same iterator)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); tiled_divide(partition_C(T, 5, make_layout((_64,_32))), (_2,_2))",
       "ArithTuple129 o ((_2,_2),_2,_1,_2):((_64,_32),_8,_0,_1024)"),
    form!("flat_divide", "flat_divide(P, tiler)", "a partition with its layout flat-divided by the tiler (same iterator)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); flat_divide(partition_C(T, 5, make_layout((_64,_32))), (_2,_2))",
       "ArithTuple129 o (_2,_2,_2,_1,_2):(_64,_32,_8,_0,_1024)"),
    form!("composition", "composition(P, L) / P o L", "a partition with its layout composed with L (same iterator)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); partition_C(T, 5, make_layout((_64,_32))) o _4:_1",
       "ArithTuple129 o (_2,_2):(_64,_8)"),
    form!("take", "take<B,E>(P)", "a partition restricted to its modes B..E (same iterator)",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); take<0,2>(partition_C(T, 5, make_layout((_64,_32))))",
       "ArithTuple129 o ((_2,_2),_2):((_64,_8),_32)"),
    form!("domain_offset", "domain_offset(coord, T)", "the tensor over domain_offset(coord, layout(T))'s layout, its iterator moved by the offset",
       "domain_offset((1,1), make_coord_tensor((_4,_4):(_1,_8)))", "ArithTuple9 o (_4,_4):(_1,_8)"),
    form!("__apply", "P(coord...)", "a partition's element at a coordinate (the index it counts), or its slice with `_`",
       "T = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))); P = partition_C(T, 37, make_layout((_64,_32))); P(1)",
       "209"),
    form!("print_latex", "print_latex(T) / print_latex(C)", "CuTe's TikZ picture of an MMA atom's or TiledMMA's C, A, B thread-value layouts, or of a TiledCopy's source and destination",
       "print_latex(make_tiled_copy(copy_atom(UniversalCopy<uint32_t>, half_t), (_2,_1):(_1,_1), make_layout((_1,_2))))",
       PRINT_LATEX_COPY_EXAMPLE),
];

const MMA_ATOM_EXAMPLE: &str = "MMA_Atom
  ThrID:      _32:_1
  Shape_MNK:  (_16,_8,_16)
  LayoutA_TV: ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))
  LayoutB_TV: ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))
  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))";
