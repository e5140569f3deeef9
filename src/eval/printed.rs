//! Values read back from the forms CuTe prints them in: an ArithmeticTupleIterator
//! (`ArithTuple(_0,_0)`, `ArithTuple145`, `ArithTuple_0`, `ArithTuple-128`) and a `MixedBits`
//! offset of a composed layout (`Sw<3,3,3> o M_0|(144&400)=144 o L`). The parser and the
//! interpreter hand over the pieces (the iterator forms only where `ArithTuple...` is not a bound
//! name, so they change nothing that evaluated before); this module checks them as CuTe's types
//! would and builds the values. May import: `atoms` (the iterator value), the algebra data types.

use crate::eval::atoms::AtomValue;
use crate::eval::error::{EvalError, R};
use crate::eval::int::Int;
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::{Composed, Func, MixedBits, TypedOffset};
use crate::eval::value::Value;

/// The prefix CuTe prints before an ArithmeticTupleIterator's coordinate.
pub const ITER_PREFIX: &str = "ArithTuple";

/// `ArithTuple145` (a run-time coordinate) or `ArithTuple_0` (a static one) as one name: the
/// iterator, or `None` if `name` is not of that form.
pub fn iter_name(name: &str) -> Option<R<Value>> {
    let rest = name.strip_prefix(ITER_PREFIX)?;
    let (is_static, digits) = match rest.strip_prefix('_') {
        Some(d) => (true, d),
        None => (false, rest),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(
        digits
            .parse::<i64>()
            .map_err(|_| EvalError::rule("integer out of range", format!("the coordinate of {name} is outside i64")))
            .map(|v| iter(IntTuple::I(Int::new(v, is_static)))),
    )
}

/// `ArithTuple-128` / `ArithTuple_-128`, which the parser reads as the name `ArithTuple` (or
/// `ArithTuple_`) minus the literal 128: the iterator at -128, or `None` for another name.
pub fn negative_iter(name: &str, value: i64) -> Option<Value> {
    let is_static = match name.strip_prefix(ITER_PREFIX)? {
        "" => false,
        "_" => true,
        _ => return None,
    };
    Some(iter(IntTuple::I(Int::new(value.checked_neg()?, is_static))))
}

/// `ArithTuple(c0, c1, ...)`: the iterator at the tuple `(c0,c1,...)` (CuTe prints a tuple
/// coordinate in parentheses, so the call's arguments are the tuple's elements).
pub fn iter_call(args: &[Value]) -> R<Value> {
    let mut coords = Vec::with_capacity(args.len());
    for (i, v) in args.iter().enumerate() {
        match crate::eval::atoms::as_iter_coord(v) {
            Some(c) => coords.push(c.clone()),
            None => {
                return Err(EvalError::type_err(format!(
                    "an ArithmeticTupleIterator's coordinate is integers and tuples of them, got {} `{v}`",
                    v.kind()
                ))
                .at_arg(i))
            }
        }
    }
    Ok(iter(IntTuple::T(coords)))
}

fn iter(coord: IntTuple) -> Value {
    Value::Atom(Box::new(AtomValue::Iter(coord)))
}

/// True if `v` is an ArithmeticTupleIterator.
pub fn is_iter(v: &Value) -> bool {
    matches!(v, Value::Atom(a) if matches!(**a, AtomValue::Iter(_)))
}

/// `M_S|(D&F)=V` as CuTe prints a `MixedBits<S,F>{D}`: S the static bits, F the run-time bits,
/// D their run-time value, V = S|D. Refused as CuTe's `MixedBits` refuses it (its two
/// `static_assert`s), or when D or V is not what that type can print.
pub fn mixed_bits(s: u32, d: u32, f: u32, v: u32) -> R<MixedBits> {
    let text = format!("M_{s}|({d}&{f})={v}");
    if f == 0 {
        return Err(EvalError::rule("Should be at least one dynamic bit in MixedBits.", format!("{text}: F is 0")));
    }
    if s & f != 0 {
        return Err(EvalError::rule(
            "No static/dynamic overlap allowed in MixedBits.",
            format!("{text}: S & F = {}", s & f),
        ));
    }
    if d & !f != 0 {
        return Err(EvalError::rule(
            "MixedBits",
            format!("{text}: the run-time bits {d} are not all in F = {f} (CuTe keeps D & F)"),
        ));
    }
    if v != s | d {
        return Err(EvalError::rule("MixedBits", format!("{text}: the value is S|D = {}", s | d)));
    }
    Ok(MixedBits { s, f, d })
}

/// `A o M_S|(D&F)=V o B`: CuTe's `ComposedLayout<A, MixedBits<S,F>, B>` (A a swizzle or layout,
/// B a layout), what slicing a swizzled layout at a run-time coordinate leaves.
pub fn mixed_composed(outer: Value, m: MixedBits, inner: Value) -> R<Value> {
    let outer = match outer {
        Value::Swizzle(s) => Func::Swizzle(s),
        Value::Layout(l) => Func::Layout(l),
        v => {
            return Err(EvalError::type_err(format!(
                "the outer function of `A o {m} o B` is a swizzle or a layout, got {} `{v}`",
                v.kind()
            ))
            .at_arg(0))
        }
    };
    let inner = match inner {
        Value::Layout(l) => Func::Layout(l),
        v => {
            return Err(EvalError::type_err(format!(
                "the inner layout of `A o {m} o B` is a layout, got {} `{v}`",
                v.kind()
            ))
            .at_arg(2))
        }
    };
    let offset = Int::new(i64::from(m.s | m.d), false);
    Ok(Value::Composed(Box::new(Composed { outer, offset, inner, mixed: Some(TypedOffset::Mixed(m)) })))
}
