//! Lowering layout values (Layout, Swizzle, ComposedLayout) to integer expressions, following
//! CuTe's `crd2idx`/`Swizzle::apply`/`ComposedLayout::operator()` case by case, plus the few
//! layout facts the generator needs (inverse of a thread layout, tile_to_shape).
//!
//! `host_eval` is a direct (non-Expr) evaluation used to validate layouts before generation;
//! the tests compare the lowered expressions with the algebra's own evaluator.
//! May import: `eval` (values, errors, the built-in registry), `runtime::expr`.

use super::expr::{add, bin, div, lit, mul, rem, Expr, Op};
use crate::eval::builtins;
use crate::eval::error::{ErrorKind, EvalError, R};
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::layout::{Composed, Func, Layout, Swizzle};
use crate::eval::value::Value;

/// The integer leaves of a tuple, refusing `_` and scaled bases.
pub fn int_leaves(t: &IntTuple) -> R<Vec<i64>> {
    t.leaves()
        .iter()
        .map(|l| match l {
            IntTuple::I(i) => Ok(i.v),
            other => {
                Err(EvalError::type_err(format!("the GEMM generator needs integer shapes and strides, got `{other}`")))
            }
        })
        .collect()
}

/// `product(t)` of an integer tuple.
pub fn product(t: &IntTuple) -> R<i64> {
    int_leaves(t)?
        .into_iter()
        .try_fold(1i64, |a, b| a.checked_mul(b).ok_or_else(|| EvalError::limit(format!("size of {t} overflows"))))
}

/// CuTe `crd2idx(coord, shape, stride)` for an integer coordinate `x` (an Expr).
/// Tuple shape: colexicographic split, the last mode takes the remainder without `%`
/// (CuTe's `crd2idx_itt`).
fn crd2idx_int(x: Expr, shape: &IntTuple, stride: &IntTuple) -> R<Expr> {
    match (shape.view(), stride.view()) {
        (V::T(ss), V::T(ds)) => {
            if ss.len() != ds.len() {
                return Err(EvalError::rule(
                    "shape and stride congruence",
                    format!("{shape} and {stride} have different ranks"),
                ));
            }
            if ss.is_empty() {
                return Ok(lit(0));
            }
            let mut acc = lit(0);
            let mut cur = x;
            for (k, (s, d)) in ss.iter().zip(ds.iter()).enumerate() {
                if k + 1 == ss.len() {
                    acc = add(acc, crd2idx_int(cur.clone(), s, d)?);
                } else {
                    let n = product(s)?;
                    acc = add(acc, crd2idx_int(rem(cur.clone(), lit(n)), s, d)?);
                    cur = div(cur, lit(n));
                }
            }
            Ok(acc)
        }
        (V::I(_), V::I(d)) => Ok(mul(x, lit(d.v))),
        (V::T(_), _) | (_, V::T(_)) => {
            Err(EvalError::rule("shape and stride congruence", format!("{shape} and {stride} are not congruent")))
        }
        _ => Err(EvalError::type_err(format!(
            "the GEMM generator needs integer shapes and strides, got {shape}:{stride}"
        ))),
    }
}

/// A layout at an integer index: `L(i)`.
pub fn layout_at_idx(l: &Layout, x: Expr) -> R<Expr> {
    crd2idx_int(x, &l.shape, &l.stride)
}

/// A layout at a coordinate with one integer per top-level mode: `L(c0, c1, ...)`.
pub fn layout_at_crd(l: &Layout, crd: &[Expr]) -> R<Expr> {
    if crd.len() == 1 {
        return layout_at_idx(l, crd[0].clone());
    }
    let (ss, ds) = (l.shape.modes(), l.stride.modes());
    if ss.len() != crd.len() || ds.len() != crd.len() {
        return Err(EvalError::rule(
            "coordinate rank",
            format!("a coordinate of rank {} for the layout {l} of rank {}", crd.len(), ss.len()),
        ));
    }
    let mut acc = lit(0);
    for ((c, s), d) in crd.iter().zip(&ss).zip(&ds) {
        acc = add(acc, crd2idx_int(c.clone(), s, d)?);
    }
    Ok(acc)
}

/// `Swizzle<B,M,S>::apply(x) = x ^ shiftr(x & yyy_msk, S)`.
pub fn swizzle_expr(sw: &Swizzle, x: Expr) -> R<Expr> {
    let (b, m, s) = (sw.b as i64, sw.m as i64, sw.s as i64);
    if !(0..=30).contains(&b) || !(0..=30).contains(&m) || s.abs() > 30 || s.abs() < b {
        return Err(EvalError::rule("swizzle parameters", format!("{sw} is not a valid swizzle for the kernel")));
    }
    if b == 0 {
        return Ok(x);
    }
    let bit_msk = (1i64 << b) - 1;
    let yyy = bit_msk << (m + s.max(0));
    let masked = bin(Op::And, x.clone(), lit(yyy));
    let shifted = if s >= 0 { bin(Op::Shr, masked, lit(s)) } else { bin(Op::Shl, masked, lit(-s)) };
    Ok(bin(Op::Xor, x, shifted))
}

/// A layout-like function at an integer: Layout, Swizzle or Composed.
pub fn func_at_idx(f: &Func, x: Expr) -> R<Expr> {
    match f {
        Func::Layout(l) => layout_at_idx(l, x),
        Func::Swizzle(s) => swizzle_expr(s, x),
        Func::Composed(c) => composed_at(c, &[x]),
    }
}

/// `ComposedLayout<A,O,B>(crd) = A(O + B(crd))`.
pub fn composed_at(c: &Composed, crd: &[Expr]) -> R<Expr> {
    let inner = match &c.inner {
        Func::Layout(l) => layout_at_crd(l, crd)?,
        Func::Composed(cc) => composed_at(cc, crd)?,
        Func::Swizzle(s) if crd.len() == 1 => swizzle_expr(s, crd[0].clone())?,
        Func::Swizzle(s) => return Err(EvalError::type_err(format!("{s} takes an integer, not a coordinate"))),
    };
    func_at_idx(&c.outer, add(lit(c.offset.v), inner))
}

/// Any layout value at a coordinate (one Expr per top-level mode, or one integer).
pub fn value_at(v: &Value, crd: &[Expr]) -> R<Expr> {
    match v {
        Value::Layout(l) => layout_at_crd(l, crd),
        Value::Composed(c) => composed_at(c, crd),
        Value::Swizzle(s) if crd.len() == 1 => swizzle_expr(s, crd[0].clone()),
        other => Err(EvalError::type_err(format!("expected a layout, got {} `{other}`", other.kind()))),
    }
}

/// Evaluate a layout value at a concrete coordinate through the same lowering (host side).
pub fn host_eval(v: &Value, crd: &[i64]) -> R<i64> {
    let e = value_at(v, &crd.iter().map(|&c| lit(c)).collect::<Vec<_>>())?;
    e.as_lit().ok_or_else(|| EvalError::runtime("gemm", format!("could not evaluate {v} at {crd:?}")))
}

/// Top-level mode sizes of a layout value's domain.
pub fn mode_sizes(v: &Value) -> R<Vec<i64>> {
    let shape = domain_shape(v)?;
    shape.modes().iter().map(product).collect()
}

/// The domain shape of a layout value (a Composed's is its inner layout's).
pub fn domain_shape(v: &Value) -> R<IntTuple> {
    fn of_func(f: &Func) -> R<IntTuple> {
        match f {
            Func::Layout(l) => Ok(l.shape.clone()),
            Func::Composed(c) => of_func(&c.inner),
            Func::Swizzle(s) => Err(EvalError::type_err(format!("{s} alone has no shape; compose it with a layout"))),
        }
    }
    match v {
        Value::Layout(l) => Ok(l.shape.clone()),
        Value::Composed(c) => of_func(&c.inner),
        other => Err(EvalError::type_err(format!("expected a layout, got {} `{other}`", other.kind()))),
    }
}

/// `tile_to_shape(block, trg)` through the algebra's built-in; until that exists, a direct
/// construction of `blocked_product(block, make_layout(ceil_div(trg, shape(block))))` for
/// blocks whose image is compact.
pub fn tile_to_shape(block: &Value, trg: &[i64]) -> R<Value> {
    let trg_t = IntTuple::T(trg.iter().map(|&t| IntTuple::st(t)).collect());
    match builtins::call("tile_to_shape", &[], &[block.clone(), Value::Tuple(trg_t)]) {
        Err(e) if e.kind == ErrorKind::Unknown => tile_to_shape_fallback(block, trg),
        r => r,
    }
}

/// `tile_to_shape(block, trg, order)`: the blocks repeated in the order of `order` (CuTe's
/// `Step<...>`, e.g. `(2,1,3)`: along the second mode first).
pub fn tile_to_shape_ordered(block: &Value, trg: &[i64], order: &[i64]) -> R<Value> {
    let tup = |v: &[i64]| Value::Tuple(IntTuple::T(v.iter().map(|&t| IntTuple::st(t)).collect()));
    builtins::call("tile_to_shape", &[], &[block.clone(), tup(trg), tup(order)])
}

fn tile_to_shape_fallback(block: &Value, trg: &[i64]) -> R<Value> {
    match block {
        Value::Composed(c) => {
            let inner: Value = c.inner.clone().into();
            let tiled = tile_to_shape_fallback(&inner, trg)?;
            let inner = match tiled {
                Value::Layout(l) => Func::Layout(l),
                Value::Composed(cc) => Func::Composed(cc),
                _ => return Err(EvalError::type_err("tile_to_shape gave no layout")),
            };
            Ok(Value::Composed(Box::new(Composed { outer: c.outer.clone(), offset: c.offset, inner, mixed: None })))
        }
        Value::Layout(l) => {
            let (ss, ds) = (l.shape.modes(), l.stride.modes());
            if ss.len() > trg.len() {
                return Err(EvalError::rule(
                    "tile_to_shape",
                    format!("rank of layout {l} must be <= rank of the target shape {trg:?}"),
                ));
            }
            let size = product(&l.shape)?;
            let cosize = cosize(block)?;
            if cosize != size {
                return Err(EvalError::rule(
                    "tile_to_shape",
                    format!("{l} is not compact (size {size}, cosize {cosize})"),
                ));
            }
            let mut shape = Vec::new();
            let mut stride = Vec::new();
            let mut rep = cosize;
            for (i, &t) in trg.iter().enumerate() {
                let (s, d) = match (ss.get(i), ds.get(i)) {
                    (Some(s), Some(d)) => (s.clone(), d.clone()),
                    _ => (IntTuple::st(1), IntTuple::st(0)),
                };
                let bs = product(&s)?;
                if bs <= 0 || t % bs != 0 {
                    return Err(EvalError::rule(
                        "tile_to_shape",
                        format!("block shape {} does not divide the target shape {trg:?}", l.shape),
                    ));
                }
                let p = t / bs;
                shape.push(IntTuple::T(vec![s, IntTuple::st(p)]));
                stride.push(IntTuple::T(vec![d, IntTuple::st(if p == 1 { 0 } else { rep })]));
                rep *= p;
            }
            Ok(Value::Layout(Layout::new(IntTuple::T(shape), IntTuple::T(stride))))
        }
        other => Err(EvalError::type_err(format!("tile_to_shape needs a layout, got {} `{other}`", other.kind()))),
    }
}

/// Largest value + 1 over the domain (brute force; domains here are at most a few 100k points).
pub fn cosize(v: &Value) -> R<i64> {
    let sizes = mode_sizes(v)?;
    let total: i64 = sizes.iter().product();
    if total > 1 << 22 {
        return Err(EvalError::limit(format!("layout {v} has {total} elements; the kernel needs a tile-sized layout")));
    }
    let e = value_at(v, &[super::expr::var("i", 0, total)])?;
    let mut mx = 0i64;
    for i in 0..total {
        let y = e.eval(&|_| i).ok_or_else(|| EvalError::runtime("gemm", "layout evaluation failed"))?;
        mx = mx.max(y);
    }
    Ok(mx + 1)
}

/// For a layout `T` that maps coordinates bijectively onto `[0, size)` (a thread layout),
/// the coordinate of index `t` in each top-level mode, as expressions of `t`.
/// This is `idx2crd(right_inverse(T)(t), shape(T))`, built from the sorted strides.
pub fn inverse_coords(t_layout: &Layout, t: Expr) -> R<Vec<Expr>> {
    let modes_s = t_layout.shape.modes();
    let modes_d = t_layout.stride.modes();
    if modes_s.len() != modes_d.len() {
        return Err(EvalError::rule("shape and stride congruence", format!("{t_layout} is not congruent")));
    }
    // leaves: (mode, weight of the leaf within its mode (colex), shape, stride)
    let mut leaves = Vec::new();
    for (mi, (s, d)) in modes_s.iter().zip(&modes_d).enumerate() {
        let ss = int_leaves(s)?;
        let dd = int_leaves(d)?;
        if ss.len() != dd.len() {
            return Err(EvalError::rule("shape and stride congruence", format!("{t_layout} is not congruent")));
        }
        let mut w = 1i64;
        for (s, d) in ss.into_iter().zip(dd) {
            if s != 1 {
                leaves.push((mi, w, s, d));
            }
            w *= s;
        }
    }
    let mut sorted = leaves.clone();
    sorted.sort_by_key(|l| l.3);
    let mut expect = 1i64;
    for l in &sorted {
        if l.3 != expect {
            return Err(EvalError::rule(
                "thread layout",
                format!("{t_layout} does not map its coordinates one-to-one onto 0..{}", product(&t_layout.shape)?),
            ));
        }
        expect *= l.2;
    }
    let mut out = vec![lit(0); modes_s.len()];
    for (mi, w, s, d) in leaves {
        let c = rem(div(t.clone(), lit(d)), lit(s));
        out[mi] = add(out[mi].clone(), mul(c, lit(w)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::int::st;

    fn lay(shape: IntTuple, stride: IntTuple) -> Layout {
        Layout::new(shape, stride)
    }
    fn t(v: &[i64]) -> IntTuple {
        IntTuple::T(v.iter().map(|&x| IntTuple::st(x)).collect())
    }

    #[test]
    fn swizzled_atom() {
        let atom = Composed {
            outer: Func::Swizzle(Swizzle { b: 3, m: 3, s: 3 }),
            offset: st(0),
            inner: Func::Layout(lay(t(&[8, 64]), t(&[64, 1]))),
            mixed: None,
        };
        let v = Value::Composed(Box::new(atom));
        // row 1, col 0: 64 -> bits 6..8 = 1 -> xor into bits 3..5 -> 64 ^ 8 = 72
        assert_eq!(host_eval(&v, &[1, 0]).unwrap(), 72);
        let tiled = tile_to_shape(&v, &[128, 64, 3]).unwrap();
        assert_eq!(mode_sizes(&tiled).unwrap(), vec![128, 64, 3]);
        assert_eq!(cosize(&tiled).unwrap(), 128 * 64 * 3);
    }

    #[test]
    fn inverse_of_thread_layout() {
        let l = lay(t(&[64, 4]), t(&[4, 1]));
        let c = inverse_coords(&l, super::super::expr::var("tid", 0, 256)).unwrap();
        assert_eq!(c[0].to_c(false), "tid / 4");
        assert_eq!(c[1].to_c(false), "tid % 4");
        for tid in 0..256 {
            let a = c[0].eval(&|_| tid).unwrap();
            let b = c[1].eval(&|_| tid).unwrap();
            assert_eq!(host_eval(&Value::Layout(l.clone()), &[a, b]).unwrap(), tid);
        }
    }
}
