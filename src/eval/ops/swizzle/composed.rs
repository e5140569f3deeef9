//! ComposedLayout (`layout_composed.hpp`) and its swizzle specialisations
//! (`swizzle_layout.hpp`): `A o O o B`, x -> A(O + B(x)).
//!
//! Most operations apply to the inner layout B (it defines the domain) and re-wrap the result
//! with CuTe's three-argument `composition(A, O, B')`. Operations on plain layouts are not
//! re-implemented here: they are called through the registry (`builtins::call`), so the
//! overloads of the other `ops` modules answer them, and a composed inner layout comes back
//! here.
//! May import: `eval::{builtins, value, layout, int, int_tuple, error}`, `super::bits`.

use super::bits::{self, Off};
use crate::eval::builtins::{self, Args, TArg};
use crate::eval::error::{EvalError, R};
use crate::eval::int::{dy, st, Int};
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::layout::{Composed, Func, Layout, MixedBits, Swizzle, TypedOffset};
use crate::eval::value::Value;

/// Call a built-in by name (all its overloads, in registry order).
pub fn call(name: &str, targs: &[TArg], args: Vec<Value>) -> R<Value> {
    builtins::call(name, targs, &args)
}

/// A value that can be part of a ComposedLayout: a layout, swizzle or composed layout.
pub fn to_func(v: Value) -> R<Func> {
    match v {
        Value::Layout(l) => Ok(Func::Layout(l)),
        Value::Swizzle(s) => Ok(Func::Swizzle(s)),
        Value::Composed(c) => Ok(Func::Composed(c)),
        v => Err(EvalError::type_err(format!("expected a layout, swizzle or composed layout, got {} `{v}`", v.kind()))),
    }
}

/// CuTe's three-argument `composition(A, O, B)`: a ComposedLayout, except the identity case
/// `composition(Swizzle<0,M,S>, Int<0>, Layout)`, which is the layout itself.
pub fn compose3(a: Func, o: Int, b: Value) -> R<Value> {
    let b = to_func(b)?;
    if let (Func::Swizzle(sw), Func::Layout(l)) = (&a, &b) {
        if sw.b == 0 && o.is_const(0) {
            return Ok(Value::Layout(l.clone()));
        }
    }
    Ok(Value::Composed(Box::new(Composed { outer: a, offset: o, inner: b, mixed: None })))
}

/// `composition(c.layout_a(), c.offset(), b)`.
pub fn rewrap(c: &Composed, b: Value) -> R<Value> {
    // A MixedBits offset or a smem_ptr flag stays one: CuTe rebuilds the ComposedLayout with the
    // same offset type.
    if c.mixed.is_some() {
        let inner = to_func(b)?;
        return Ok(Value::Composed(Box::new(Composed {
            outer: c.outer.clone(),
            offset: c.offset,
            inner,
            mixed: c.mixed,
        })));
    }
    compose3(c.outer.clone(), c.offset, b)
}

/// `f(c.layout_b(), rest...)` wrapped back: `composition(A, O, f(B, rest...))`.
pub fn lift(c: &Composed, name: &str, targs: &[TArg], rest: &[&Value]) -> R<Value> {
    let mut args = vec![Value::from(c.inner.clone())];
    args.extend(rest.iter().map(|&v| v.clone()));
    rewrap(c, call(name, targs, args)?)
}

/// `f(c.layout_b(), rest...)`.
pub fn delegate(c: &Composed, name: &str, targs: &[TArg], rest: &[&Value]) -> R<Value> {
    let mut args = vec![Value::from(c.inner.clone())];
    args.extend(rest.iter().map(|&v| v.clone()));
    call(name, targs, args)
}

fn int_of(v: Value, what: &str) -> R<Int> {
    match v {
        Value::Tuple(IntTuple::I(i)) => Ok(i),
        v => Err(EvalError::type_err(format!("{what}: expected an integer, got {} `{v}`", v.kind()))),
    }
}

/// Evaluate a plain layout at a coordinate (through the coordinate module).
pub fn eval_layout(l: &Layout, coord: Value) -> R<Int> {
    int_of(call("__apply", &[], vec![Value::Layout(l.clone()), coord])?, "layout value")
}

/// `f(coord)` for a swizzle, layout or composed layout, with no underscore in `coord`.
pub fn eval_func(f: &Func, coord: Value) -> R<Int> {
    match f {
        Func::Swizzle(sw) => match coord {
            Value::Tuple(IntTuple::I(i)) => Ok(bits::apply(*sw, i)),
            c => Err(EvalError::type_err(format!("a swizzle applies to an integer, not {} `{c}`", c.kind()))),
        },
        Func::Layout(l) => eval_layout(l, coord),
        Func::Composed(c) => eval_composed(c, coord),
    }
}

/// `(A o O o B)(c)` = `A(O + B(c))`.
pub fn eval_composed(c: &Composed, coord: Value) -> R<Int> {
    let v = eval_func(&c.inner, coord)?;
    let (x, _) = c.offset_plus(v)?;
    eval_func(&c.outer, Value::from(x))
}

/// True if the coordinate contains `_` anywhere (CuTe's `has_underscore`).
pub fn has_underscore(v: &Value) -> bool {
    fn go(t: &IntTuple) -> bool {
        match t.view() {
            V::Under => true,
            V::T(v) => v.iter().any(go),
            _ => false,
        }
    }
    match v {
        Value::Tuple(t) => go(t),
        Value::Tile(v) => v.iter().any(has_underscore),
        _ => false,
    }
}

/// True if every leaf of the coordinate is `_` (an empty tuple counts, as in CuTe).
pub fn all_underscore(v: &Value) -> bool {
    fn go(t: &IntTuple) -> bool {
        match t.view() {
            V::Under => true,
            V::T(v) => v.iter().all(go),
            _ => false,
        }
    }
    match v {
        Value::Tuple(t) => go(t),
        _ => false,
    }
}

// ------------------------------------------------------------------------------------------
// composition
// ------------------------------------------------------------------------------------------

/// `composition(Layout, Swizzle)`: the swizzle whose masks are the layout's images of the
/// swizzle's masks, composed with the layout (`make_swizzle<a(yyy), a(zzz)>() o a`).
pub fn layout_then_swizzle(a: &Layout, sw: Swizzle) -> R<Value> {
    let y = eval_layout(a, Value::from(st(bits::yyy_msk(sw))))?;
    let z = eval_layout(a, Value::from(st(bits::zzz_msk(sw))))?;
    let mask = |i: Int| -> R<u32> {
        if !i.s {
            return Err(EvalError::rule(
                "make_swizzle needs static masks",
                format!("{a} o {sw}: the layout maps the swizzle's masks to the run-time value {i}"),
            ));
        }
        u32::try_from(i.v).map_err(|_| {
            EvalError::rule("make_swizzle needs 32-bit masks", format!("{a} o {sw}: mask {i} is not a uint32_t"))
        })
    };
    let new = bits::from_masks(mask(y)?, mask(z)?)?;
    compose3(Func::Swizzle(new), st(0), Value::Layout(a.clone()))
}

/// Two-argument `composition(a, b)` where a swizzle or composed layout is involved; other
/// kinds are `call`'s refusal (the plain cases are the algebra module's).
pub fn composition(call_args: &Args, a: &Value, b: &Value) -> R<Value> {
    match (a, b) {
        (Value::Swizzle(x), Value::Swizzle(y)) => Ok(Value::Swizzle(bits::merge(*x, *y)?)),
        (Value::Swizzle(x), Value::Layout(l)) => compose3(Func::Swizzle(*x), st(0), Value::Layout(l.clone())),
        (Value::Layout(l), Value::Swizzle(y)) => layout_then_swizzle(l, *y),
        (Value::Layout(_), Value::Composed(cb)) => {
            if !cb.offset.s {
                return Err(EvalError::rule(
                    "Require offset == 0",
                    format!("{a} o ({b}): the offset {} is not a static 0", cb.offset),
                )
                .at_arg(1));
            }
            if cb.offset.v != 0 {
                return Err(EvalError::rule(
                    "Require offset == 0",
                    format!("{a} o ({b}): the offset is {}", cb.offset),
                )
                .at_arg(1));
            }
            let t = call("composition", &[], vec![a.clone(), Value::from(cb.outer.clone())])?;
            call("composition", &[], vec![t, Value::from(cb.inner.clone())])
        }
        (Value::Composed(ca), b) => {
            let inner = call("composition", &[], vec![Value::from(ca.inner.clone()), b.clone()])?;
            rewrap(ca, inner)
        }
        _ => Err(call_args.refuse()),
    }
}

// ------------------------------------------------------------------------------------------
// slicing
// ------------------------------------------------------------------------------------------

fn pow2(k: i32) -> R<i64> {
    if !(0..=62).contains(&k) {
        return Err(EvalError::rule("swizzle projection", format!("2^{k} is out of range")));
    }
    Ok(1i64 << k)
}

/// The swizzle's projection layouts of `swizzle_layout.hpp`: shape
/// `(2^M, 2^B, 2^(|S|-B), 2^B, 1)` with the strides of the Z and Y bits only (`only_zy`) or
/// of everything else (`anti_zy`).
fn projections(sw: Swizzle) -> R<(Layout, Layout)> {
    let (b, m, s) = (sw.b, sw.m, sw.s.abs());
    let shape = IntTuple::T(vec![
        IntTuple::st(pow2(m)?),
        IntTuple::st(pow2(b)?),
        IntTuple::st(pow2(s - b)?),
        IntTuple::st(pow2(b)?),
        IntTuple::st(1),
    ]);
    let only = IntTuple::T(vec![
        IntTuple::st(0),
        IntTuple::st(pow2(m)?),
        IntTuple::st(0),
        IntTuple::st(pow2(m + s)?),
        IntTuple::st(0),
    ]);
    let anti = IntTuple::T(vec![
        IntTuple::st(1),
        IntTuple::st(0),
        IntTuple::st(pow2(m + b)?),
        IntTuple::st(0),
        IntTuple::st(pow2(m + b + s)?),
    ]);
    Ok((Layout::new(shape.clone(), only), Layout::new(shape, anti)))
}

/// `to_mixed_bits(shape, stride, coord)`: which bits of the offset the coordinate sets, with
/// static bits where the coordinate is static.
fn to_mixed_bits(shape: &IntTuple, stride: &IntTuple, coord: &IntTuple) -> R<Off> {
    match (shape.view(), stride.view(), coord.view()) {
        (V::T(s), V::T(d), V::T(c)) => {
            if s.len() != d.len() || s.len() != c.len() {
                return Err(EvalError::rule(
                    "Mismatched ranks",
                    format!("to_mixed_bits of {shape}:{stride} at {coord}"),
                ));
            }
            let mut acc: Option<Off> = None;
            for ((s, d), c) in s.iter().zip(d.iter()).zip(c.iter()) {
                let x = to_mixed_bits(s, d, c)?;
                acc = Some(match acc {
                    None => x,
                    Some(a) => a.xor(x),
                });
            }
            acc.ok_or_else(|| EvalError::rule("to_mixed_bits", "empty coordinate"))
        }
        (V::I(s), V::I(d), V::I(c)) => {
            let prod = s.mul(*d)?;
            let f = s.sub(st(1))?.mul(*d)?;
            if !prod.s || !f.s {
                return Err(EvalError::rule(
                    "slicing a swizzled layout needs static shapes and strides",
                    format!("the sliced mode {s}:{d} is not static (CuTe: 'value' is not a member of 'int')"),
                ));
            }
            if prod.v != 0 && (prod.v < 0 || (prod.v & (prod.v - 1)) != 0) {
                return Err(EvalError::rule("Requires pow2 shape*stride", format!("{s} * {d} = {}", prod.v)));
            }
            Ok(Off::make(0, c.mul(*d)?, f.v as u32, false))
        }
        _ => Err(EvalError::rule(
            "Either Shape, Stride, and Coord must be all tuples, or they must be all integral",
            format!("to_mixed_bits of {shape}:{stride} at {coord}"),
        )),
    }
}

/// `detail::make_swizzle_strides`.
fn swizzle_strides(z_lt_y: bool, z: i64, y: i64, off: Off, b: i32) -> R<Vec<Int>> {
    let mut out = Vec::new();
    for i in 0..b {
        let (t, yes, no) = if z_lt_y {
            (off.and_c(y << i), z << i, -(z << i))
        } else {
            (off.and_c(z << i), (y + z) << i, (y - z) << i)
        };
        out.push(match t.eq_zero() {
            bits::Cond::Static(true) => st(yes),
            bits::Cond::Static(false) => st(no),
            bits::Cond::Dynamic(c) => {
                if yes == no {
                    st(yes)
                } else {
                    dy(if c { yes } else { no })
                }
            }
        });
    }
    Ok(out)
}

/// `repeat<B>(x)` as CuTe builds a mode of the swizzle layout (B = 1 gives the element itself).
fn rep(items: Vec<IntTuple>) -> Option<IntTuple> {
    match items.len() {
        0 => None,
        1 => items.into_iter().next(),
        _ => Some(IntTuple::T(items)),
    }
}

fn as_layout(v: Value, what: &str) -> R<Layout> {
    match v {
        Value::Layout(l) => Ok(l),
        v => Err(EvalError::type_err(format!("{what}: expected a layout, got {} `{v}`", v.kind()))),
    }
}

/// `slice_and_offset(coord, Swizzle o O o B)`: the sliced layout (a swizzled layout, or a
/// plain layout with the swizzle decayed into its strides) and the offset.
fn swizzle_slice_and_offset(coord: &Value, sw: Swizzle, o: Int, inner: &Func) -> R<(Value, Value)> {
    if all_underscore(coord) {
        let sliced = call("slice", &[], vec![coord.clone(), Value::from(inner.clone())])?;
        return Ok((compose3(Func::Swizzle(sw), o, sliced)?, Value::from(st(0))));
    }
    let l = match inner {
        Func::Layout(l) => Value::Layout(l.clone()),
        f => {
            return Err(EvalError::rule(
                "cannot slice",
                format!("the inner part `{f}` of a swizzled layout must be a plain layout to be sliced"),
            ))
        }
    };
    let (only_zy, anti_zy) = projections(sw)?;
    let sliced = call("slice", &[], vec![coord.clone(), l.clone()])?;
    let diced = call("dice", &[], vec![coord.clone(), l.clone()])?;
    let diced_coord = call("dice", &[], vec![coord.clone(), coord.clone()])?;
    let diced_anti = as_layout(call("composition", &[], vec![Value::Layout(anti_zy), diced.clone()])?, "dice")?;
    let diced_only = as_layout(call("composition", &[], vec![Value::Layout(only_zy.clone()), diced])?, "dice")?;
    // to_mixed_bits(layout, coord) splits the coordinate along the layout's shape first.
    let split = call("idx2crd", &[], vec![diced_coord.clone(), Value::Tuple(diced_only.shape.clone())])?;
    let dc = match &split {
        Value::Tuple(t) => t.clone(),
        v => return Err(EvalError::type_err(format!("coordinate expected, got `{v}`"))),
    };
    let off_only = Off::int(o).xor(to_mixed_bits(&diced_only.shape, &diced_only.stride, &dc)?);
    let off_anti = eval_layout(&diced_anti, diced_coord)?;

    let sliced_only = as_layout(call("composition", &[], vec![Value::Layout(only_zy), sliced.clone()])?, "slice")?;
    let sz = int_of(call("size", &[], vec![Value::Layout(sliced_only.clone())])?, "size")?;
    let active = eval_layout(&sliced_only, Value::from(sz.sub(st(1))?))?;
    let collide = active.s && (active.v & !bits::apply(sw, active).v) != 0;
    if collide {
        // Hits on Y and Z: not reducible, stays a swizzled layout.
        let (off, mixed) = match off_only {
            Off::Mixed { s, f, d } => {
                (Int::new((s | d) as i64, false), Some(TypedOffset::Mixed(MixedBits { s, f, d })))
            }
            o => (o.as_int().unwrap_or(st(0)), None),
        };
        let mut v = compose3(Func::Swizzle(sw), off, sliced)?;
        if let Value::Composed(c) = &mut v {
            c.mixed = mixed;
        }
        return Ok((v, Value::from(off_anti)));
    }
    // Misses Y or Z: decay to a plain layout with (possibly dynamic) strides.
    let zm = bits::zzz_msk(sw);
    let ym = bits::yyy_msk(sw);
    let z = zm & zm.wrapping_neg();
    let y = ym & ym.wrapping_neg();
    let lo = swizzle_strides(z < y, z, y, off_only, sw.b)?;
    let hi = swizzle_strides(z > y, z, y, off_only, sw.b)?;
    let (b, m, s) = (sw.b, sw.m, sw.s.abs());
    let mut shape = vec![IntTuple::st(pow2(m)?)];
    let mut stride = vec![IntTuple::st(1)];
    let twos = || (0..b).map(|_| IntTuple::st(2)).collect::<Vec<_>>();
    let ints = |v: &Vec<Int>| v.iter().map(|i| IntTuple::I(*i)).collect::<Vec<_>>();
    if let (Some(sh), Some(sd)) = (rep(twos()), rep(ints(&lo))) {
        shape.push(sh);
        stride.push(sd);
    }
    shape.push(IntTuple::st(pow2(s - b)?));
    stride.push(IntTuple::st(pow2(m + b)?));
    if let (Some(sh), Some(sd)) = (rep(twos()), rep(ints(&hi))) {
        shape.push(sh);
        stride.push(sd);
    }
    shape.push(IntTuple::st(1));
    stride.push(IntTuple::st(pow2(m + b + s)?));
    let swl = Layout::new(IntTuple::T(shape), IntTuple::T(stride));
    let res = call("composition", &[], vec![Value::Layout(swl), sliced])?;
    let off = off_only.swizzle(sw).add(off_anti)?;
    Ok((res, Value::from(off)))
}

/// `slice_and_offset(coord, A o O o B)`.
pub fn slice_and_offset(coord: &Value, c: &Composed) -> R<(Value, Value)> {
    if let Func::Swizzle(sw) = c.outer {
        if all_underscore(coord) && c.mixed.is_some() {
            // composition(A, O, slice(coord, B)) keeps a smem_ptr flag or MixedBits offset as it is
            let sliced = call("slice", &[], vec![coord.clone(), Value::from(c.inner.clone())])?;
            return Ok((rewrap(c, sliced)?, Value::from(st(0))));
        }
        return swizzle_slice_and_offset(coord, sw, c.offset, &c.inner);
    }
    // Generic ComposedLayout: slice B, accumulate its offset into O.
    let r = call("slice_and_offset", &[], vec![coord.clone(), Value::from(c.inner.clone())])?;
    let parts = r.elems();
    let (Some(l), Some(o)) = (parts.first(), parts.get(1)) else {
        return Err(EvalError::type_err(format!("slice_and_offset gave `{r}`")));
    };
    let o = int_of(o.clone(), "slice offset")?;
    let res = Composed { outer: c.outer.clone(), offset: c.offset.add(o)?, inner: to_func(l.clone())?, mixed: None };
    Ok((Value::Composed(Box::new(res)), Value::from(st(0))))
}

/// `S(coord)`: evaluate, or slice when the coordinate has an underscore.
pub fn apply_composed(c: &Composed, coord: Value) -> R<Value> {
    if has_underscore(&coord) {
        Ok(slice_and_offset(&coord, c)?.0)
    } else {
        Ok(Value::from(eval_composed(c, coord)?))
    }
}

/// `domain_offset(coord, A o O o B)` = `(A o (O + B(coord)) o B, _0)`.
pub fn domain_offset(coord: &Value, c: &Composed) -> R<Value> {
    let v = eval_func(&c.inner, coord.clone())?;
    let (offset, mixed) = c.offset_plus(v)?;
    let res = Composed { outer: c.outer.clone(), offset, inner: c.inner.clone(), mixed };
    Ok(Value::tuple(vec![Value::Composed(Box::new(res)), Value::from(st(0))]))
}

// ------------------------------------------------------------------------------------------
// inverses, casts, alignment, common layouts
// ------------------------------------------------------------------------------------------

/// `right_inverse` / `left_inverse` of a composed layout (`which` names the function).
pub fn inverse(c: &Composed, which: &str) -> R<Value> {
    // CuTe inverts the offset too, and has no inverse of a shared-memory pointer flag.
    if let Some(bits) = c.smem_bits() {
        return Err(EvalError::rule(
            format!("no matching function for call to '{which}(smem_ptr_flag_bits<{bits}>)'"),
            format!(
                "`{c}`: CuTe inverts each part of a composed layout, and a GMMA atom's smem_ptr flag has no {which}"
            ),
        ));
    }
    let inv_b = call(which, &[], vec![Value::from(c.inner.clone())])?;
    if let Func::Swizzle(sw) = c.outer {
        if c.offset.is_const(0) {
            return call("composition", &[], vec![inv_b, Value::Swizzle(sw)]);
        }
    }
    if !c.offset.s {
        return Err(EvalError::rule(
            "no matching function",
            format!("{which} of the run-time offset {} (CuTe has no {which} for a dynamic int)", c.offset),
        ));
    }
    let inv_a = call(which, &[], vec![Value::from(c.outer.clone())])?;
    compose3(to_func(inv_b)?, c.offset.neg()?, inv_a)
}

/// `upcast<N>` / `downcast<N>` of a composed layout: each part, the offset divided or scaled.
pub fn cast(c: &Composed, which: &str, targs: &[TArg], n: i64) -> R<Value> {
    if let Some(bits) = c.smem_bits() {
        return cast_smem_flagged(c, bits, which, targs, n);
    }
    let a = call(which, targs, vec![Value::from(c.outer.clone())])?;
    let o = if which == "upcast" { bits::upcast_int(c.offset, n)? } else { bits::downcast_int(c.offset, n)? };
    let b = call(which, targs, vec![Value::from(c.inner.clone())])?;
    // The offset is now a `C<unsigned>`, never `Int<0>`: no identity case here.
    Ok(Value::Composed(Box::new(Composed { outer: to_func(a)?, offset: o, inner: to_func(b)?, mixed: None })))
}

/// `upcast<N>` / `downcast<N>` of `A o smem_ptr[Bb](unset) o L` (`pointer_flagged.hpp`): the
/// swizzle acts on bytes, so it is kept; the flag's element width becomes B*N or B/N.
fn cast_smem_flagged(c: &Composed, bits: u32, which: &str, targs: &[TArg], n: i64) -> R<Value> {
    let new_bits = match (which, u32::try_from(n)) {
        ("upcast", Ok(k)) => bits.checked_mul(k),
        (_, Ok(k)) if k > 0 => Some(bits / k),
        _ => None,
    };
    let new_bits = new_bits.filter(|b| i32::try_from(*b).is_ok()).ok_or_else(|| {
        EvalError::rule("smem_ptr_flag_bits", format!("{which}<{n}> of smem_ptr[{bits}b]: no such element width"))
    })?;
    let b = call(which, targs, vec![Value::from(c.inner.clone())])?;
    Ok(Value::Composed(Box::new(Composed {
        outer: c.outer.clone(),
        offset: st(0),
        inner: to_func(b)?,
        mixed: Some(TypedOffset::SmemFlag(new_bits)),
    })))
}

/// `max_alignment(Swizzle o O o B)` = gcd(2^M, O, max_alignment(B)); 1 for other composed layouts.
pub fn max_alignment(c: &Composed) -> R<Value> {
    let Func::Swizzle(sw) = c.outer else {
        return Ok(Value::from(st(1)));
    };
    if !c.offset.s {
        return Err(EvalError::rule(
            "max_alignment needs a static offset",
            format!("the offset {} of {c} is dynamic", c.offset),
        ));
    }
    let b = int_of(call("max_alignment", &[], vec![Value::from(c.inner.clone())])?, "max_alignment")?;
    let g = cute_gcd(cute_gcd(1i64 << sw.m, c.offset.v), b.v);
    Ok(Value::from(Int::new(g, b.s)))
}

/// `cute::gcd`: Euclid on C++ remainders, so signs survive (`gcd(16, -8)` is -8).
fn cute_gcd(mut t: i64, mut u: i64) -> i64 {
    loop {
        if t == 0 {
            return u;
        }
        u = u.wrapping_rem(t);
        if u == 0 {
            return t;
        }
        t = t.wrapping_rem(u);
    }
}

/// `max_common_layout(Swizzle o O o B, L)` (either order).
pub fn max_common_layout(call_args: &Args, c: &Composed, l: &Value) -> R<Value> {
    let Func::Swizzle(sw) = c.outer else {
        return Err(call_args.refuse());
    };
    let common = call("max_common_layout", &[], vec![Value::from(c.inner.clone()), l.clone()])?;
    let sz = int_of(call("size", &[], vec![common.clone()])?, "size")?;
    if !sz.s {
        return Err(EvalError::rule(
            "max_common_layout of a swizzled layout needs a static size",
            format!("size of {common} is dynamic"),
        ));
    }
    let base = 1i64 << sw.m;
    if base < sz.v {
        call("composition", &[], vec![common, Value::from(st(base))])
    } else {
        Ok(common)
    }
}

/// `max_common_vector` with at least one swizzled layout.
pub fn max_common_vector(call_args: &Args, a: &Value, b: &Value) -> R<Value> {
    let sw_of = |c: &Composed| match c.outer {
        Func::Swizzle(sw) => Some(sw),
        _ => None,
    };
    match (a, b) {
        (Value::Composed(ca), Value::Composed(cb)) => {
            let (Some(s0), Some(s1)) = (sw_of(ca), sw_of(cb)) else {
                return Err(call_args.refuse());
            };
            let vec = int_of(
                call("max_common_vector", &[], vec![Value::from(ca.inner.clone()), Value::from(cb.inner.clone())])?,
                "max_common_vector",
            )?;
            if s0 == s1 {
                Ok(Value::from(vec))
            } else {
                Ok(Value::from(vec.min(st(1i64 << s0.m)).min(st(1i64 << s1.m))))
            }
        }
        (Value::Composed(ca), Value::Layout(_)) | (Value::Layout(_), Value::Composed(ca)) => {
            let Some(sw) = sw_of(ca) else {
                return Err(call_args.refuse());
            };
            let other = if matches!(a, Value::Composed(_)) { b } else { a };
            let vec = int_of(
                call("max_common_vector", &[], vec![Value::from(ca.inner.clone()), other.clone()])?,
                "max_common_vector",
            )?;
            Ok(Value::from(vec.min(st(1i64 << sw.m))))
        }
        _ => Err(call_args.refuse()),
    }
}

/// `logical_product(Layout, Swizzle o _0 o T)`: the product of the plain layouts, with a swizzle
/// moved through it.
pub fn logical_product_layout_composed(call_args: &Args, layout: &Value, c: &Composed) -> R<Value> {
    let Func::Swizzle(sw) = c.outer else {
        return Err(call_args.refuse());
    };
    if !c.offset.is_const(0) {
        return Err(EvalError::rule(
            "Require Swizzle offset == 0",
            format!("logical_product with {c}: the offset is {}", c.offset),
        )
        .at_arg(1));
    }
    match &c.inner {
        f @ (Func::Layout(_) | Func::Composed(_)) => product_through_swizzle(layout, sw, Value::from(f.clone())),
        f => Err(EvalError::type_err(format!("logical_product: the tiler's inner part `{f}` is not a layout"))),
    }
}

/// A mask of `make_swizzle<Y, Z>`: a static integer of 32 bits.
fn static_mask(i: Int) -> R<u32> {
    if !i.s {
        return Err(EvalError::rule("make_swizzle needs static masks", format!("mask {i} is dynamic")));
    }
    u32::try_from(i.v).map_err(|_| EvalError::rule("make_swizzle needs 32-bit masks", format!("mask {i}")))
}

/// `logical_product(layout, sw o _0 o tb)`, CuTe's steps with `tb` (a layout, or itself a
/// swizzled layout) as a function: the product with `tb`, the swizzle's active bits found
/// through `tb` (`(P o tb)(c*)`) and moved through the product, the new swizzle composed with it.
fn product_through_swizzle(layout: &Value, sw: Swizzle, tb: Value) -> R<Value> {
    let new_layout = call("logical_product", &[], vec![layout.clone(), tb.clone()])?;
    let (only_zy, _) = projections(sw)?;
    let lz = call("composition", &[], vec![Value::Layout(only_zy), tb.clone()])?;
    let sz = int_of(call("size", &[], vec![lz.clone()])?, "size")?;
    let active = int_of(call("__apply", &[], vec![lz, Value::from(sz.sub(st(1))?)])?, "layout value")?;
    let through = |x: i64| -> R<Int> {
        let t = call("__apply", &[], vec![tb.clone(), Value::from(Int::new(x, active.s))])?;
        int_of(call("__apply", &[], vec![new_layout.clone(), Value::from(st(0)), t])?, "layout value")
    };
    let (ny, nz) = (through(active.v & bits::yyy_msk(sw))?, through(active.v & bits::zzz_msk(sw))?);
    let new = bits::from_masks(static_mask(ny)?, static_mask(nz)?)?;
    call("composition", &[], vec![Value::Swizzle(new), new_layout])
}
