//! Small helpers specific to the algebra: scalar CuTe arithmetic on `Int` (ceil_div, signum),
//! the shape of a layout as flat `(shape, stride)` pairs, mode access and concatenation of
//! layouts exactly as CuTe's `get<I>(layout)` / `make_layout(l0, l1, ...)` build them, and a
//! fast evaluator used to check laws (`R(i) == A(B(i))`) after the fact.

use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::IntTuple::{self, Basis, Under, I, T};
use crate::eval::layout::Layout;

/// CuTe's scalar `ceil_div(a, b) = (a + b - _1) / b`, static only if both are.
pub fn ceil_div_i(a: Int, b: Int) -> R<Int> {
    a.add(b)?.sub(st(1))?.div(b)
}

/// CuTe's `signum`: static for a static argument.
pub fn signum(a: Int) -> Int {
    Int::new(a.v.signum(), a.s)
}

/// CuTe's `safe_div` on a static divisor: plain integer division (static only if both are;
/// a static-static division must be exact).
pub fn safe_div(a: Int, b: Int) -> R<Int> {
    if a.s && b.s && b.v != 0 && a.v % b.v != 0 {
        return Err(EvalError::rule("safe_div", format!("static safe_div requires {a} % {b} == 0")));
    }
    a.div(b)
}

/// The integer at a leaf, or a type error naming what the algebra cannot handle.
pub fn leaf_int(t: &IntTuple, what: &str) -> R<Int> {
    match t {
        I(i) => Ok(*i),
        Under => Err(EvalError::type_err(format!("{what}: `_` is not an integer here"))),
        Basis(..) => Err(EvalError::type_err(format!(
            "{what}: ScaledBasis strides ({t}) are not supported by this operation"
        ))),
        T(_) => Err(EvalError::type_err(format!("{what}: expected an integer, got the tuple {t}"))),
    }
}

/// Flat leaves of shape and stride, paired (CuTe flattens both separately and indexes them
/// together, so they need the same number of leaves, not the same nesting).
pub fn flat_pairs(l: &Layout, what: &str) -> R<Vec<(Int, Int)>> {
    let s = l.shape.leaves();
    let d = l.stride.leaves();
    if s.len() != d.len() {
        return Err(EvalError::rule(
            "mismatched ranks",
            format!("{what}: shape {} and stride {} have different numbers of modes", l.shape, l.stride),
        ));
    }
    s.iter().zip(d.iter()).map(|(a, b)| Ok((leaf_int(a, what)?, leaf_int(b, what)?))).collect()
}

/// Build a layout from flat modes: a single mode is a plain integer layout `s:d`, more are a
/// flat tuple (this is how `bw_coalesce` ends).
pub fn from_pairs(v: &[(Int, Int)]) -> Layout {
    if v.len() == 1 {
        Layout::new(I(v[0].0), I(v[0].1))
    } else {
        Layout::new(T(v.iter().map(|p| I(p.0)).collect()), T(v.iter().map(|p| I(p.1)).collect()))
    }
}

/// `get<i>(t)` on an IntTuple: element `i` of a tuple, or the non-tuple itself for `i == 0`.
pub fn get_mode(t: &IntTuple, i: usize) -> R<IntTuple> {
    match t {
        T(v) => v.get(i).cloned().ok_or_else(|| {
            EvalError::rule("index out of range", format!("mode {i} of {t}, which has rank {}", v.len()))
        }),
        x if i == 0 => Ok(x.clone()),
        x => Err(EvalError::rule("index out of range", format!("mode {i} of {x}, which has rank 1"))),
    }
}

/// `rank(layout)`: the rank of its shape.
pub fn lrank(l: &Layout) -> usize {
    l.shape.rank()
}

/// `get<i>(layout)` (= `layout<i>`): the i-th sub-layout.
pub fn lmode(l: &Layout, i: usize) -> R<Layout> {
    Ok(Layout::new(get_mode(&l.shape, i)?, get_mode(&l.stride, i)?))
}

/// `make_layout(l0, l1, ...)`: concatenation; one layout gives a rank-1 tuple `(s):(d)`.
pub fn concat(ls: Vec<Layout>) -> Layout {
    let (s, d): (Vec<_>, Vec<_>) = ls.into_iter().map(|l| (l.shape, l.stride)).unzip();
    Layout::new(T(s), T(d))
}

/// `wrap(t)`: a non-tuple becomes a rank-1 tuple.
pub fn wrap(t: &IntTuple) -> Vec<IntTuple> {
    match t {
        T(v) => v.clone(),
        x => vec![x.clone()],
    }
}

/// `unwrap(t)`: strip rank-1 tuples.
pub fn unwrap(t: IntTuple) -> IntTuple {
    match t {
        T(mut v) if v.len() == 1 => unwrap(v.pop().unwrap_or(T(vec![]))),
        x => x,
    }
}

/// `append(t, x)`: a non-tuple `t` becomes `(t, x)`.
pub fn append(t: IntTuple, x: IntTuple) -> IntTuple {
    match t {
        T(mut v) => {
            v.push(x);
            T(v)
        }
        a => T(vec![a, x]),
    }
}

/// `append<N>(t, x)`: pad `t` with `x` up to rank `n` (a non-tuple stays itself for `n == 1`).
pub fn append_n(t: &IntTuple, n: usize, x: &IntTuple) -> R<IntTuple> {
    match t {
        T(v) => {
            if n < v.len() {
                return Err(EvalError::rule("append", format!("cannot append {t} to rank {n}")));
            }
            let mut v = v.clone();
            v.resize(n, x.clone());
            Ok(T(v))
        }
        a if n <= 1 => Ok(a.clone()),
        a => {
            let mut v = vec![a.clone()];
            v.resize(n, x.clone());
            Ok(T(v))
        }
    }
}

/// `append<N>(layout)`: pad with `_1:_0` modes up to rank `n`.
pub fn append_layout_n(l: &Layout, n: usize) -> R<Layout> {
    Ok(Layout::new(append_n(&l.shape, n, &I(st(1)))?, append_n(&l.stride, n, &I(st(0)))?))
}

/// CuTe's `product`: `_1` for `()`, the integer itself, else the left fold of `*`.
pub fn product(t: &IntTuple) -> R<Int> {
    match t {
        I(i) => Ok(*i),
        T(v) => {
            let mut it = v.iter();
            let Some(first) = it.next() else { return Ok(st(1)) };
            let mut acc = product(first)?;
            for e in it {
                acc = acc.mul(product(e)?)?;
            }
            Ok(acc)
        }
        x => leaf_int(x, "product"),
    }
}

/// Evaluate a layout at a 1-D index the way CuTe's `crd2idx(int, shape, stride)` does (the
/// last mode takes the rest). `None` where CuTe would not compile or the value overflows.
pub fn eval_idx(shape: &IntTuple, stride: &IntTuple, c: i64) -> Option<i64> {
    match (shape, stride) {
        (I(_), I(d)) => c.checked_mul(d.v),
        (T(ss), T(ds)) => {
            if ss.len() != ds.len() || ss.is_empty() {
                return None;
            }
            let n = ss.len();
            let mut acc: i64 = 0;
            let mut c = c;
            for k in 0..n - 1 {
                let p = product(&ss[k]).ok()?.v;
                if p == 0 {
                    return None;
                }
                let (div, m) = (c / p, c % p);
                acc = acc.checked_add(eval_idx(&ss[k], &ds[k], m)?)?;
                c = div;
            }
            acc.checked_add(eval_idx(&ss[n - 1], &ds[n - 1], c)?)
        }
        _ => None,
    }
}

/// Size of a layout's domain as a plain number, if it can be computed.
pub fn size_of(l: &Layout) -> Option<i64> {
    product(&l.shape).ok().map(|i| i.v)
}

/// Compact column-major strides of `shape` starting at `current` (CuTe's
/// `compact_major<LayoutLeft>(shape, current)`; a static `_1` mode gets stride `_0`).
pub fn compact_col_major(shape: &IntTuple, current: Int) -> R<IntTuple> {
    fn go(s: &IntTuple, cur: Int) -> R<(IntTuple, Int)> {
        match s {
            T(v) => {
                let mut out = Vec::with_capacity(v.len());
                let mut c = cur;
                for e in v {
                    let (r, n) = go(e, c)?;
                    out.push(r);
                    c = n;
                }
                Ok((T(out), c))
            }
            I(i) if i.is_const(1) => Ok((I(st(0)), cur)),
            I(i) => Ok((I(cur), cur.mul(*i)?)),
            x => Err(EvalError::type_err(format!("compact_col_major: expected a shape, got {x}"))),
        }
    }
    Ok(go(shape, current)?.0)
}

/// CuTe's `ceil_div` on IntTuples (tuple/tuple elementwise with missing modes of `b` = 1,
/// tuple/int folded left to right, int/tuple by the product).
pub fn ceil_div_t(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    match (a, b) {
        (T(av), T(bv)) => {
            if av.len() < bv.len() {
                return Err(EvalError::rule("mismatched ranks", format!("ceil_div({a}, {b})")));
            }
            let one = I(st(1));
            av.iter()
                .enumerate()
                .map(|(k, x)| ceil_div_t(x, bv.get(k).unwrap_or(&one)))
                .collect::<R<Vec<_>>>()
                .map(T)
        }
        (T(av), _) => {
            let mut rest = b.clone();
            let mut out = Vec::with_capacity(av.len());
            for x in av {
                out.push(ceil_div_t(x, &rest)?);
                rest = ceil_div_t(&rest, x)?;
            }
            Ok(T(out))
        }
        (_, T(_)) => Ok(I(ceil_div_i(leaf_int(a, "ceil_div")?, product(b)?)?)),
        _ => Ok(I(ceil_div_i(leaf_int(a, "ceil_div")?, leaf_int(b, "ceil_div")?)?)),
    }
}

/// `cute::gcd(t, u)` exactly (Euclid with C++ `%`; the sign follows the inputs), static only if
/// both are.
pub fn gcd_i(a: Int, b: Int) -> Int {
    let (mut t, mut u) = (a.v, b.v);
    let v = loop {
        if t == 0 {
            break u;
        }
        u = u.wrapping_rem(t);
        if u == 0 {
            break t;
        }
        t = t.wrapping_rem(u);
    };
    Int::new(v, a.s && b.s)
}

/// CuTe's `exchange_sort` of (key, value) pairs by key (not stable; reproduced exactly since
/// the order of equal keys is visible in the results of the inverses).
pub fn exchange_sort_by_key(mut a: Vec<(i64, usize)>) -> Vec<(i64, usize)> {
    let n = a.len();
    for i in 0..n {
        for j in i + 1..n {
            if a[j].0 < a[i].0 {
                a.swap(i, j);
            }
        }
    }
    a
}

/// CuTe's `cosize(L)` for integer strides: `inner_product(shape - _1, abs(stride)) + _1`, where
/// each tuple level sums as `_0 + v0 + v1 + ...` (static only if every term is).
pub fn cosize(l: &Layout) -> R<Int> {
    fn ip(s: &IntTuple, d: &IntTuple) -> R<Int> {
        match (s, d) {
            (T(sv), T(dv)) => {
                if sv.len() != dv.len() {
                    return Err(EvalError::rule("mismatched ranks", format!("cosize: shape {s} and stride {d}")));
                }
                let mut acc = st(0);
                for (a, b) in sv.iter().zip(dv) {
                    acc = acc.add(ip(a, b)?)?;
                }
                Ok(acc)
            }
            (I(a), I(b)) => a.sub(st(1))?.mul(b.abs()?),
            _ => Err(EvalError::type_err(format!("cosize: shape {s} and stride {d} are not congruent integers"))),
        }
    }
    ip(&l.shape, &l.stride)?.add(st(1))
}
