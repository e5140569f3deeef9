//! Registry entries for "IntTuple arithmetic and tests" (oracle README group) and the generic
//! tuple helpers (`wrap`, `repeat`, `remove`, ...). An entry refuses the argument kinds it does
//! not take (`nm`: the call's final error; `eval::overloads` chose this form by kind).

use super as tp;
use crate::eval::builtins::b;
use crate::eval::builtins::{Args, Arity::Says, Builtin, MANY};
use crate::eval::error::{EvalError, R};
use crate::eval::int::Int;
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::Layout;
use crate::eval::value::Value;

// ---------------------------------------------------------------------------------------------
// Argument helpers shared by the registry tables of `tuple`, `structure` and `coord`
// ---------------------------------------------------------------------------------------------

/// "Not these argument kinds": the call's refusal (see `Args::refuse`).
pub(crate) fn nm<T>(a: &Args) -> R<T> {
    Err(a.refuse())
}

/// Argument `i` as an IntTuple (refused for other kinds, arity error if missing).
pub(crate) fn tuple_arg<'a>(a: &Args<'a>, i: usize) -> R<&'a IntTuple> {
    match a.arg(i)? {
        Value::Tuple(t) => Ok(t),
        _ => nm(a),
    }
}

/// Argument `i` as an integer (refused for a non-integer).
pub(crate) fn int_arg(a: &Args, i: usize) -> R<Int> {
    match a.arg(i)? {
        Value::Tuple(IntTuple::I(x)) => Ok(*x),
        _ => nm(a),
    }
}

/// Argument `i` as a Layout (refused otherwise).
pub(crate) fn layout_arg<'a>(a: &Args<'a>, i: usize) -> R<&'a Layout> {
    match a.arg(i)? {
        Value::Layout(l) => Ok(l),
        _ => nm(a),
    }
}

/// The shape of an IntTuple or Layout argument (CuTe's `shape(x)`), refused otherwise.
pub(crate) fn shape_arg(a: &Args, i: usize) -> R<IntTuple> {
    match a.arg(i)? {
        Value::Tuple(t) => Ok(t.clone()),
        Value::Layout(l) => Ok(l.shape.clone()),
        _ => nm(a),
    }
}

/// All template arguments as integers.
pub(crate) fn tints(a: &Args) -> R<Vec<i64>> {
    (0..a.targs.len()).map(|i| a.tint(i)).collect()
}

/// Exactly `n` integer template arguments.
pub(crate) fn want_targs(a: &Args, n: usize, name: &str) -> R<Vec<i64>> {
    if a.targs.len() != n {
        return Err(EvalError::arity(format!(
            "{name} needs {n} template argument{}, got {}",
            if n == 1 { "" } else { "s" },
            a.targs.len()
        )));
    }
    tints(a)
}

/// Template arguments as a path of mode indices (`get<2,0>`).
pub(crate) fn path(a: &Args) -> R<Vec<usize>> {
    tints(a)?
        .into_iter()
        .map(|i| usize::try_from(i).map_err(|_| EvalError::rule("Index out of range", format!("negative index {i}"))))
        .collect()
}

/// True for values no function of these modules takes (MMA/copy objects, printed text, tags).
pub(crate) fn foreign(v: &Value) -> bool {
    matches!(v, Value::Atom(_) | Value::Text(_) | Value::Tag(_))
}

/// Refused if any argument is foreign (see [`foreign`]).
pub(crate) fn no_foreign(a: &Args) -> R<()> {
    if a.args.iter().any(|v| foreign(v)) {
        return nm(a);
    }
    Ok(())
}

/// Refused if any argument is a swizzle or a composed layout (the swizzle module's forms).
pub(crate) fn no_swizzle(a: &Args) -> R<()> {
    if a.args.iter().any(|v| matches!(v, Value::Swizzle(_) | Value::Composed(_))) {
        return nm(a);
    }
    Ok(())
}

fn tv(t: IntTuple) -> R<Value> {
    Ok(Value::Tuple(t))
}
fn iv(i: Int) -> R<Value> {
    Ok(Value::Tuple(IntTuple::I(i)))
}

// ---------------------------------------------------------------------------------------------
// Entries
// ---------------------------------------------------------------------------------------------

fn f_product(a: &Args) -> R<Value> {
    let t = tuple_arg(a, 0)?;
    if matches!(t, IntTuple::Under) {
        return tv(IntTuple::Under); // a non-tuple is its own product: `product(_)` is `_`
    }
    iv(tp::product(t)?)
}

fn f_product_each(a: &Args) -> R<Value> {
    let t = tuple_arg(a, 0)?;
    tv(tp::product_each(t)?)
}

fn f_product_like(a: &Args) -> R<Value> {
    let (t, g) = (tuple_arg(a, 0)?, tuple_arg(a, 1)?);
    tv(tp::product_like(t, g)?)
}

/// A single non-tuple, non-integer argument (a layout, a swizzle) that CuTe's variadic
/// `sum`/`max`/`min`/`gcd` return unchanged.
fn passthrough(a: &Args) -> Option<Value> {
    match a.args {
        [v @ (Value::Layout(_) | Value::Swizzle(_) | Value::Composed(_))] if a.targs.is_empty() => {
            Some(Value::clone(v))
        }
        _ => None,
    }
}

fn f_sum(a: &Args) -> R<Value> {
    if let Some(v) = passthrough(a) {
        return Ok(v);
    }
    let t = tuple_arg(a, 0)?;
    tv(tp::sum(t)?)
}

fn f_inner_product(a: &Args) -> R<Value> {
    let (x, y) = (tuple_arg(a, 0)?, tuple_arg(a, 1)?);
    tv(tp::inner_product(x, y)?)
}

fn all_tuples(a: &Args) -> R<Vec<IntTuple>> {
    (0..a.nargs()).map(|i| tuple_arg(a, i).cloned()).collect()
}

fn f_max(a: &Args) -> R<Value> {
    if let Some(v) = passthrough(a) {
        return Ok(v);
    }
    let ts = all_tuples(a)?;
    if let Some(v) = underscore_fold(&ts, "max")? {
        return Ok(v);
    }
    iv(tp::max(&ts)?)
}
fn f_min(a: &Args) -> R<Value> {
    if let Some(v) = passthrough(a) {
        return Ok(v);
    }
    let ts = all_tuples(a)?;
    if let Some(v) = underscore_fold(&ts, "min")? {
        return Ok(v);
    }
    iv(tp::min(&ts)?)
}
fn f_gcd(a: &Args) -> R<Value> {
    if let Some(v) = passthrough(a) {
        return Ok(v);
    }
    let ts = all_tuples(a)?;
    if let Some(v) = underscore_fold(&ts, "gcd")? {
        return Ok(v);
    }
    iv(tp::gcd_all(&ts)?)
}
/// `max`/`min`/`gcd` with a `_` among the leaves: a lone `_` is returned as it is; with other
/// leaves CuTe's variadic recursion cannot deduce its return type (a compile error).
fn underscore_fold(ts: &[IntTuple], name: &str) -> R<Option<Value>> {
    let leaves: Vec<IntTuple> = ts.iter().flat_map(|t| t.leaves()).collect();
    if !leaves.iter().any(|l| matches!(l, IntTuple::Under)) {
        return Ok(None);
    }
    if leaves.len() == 1 {
        return Ok(Some(Value::Tuple(IntTuple::Under)));
    }
    Err(EvalError::rule(
        "return type deduction",
        format!("{name} of `_` and other values: CuTe cannot deduce the result type of its recursion"),
    ))
}

fn f_abs(a: &Args) -> R<Value> {
    if matches!(a.args, [Value::Tuple(IntTuple::Under)]) {
        return iv(crate::eval::int::st(0)); // `_` is an `Int<0>`: abs gives `_0`
    }
    let x = int_arg(a, 0)?;
    iv(tp::abs(x)?)
}

fn two(a: &Args) -> R<(IntTuple, IntTuple)> {
    let (x, y) = (tuple_arg(a, 0)?, tuple_arg(a, 1)?);
    Ok((x.clone(), y.clone()))
}

/// Hook for `ceil_div(shape, Layout)` = `shape(complement(tiler, shape))` (needs `complement`).
pub(crate) fn ceil_div_layout(target: &IntTuple, tiler: &Layout) -> R<IntTuple> {
    crate::eval::ops::structure::ceil_div_by_layout(target, tiler)
}

/// CuTe's `ceil_div` on values that are not both IntTuples: a layout divisor is `layout.hpp`'s
/// `shape(complement(tiler, shape(target)))`; a tiler divides mode by mode (missing modes are
/// `_1`); an integer by a tuple is divided by its size.
fn ceil_div_value(call: &Args, x: &Value, y: &Value) -> R<Value> {
    match (x, y) {
        (Value::Tuple(a), Value::Tuple(b)) => Ok(Value::Tuple(tp::ceil_div(a, b)?)),
        (_, Value::Layout(l)) => match tp::shape_value(x) {
            Value::Tuple(t) => Ok(Value::Tuple(ceil_div_layout(&t, l)?)),
            other => Err(EvalError::type_err(format!("ceil_div: `{other}` is not a shape"))),
        },
        _ => match (tp::Tup::modes_of(x), tp::Tup::modes_of(y)) {
            (Some(xs), Some(ys)) => {
                if ys.len() > xs.len() {
                    return Err(EvalError::rule("Mismatched ranks", format!("ceil_div of `{x}` by `{y}`")));
                }
                let one = Value::Tuple(IntTuple::st(1));
                let v = xs
                    .iter()
                    .enumerate()
                    .map(|(i, xi)| ceil_div_value(call, xi, ys.get(i).unwrap_or(&one)))
                    .collect::<R<Vec<_>>>()?;
                Ok(Value::tuple(v))
            }
            // an integer by a tiler: CuTe's `size` of a tiler is `void`
            (None, Some(_)) => Err(EvalError::type_err(format!("ceil_div: {} `{y}` has no size", y.kind()))),
            _ => nm(call),
        },
    }
}

fn f_ceil_div(a: &Args) -> R<Value> {
    if !matches!(a.args, [Value::Tuple(_), Value::Tuple(_)]) {
        no_foreign(a)?;
        if matches!(a.args.first(), Some(Value::Swizzle(_))) {
            return nm(a);
        }
        return ceil_div_value(a, a.arg(0)?, a.arg(1)?);
    }
    let (x, y) = two(a)?;
    tv(tp::ceil_div(&x, &y)
        .map_err(|e| if e.kind == crate::eval::error::ErrorKind::DivZero { e.at_arg(1) } else { e })?)
}
fn f_shape_div(a: &Args) -> R<Value> {
    let (x, y) = two(a)?;
    tv(tp::shape_div(&x, &y)?)
}
fn f_round_up(a: &Args) -> R<Value> {
    let (x, y) = two(a)?;
    tv(tp::round_up(&x, &y)?)
}
fn f_elem_scale(a: &Args) -> R<Value> {
    let (x, y) = two(a)?;
    tv(tp::elem_scale(&x, &y)?)
}

/// The two arguments of the profile tests, which CuTe defines for any values (layouts,
/// tilers, swizzled layouts: through `shape`).
fn values2<'a>(a: &Args<'a>) -> R<(&'a Value, &'a Value)> {
    no_foreign(a)?;
    Ok((a.arg(0)?, a.arg(1)?))
}

fn f_congruent(a: &Args) -> R<Value> {
    let (x, y) = values2(a)?;
    iv(tp::congruent_value(x, y))
}
fn f_weakly_congruent(a: &Args) -> R<Value> {
    let (x, y) = values2(a)?;
    iv(tp::weakly_congruent_value(x, y)?)
}
fn f_compatible(a: &Args) -> R<Value> {
    let (x, y) = values2(a)?;
    iv(tp::compatible_value(x, y)?)
}
/// `evenly_divides(shape, tiler)` of `layout.hpp` with a tiler of any kind: mode by mode for a
/// tuple tiler (false when it has more modes), else `size(a) == size(b) * size(ceil_div(a, b))`.
fn evenly_divides_value(s: &IntTuple, b: &Value) -> R<crate::eval::int::Int> {
    match b {
        Value::Tuple(t) => tp::evenly_divides(s, t),
        Value::Layout(l) => {
            let q = ceil_div_layout(s, l)?;
            let rhs = tp::size(&l.shape)?.mul(tp::size(&q)?)?;
            Ok(tp::size(s)?.eq(rhs))
        }
        Value::Tile(y) => {
            if y.len() > s.rank() {
                return Ok(crate::eval::int::Int::bool(false, true));
            }
            let mut acc = crate::eval::int::Int::bool(true, true);
            for (k, yi) in y.iter().enumerate() {
                acc = tp::band(acc, evenly_divides_value(&tp::get_mode(s, k)?, yi)?);
            }
            Ok(acc)
        }
        other => Err(EvalError::type_err(format!("evenly_divides by {} `{other}`", other.kind()))),
    }
}

fn f_evenly_divides(a: &Args) -> R<Value> {
    let s = shape_arg(a, 0)?;
    match a.arg(1)? {
        b @ (Value::Tuple(_) | Value::Layout(_) | Value::Tile(_)) => iv(evenly_divides_value(&s, b)?),
        _ => nm(a),
    }
}
/// `{lex,colex,elem}_{less,leq,gtr,geq}(a, b)`: `less(a, b)`, `!less(b, a)`, `less(b, a)`,
/// `!less(a, b)`, as CuTe defines them (`int_tuple.hpp`).
fn compare(a: &Args, order: tp::Order, swap: bool, not: bool) -> R<Value> {
    let (x, y) = (tuple_arg(a, 0)?, tuple_arg(a, 1)?);
    let (p, q) = if swap { (y, x) } else { (x, y) };
    let r = tp::less(order, p, q, a.name)?;
    iv(if not { tp::bnot(r) } else { r })
}
fn f_lex_less(a: &Args) -> R<Value> {
    compare(a, tp::Order::Lex, false, false)
}
fn f_lex_leq(a: &Args) -> R<Value> {
    compare(a, tp::Order::Lex, true, true)
}
fn f_lex_gtr(a: &Args) -> R<Value> {
    compare(a, tp::Order::Lex, true, false)
}
fn f_lex_geq(a: &Args) -> R<Value> {
    compare(a, tp::Order::Lex, false, true)
}
fn f_colex_less(a: &Args) -> R<Value> {
    compare(a, tp::Order::Colex, false, false)
}
fn f_colex_leq(a: &Args) -> R<Value> {
    compare(a, tp::Order::Colex, true, true)
}
fn f_colex_gtr(a: &Args) -> R<Value> {
    compare(a, tp::Order::Colex, true, false)
}
fn f_colex_geq(a: &Args) -> R<Value> {
    compare(a, tp::Order::Colex, false, true)
}
fn f_elem_less(a: &Args) -> R<Value> {
    compare(a, tp::Order::Elem, false, false)
}
fn f_elem_leq(a: &Args) -> R<Value> {
    compare(a, tp::Order::Elem, true, true)
}
fn f_elem_gtr(a: &Args) -> R<Value> {
    compare(a, tp::Order::Elem, true, false)
}
fn f_elem_geq(a: &Args) -> R<Value> {
    compare(a, tp::Order::Elem, false, true)
}

fn f_reverse(a: &Args) -> R<Value> {
    no_foreign(a)?;
    Ok(tp::reverse(a.arg(0)?))
}
fn f_repeat(a: &Args) -> R<Value> {
    no_foreign(a)?;
    let n = want_targs(a, 1, "repeat")?;
    tp::repeat(n[0], a.arg(0)?)
}
fn f_repeat_like(a: &Args) -> R<Value> {
    no_foreign(a)?;
    Ok(tp::repeat_like(a.arg(0)?, a.arg(1)?))
}
fn f_wrap(a: &Args) -> R<Value> {
    no_foreign(a)?;
    Ok(tp::wrap(a.arg(0)?))
}
fn f_unwrap(a: &Args) -> R<Value> {
    no_foreign(a)?;
    Ok(tp::unwrap(a.arg(0)?))
}
fn f_front(a: &Args) -> R<Value> {
    no_foreign(a)?;
    tp::front(a.arg(0)?)
}
fn f_back(a: &Args) -> R<Value> {
    no_foreign(a)?;
    tp::back(a.arg(0)?)
}
fn f_remove(a: &Args) -> R<Value> {
    no_foreign(a)?;
    let n = want_targs(a, 1, "remove")?;
    tp::remove(a.arg(0)?, n[0]).map_err(|e| e.at_arg(0))
}
fn f_insert(a: &Args) -> R<Value> {
    no_foreign(a)?;
    let n = want_targs(a, 1, "insert")?;
    tp::insert(a.arg(0)?, n[0], a.arg(1)?).map_err(|e| e.at_arg(0))
}

fn current_arg(a: &Args) -> R<IntTuple> {
    if a.nargs() == 2 {
        Ok(tuple_arg(a, 1)?.clone())
    } else {
        Ok(IntTuple::st(1))
    }
}
fn f_compact_col_major(a: &Args) -> R<Value> {
    let s = tuple_arg(a, 0)?;
    let c = current_arg(a)?;
    tv(tp::compact_col_major(s, &c)?)
}
fn f_compact_row_major(a: &Args) -> R<Value> {
    let s = tuple_arg(a, 0)?;
    let c = current_arg(a)?;
    tv(tp::compact_row_major(s, &c)?)
}
fn f_compact_order(a: &Args) -> R<Value> {
    let s = tuple_arg(a, 0)?;
    match a.arg(1)? {
        Value::Tuple(o) => tv(tp::compact_order(s, o)?),
        Value::Tag(t) if t == "LayoutLeft" || t == "GenColMajor" => tv(tp::compact_col_major(s, &IntTuple::st(1))?),
        Value::Tag(t) if t == "LayoutRight" || t == "GenRowMajor" => tv(tp::compact_row_major(s, &IntTuple::st(1))?),
        _ => nm(a),
    }
}

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[
    b!("product", "product(t)", "Product of all leaves of an IntTuple (static iff every leaf is)", "product((2,_3))", "6", f_product; Says(1, 1, 1, "product takes 1 argument, got {n}")),
    b!("product_each", "product_each(t)", "Tuple of the products of each mode", "product_each(((2,3),4,(_5,_6)))", "(6,4,_30)", f_product_each; Says(1, 1, 1, "product_each takes 1 argument, got {n}")),
    b!("product_like", "product_like(t, guide)", "Products of t at the leaves of guide", "product_like(((2,3),(4,5)), (_0,_0))", "(6,20)", f_product_like; Says(2, 2, 2, "product_like takes 2 arguments, got {n}")),
    b!("sum", "sum(t)", "Sum of all leaves", "sum((1,_2,(3,_4)))", "10", f_sum; Says(1, 1, 1, "sum takes 1 argument, got {n}")),
    b!("inner_product", "inner_product(a, b)", "Sum of the products of corresponding leaves (ranks must match)", "inner_product((1,2,3),(4,5,6))", "32", f_inner_product; Says(2, 2, 2, "inner_product takes 2 arguments, got {n}")),
    b!("max", "max(t, ...)", "Largest leaf of the arguments", "max((1,_7,3))", "7", f_max; Says(1, MANY, 0, "max needs at least one argument")),
    b!("min", "min(t, ...)", "Smallest leaf of the arguments", "min((_4,2,_6))", "2", f_min; Says(1, MANY, 0, "min needs at least one argument")),
    b!("gcd", "gcd(t, ...)", "Greatest common divisor of all leaves", "gcd((_12,_18))", "_6", f_gcd; Says(1, MANY, 0, "gcd needs at least one argument")),
    b!("abs", "abs(i)", "Absolute value of an integer", "abs(_-3)", "_3", f_abs; Says(1, 1, 1, "abs takes 1 argument, got {n}")),
    b!("ceil_div", "ceil_div(a, b)", "Ceiling division: elementwise for tuples, folded across a for an integer b; b a layout: shape(complement(b, shape(a)))", "ceil_div((_4,_6,_8), _12)", "(_1,_2,_8)", f_ceil_div; Says(2, 2, 0, "ceil_div takes 2 arguments, got {n}")),
    b!("shape_div", "shape_div(a, b)", "Shape division; two static integers must divide one another (Divisibility Condition)", "shape_div((_4,_6,_8), _12)", "(_1,_2,_8)", f_shape_div; Says(2, 2, 2, "shape_div takes 2 arguments, got {n}")),
    b!("round_up", "round_up(a, b)", "Round a up to a multiple of b (elementwise for tuples)", "round_up((_5,7), (_4,_4))", "(_8,8)", f_round_up; Says(2, 2, 2, "round_up takes 2 arguments, got {n}")),
    b!("elem_scale", "elem_scale(a, b)", "a scaled at each leaf by the product of the matching mode of b", "elem_scale((2,3), (4,(5,6)))", "(8,90)", f_elem_scale; Says(2, 2, 2, "elem_scale takes 2 arguments, got {n}")),
    b!("congruent", "congruent(a, b)", "Static test: same profile (hierarchical rank structure)", "congruent((2,3), (4,5))", "_1", f_congruent; Says(2, 2, 0, "congruent takes 2 arguments, got {n}")),
    b!("weakly_congruent", "weakly_congruent(a, b)", "Static test: the profile of a is a coarsening of the profile of b", "weakly_congruent((2,3), (4,(5,6)))", "_1", f_weakly_congruent; Says(2, 2, 0, "weakly_congruent takes 2 arguments, got {n}")),
    b!("compatible", "compatible(a, b)", "Test: every coordinate of a is one of b (sizes agree at a's leaves); dynamic when sizes are", "compatible(24, (4,6))", "1", f_compatible; Says(2, 2, 0, "compatible takes 2 arguments, got {n}")),
    b!("evenly_divides", "evenly_divides(shape, tiler)", "Test: the tiler divides the shape evenly in every mode", "evenly_divides((_8,_6), (_4,_3))", "_1", f_evenly_divides; Says(2, 2, 1, "evenly_divides takes 2 arguments, got {n}")),
    b!("lex_less", "lex_less(a, b)", "Lexicographic less-than (first mode most significant)", "lex_less((1,2),(2,1))", "1", f_lex_less; Says(2, 2, 2, "lex_less takes 2 arguments, got {n}")),
    b!("colex_less", "colex_less(a, b)", "Colexicographic less-than (last mode most significant)", "colex_less((1,2),(2,1))", "0", f_colex_less; Says(2, 2, 2, "colex_less takes 2 arguments, got {n}")),
    b!("elem_less", "elem_less(a, b)", "Elementwise less-than in every mode", "elem_less((_1,_2),(_2,_3))", "_1", f_elem_less; Says(2, 2, 2, "elem_less takes 2 arguments, got {n}")),
    b!("lex_leq", "lex_leq(a, b)", "Lexicographic less-or-equal: !lex_less(b, a)", "lex_leq((1,2),(1,2))", "1", f_lex_leq; Says(2, 2, 2, "lex_leq takes 2 arguments, got {n}")),
    b!("lex_gtr", "lex_gtr(a, b)", "Lexicographic greater-than: lex_less(b, a)", "lex_gtr((2,1),(1,2))", "1", f_lex_gtr; Says(2, 2, 2, "lex_gtr takes 2 arguments, got {n}")),
    b!("lex_geq", "lex_geq(a, b)", "Lexicographic greater-or-equal: !lex_less(a, b)", "lex_geq((_1,_2),(_1,_3))", "_0", f_lex_geq; Says(2, 2, 2, "lex_geq takes 2 arguments, got {n}")),
    b!("colex_leq", "colex_leq(a, b)", "Colexicographic less-or-equal: !colex_less(b, a)", "colex_leq((1,2),(2,1))", "0", f_colex_leq; Says(2, 2, 2, "colex_leq takes 2 arguments, got {n}")),
    b!("colex_gtr", "colex_gtr(a, b)", "Colexicographic greater-than: colex_less(b, a)", "colex_gtr((1,2),(2,1))", "1", f_colex_gtr; Says(2, 2, 2, "colex_gtr takes 2 arguments, got {n}")),
    b!("colex_geq", "colex_geq(a, b)", "Colexicographic greater-or-equal: !colex_less(a, b)", "colex_geq((1,2),(2,1))", "1", f_colex_geq; Says(2, 2, 2, "colex_geq takes 2 arguments, got {n}")),
    b!("elem_leq", "elem_leq(a, b)", "Elementwise less-or-equal: !elem_less(b, a) (not every mode of b less than a's)", "elem_leq((_1,_2),(_2,_3))", "_1", f_elem_leq; Says(2, 2, 2, "elem_leq takes 2 arguments, got {n}")),
    b!("elem_gtr", "elem_gtr(a, b)", "Elementwise greater-than: elem_less(b, a)", "elem_gtr((_2,_3),(_1,_2))", "_1", f_elem_gtr; Says(2, 2, 2, "elem_gtr takes 2 arguments, got {n}")),
    b!("elem_geq", "elem_geq(a, b)", "Elementwise greater-or-equal: !elem_less(a, b) (not every mode of a less than b's)", "elem_geq((1,5),(2,3))", "1", f_elem_geq; Says(2, 2, 2, "elem_geq takes 2 arguments, got {n}")),
    b!("reverse", "reverse(t)", "The modes in reverse order", "reverse((1,_2,3))", "(3,_2,1)", f_reverse; Says(1, 1, 0, "reverse takes 1 argument, got {n}")),
    b!("repeat", "repeat<N>(x)", "A tuple of N copies of x (x itself for N = 1)", "repeat<3>(_1)", "(_1,_1,_1)", f_repeat; Says(1, 1, 0, "repeat<N>(x) takes 1 argument")),
    b!("repeat_like", "repeat_like(t, x)", "x at every leaf of t", "repeat_like((2,(3,4)), _0)", "(_0,(_0,_0))", f_repeat_like; Says(2, 2, 0, "repeat_like takes 2 arguments, got {n}")),
    b!("wrap", "wrap(x)", "A non-tuple as a rank-1 tuple; a tuple unchanged", "wrap(5)", "(5)", f_wrap; Says(1, 1, 0, "wrap takes 1 argument, got {n}")),
    b!("unwrap", "unwrap(t)", "Strip rank-1 tuples", "unwrap(((5)))", "5", f_unwrap; Says(1, 1, 0, "unwrap takes 1 argument, got {n}")),
    b!("front", "front(t)", "The first leaf", "front(((2,3),4))", "2", f_front; Says(1, 1, 0, "front takes 1 argument, got {n}")),
    b!("back", "back(t)", "The last leaf", "back((2,(3,4)))", "4", f_back; Says(1, 1, 0, "back takes 1 argument, got {n}")),
    b!("remove", "remove<N>(t)", "t without mode N", "remove<1>((1,2,3))", "(1,3)", f_remove; Says(1, 1, 0, "remove<N>(t) takes 1 argument")),
    b!("insert", "insert<N>(t, x)", "t with x inserted as mode N", "insert<1>((1,3), 2)", "(1,2,3)", f_insert; Says(2, 2, 0, "insert<N>(t, x) takes 2 arguments")),
    b!("compact_col_major", "compact_col_major(shape [, current])", "Column-major (LayoutLeft) strides of a shape; static size-1 modes get _0", "compact_col_major((2,(_3,4)))", "(_1,(2,6))", f_compact_col_major; Says(1, 2, 1, "compact_col_major takes 1 to 2 arguments, got {n}")),
    b!("compact_row_major", "compact_row_major(shape [, current])", "Row-major (LayoutRight) strides of a shape", "compact_row_major((2,(_3,4)))", "(12,(4,_1))", f_compact_row_major; Says(1, 2, 1, "compact_row_major takes 1 to 2 arguments, got {n}")),
    b!("compact_order", "compact_order(shape, order)", "Compact strides ordered by the leaves of order (dynamic orders count as largest)", "compact_order((2,3,4), (_1,_0,_2))", "(3,_1,6)", f_compact_order; Says(2, 2, 1, "compact_order takes 2 arguments, got {n}")),
];
