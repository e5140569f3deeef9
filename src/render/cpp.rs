//! `cpp(x)`: the CuTe C++ that builds exactly the value `x`, static-ness included, in the style
//! of CuTe's examples (written for `using namespace cute;`): `Int<8>{}` for `_8` and `8` for a
//! run-time `int`, `make_layout(make_shape(..), make_stride(..))`, `make_tile(..)`,
//! `composition(Swizzle<3,3,3>{}, ..)`, `make_tiled_mma(Op{}, Layout<Shape<..>>{}, Tile<..>{})`.
//!
//! Expressions build values; `*_type` functions spell the static types (CuTe's aliases `_8`,
//! `Shape<..>`, `Layout<Shape, Stride>` with the default stride left out), used where CuTe's
//! examples write types: the atom layout and permutation of a TiledMMA, the layouts of a TiledCopy.
//! `tests/cpp_compile.rs` compiles what this prints against CuTe's headers and checks that
//! CuTe prints what `cute` prints.
//! Reads values, never the reverse. May import: `eval` (values; compact strides).

use crate::eval::atoms::copy::CopyAtom;
use crate::eval::atoms::tensor::Partition;
use crate::eval::atoms::AtomValue;
use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::layout::{Composed, Func, Layout, Swizzle, TypedOffset};
use crate::eval::ops::algebra::Tiler;
use crate::eval::ops::tuple::{compact_col_major, compact_row_major};
use crate::eval::value::{quote, Value};

/// The C++ expression that builds `v`.
pub fn cpp(v: &Value) -> R<String> {
    match v {
        Value::Tuple(t) => Ok(tuple_expr(t, Role::Tuple)),
        Value::Layout(l) => Ok(layout_expr(l)),
        Value::Swizzle(s) => Ok(format!("{}{{}}", swizzle_type(s))),
        Value::Composed(c) => composed_expr(c),
        Value::Tile(v) => {
            let parts = v.iter().map(cpp).collect::<R<Vec<_>>>()?;
            Ok(format!("make_tile({})", parts.join(", ")))
        }
        // LayoutLeft, LayoutRight, GenColMajor, GenRowMajor, value types: a value of the type
        Value::Tag(t) => Ok(format!("{t}{{}}")),
        Value::Atom(a) => atom_expr(a),
        Value::Str(s) => Ok(quote(s)),
        Value::Text(_) | Value::File(_) => Err(EvalError::type_err("printed text has no C++: cpp takes a value")),
    }
}

/// `auto name = <cpp(v)>;`, or a comment saying why `v` has no C++.
pub fn declaration(name: &str, v: &Value) -> String {
    match cpp(v) {
        Ok(e) => format!("auto {name} = {e};"),
        Err(e) => format!("// {name}: {e}"),
    }
}

/// Where a tuple stands: in a layout's shape or stride, or anywhere else.
#[derive(Clone, Copy)]
enum Role {
    Shape,
    Stride,
    Tuple,
}

fn int_expr(i: Int) -> String {
    if i.s {
        format!("Int<{}>{{}}", i.v)
    } else {
        i.v.to_string()
    }
}

fn tuple_expr(t: &IntTuple, role: Role) -> String {
    match t.view() {
        V::I(i) => int_expr(*i),
        V::Under => "_".to_string(),
        V::Basis(b) => basis_expr(b.v, &b.modes),
        V::T(v) => {
            let maker = match role {
                Role::Shape => "make_shape",
                Role::Stride => "make_stride",
                Role::Tuple => "make_tuple",
            };
            let parts: Vec<String> = v.iter().map(|e| tuple_expr(e, role)).collect();
            format!("{maker}({})", parts.join(", "))
        }
    }
}

/// `ScaledBasis<T, Ns...>` prints its value then `@N` for the modes in reverse: our `modes` are
/// in print order, so CuTe's `Ns` are `modes` reversed.
fn basis_expr(v: Int, modes: &[usize]) -> String {
    let ns: Vec<String> = modes.iter().rev().map(|m| m.to_string()).collect();
    let ns = ns.join(",");
    match (v.s, v.v) {
        (true, 1) => format!("E<{ns}>{{}}"),
        (true, _) => format!("ScaledBasis<Int<{}>{}{ns}>{{}}", v.v, if ns.is_empty() { "" } else { "," }),
        (false, _) => format!("ScaledBasis<int{}{ns}>{{{}}}", if ns.is_empty() { "" } else { "," }, v.v),
    }
}

/// Strides `make_layout(shape)` (`LayoutLeft`) or `make_layout(shape, LayoutRight{})` would give.
fn default_strides(shape: &IntTuple) -> (Option<IntTuple>, Option<IntTuple>) {
    let one = IntTuple::I(st(1));
    (compact_col_major(shape, &one).ok(), compact_row_major(shape, &one).ok())
}

fn layout_expr(l: &Layout) -> String {
    let shape = tuple_expr(&l.shape, Role::Shape);
    let (left, right) = default_strides(&l.shape);
    if left.as_ref() == Some(&l.stride) {
        format!("make_layout({shape})")
    } else if right.as_ref() == Some(&l.stride) {
        format!("make_layout({shape}, LayoutRight{{}})")
    } else {
        format!("make_layout({shape}, {})", tuple_expr(&l.stride, Role::Stride))
    }
}

fn swizzle_type(s: &Swizzle) -> String {
    format!("Swizzle<{},{},{}>", s.b, s.m, s.s)
}

fn func_expr(f: &Func) -> R<String> {
    match f {
        Func::Swizzle(s) => Ok(format!("{}{{}}", swizzle_type(s))),
        Func::Layout(l) => Ok(layout_expr(l)),
        Func::Composed(c) => composed_expr(c),
    }
}

fn composed_expr(c: &Composed) -> R<String> {
    let offset = match &c.mixed {
        // MixedBits<S, F>{d}: S | (d & F), `d` already masked by F
        Some(TypedOffset::Mixed(m)) => format!("MixedBits<{},{}>{{{}}}", m.s, m.f, m.d),
        // pointer_flagged.hpp: the unset smem pointer flag of B-bit elements
        Some(TypedOffset::SmemFlag(bits)) => format!("smem_ptr_flag_bits<{bits}>{{}}"),
        Some(TypedOffset::U32) => format!("uint32_t({}u)", c.offset.v),
        None => int_expr(c.offset),
    };
    // composition(Swizzle, Layout) is ComposedLayout<Swizzle, _0, Layout> (but a Sw<0,..> is
    // dropped by CuTe's composition, so it has to be made explicitly)
    if let (Func::Swizzle(s), Func::Layout(l), None) = (&c.outer, &c.inner, &c.mixed) {
        if s.b != 0 && c.offset.is_const(0) {
            return Ok(format!("composition({}{{}}, {})", swizzle_type(s), layout_expr(l)));
        }
    }
    Ok(format!("make_composed_layout({}, {offset}, {})", func_expr(&c.outer)?, func_expr(&c.inner)?))
}

// ------------------------------------------------------------------------------------------
// Static types, as CuTe's examples write them
// ------------------------------------------------------------------------------------------

/// CuTe's aliases `_0`..`_10`, `_12`, `_16`, ... (`integral_constant.hpp`); other values `Int<N>`.
pub const INT_ALIASES: &[i64] = &[
    -32, -24, -16, -12, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 32, 40,
    48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232,
    240, 248, 256, 384, 512, 768, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288,
];

fn int_type(v: i64) -> String {
    if INT_ALIASES.contains(&v) {
        if v < 0 {
            format!("_m{}", -v)
        } else {
            format!("_{v}")
        }
    } else {
        format!("Int<{v}>")
    }
}

/// The type of a static tuple (`None` if any leaf is dynamic).
fn tuple_type(t: &IntTuple, maker: &str) -> Option<String> {
    match t.view() {
        V::I(i) if i.s => Some(int_type(i.v)),
        V::I(_) => None,
        V::Under => Some("Underscore".to_string()),
        V::Basis(b) if b.v.s => {
            let (v, modes) = (&b.v, &b.modes);
            let ns: Vec<String> = modes.iter().rev().map(|m| format!(",{m}")).collect();
            Some(format!("ScaledBasis<{}{}>", int_type(v.v), ns.concat()))
        }
        V::Basis(..) => None,
        V::T(v) => {
            let parts = v.iter().map(|e| tuple_type(e, maker)).collect::<Option<Vec<_>>>()?;
            Some(format!("{maker}<{}>", parts.join(",")))
        }
    }
}

/// `Layout<Shape<..>, Stride<..>>` of a static layout, the stride left out when it is the
/// default (column-major); `None` if the layout is dynamic.
fn layout_type(l: &Layout) -> Option<String> {
    let shape = tuple_type(&l.shape, "Shape")?;
    let stride = tuple_type(&l.stride, "Stride")?;
    if default_strides(&l.shape).0.as_ref() == Some(&l.stride) {
        Some(format!("Layout<{shape}>"))
    } else {
        Some(format!("Layout<{shape},{stride}>"))
    }
}

/// A static layout as a value of its type, else the `make_layout` expression.
fn layout_arg(l: &Layout) -> String {
    match layout_type(l) {
        Some(t) => format!("{t}{{}}"),
        None => layout_expr(l),
    }
}

fn tl_type(t: &Tiler) -> Option<String> {
    match t {
        Tiler::Under => Some("Underscore".to_string()),
        Tiler::Int(i) if i.s => Some(int_type(i.v)),
        Tiler::Int(_) => None,
        Tiler::Layout(l) => layout_type(l),
        Tiler::Tuple(v) => Some(format!("Tile<{}>", v.iter().map(tl_type).collect::<Option<Vec<_>>>()?.join(","))),
    }
}

fn tl_expr(t: &Tiler) -> String {
    match t {
        Tiler::Under => "_".to_string(),
        Tiler::Int(i) => int_expr(*i),
        Tiler::Layout(l) => layout_expr(l),
        Tiler::Tuple(v) => format!("make_tile({})", v.iter().map(tl_expr).collect::<Vec<_>>().join(", ")),
    }
}

fn tl_arg(t: &Tiler) -> String {
    match tl_type(t) {
        Some(ty) => format!("{ty}{{}}"),
        None => tl_expr(t),
    }
}

// ------------------------------------------------------------------------------------------
// MMA and copy atoms
// ------------------------------------------------------------------------------------------

/// An operation as the notation names it (`SM90_64x64x16_F16F16F16_SS<K,K>`) as a C++ type:
/// the GMMA majors `K`/`MN` are `GMMA::Major::K`/`MN`.
fn op_type(name: &str) -> String {
    let Some((base, rest)) = name.split_once('<') else { return name.to_string() };
    let args: Vec<String> = rest
        .trim_end_matches('>')
        .split(',')
        .map(|a| match a.trim() {
            "K" => "GMMA::Major::K".to_string(),
            "MN" => "GMMA::Major::MN".to_string(),
            other => other.to_string(),
        })
        .collect();
    format!("{base}<{}>", args.join(","))
}

fn copy_atom_type(a: &CopyAtom) -> String {
    format!("Copy_Atom<{}, {}>", op_type(&a.op.name), a.val_type)
}

fn atom_expr(a: &AtomValue) -> R<String> {
    Ok(match a {
        AtomValue::MmaOp(m) => format!("{}{{}}", op_type(&m.name)),
        AtomValue::MmaAtom(m) => format!("MMA_Atom<{}>{{}}", op_type(&m.name)),
        AtomValue::TiledMma(t) => {
            let mut args = vec![format!("{}{{}}", op_type(&t.atom.name))];
            let default_perm = t.perm.iter().all(|p| *p == Tiler::Under);
            let default_layout = layout_type(&t.atom_layout).as_deref() == Some("Layout<Shape<_1,_1,_1>>");
            if !(default_layout && default_perm) {
                args.push(layout_arg(&t.atom_layout));
            }
            if !default_perm {
                args.push(tl_arg(&Tiler::Tuple(t.perm.to_vec())));
            }
            format!("make_tiled_mma({})", args.join(", "))
        }
        AtomValue::CopyOp(c) => format!("{}{{}}", op_type(&c.name)),
        AtomValue::CopyAtom(a) => format!("{}{{}}", copy_atom_type(a)),
        // the type TiledCopy<Atom, LayoutCopy_TV, Tiler_MN> is all there is to it
        AtomValue::TiledCopy(c) => format!(
            "make_tiled_copy_impl({}{{}}, {}, {})",
            copy_atom_type(&c.atom),
            layout_arg(&c.layout_tv),
            tl_arg(&c.tiler)
        ),
        AtomValue::Partition(p) => partition_expr(p)?,
        AtomValue::Iter(c) => iter_expr(c),
    })
}

/// `make_inttuple_iter(c)`: an ArithmeticTupleIterator at `c` (an integer or a tuple, which
/// becomes an ArithmeticTuple).
fn iter_expr(c: &IntTuple) -> String {
    format!("make_inttuple_iter({})", tuple_expr(c, Role::Tuple))
}

/// A counting tensor as CuTe's examples make one: `make_identity_tensor(shape)`,
/// `make_coord_tensor(layout)` (the iterator at the layout's coprofile), else
/// `make_tensor(make_inttuple_iter(offset), layout)`.
fn partition_expr(p: &Partition) -> R<String> {
    if p.swizzle.is_none() && p.composed.is_none() {
        let zero = crate::eval::ops::structure::coprofile(&p.layout).ok().as_ref() == Some(&p.offset);
        let identity = crate::eval::ops::structure::make_identity_layout(&p.layout.shape) == p.layout;
        if zero && identity {
            return Ok(format!("make_identity_tensor({})", tuple_expr(&p.layout.shape, Role::Shape)));
        }
        if zero {
            return Ok(format!("make_coord_tensor({})", layout_expr(&p.layout)));
        }
    }
    let layout = if let Some((sw, off)) = &p.swizzle {
        composed_expr(&Composed {
            outer: Func::Swizzle(*sw),
            offset: off.offset,
            inner: Func::Layout(p.layout.clone()),
            mixed: off.mixed,
        })?
    } else if let Some((a, off)) = &p.composed {
        composed_expr(&Composed {
            outer: Func::Layout(a.clone()),
            offset: *off,
            inner: Func::Layout(p.layout.clone()),
            mixed: None,
        })?
    } else {
        layout_expr(&p.layout)
    };
    // (an unsigned iterator is a `uint32_t` one: its elements wrap as CuTe's do)
    let iter = match &p.offset {
        IntTuple::I(i) if p.unsigned => format!("make_inttuple_iter(uint32_t({}u))", i.v),
        off => iter_expr(off),
    };
    Ok(format!("make_tensor({iter}, {layout})"))
}
