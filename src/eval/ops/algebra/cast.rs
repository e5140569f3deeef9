//! `upcast<N>`, `downcast<N>` and `recast_layout<Old,New>`, ported from `layout.hpp`: change
//! the unit of a layout's codomain (N old elements become one new element, or the reverse).

use super::util::{ceil_div_i, concat, leaf_int, make_layout_of_no_modes, signum};
use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::IntTuple::{self, I};
use crate::eval::layout::Layout;
use crate::eval::ops::tuple::get_mode;

/// CuTe's `transform_layout` of the tuple mode `s:d` (modes `sv`) by `f` (`upcast_impl` or
/// `downcast_impl`, named by `what`): `f` on each mode, the results concatenated.
fn each_mode(what: &str, n: Int, sv: &[IntTuple], s: &IntTuple, d: &IntTuple, f: CastFn) -> R<Layout> {
    if s.rank() != d.rank() || !d.is_tuple() {
        return Err(EvalError::rule("mismatched ranks", format!("{what} of {s}:{d}")));
    }
    if sv.is_empty() {
        return Err(make_layout_of_no_modes(format!("{what} of the empty mode {s}:{d}")));
    }
    let mut modes = Vec::with_capacity(sv.len());
    for (k, sk) in sv.iter().enumerate() {
        modes.push(f(n, sk, &get_mode(d, k)?)?);
    }
    Ok(concat(modes))
}

type CastFn = fn(Int, &IntTuple, &IntTuple) -> R<Layout>;

fn upcast_impl(n: Int, s: &IntTuple, d: &IntTuple) -> R<Layout> {
    if let Some(sv) = s.kids() {
        return each_mode("upcast", n, &sv, s, d, upcast_impl);
    }
    let stride = leaf_int(d, "upcast")?;
    if stride.is_const(0) {
        return Ok(Layout::new(s.clone(), d.clone()));
    }
    if stride.s {
        if n.v == 0 {
            return Err(EvalError::div_zero(stride, n));
        }
        if !(stride.v.wrapping_rem(n.v) == 0 || (stride.v != 0 && n.v.wrapping_rem(stride.v) == 0)) {
            return Err(EvalError::rule(
                "divisibility condition",
                format!("upcast<{}>: the stride {stride} and {} do not divide each other", n.v, n.v),
            ));
        }
        let abs = stride.abs()?;
        let shape = leaf_int(s, "upcast")?;
        let new_shape = ceil_div_i(shape, ceil_div_i(n, abs)?)?;
        let new_stride = signum(stride).mul(ceil_div_i(abs, n)?)?;
        Ok(Layout::new(I(new_shape), I(new_stride)))
    } else {
        // dynamic stride: assumed large and divisible
        Ok(Layout::new(s.clone(), I(stride.div(n)?)))
    }
}

/// `upcast<N>(L)`: N elements become one. For the stride-1 mode the size is divided by N; all
/// other static strides are divided by N (CuTe requires stride and N to divide each other).
pub fn upcast(l: &Layout, n: i64) -> R<Layout> {
    upcast_impl(st(n), &l.shape, &l.stride)
}

fn downcast_impl(n: Int, s: &IntTuple, d: &IntTuple) -> R<Layout> {
    if let Some(sv) = s.kids() {
        return each_mode("downcast", n, &sv, s, d, downcast_impl);
    }
    let stride = leaf_int(d, "downcast")?;
    let shape = leaf_int(s, "downcast")?;
    if stride.is_const(1) || stride.is_const(-1) {
        Ok(Layout::new(I(shape.mul(n)?), I(stride)))
    } else {
        Ok(Layout::new(I(shape), I(stride.mul(n)?)))
    }
}

/// `downcast<N>(L)`: one element becomes N. The static stride-1 mode grows by N, all other
/// strides are multiplied by N. CuTe requires a static `_1` stride somewhere.
pub fn downcast(l: &Layout, n: i64) -> R<Layout> {
    let has_one = l.stride.leaves().iter().any(|d| matches!(d, I(i) if i.is_const(1)));
    if !has_one {
        return Err(EvalError::rule("downcast requires adjacent elements", format!("{l} has no static stride _1")));
    }
    downcast_impl(st(n), &l.shape, &l.stride)
}

/// Bit width of a value type name (`sizeof_bits`), for `recast_layout`.
pub fn type_bits(name: &str) -> Option<i64> {
    Some(match name {
        "int8_t" | "uint8_t" | "float_e4m3_t" | "float_e5m2_t" => 8,
        "int16_t" | "uint16_t" | "half_t" | "bfloat16_t" => 16,
        "int32_t" | "uint32_t" | "float" | "tfloat32_t" => 32,
        "int64_t" | "uint64_t" | "double" => 64,
        "uint128_t" => 128,
        "int4b_t" | "uint4b_t" => 4,
        "uint1b_t" | "bool" => 1, // sizeof_bits<bool> is 1 in CuTe
        _ => return None,
    })
}

/// `recast_layout<Old,New>(L)` given the two bit widths: the ratio New/Old in lowest terms
/// picks `upcast`, `downcast` or both.
pub fn recast_layout(l: &Layout, old_bits: i64, new_bits: i64) -> R<Layout> {
    if old_bits <= 0 || new_bits <= 0 {
        return Err(EvalError::rule("recast_layout", "type widths must be positive"));
    }
    let g = crate::eval::int::gcd_i64(new_bits, old_bits);
    let (num, den) = (new_bits / g, old_bits / g);
    match (num, den) {
        (1, 1) => Ok(l.clone()),
        (1, d) => downcast(l, d),
        (n, 1) => upcast(l, n),
        (n, d) => downcast(&upcast(l, n)?, d),
    }
}

/// `upcast<N>(t)` and `downcast<N>(t)` of an integer (swizzle.hpp's overloads for
/// `is_integral<T>`, `N` a `uint32_t`): `safe_div(t, C<N>{})` and `t * C<N>{}`. The arithmetic
/// with `C<uint32_t>` is unsigned for an `int` (static results are `C<unsigned>`); a value
/// beyond `int` (a C++ `long`) keeps signed 64-bit arithmetic. No power-of-two condition.
pub fn cast_integer(t: Int, n: i64, up: bool) -> R<Int> {
    let what = if up { "upcast" } else { "downcast" };
    let Ok(nu) = u32::try_from(n) else {
        return Err(EvalError::rule("no matching function", format!("{what}<{n}>: N is a uint32_t")));
    };
    let as_int = i32::try_from(t.v).ok();
    if up {
        if nu == 0 {
            return Err(if t.s {
                EvalError::rule("no matching function", format!("safe_div({t}, C<0>)"))
            } else {
                EvalError::div_zero(t, st(0))
            });
        }
        let (q, r) = match as_int {
            Some(v) => (((v as u32) / nu) as i64, ((v as u32) % nu) as i64),
            None => (t.v / n, t.v % n),
        };
        if t.s && r != 0 {
            return Err(EvalError::rule("Static safe_div requires t % u == 0", format!("upcast<{n}>({t})")));
        }
        Ok(Int::new(q, t.s))
    } else {
        let v = match as_int {
            Some(v) => (v as u32).wrapping_mul(nu) as i64,
            None => t.mul(Int::new(n, t.s))?.v,
        };
        Ok(Int::new(v, t.s))
    }
}
