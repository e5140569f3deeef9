//! Comparisons used by asserts: `==` (structural equality ignoring static-ness),
//! `identical(a,b)` (exact equality, static-ness included) and `equivalent(a,b)` (layouts as
//! functions: same size, same value at every index).
//! May import: `eval` algebra types and `builtins` (to evaluate layouts through `__apply`).
#![allow(clippy::while_let_loop)]

use crate::eval::builtins::{self, Args, Builtin};
use crate::eval::error::{EvalError, R};
use crate::eval::int::{dy, Int};
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::layout::{Composed, Func, Layout, Swizzle};
use crate::eval::ops::algebra::eval_flat_at;
use crate::eval::ops::algebra::util::same_form_leaves;
use crate::eval::ops::swizzle::bits;
use crate::eval::value::Value;

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "identical",
        sig: "identical(a, b)",
        doc: "_1 if a and b are the same value, static-ness included (8 and _8 differ), else _0",
        example: "identical((_2,4):(_1,2), (2,4):(1,2))",
        result: "_0",
        f: identical,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "equivalent",
        sig: "equivalent(A, B)",
        doc: "_1 if layouts A and B are the same function: same size and A(i) == B(i) for every index i",
        example: "equivalent((_2,_4):(_1,_2), _8:_1)",
        result: "_1",
        f: equivalent,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
];

fn identical(a: &Args) -> R<Value> {
    Ok(Value::from(Int::bool(a.arg(0)? == a.arg(1)?, true)))
}

fn equivalent(a: &Args) -> R<Value> {
    let x = as_function(a.arg(0)?).map_err(|e| e.at_arg(0))?;
    let y = as_function(a.arg(1)?).map_err(|e| e.at_arg(1))?;
    let sx = size_of(&x).map_err(|e| e.at_arg(0))?;
    let sy = size_of(&y).map_err(|e| e.at_arg(1))?;
    if sx != sy {
        return Ok(Value::from(Int::bool(false, true)));
    }
    let n = sx.max(0);
    let too_large = |what: &str, limit: i64| {
        EvalError::limit(format!("equivalent compares at most {limit} {what}; these layouts have size {sx}"))
    };
    if n > EQUIVALENT_LIMIT {
        return Err(too_large("indices", EQUIVALENT_LIMIT));
    }
    if let (Some(fx), Some(fy)) = (Fast::of_value(&x), Fast::of_value(&y)) {
        // Work: every index walks both inner layouts (amortised O(1)) and evaluates the outer
        // functions of composed layouts (O(rank) each).
        let work = n.saturating_mul(1 + fx.outer_cost() + fy.outer_cost());
        if work > EQUIVALENT_WORK_LIMIT {
            return Err(too_large(
                "index evaluations for layouts this deep",
                EQUIVALENT_WORK_LIMIT / (1 + fx.outer_cost() + fy.outer_cost()),
            ));
        }
        let mut wx = Walk::new(&fx);
        let mut wy = Walk::new(&fy);
        for _ in 0..n {
            crate::eval::budget::tick()?;
            if wx.next()? != wy.next()? {
                return Ok(Value::from(Int::bool(false, true)));
            }
        }
        return Ok(Value::from(Int::bool(true, true)));
    }
    // Anything else (tuple strides, ScaledBasis strides, ...): through the evaluator.
    let cost = 1 + leaf_count(&x) + leaf_count(&y);
    if n.saturating_mul(cost) > EQUIVALENT_APPLY_LIMIT {
        return Err(too_large("indices for such layouts", EQUIVALENT_APPLY_LIMIT / cost));
    }
    let mut ax = vec![x, Value::from(dy(0))];
    let mut ay = vec![y, Value::from(dy(0))];
    for i in 0..n {
        ax[1] = Value::from(dy(i));
        ay[1] = Value::from(dy(i));
        let vx = builtins::call("__apply", &[], &ax).map_err(|e| e.at_arg(0))?;
        let vy = builtins::call("__apply", &[], &ay).map_err(|e| e.at_arg(1))?;
        if !equal_ignoring_static(&vx, &vy) {
            return Ok(Value::from(Int::bool(false, true)));
        }
    }
    Ok(Value::from(Int::bool(true, true)))
}

/// Why `equivalent(a, b)` is false, for a failed assert: the sizes, or the first index where
/// the two functions differ (`None` when that cannot be said: not layouts, or too large).
pub fn first_difference(a: &Value, b: &Value) -> Option<String> {
    let (x, y) = (as_function(a).ok()?, as_function(b).ok()?);
    let (sx, sy) = (size_of(&x).ok()?, size_of(&y).ok()?);
    if sx != sy {
        return Some(format!("the sizes differ: {sx} and {sy}"));
    }
    let cost = 1 + leaf_count(&x) + leaf_count(&y);
    let n = sx.max(0).min(EQUIVALENT_APPLY_LIMIT / cost);
    let mut ax = vec![x, Value::from(dy(0))];
    let mut ay = vec![y, Value::from(dy(0))];
    for i in 0..n {
        ax[1] = Value::from(dy(i));
        ay[1] = Value::from(dy(i));
        let vx = builtins::call("__apply", &[], &ax).ok()?;
        let vy = builtins::call("__apply", &[], &ay).ok()?;
        if !equal_ignoring_static(&vx, &vy) {
            return Some(format!("first difference at index {i}: left({i}) = {vx}, right({i}) = {vy}"));
        }
    }
    None
}

/// Limit on `equivalent`: number of indices compared.
pub const EQUIVALENT_LIMIT: i64 = 1 << 24;
/// Limit on `equivalent`: indices times the work per index, for layouts evaluated directly.
pub const EQUIVALENT_WORK_LIMIT: i64 = 1 << 27;
/// Limit on `equivalent`: indices times leaves, for values evaluated through `__apply`.
pub const EQUIVALENT_APPLY_LIMIT: i64 = 1 << 22;

fn leaf_count(v: &Value) -> i64 {
    fn go(t: &IntTuple) -> i64 {
        match t.view() {
            V::T(xs) => xs.iter().map(go).sum(),
            _ => 1,
        }
    }
    match v {
        Value::Layout(l) => go(&l.shape) + go(&l.stride),
        Value::Composed(c) => {
            let f = |f: &Func| match f {
                Func::Layout(l) => go(&l.shape) + go(&l.stride),
                _ => 8,
            };
            f(&c.outer) + f(&c.inner)
        }
        _ => 1,
    }
}

/// A function of a 1-D index that `equivalent` can evaluate without the general evaluator:
/// layouts whose shape and stride are congruent integer tuples with positive shapes, swizzles,
/// and compositions of them (`A o O o B`).
pub enum Fast {
    /// (shape, stride) of each leaf, colexicographic order.
    Flat(Vec<(i64, i64)>),
    Swizzle(Swizzle),
    /// outer(offset + inner(i))
    Composed(Box<Fast>, i64, Box<Fast>),
}

impl Fast {
    pub fn of_value(v: &Value) -> Option<Fast> {
        match v {
            Value::Layout(_) => flat_int_layout(v).map(Fast::Flat),
            Value::Composed(c) => Fast::of_composed(c),
            _ => None,
        }
    }

    fn of_func(f: &Func) -> Option<Fast> {
        match f {
            Func::Layout(l) => flat_int_layout(&Value::Layout(l.clone())).map(Fast::Flat),
            Func::Swizzle(s) => Some(Fast::Swizzle(*s)),
            Func::Composed(c) => Fast::of_composed(c),
        }
    }

    fn of_composed(c: &Composed) -> Option<Fast> {
        let outer = Fast::of_func(&c.outer)?;
        let inner = Fast::of_func(&c.inner)?;
        // The walk starts at the innermost layout: a swizzle there has no size.
        if matches!(inner, Fast::Swizzle(_)) {
            return None;
        }
        Some(Fast::Composed(Box::new(outer), c.offset.v, Box::new(inner)))
    }

    /// Work per index spent in functions evaluated at arbitrary points (outer parts).
    fn outer_cost(&self) -> i64 {
        match self {
            Fast::Flat(_) | Fast::Swizzle(_) => 0,
            Fast::Composed(o, _, i) => o.eval_cost() + i.outer_cost(),
        }
    }

    fn eval_cost(&self) -> i64 {
        match self {
            Fast::Flat(m) => m.len() as i64,
            Fast::Swizzle(_) => 1,
            Fast::Composed(o, _, i) => o.eval_cost() + i.eval_cost(),
        }
    }

    /// The value at any integer `x` (CuTe's 1-D evaluation: each leaf but the last takes
    /// `x % shape`, the last takes the rest).
    pub fn eval(&self, x: i64) -> R<i64> {
        match self {
            Fast::Flat(m) => eval_flat(m, x),
            Fast::Swizzle(s) => Ok(bits::apply(*s, Int::new(x, false)).v),
            Fast::Composed(o, off, i) => {
                let v = i.eval(x)?;
                o.eval(checked_add(*off, v)?)
            }
        }
    }
}

fn checked_add(a: i64, b: i64) -> R<i64> {
    Ok(Int::new(a, false).add(Int::new(b, false))?.v)
}

/// The values f(0), f(1), ... of a [`Fast`] function: the innermost layout is walked like an
/// odometer (amortised O(1) per index), outer functions are evaluated at each value.
pub struct Walk<'a> {
    f: &'a Fast,
    /// The innermost flat layout's leaves and the current coordinate of each.
    modes: &'a [(i64, i64)],
    coord: Vec<i64>,
    /// The innermost layout's value at the current coordinate (None before the first index).
    value: Option<i128>,
}

impl<'a> Walk<'a> {
    pub fn new(f: &'a Fast) -> Walk<'a> {
        let mut g = f;
        while let Fast::Composed(_, _, i) = g {
            g = i;
        }
        let modes: &[(i64, i64)] = match g {
            Fast::Flat(m) => m,
            _ => &[],
        };
        Walk { f, modes, coord: vec![0; modes.len()], value: None }
    }

    /// The next value of the innermost layout.
    fn step_inner(&mut self) -> R<i64> {
        let v = match self.value {
            None => 0,
            Some(mut v) => {
                let mut k = 0;
                loop {
                    let Some(&(s, d)) = self.modes.get(k) else {
                        break;
                    };
                    self.coord[k] += 1;
                    v += i128::from(d);
                    // The last leaf never wraps (indices beyond the size are not walked).
                    if self.coord[k] < s || k + 1 == self.modes.len() {
                        break;
                    }
                    v -= i128::from(s) * i128::from(d);
                    self.coord[k] = 0;
                    k += 1;
                }
                v
            }
        };
        self.value = Some(v);
        i64::try_from(v).map_err(|_| {
            EvalError::new(
                crate::eval::error::ErrorKind::Overflow,
                "integer overflow",
                format!("a layout value {v} does not fit in 64 bits"),
            )
        })
    }

    // Fallible, so not an `Iterator`.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> R<i64> {
        let x = self.step_inner()?;
        // Outer functions, innermost first.
        fn apply_outer(f: &Fast, x: i64) -> R<i64> {
            match f {
                Fast::Composed(o, off, i) => {
                    let y = apply_outer(i, x)?;
                    o.eval(checked_add(*off, y)?)
                }
                _ => Ok(x),
            }
        }
        apply_outer(self.f, x)
    }
}

/// A value usable as a function of a 1-D index: layouts, composed layouts; a shape means its
/// compact column-major layout (`make_layout(S)`).
fn as_function(v: &Value) -> R<Value> {
    match v {
        Value::Layout(_) | Value::Composed(_) => Ok(v.clone()),
        Value::Tuple(t) if !matches!(t, IntTuple::Under) => builtins::call("make_layout", &[], std::slice::from_ref(v)),
        v => Err(EvalError::type_err(format!("equivalent compares layouts, got {} `{v}`", v.kind()))),
    }
}

/// The (shape, stride) leaf pairs of a layout whose shape and stride are congruent integer
/// tuples with positive shapes, or None (then the layout is evaluated through `__apply`).
fn flat_int_layout(v: &Value) -> Option<Vec<(i64, i64)>> {
    let Value::Layout(l) = v else { return None };
    let mut out = Vec::new();
    same_form_leaves(&l.shape, &l.stride, &mut |a, d| match d {
        IntTuple::I(b) if a.v > 0 => {
            out.push((a.v, b.v));
            Some(())
        }
        _ => None,
    })?;
    Some(out)
}

/// `L(i)` of a flattened layout (the law checks' evaluator), overflow an error naming the
/// operation.
fn eval_flat(modes: &[(i64, i64)], i: i64) -> R<i64> {
    eval_flat_at(modes, i, |op, a, b| EvalError::overflow(op, dy(a), dy(b)))
}

/// `size(v)` as an integer.
pub fn size_of(v: &Value) -> R<i64> {
    let s = builtins::call("size", &[], std::slice::from_ref(v))?;
    Ok(s.as_int()?.v)
}

/// Structural equality that ignores whether integers are static (`8 == _8`), used by
/// `assert a == b`.
pub fn equal_ignoring_static(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Tuple(x), Value::Tuple(y)) => tuple_eq(x, y),
        (Value::Layout(x), Value::Layout(y)) => layout_eq(x, y),
        (Value::Swizzle(x), Value::Swizzle(y)) => x == y,
        (Value::Composed(x), Value::Composed(y)) => composed_eq(x, y),
        (Value::Tile(x), Value::Tile(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal_ignoring_static(p, q))
        }
        (Value::Tag(x), Value::Tag(y)) => x == y,
        (Value::Text(x), Value::Text(y)) => x == y,
        // Atoms: compare their printouts with static markers removed.
        (Value::Atom(_), Value::Atom(_)) => a == b || strip_static(&a.to_string()) == strip_static(&b.to_string()),
        _ => false,
    }
}

fn tuple_eq(a: &IntTuple, b: &IntTuple) -> bool {
    match (a.view(), b.view()) {
        (V::I(x), V::I(y)) => x.v == y.v,
        (V::T(x), V::T(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| tuple_eq(p, q)),
        (V::Under, V::Under) => true,
        (V::Basis(x), V::Basis(y)) => x.v.v == y.v.v && x.modes == y.modes,
        _ => false,
    }
}

fn layout_eq(a: &Layout, b: &Layout) -> bool {
    tuple_eq(&a.shape, &b.shape) && tuple_eq(&a.stride, &b.stride)
}

fn func_eq(a: &Func, b: &Func) -> bool {
    match (a, b) {
        (Func::Swizzle(x), Func::Swizzle(y)) => x == y,
        (Func::Layout(x), Func::Layout(y)) => layout_eq(x, y),
        (Func::Composed(x), Func::Composed(y)) => composed_eq(x, y),
        _ => false,
    }
}

fn composed_eq(a: &Composed, b: &Composed) -> bool {
    func_eq(&a.outer, &b.outer) && a.offset.v == b.offset.v && func_eq(&a.inner, &b.inner)
}

/// Remove the `_` of static integers (`_8` → `8`) from a printout; `_` not followed by a digit
/// or `-digit`, or preceded by a letter/digit (a name like `SM80_16x8`), is kept.
fn strip_static(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &ch) in c.iter().enumerate() {
        if ch == '_' {
            let prev_word = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
            let next = c.get(i + 1).copied();
            let next2 = c.get(i + 2).copied();
            let numeric = matches!(next, Some(d) if d.is_ascii_digit())
                || (next == Some('-') && matches!(next2, Some(d) if d.is_ascii_digit()));
            if numeric && !prev_word {
                continue;
            }
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::int::st;

    fn t(v: Vec<IntTuple>) -> IntTuple {
        IntTuple::T(v)
    }

    #[test]
    fn loose_equality() {
        let a = Value::Layout(Layout::new(
            t(vec![IntTuple::st(2), IntTuple::dy(4)]),
            t(vec![IntTuple::st(1), IntTuple::dy(2)]),
        ));
        let b = Value::Layout(Layout::new(
            t(vec![IntTuple::dy(2), IntTuple::st(4)]),
            t(vec![IntTuple::dy(1), IntTuple::dy(2)]),
        ));
        assert!(equal_ignoring_static(&a, &b));
        assert!(!equal_ignoring_static(&a, &Value::from(st(8))));
        assert!(!equal_ignoring_static(&Value::Tuple(t(vec![IntTuple::st(8)])), &Value::from(st(8))));
    }

    #[test]
    fn identical_checks_staticness() {
        let a = [Value::from(st(8)), Value::from(dy(8))];
        assert_eq!(
            identical(&Args { name: "identical", sig: "", targs: &[], args: &crate::eval::builtins::refs(&a) })
                .unwrap(),
            Value::from(st(0))
        );
        let a = [Value::from(st(8)), Value::from(st(8))];
        assert_eq!(
            identical(&Args { name: "identical", sig: "", targs: &[], args: &crate::eval::builtins::refs(&a) })
                .unwrap(),
            Value::from(st(1))
        );
        let a = [Value::from(st(8))];
        assert!(identical(&Args { name: "identical", sig: "", targs: &[], args: &crate::eval::builtins::refs(&a) })
            .is_err());
    }

    #[test]
    fn flat_evaluation() {
        let l = Value::Layout(Layout::new(
            t(vec![IntTuple::st(2), t(vec![IntTuple::dy(3), IntTuple::st(2)])]),
            t(vec![IntTuple::st(1), t(vec![IntTuple::dy(4), IntTuple::st(2)])]),
        ));
        let f = flat_int_layout(&l).unwrap();
        // (2,(3,2)):(1,(4,2)) at i = 1 + 2*2 + 6*1 → coords (1,(2,1)) → 1 + 8 + 2
        assert_eq!(eval_flat(&f, 11).unwrap(), 11);
        assert_eq!(eval_flat(&f, 1 + 2 * 2 + 6).unwrap(), 11);
        assert_eq!(eval_flat(&f, 2).unwrap(), 4);
    }

    #[test]
    fn strip() {
        assert_eq!(strip_static("(_2,_-3):(_,SM80_16x8)"), "(2,-3):(_,SM80_16x8)");
    }
}
