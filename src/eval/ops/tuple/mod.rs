//! IntTuple arithmetic, tests and structure: CuTe's `int_tuple.hpp`, `algorithm/tuple_algorithms.hpp`
//! and the compact-stride generators of `stride.hpp`, ported case by case with CuTe's
//! static/dynamic rules.
//!
//! Every recursive function is split on the shape of its arguments (`tuple tuple`, `tuple int`,
//! `int tuple`, `int int`), exactly as the C++ is; each `static_assert` becomes an
//! `EvalError::rule` named after CuTe's message.
//!
//! Structural helpers (`take`, `select`, `append`, ...) are generic over [`Tup`], so they work on
//! IntTuples and on heterogeneous values (tilers, tuples of layouts) alike.
//!
//! May import: `eval::{int, int_tuple, error, value, builtins}`.

pub(crate) mod builtins;
pub use builtins::BUILTINS;

use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::{IntTuple, IntTuple::*, TupleBuilder, T, V};
use crate::eval::value::Value;

// ---------------------------------------------------------------------------------------------
// Generic tuple view
// ---------------------------------------------------------------------------------------------

/// Something CuTe treats as "a tuple or a non-tuple": IntTuples and Values.
pub trait Tup: Clone + std::fmt::Display {
    /// The modes if this is a tuple (`is_tuple`), else `None`.
    fn modes_of(&self) -> Option<Vec<Self>>;
    /// `cute::make_tuple(elems...)`.
    fn mk(v: Vec<Self>) -> Self;
    /// The value if this is a run-time (dynamic) integer.
    fn dyn_int(&self) -> Option<i64>;
    /// An integer leaf.
    fn from_int(i: Int) -> Self;
    /// The rank if this is a tuple (`modes_of().map(len)`, without copying the modes).
    fn tuple_len(&self) -> Option<usize> {
        self.modes_of().map(|v| v.len())
    }
    /// Mode `i` if this is a tuple (`Some(None)` when out of range), copying only that mode.
    fn mode_of(&self, i: usize) -> Option<Option<Self>> {
        self.modes_of().map(|v| v.get(i).cloned())
    }
}

impl Tup for IntTuple {
    fn modes_of(&self) -> Option<Vec<Self>> {
        self.kids().map(|v| v.to_vec())
    }
    fn mk(v: Vec<Self>) -> Self {
        T(v)
    }
    fn dyn_int(&self) -> Option<i64> {
        match self {
            I(i) if !i.s => Some(i.v),
            _ => None,
        }
    }
    fn from_int(i: Int) -> Self {
        I(i)
    }
    fn tuple_len(&self) -> Option<usize> {
        self.kids().map(|v| v.len())
    }
    fn mode_of(&self, i: usize) -> Option<Option<Self>> {
        self.kids().map(|v| v.get(i).cloned())
    }
}

impl Tup for Value {
    fn modes_of(&self) -> Option<Vec<Self>> {
        match self {
            Value::Tuple(t) => t.kids().map(|v| v.iter().cloned().map(Value::Tuple).collect()),
            Value::Tile(v) => Some(v.clone()),
            _ => None,
        }
    }
    fn mk(v: Vec<Self>) -> Self {
        Value::tuple(v)
    }
    fn dyn_int(&self) -> Option<i64> {
        match self {
            Value::Tuple(I(i)) if !i.s => Some(i.v),
            _ => None,
        }
    }
    fn from_int(i: Int) -> Self {
        Value::Tuple(I(i))
    }
    fn tuple_len(&self) -> Option<usize> {
        match self {
            Value::Tuple(t) => t.kids().map(|v| v.len()),
            Value::Tile(v) => Some(v.len()),
            _ => None,
        }
    }
    fn mode_of(&self, i: usize) -> Option<Option<Self>> {
        match self {
            Value::Tuple(t) => t.kids().map(|v| v.get(i).cloned().map(Value::Tuple)),
            Value::Tile(v) => Some(v.get(i).cloned()),
            _ => None,
        }
    }
}

fn is_tup<X: Tup>(x: &X) -> bool {
    x.tuple_len().is_some()
}

/// `get<i>(t)`: a tuple's mode; `get<0>` of a non-tuple is itself ("Index out of range" otherwise).
pub fn get_mode<X: Tup>(t: &X, i: usize) -> R<X> {
    match t.mode_of(i) {
        Some(Some(m)) => Ok(m),
        Some(None) => Err(EvalError::rule(
            "Index out of range",
            format!("get<{i}> of `{t}`, which has rank {}", t.tuple_len().unwrap_or(0)),
        )),
        None if i == 0 => Ok(t.clone()),
        None => Err(EvalError::rule("Index out of range", format!("get<{i}> of `{t}`, which is not a tuple"))),
    }
}

/// `get<i>(t)` as CuTe's tuple algorithms (`take`, `select`, `group`) see it. There the
/// integral `get` of `int_tuple.hpp` is not visible for a plain `int`, so C++ converts the `int`
/// to a CUDA `dim3` (`x = t`, `y = z = 1`, unsigned): mode 0 is `t` as a 32-bit unsigned, modes
/// 1 and 2 are `1`, beyond is "Index out of range". Static integers and tuples are unaffected.
pub fn get_mode_algo<X: Tup>(t: &X, i: usize) -> R<X> {
    match t.dyn_int() {
        Some(v) if t.tuple_len().is_none() => match i {
            0 => Ok(X::from_int(Int::new(v as u32 as i64, false))),
            1 | 2 => Ok(X::from_int(Int::new(1, false))),
            _ => Err(EvalError::rule("Index out of range", format!("get<{i}> of `{t}`, which is not a tuple"))),
        },
        _ => get_mode(t, i),
    }
}

/// `get<i0,i1,...>(t)`: nested get (`get<>` is the identity).
pub fn get_path<X: Tup>(t: &X, path: &[usize]) -> R<X> {
    let Some((&first, rest)) = path.split_first() else {
        return Ok(t.clone());
    };
    let mut cur = get_mode(t, first)?;
    for &i in rest {
        cur = get_mode(&cur, i)?;
    }
    Ok(cur)
}

/// CuTe's `rank` (1 for a non-tuple).
pub fn rank_of<X: Tup>(t: &X) -> usize {
    t.tuple_len().unwrap_or(1)
}

/// CuTe's `depth`: 0 for an integer, 1 + the largest depth of the modes for a tuple. An empty
/// tuple anywhere is an error (CuTe's `max()` of no arguments).
pub fn depth_of<X: Tup>(t: &X) -> R<usize> {
    match t.modes_of() {
        Some(v) if v.is_empty() => {
            Err(EvalError::rule("Invalid parameters", format!("depth of `{t}`: max() of an empty tuple")))
        }
        Some(v) => {
            let mut d = 0;
            for e in &v {
                d = d.max(depth_of(e)?);
            }
            Ok(1 + d)
        }
        None => Ok(0),
    }
}

/// `tuple_size<T>` where CuTe requires a tuple.
fn tsize<X: Tup>(t: &X, what: &str) -> R<Vec<X>> {
    t.modes_of().ok_or_else(|| EvalError::rule("Mismatched Ranks", format!("{what}: `{t}` is not a tuple")))
}

/// `take<B,E>(t)` (E = -1: to the end). A non-tuple has the single mode 0.
pub fn take<X: Tup>(t: &X, b: i64, e: i64) -> R<X> {
    let r = rank_of(t) as i64;
    let e = if e == -1 { r } else { e };
    if b > e {
        return Err(EvalError::rule("take: empty range error", format!("take<{b},{e}> with {b} > {e}")));
    }
    if b < 0 {
        return Err(EvalError::rule("Index out of range", format!("take<{b},{e}> of `{t}`")));
    }
    let v: Vec<X> = (b..e).map(|i| get_mode_algo(t, i as usize)).collect::<R<_>>()?;
    Ok(X::mk(v))
}

/// `select<I...>(t)`: always a tuple.
pub fn select<X: Tup>(t: &X, idx: &[i64]) -> R<X> {
    let v = idx
        .iter()
        .map(|&i| {
            if i < 0 {
                Err(EvalError::rule("Index out of range", format!("select<{i}>")))
            } else {
                get_mode_algo(t, i as usize)
            }
        })
        .collect::<R<_>>()?;
    Ok(X::mk(v))
}

/// `wrap(t)`: a non-tuple becomes a rank-1 tuple.
pub fn wrap<X: Tup>(t: &X) -> X {
    if is_tup(t) {
        t.clone()
    } else {
        X::mk(vec![t.clone()])
    }
}

/// `unwrap(t)`: strip rank-1 tuples.
pub fn unwrap<X: Tup>(t: &X) -> X {
    let mut cur = t.clone();
    while let Some(v) = cur.modes_of() {
        if v.len() == 1 {
            cur = v[0].clone();
        } else {
            break;
        }
    }
    cur
}

/// `front(t)`: the first leaf.
pub fn front<X: Tup>(t: &X) -> R<X> {
    let mut cur = t.clone();
    while let Some(v) = cur.modes_of() {
        cur = v.first().cloned().ok_or_else(|| EvalError::rule("Index out of range", "front of an empty tuple"))?;
    }
    Ok(cur)
}

/// `back(t)`: the last leaf.
pub fn back<X: Tup>(t: &X) -> R<X> {
    let mut cur = t.clone();
    while let Some(v) = cur.modes_of() {
        cur = v.last().cloned().ok_or_else(|| EvalError::rule("Index out of range", "back of an empty tuple"))?;
    }
    Ok(cur)
}

/// `flatten_to_tuple(t)`: all leaves in one tuple (a non-tuple is wrapped).
pub fn flatten_to_tuple<X: Tup>(t: &X) -> X {
    fn go<X: Tup>(t: &X, out: &mut Vec<X>) {
        match t.modes_of() {
            Some(v) => v.iter().for_each(|e| go(e, out)),
            None => out.push(t.clone()),
        }
    }
    let mut out = Vec::new();
    go(t, &mut out);
    X::mk(out)
}

/// `flatten(t)`: depth at most 1; a non-tuple stays as it is.
pub fn flatten<X: Tup>(t: &X) -> X {
    if is_tup(t) {
        flatten_to_tuple(t)
    } else {
        t.clone()
    }
}

/// `unflatten(flat, profile)`: fold the flat tuple into the profile's structure.
/// Post: congruent(result, profile), flatten(result) == flat.
pub fn unflatten<X: Tup, P: Tup>(flat: &X, profile: &P) -> R<X> {
    fn imp<X: Tup, P: Tup>(flat: &[X], p: &P) -> R<(X, usize)> {
        match p.modes_of() {
            Some(ps) => {
                let mut res = Vec::new();
                let mut used = 0;
                for pi in &ps {
                    let (sub, n) = imp(&flat[used..], pi)?;
                    res.push(sub);
                    used += n;
                }
                Ok((X::mk(res), used))
            }
            None => match flat.first() {
                Some(x) => Ok((x.clone(), 1)),
                None => Err(EvalError::rule(
                    "Index out of range",
                    format!("unflatten: too few elements for the profile `{p}`"),
                )),
            },
        }
    }
    // CuTe's unflatten_impl finds `rank` only by argument-dependent lookup: a CuTe type (a tuple,
    // a static integer) works, a plain `int` does not; a non-tuple acts as a 1-tuple.
    let elems = match flat.modes_of() {
        Some(v) => v,
        None if flat.dyn_int().is_some() => {
            return Err(EvalError::rule(
                "Invalid parameters",
                format!("unflatten: `{flat}` is a run-time integer, not a tuple"),
            ));
        }
        None => vec![flat.clone()],
    };
    let (res, used) = imp(&elems, profile)?;
    if used != elems.len() {
        return Err(EvalError::rule(
            "rank(flat_remainder) == Int<0>{}",
            format!("unflatten: `{flat}` has {} elements, the profile `{profile}` takes {used}", elems.len()),
        ));
    }
    Ok(res)
}

/// `append(t, x)`: a non-tuple `a` gives `(a, x)`.
pub fn append<X: Tup>(t: &X, x: &X) -> X {
    let mut v = t.modes_of().unwrap_or_else(|| vec![t.clone()]);
    v.push(x.clone());
    X::mk(v)
}

/// `prepend(t, x)`.
pub fn prepend<X: Tup>(t: &X, x: &X) -> X {
    let mut v = t.modes_of().unwrap_or_else(|| vec![t.clone()]);
    v.insert(0, x.clone());
    X::mk(v)
}

/// Largest rank `append<N>`, `prepend<N>` and `repeat<N>` build.
pub const MAX_RANK: i64 = 1 << 16;

fn rank_limit(what: &str, n: i64) -> R<()> {
    if n > MAX_RANK {
        return Err(EvalError::limit(format!("{what}<{n}>: at most {MAX_RANK} modes")));
    }
    Ok(())
}

/// `append<N>(t, x)`: extend to rank N with copies of x (rank N == rank t: unchanged).
pub fn append_n<X: Tup>(t: &X, n: i64, x: &X) -> R<X> {
    rank_limit("append", n)?;
    match t.modes_of() {
        Some(v) => {
            if n == v.len() as i64 {
                return Ok(t.clone());
            }
            if n < v.len() as i64 {
                return Err(EvalError::rule(
                    "N > tuple_size<T>",
                    format!("append<{n}> of `{t}`, which has rank {}", v.len()),
                ));
            }
            let mut v = v;
            while (v.len() as i64) < n {
                v.push(x.clone());
            }
            Ok(X::mk(v))
        }
        None => {
            if n == 1 {
                return Ok(t.clone());
            }
            if n < 1 {
                return Err(EvalError::rule("N > tuple_size<T>", format!("append<{n}> of `{t}`, which has rank 1")));
            }
            let mut v = vec![t.clone()];
            while (v.len() as i64) < n {
                v.push(x.clone());
            }
            Ok(X::mk(v))
        }
    }
}

/// `prepend<N>(t, x)`.
pub fn prepend_n<X: Tup>(t: &X, n: i64, x: &X) -> R<X> {
    rank_limit("prepend", n)?;
    let (v, tup) = match t.modes_of() {
        Some(v) => (v, true),
        None => (vec![t.clone()], false),
    };
    if n == v.len() as i64 {
        return Ok(t.clone());
    }
    if n < v.len() as i64 {
        return Err(EvalError::rule("N > tuple_size<T>", format!("prepend<{n}> of `{t}`, which has rank {}", v.len())));
    }
    let _ = tup;
    let mut out = Vec::new();
    for _ in 0..(n - v.len() as i64) {
        out.push(x.clone());
    }
    out.extend(v);
    Ok(X::mk(out))
}

fn tuple_elems_for<X: Tup>(t: &X, what: &str) -> R<Vec<X>> {
    t.modes_of().ok_or_else(|| EvalError::type_err(format!("{what} needs a tuple, got `{t}`")))
}

/// `insert<N>(t, x)`.
pub fn insert<X: Tup>(t: &X, n: i64, x: &X) -> R<X> {
    let mut v = tuple_elems_for(t, "insert")?;
    if n < 0 || n as usize > v.len() {
        return Err(EvalError::rule(
            "Index out of range",
            format!("insert<{n}> into `{t}`, which has rank {}", v.len()),
        ));
    }
    v.insert(n as usize, x.clone());
    Ok(X::mk(v))
}

/// `remove<N>(t)` (N == rank: unchanged, as CuTe's index ranges are then empty).
pub fn remove<X: Tup>(t: &X, n: i64) -> R<X> {
    let mut v = tuple_elems_for(t, "remove")?;
    if n < 0 || n as usize > v.len() {
        return Err(EvalError::rule(
            "Index out of range",
            format!("remove<{n}> from `{t}`, which has rank {}", v.len()),
        ));
    }
    if (n as usize) < v.len() {
        v.remove(n as usize);
    }
    Ok(X::mk(v))
}

/// `replace<N>(t, x)` (N == rank appends x, as CuTe's index ranges allow; a non-tuple: N must
/// be 0 and the result is x).
pub fn replace<X: Tup>(t: &X, n: i64, x: &X) -> R<X> {
    match t.modes_of() {
        Some(mut v) => {
            if n < 0 || n as usize > v.len() {
                return Err(EvalError::rule(
                    "Index out of range",
                    format!("replace<{n}> in `{t}`, which has rank {}", v.len()),
                ));
            }
            if n as usize == v.len() {
                v.push(x.clone());
            } else {
                v[n as usize] = x.clone();
            }
            Ok(X::mk(v))
        }
        None if n == 0 => Ok(x.clone()),
        None => Err(EvalError::rule("N == 0", format!("replace<{n}> in the non-tuple `{t}`"))),
    }
}

/// `group<B,E>(t)` (E = -1: to the end): modes [B,E) become one mode.
pub fn group<X: Tup>(t: &X, b: i64, e: i64) -> R<X> {
    let r = rank_of(t) as i64;
    let e = if e == -1 { r } else { e };
    if b > e {
        return Err(EvalError::rule("B <= E", format!("group<{b},{e}>")));
    }
    if b < 0 {
        return Err(EvalError::rule("Index out of range", format!("group<{b},{e}> of `{t}`")));
    }
    let mut out = Vec::new();
    for i in 0..b {
        out.push(get_mode_algo(t, i as usize)?);
    }
    if b < e {
        out.push(take(t, b, e)?);
    }
    for i in e..r {
        out.push(get_mode_algo(t, i as usize)?);
    }
    Ok(X::mk(out))
}

/// `reverse(t)` (top level; a non-tuple is unchanged).
pub fn reverse<X: Tup>(t: &X) -> X {
    match t.modes_of() {
        Some(mut v) => {
            v.reverse();
            X::mk(v)
        }
        None => t.clone(),
    }
}

/// `repeat<N>(x)`: x itself for N == 1, else a tuple of N copies.
pub fn repeat<X: Tup>(n: i64, x: &X) -> R<X> {
    if n == 1 {
        return Ok(x.clone());
    }
    if n < 0 {
        return Err(EvalError::rule("N >= 0", format!("repeat<{n}>")));
    }
    rank_limit("repeat", n)?;
    Ok(X::mk(vec![x.clone(); n as usize]))
}

/// `repeat_like(t, x)`: x at every leaf of t.
pub fn repeat_like<X: Tup, Y: Tup>(t: &X, x: &Y) -> Y {
    match t.modes_of() {
        Some(v) => Y::mk(v.iter().map(|e| repeat_like(e, x)).collect()),
        None => x.clone(),
    }
}

/// `zip(t)`: transpose a tuple of tuples (`((a,b),(x,y))` -> `((a,x),(b,y))`).
pub fn zip<X: Tup>(t: &X) -> R<X> {
    let Some(v) = t.modes_of() else { return Ok(t.clone()) };
    let Some(first) = v.first() else {
        return Err(EvalError::rule("Index out of range", "zip of an empty tuple"));
    };
    let Some(f0) = first.modes_of() else { return Ok(X::mk(vec![t.clone()])) };
    let r1 = f0.len();
    let mut rows = Vec::new();
    for e in &v {
        match e.modes_of() {
            Some(m) if m.len() == r1 => rows.push(m),
            _ => {
                return Err(EvalError::rule(
                    "Mismatched Ranks",
                    format!("zip: `{e}` does not have the rank {r1} of `{first}`"),
                ))
            }
        }
    }
    Ok(X::mk((0..r1).map(|j| X::mk(rows.iter().map(|r| r[j].clone()).collect())).collect()))
}

/// CuTe's `filter_tuple(t, f)`: `tuple_cat(f(t_0), f(t_1), ...)` (f returns tuples; a non-tuple
/// t is passed to f whole).
pub fn filter_tuple<X: Tup>(t: &X, f: impl Fn(&X) -> R<X>) -> R<X> {
    match t.modes_of() {
        Some(v) => tuple_cat(&v.iter().map(f).collect::<R<Vec<X>>>()?),
        None => tuple_cat(&[f(t)?]),
    }
}

/// `tuple_cat(ts...)`: every argument must be a tuple.
pub fn tuple_cat<X: Tup>(ts: &[X]) -> R<X> {
    let mut out = Vec::new();
    for t in ts {
        out.extend(tuple_elems_for(t, "tuple_cat")?);
    }
    Ok(X::mk(out))
}

// ---------------------------------------------------------------------------------------------
// Static/dynamic booleans
// ---------------------------------------------------------------------------------------------

/// `x && y` on CuTe booleans: a static false on either side wins (`C<false> && U` is `C<false>`),
/// two statics give a static, otherwise a run-time bool.
pub fn band(x: Int, y: Int) -> Int {
    if x.is_const(0) || y.is_const(0) {
        return Int::bool(false, true);
    }
    Int::bool(x.v != 0 && y.v != 0, x.s && y.s)
}

/// `x || y` on CuTe booleans: a static true on either side wins.
pub fn bor(x: Int, y: Int) -> Int {
    if (x.s && x.v != 0) || (y.s && y.v != 0) {
        return Int::bool(true, true);
    }
    Int::bool(x.v != 0 || y.v != 0, x.s && y.s)
}

fn true_t() -> Int {
    Int::bool(true, true)
}
fn false_t() -> Int {
    Int::bool(false, true)
}

// ---------------------------------------------------------------------------------------------
// Integer leaves
// ---------------------------------------------------------------------------------------------

fn leaf_int(t: &IntTuple, what: &str) -> R<Int> {
    match t {
        I(i) => Ok(*i),
        // `_` is CuTe's `Int<0>` subclass; arithmetic on it behaves like `_0`.
        Under => Ok(st(0)),
        other => Err(EvalError::type_err(format!("{what}: expected an integer, got `{other}`"))),
    }
}

/// CuTe's `product`: the product of all leaves (left fold), `_1` for `()`.
pub fn product(t: &IntTuple) -> R<Int> {
    match t.view() {
        V::T(v) => {
            if v.is_empty() {
                return Ok(st(1));
            }
            let mut acc = product(&v[0])?;
            for e in &v[1..] {
                acc = acc.mul(product(e)?)?;
            }
            Ok(acc)
        }
        _ => leaf_int(t, "product"),
    }
}

/// CuTe's `size` of an IntTuple (= `product`): static iff all leaves are static.
pub fn size(t: &IntTuple) -> R<Int> {
    product(t)
}

/// `product_each(t)`: a tuple of the products of the modes (a non-tuple is wrapped; a `_` mode
/// is its own product).
pub fn product_each(t: &IntTuple) -> R<IntTuple> {
    Ok(T(wrap(t)
        .modes()
        .iter()
        .map(|e| if matches!(e, Under) { Ok(Under) } else { product(e).map(I) })
        .collect::<R<_>>()?))
}

/// `product_like(t, guide)`: the products of t at the leaves of guide.
pub fn product_like(t: &IntTuple, guide: &IntTuple) -> R<IntTuple> {
    match guide.view() {
        V::T(g) => {
            let tv = tsize(t, "product_like")?;
            if tv.len() != g.len() {
                return Err(EvalError::rule(
                    "Mismatched tuple_size",
                    format!("product_like: `{t}` and guide `{guide}`"),
                ));
            }
            Ok(T(g.iter().zip(tv.iter()).map(|(gi, ti)| product_like(ti, gi)).collect::<R<_>>()?))
        }
        _ => Ok(I(product(t)?)),
    }
}

/// CuTe's `sum` (`_0 + ... + leaves`).
pub fn sum(t: &IntTuple) -> R<IntTuple> {
    match t.view() {
        V::T(v) => {
            let mut acc = IntTuple::st(0);
            for e in v.iter() {
                acc = arith_add(&acc, &sum(e)?)?;
            }
            Ok(acc)
        }
        _ => Ok(t.clone()),
    }
}

/// CuTe's `inner_product(a, b)`: `_0 + ... + a_i * b_i` (ranks must match). With ScaledBasis
/// leaves in `b` the result is an ArithmeticTuple.
pub fn inner_product(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    match (a.view(), b.view()) {
        (V::T(x), V::T(y)) => {
            if x.len() != y.len() {
                return Err(EvalError::rule("Mismatched ranks", format!("inner_product of `{a}` and `{b}`")));
            }
            let mut acc = IntTuple::st(0);
            for (xi, yi) in x.iter().zip(y.iter()) {
                acc = arith_add(&acc, &inner_product(xi, yi)?)?;
            }
            Ok(acc)
        }
        _ => arith_mul(a, b),
    }
}

/// `cute::max` over all leaves of all arguments.
pub fn max(ts: &[IntTuple]) -> R<Int> {
    fold_leaves(ts, "max", |a, b| Ok(max2(a, b)))
}
/// `cute::min` over all leaves of all arguments.
pub fn min(ts: &[IntTuple]) -> R<Int> {
    fold_leaves(ts, "min", |a, b| Ok(min2(a, b)))
}
/// `cute::gcd` over all leaves of all arguments.
pub fn gcd_all(ts: &[IntTuple]) -> R<Int> {
    fold_leaves(ts, "gcd", gcd)
}

/// CuTe's variadic fold `f(t0, f(t1, ...))`, a tuple argument first reduced over its own modes.
fn fold_leaves(ts: &[IntTuple], what: &str, f: fn(Int, Int) -> R<Int>) -> R<Int> {
    fn one(t: &IntTuple, what: &str, f: fn(Int, Int) -> R<Int>) -> R<Int> {
        match t.view() {
            V::T(v) => {
                if v.is_empty() {
                    return Err(EvalError::rule("Invalid parameters", format!("{what} of an empty tuple")));
                }
                fold_leaves(&v, what, f)
            }
            _ => leaf_int(t, what),
        }
    }
    let Some((first, rest)) = ts.split_first() else {
        return Err(EvalError::arity(format!("{what} needs at least one argument")));
    };
    let a = one(first, what, f)?;
    if rest.is_empty() {
        return Ok(a);
    }
    let b = fold_leaves(rest, what, f)?;
    f(a, b)
}

fn max2(a: Int, b: Int) -> Int {
    // `t < u ? u : t`
    Int::new(if a.v < b.v { b.v } else { a.v }, a.s && b.s)
}
fn min2(a: Int, b: Int) -> Int {
    Int::new(if a.v < b.v { a.v } else { b.v }, a.s && b.s)
}

/// CuTe's `gcd(t, u)` on integers (its loop, signs included); static iff both are.
pub fn gcd(a: Int, b: Int) -> R<Int> {
    let (mut t, mut u) = (a.v, b.v);
    let v = loop {
        if t == 0 {
            break u;
        }
        u = u.checked_rem(t).ok_or_else(|| EvalError::overflow("%", a, b))?;
        if u == 0 {
            break t;
        }
        t = t.checked_rem(u).ok_or_else(|| EvalError::overflow("%", a, b))?;
    };
    Ok(Int::new(v, a.s && b.s))
}

/// `abs` of an integer (static stays static).
pub fn abs(a: Int) -> R<Int> {
    a.abs()
}

// ---------------------------------------------------------------------------------------------
// Division and rounding
// ---------------------------------------------------------------------------------------------

/// `(a + b - _1) / b` on integers.
#[inline]
pub fn ceil_div_int(a: Int, b: Int) -> R<Int> {
    if b.v == 0 {
        return Err(EvalError::div_zero(a, b));
    }
    a.add(b)?.sub(st(1))?.div(b)
}

/// `ceil_div` of a flat tuple of integers `x` by an integer, each mode's quotient handed to
/// `out` in order: `b` folded across the modes (`ceil_div(x_i, b)`, then `b = ceil_div(b, x_i)`).
#[inline]
pub fn ceil_div_ints(x: impl IntoIterator<Item = Int>, b: Int, mut out: impl FnMut(Int)) -> R<()> {
    let mut rest = b;
    for xi in x {
        out(ceil_div_int(xi, rest)?);
        rest = ceil_div_int(rest, xi)?;
    }
    Ok(())
}

/// CuTe's `ceil_div(a, b)`:
/// tuple tuple: elementwise, b padded with `_1` (rank a >= rank b);
/// tuple int: fold b across a's modes; int tuple: `ceil_div(a, product(b))`; int int: `(a+b-1)/b`.
pub fn ceil_div(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    match (a.view(), b.view()) {
        // (two integers, most calls: first)
        (V::I(x), V::I(y)) => Ok(I(ceil_div_int(*x, *y)?)),
        (V::T(x), V::T(y)) => {
            if x.len() < y.len() {
                return Err(EvalError::rule("Mismatched ranks", format!("ceil_div: rank of `{a}` < rank of `{b}`")));
            }
            let mut out = Vec::new();
            for (k, xi) in x.iter().enumerate() {
                let yi = y.get(k).cloned().unwrap_or(IntTuple::st(1));
                out.push(ceil_div(xi, &yi)?);
            }
            Ok(T(out))
        }
        // a flat tuple of integers by an integer (complement's rest, most divides): the fold
        // below on integers, without a tuple per step
        (V::T(x), V::I(y)) if x.iter().all(|e| matches!(e, I(_))) => {
            let mut out = TupleBuilder::with_capacity(x.len());
            ceil_div_ints(x.iter().filter_map(|e| e.as_int().ok()), *y, |q| out.push_int(q))?;
            Ok(out.finish())
        }
        (V::T(x), _) => fold_div(&x, b, ceil_div),
        (_, V::T(_)) => ceil_div(a, &I(product(b)?)),
        _ => Ok(I(ceil_div_int(leaf_int(a, "ceil_div")?, leaf_int(b, "ceil_div")?)?)),
    }
}

/// CuTe's division of a tuple `x` by an integer `b` (`ceil_div` and `shape_div`, as `f`): each
/// mode divided by what is left of `b`, which is then divided by the mode (`b` folded across
/// the modes).
fn fold_div(x: &[IntTuple], b: &IntTuple, f: fn(&IntTuple, &IntTuple) -> R<IntTuple>) -> R<IntTuple> {
    let mut out = Vec::new();
    let mut rest = b.clone();
    for xi in x {
        out.push(f(xi, &rest)?);
        rest = f(&rest, xi)?;
    }
    Ok(T(out))
}

/// CuTe's `round_up(a, b)`: elementwise for two tuples, else `((a+b-1)/b)*b`.
pub fn round_up(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    match (a.view(), b.view()) {
        (V::T(x), V::T(y)) => {
            if x.len() < y.len() {
                return Err(EvalError::rule("Mismatched ranks", format!("round_up: rank of `{a}` < rank of `{b}`")));
            }
            let mut out = Vec::new();
            for (k, xi) in x.iter().enumerate() {
                let yi = y.get(k).cloned().unwrap_or(IntTuple::st(1));
                out.push(round_up(xi, &yi)?);
            }
            Ok(T(out))
        }
        (V::T(_), _) | (_, V::T(_)) => {
            Err(EvalError::type_err(format!("round_up of `{a}` and `{b}`: a tuple and an integer")))
        }
        _ => {
            let (x, y) = (leaf_int(a, "round_up")?, leaf_int(b, "round_up")?);
            Ok(I(ceil_div_int(x, y)?.mul(y)?))
        }
    }
}

/// CuTe's `shape_div(a, b)`: like `ceil_div`, but tuple tuple needs equal ranks and two static
/// integers must satisfy the "Divisibility Condition" (a % b == 0 or b % a == 0).
pub fn shape_div(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    match (a.view(), b.view()) {
        (V::T(x), V::T(y)) => {
            if x.len() != y.len() {
                return Err(EvalError::rule("Mismatched ranks", format!("shape_div of `{a}` by `{b}`")));
            }
            Ok(T(x.iter().zip(y.iter()).map(|(xi, yi)| shape_div(xi, yi)).collect::<R<_>>()?))
        }
        (V::T(x), _) => fold_div(&x, b, shape_div),
        (_, V::T(_)) => shape_div(a, &I(product(b)?)),
        _ => Ok(I(shape_div_int(leaf_int(a, "shape_div")?, leaf_int(b, "shape_div")?)?)),
    }
}

/// `shape_div` of two integers.
pub fn shape_div_int(a: Int, b: Int) -> R<Int> {
    if a.s && b.s {
        // `a % b == 0 || b % a == 0`, short-circuited: `shape_div(_0, _2)` is `_0`
        if b.v == 0 {
            return Err(EvalError::rule("Divisibility Condition", format!("shape_div({a}, {b}): division by zero")));
        }
        let ok = a.v.checked_rem(b.v).map(|r| r == 0).unwrap_or(true)
            || b.v.checked_rem(a.v).map(|r| r == 0).unwrap_or(true);
        if !ok {
            return Err(EvalError::rule("Divisibility Condition", format!("neither of {a} and {b} divides the other")));
        }
    }
    ceil_div_int(a, b)
}

/// CuTe's `elem_scale(a, b)`: `a * product(b)` at a's leaves.
pub fn elem_scale(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    match a.view() {
        V::T(x) => {
            let y = tsize(b, "elem_scale")?;
            if x.len() != y.len() {
                return Err(EvalError::rule("Mismatched tuple_size", format!("elem_scale of `{a}` and `{b}`")));
            }
            Ok(T(x.iter().zip(&y).map(|(xi, yi)| elem_scale(xi, yi)).collect::<R<_>>()?))
        }
        _ => Ok(I(leaf_int(a, "elem_scale")?.mul(product(b)?)?)),
    }
}

// ---------------------------------------------------------------------------------------------
// Tests (CuTe booleans)
// ---------------------------------------------------------------------------------------------

fn same_profile(a: &IntTuple, b: &IntTuple) -> bool {
    match (a.view(), b.view()) {
        (V::T(x), V::T(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same_profile(p, q)),
        (V::T(_), _) | (_, V::T(_)) => false,
        _ => true,
    }
}

/// `congruent(a, b)`: same profile (always a static boolean).
pub fn congruent(a: &IntTuple, b: &IntTuple) -> Int {
    Int::bool(same_profile(a, b), true)
}

/// `weakly_congruent(a, b)`: a's profile is a coarsening of b's (static).
pub fn weakly_congruent(a: &IntTuple, b: &IntTuple) -> Int {
    let r: R<Int> = leafwise(a, b, &mut |_, _| Ok(true_t()));
    r.unwrap_or_else(|_| false_t())
}

/// The tests that walk a's tree against b's: tuples of equal rank mode by mode (a static
/// `_1` AND of the modes), a tuple against anything else false (static), and `leaf(x, y)`
/// where a is not a tuple.
fn leafwise<F: FnMut(&IntTuple, &IntTuple) -> R<Int>>(a: &IntTuple, b: &IntTuple, leaf: &mut F) -> R<Int> {
    match (a.view(), b.view()) {
        (V::T(x), V::T(y)) => {
            if x.len() != y.len() {
                return Ok(false_t());
            }
            let mut acc = true_t();
            for (p, q) in x.iter().zip(y.iter()) {
                acc = band(acc, leafwise(p, q, leaf)?);
            }
            Ok(acc)
        }
        (V::T(_), _) => Ok(false_t()),
        _ => leaf(a, b),
    }
}

/// `compatible(a, b)`: sizes agree at every leaf of a (`a == size(b)` there: dynamic when
/// either side is dynamic).
pub fn compatible(a: &IntTuple, b: &IntTuple) -> R<Int> {
    leafwise(a, b, &mut |a, b| Ok(leaf_int(a, "compatible")?.eq(size(b)?)))
}

// ---- the same tests on any values (layouts, tilers, swizzles), as CuTe's templates see them --

/// CuTe's generic `shape(x)`: a layout's shape (a composed layout's inner one), a tuple's
/// elements' shapes; anything else is its own shape.
pub fn shape_value(v: &Value) -> Value {
    match v {
        Value::Layout(l) => Value::Tuple(l.shape.clone()),
        Value::Composed(c) => func_shape(&c.inner),
        Value::Tile(e) => Value::tuple(e.iter().map(shape_value).collect()),
        other => other.clone(),
    }
}

/// The shape of a composed layout's inner function (`layout_b`).
fn func_shape(f: &crate::eval::layout::Func) -> Value {
    use crate::eval::layout::Func;
    match f {
        Func::Layout(l) => Value::Tuple(l.shape.clone()),
        Func::Composed(c) => func_shape(&c.inner),
        Func::Swizzle(s) => Value::Swizzle(*s),
    }
}

fn is_integral_value(v: &Value) -> bool {
    matches!(v, Value::Tuple(I(_) | Under))
}

/// The profile of `repeat_like(shape(x), _0)`, compared by `congruent`.
fn same_profile_value(a: &Value, b: &Value) -> bool {
    match (a.modes_of(), b.modes_of()) {
        (Some(x), Some(y)) => x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| same_profile_value(p, q)),
        (None, None) => true,
        _ => false,
    }
}

/// `congruent(a, b)` on any values: `repeat_like(shape(a), _0) == repeat_like(shape(b), _0)` as types.
pub fn congruent_value(a: &Value, b: &Value) -> Int {
    Int::bool(same_profile_value(&shape_value(a), &shape_value(b)), true)
}

/// `weakly_congruent(a, b)` on any values: tuples mode by mode, an integer `a` is true, an
/// integer `b` (with a non-integer `a`) false, otherwise the shapes are compared.
pub fn weakly_congruent_value(a: &Value, b: &Value) -> R<Int> {
    if let (Value::Tuple(x), Value::Tuple(y)) = (a, b) {
        return Ok(weakly_congruent(x, y));
    }
    match (a.modes_of(), b.modes_of()) {
        (Some(x), Some(y)) => all_modes(&x, &y, weakly_congruent_value),
        _ if is_integral_value(a) => Ok(true_t()),
        _ if is_integral_value(b) => Ok(false_t()),
        _ => via_shapes("weakly_congruent", a, b, weakly_congruent_value),
    }
}

/// A tuple test mode by mode: false for different ranks, else the AND of `f` on the modes.
fn all_modes(x: &[Value], y: &[Value], f: fn(&Value, &Value) -> R<Int>) -> R<Int> {
    if x.len() != y.len() {
        return Ok(false_t());
    }
    let mut acc = true_t();
    for (p, q) in x.iter().zip(y) {
        acc = band(acc, f(p, q)?);
    }
    Ok(acc)
}

/// A tuple test on the shapes of two values that are not tuples themselves (an error if
/// neither has a shape other than itself).
fn via_shapes(name: &str, a: &Value, b: &Value, f: fn(&Value, &Value) -> R<Int>) -> R<Int> {
    let (sa, sb) = (shape_value(a), shape_value(b));
    if sa == *a && sb == *b {
        return Err(EvalError::type_err(format!("{name}: `{a}` and `{b}` have no shapes")));
    }
    f(&sa, &sb)
}

/// `compatible(a, b)` on any values: tuples mode by mode, an integer `a` is `a == size(b)`, an
/// integer `b` (with a non-integer `a`) false, otherwise the shapes are compared.
pub fn compatible_value(a: &Value, b: &Value) -> R<Int> {
    if let (Value::Tuple(x), Value::Tuple(y)) = (a, b) {
        return compatible(x, y);
    }
    match (a.modes_of(), b.modes_of()) {
        (Some(x), Some(y)) => all_modes(&x, &y, compatible_value),
        _ if is_integral_value(a) => {
            let n = match b {
                Value::Tuple(t) => size(t)?,
                Value::Layout(l) => size(&l.shape)?,
                // CuTe's `size` of a tiler or a swizzle is `void`
                Value::Tile(_) | Value::Swizzle(_) => {
                    return Err(EvalError::type_err(format!("compatible: {} `{b}` has no size", b.kind())))
                }
                other => match shape_value(other) {
                    Value::Tuple(t) => size(&t)?,
                    _ => return Err(EvalError::type_err(format!("compatible: size of {} `{other}`", other.kind()))),
                },
            };
            let Value::Tuple(at) = a else { return Ok(false_t()) };
            Ok(leaf_int(at, "compatible")?.eq(n))
        }
        _ if is_integral_value(b) => Ok(false_t()),
        _ => via_shapes("compatible", a, b, compatible_value),
    }
}

/// `weakly_compatible(a, b)` (CuTe's older test): b's size at each leaf of a is divisible by a.
pub fn weakly_compatible(a: &IntTuple, b: &IntTuple) -> R<Int> {
    leafwise(a, b, &mut |a, b| {
        let x = leaf_int(a, "weakly_compatible")?;
        Ok(size(b)?.rem(x)?.eq(st(0)))
    })
}

/// `evenly_divides(shape, tiler)`: `size(a) == size(b) * size(ceil_div(shape(a), b))` per mode.
pub fn evenly_divides(a: &IntTuple, b: &IntTuple) -> R<Int> {
    match b.view() {
        V::T(y) => {
            if y.len() > a.rank() {
                return Ok(false_t());
            }
            let mut acc = true_t();
            for (k, yi) in y.iter().enumerate() {
                acc = band(acc, evenly_divides(&get_mode(a, k)?, yi)?);
            }
            Ok(acc)
        }
        _ => {
            let rhs = size(b)?.mul(size(&ceil_div(a, b)?)?)?;
            Ok(size(a)?.eq(rhs))
        }
    }
}

/// CuTe's `==` on IntTuples: tuples of different ranks or a tuple and an integer are `_0`.
pub fn tuple_eq(a: &IntTuple, b: &IntTuple) -> R<Int> {
    match (a.view(), b.view()) {
        (V::T(x), V::T(y)) => {
            if x.len() != y.len() {
                return Ok(false_t());
            }
            let mut acc = true_t();
            for (p, q) in x.iter().zip(y.iter()) {
                acc = band(acc, tuple_eq(p, q)?);
            }
            Ok(acc)
        }
        (V::T(_), _) | (_, V::T(_)) => Ok(false_t()),
        _ => Ok(leaf_int(a, "==")?.eq(leaf_int(b, "==")?)),
    }
}

fn lt_leaf(a: &IntTuple, b: &IntTuple, what: &str) -> R<Int> {
    match (a.view(), b.view()) {
        (V::T(_), _) | (_, V::T(_)) => Err(EvalError::type_err(format!("{what}: cannot compare `{a}` with `{b}`"))),
        _ => Ok(leaf_int(a, what)?.lt(leaf_int(b, what)?)),
    }
}

/// The orders of CuTe's comparisons of integer tuples.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// `lex_less`: first mode most significant.
    Lex,
    /// `colex_less`: last mode most significant.
    Colex,
    /// `elem_less`: every mode less (a exhausted first: true).
    Elem,
}

/// `lex_less(a, b)`: lexicographic order (first mode most significant).
pub fn lex_less(a: &IntTuple, b: &IntTuple) -> R<Int> {
    less(Order::Lex, a, b, "lex_less")
}

/// `colex_less(a, b)`: colexicographic order (last mode most significant).
pub fn colex_less(a: &IntTuple, b: &IntTuple) -> R<Int> {
    less(Order::Colex, a, b, "colex_less")
}

/// `elem_less(a, b)`: every mode of a is less than b's (a exhausted first: true).
pub fn elem_less(a: &IntTuple, b: &IntTuple) -> R<Int> {
    less(Order::Elem, a, b, "elem_less")
}

/// `a < b` in `order` (`what` names the function called in an error). CuTe's `lex_leq(a, b)`
/// is `!lex_less(b, a)`, `lex_gtr(a, b)` is `lex_less(b, a)`, `lex_geq(a, b)` is
/// `!lex_less(a, b)`, and so for colex and elem ([`bnot`]).
pub fn less(order: Order, a: &IntTuple, b: &IntTuple, what: &str) -> R<Int> {
    match (a.view(), b.view()) {
        (V::T(x), V::T(y)) if order == Order::Elem => {
            fn go(x: &[IntTuple], y: &[IntTuple], i: usize, what: &str) -> R<Int> {
                if i == x.len() {
                    return Ok(true_t());
                }
                if i == y.len() {
                    return Ok(false_t());
                }
                Ok(band(less(Order::Elem, &x[i], &y[i], what)?, go(x, y, i + 1, what)?))
            }
            go(&x, &y, 0, what)
        }
        (V::T(x), V::T(y)) => lex_impl(&x, &y, 0, order, what),
        _ => lt_leaf(a, b, what),
    }
}

fn lex_impl(x: &[IntTuple], y: &[IntTuple], i: usize, order: Order, what: &str) -> R<Int> {
    if i == y.len() {
        return Ok(false_t());
    }
    if i == x.len() {
        return Ok(true_t());
    }
    let colex = order == Order::Colex;
    let (p, q) = if colex { (&x[x.len() - 1 - i], &y[y.len() - 1 - i]) } else { (&x[i], &y[i]) };
    let lt = less(order, p, q, what)?;
    let eq = tuple_eq(p, q)?;
    let rest = lex_impl(x, y, i + 1, order, what)?;
    Ok(bor(lt, band(eq, rest)))
}

/// `!x` of a comparison's answer: CuTe's `!` of a `C<b>` is the static `C<!b>`.
pub fn bnot(x: Int) -> Int {
    Int::bool(x.v == 0, x.s)
}

/// `filter_zeros(a, b)`: b with the parts paired with a static `_0` of a replaced by `_1`s.
pub fn filter_zeros_with(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    match a.view() {
        V::T(x) => {
            let y = tsize(b, "filter_zeros")?;
            if x.len() != y.len() {
                return Err(EvalError::rule("Mismatched tuple_size", format!("filter_zeros of `{a}` and `{b}`")));
            }
            Ok(T(x.iter().zip(&y).map(|(p, q)| filter_zeros_with(p, q)).collect::<R<_>>()?))
        }
        // `is_constant<0>` holds for `_0` only, not for `_` (a subclass of `Int<0>`)
        V::I(i) if i.is_const(0) => Ok(repeat_like(b, &IntTuple::st(1))),
        _ => Ok(b.clone()),
    }
}

/// `filter_zeros(t)` = `filter_zeros(t, t)`.
pub fn filter_zeros(t: &IntTuple) -> R<IntTuple> {
    filter_zeros_with(t, t)
}

// ---------------------------------------------------------------------------------------------
// Compact strides
// ---------------------------------------------------------------------------------------------

/// `detail::compact<Major>(shape, current)` -> (stride, current * size).
fn compact(shape: &IntTuple, current: Int, left: bool) -> R<(IntTuple, Int)> {
    match shape.view() {
        V::T(v) => {
            let mut out: Vec<IntTuple> = Vec::with_capacity(v.len());
            let mut cur = current;
            if left {
                for s in v.iter() {
                    let (d, c) = compact(s, cur, left)?;
                    out.push(d);
                    cur = c;
                }
            } else {
                for s in v.iter().rev() {
                    let (d, c) = compact(s, cur, left)?;
                    out.insert(0, d);
                    cur = c;
                }
            }
            Ok((T(out), cur))
        }
        _ => {
            let (d, next) = compact_step(leaf_int(shape, "compact stride")?, current)?;
            Ok((I(d), next))
        }
    }
}

/// One mode of [`compact`]: the stride of a mode of shape `s` at `current`, and the `current`
/// after it (a static `_1` takes stride `_0` and leaves `current` as it is).
#[inline]
pub fn compact_step(s: Int, current: Int) -> R<(Int, Int)> {
    if s.is_const(1) {
        Ok((st(0), current))
    } else {
        Ok((current, current.mul(s)?))
    }
}

/// `compact_major<LayoutLeft|LayoutRight>(shape, current)`; `current` may be a tuple congruent
/// with the top level of `shape` (applied at its terminals).
pub fn compact_major(shape: &IntTuple, current: &IntTuple, left: bool) -> R<IntTuple> {
    match current.view() {
        V::T(c) => {
            let Some(s) = shape.modes_of() else {
                return Err(EvalError::rule(
                    "Invalid parameters",
                    format!("compact stride: shape `{shape}` is not a tuple but current `{current}` is"),
                ));
            };
            if s.len() != c.len() {
                return Err(EvalError::rule(
                    "Mismatched Ranks",
                    format!("compact stride of `{shape}` with current `{current}`"),
                ));
            }
            Ok(T(s.iter().zip(c.iter()).map(|(si, ci)| compact_major(si, ci, left)).collect::<R<_>>()?))
        }
        _ => Ok(compact(shape, leaf_int(current, "compact stride")?, left)?.0),
    }
}

/// `compact_col_major(shape, current = _1)`: the generalized column-major strides.
pub fn compact_col_major(shape: &IntTuple, current: &IntTuple) -> R<IntTuple> {
    compact_major(shape, current, true)
}

/// `compact_row_major(shape, current = _1)`.
pub fn compact_row_major(shape: &IntTuple, current: &IntTuple) -> R<IntTuple> {
    compact_major(shape, current, false)
}

/// `prefix_product(shape, current)`: the exclusive prefix product, i.e. the column-major strides.
pub fn prefix_product(shape: &IntTuple, current: &IntTuple) -> R<IntTuple> {
    compact_col_major(shape, current)
}

/// `compact_order(shape, order)`: compact strides following the order of `order`'s leaves
/// (dynamic order values count as larger than every static one, left to right).
pub fn compact_order(shape: &IntTuple, order: &IntTuple) -> R<IntTuple> {
    let ref_shape = flatten_to_tuple(&product_like(shape, order)?).modes();
    let flat_order = flatten_to_tuple(order).modes();
    let mut max_order = st(0);
    for o in &flat_order {
        let o = leaf_int(o, "compact_order")?;
        if o.s && max_order.v < o.v {
            max_order = o;
        }
    }
    let mut ref_order = Vec::new();
    for (k, o) in flat_order.iter().enumerate() {
        let o = leaf_int(o, "compact_order")?;
        if o.s {
            ref_order.push(o);
        } else {
            ref_order.push(st(max_order
                .v
                .checked_add(1 + k as i64)
                .ok_or_else(|| EvalError::overflow("+", max_order, st(1)))?));
        }
    }
    let new_order = unflatten(&T(ref_order.iter().map(|&o| I(o)).collect()), order)?;
    if ref_shape.len() != ref_order.len() {
        return Err(EvalError::rule("Mismatched tuple_size", format!("compact_order of `{shape}` by `{order}`")));
    }
    compact_order_impl(shape, &new_order, &ref_shape, &ref_order)
}

fn compact_order_impl(shape: &IntTuple, order: &IntTuple, ref_shape: &[IntTuple], ref_order: &[Int]) -> R<IntTuple> {
    match order.view() {
        V::T(o) => {
            let s = tsize(shape, "compact_order")?;
            if s.len() != o.len() {
                return Err(EvalError::rule("Need equal rank of shape and order", format!("`{shape}` and `{order}`")));
            }
            Ok(T(s
                .iter()
                .zip(o.iter())
                .map(|(si, oi)| compact_order_impl(si, oi, ref_shape, ref_order))
                .collect::<R<_>>()?))
        }
        _ => {
            let me = leaf_int(order, "compact_order")?;
            let picked: Vec<IntTuple> = ref_shape
                .iter()
                .zip(ref_order)
                .map(|(s, o)| if o.v < me.v { s.clone() } else { IntTuple::st(1) })
                .collect();
            let start = product(&T(picked))?;
            compact_col_major(shape, &I(start))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Index arithmetic with ScaledBasis / ArithmeticTuple values
// ---------------------------------------------------------------------------------------------

/// `as_arithmetic_tuple` of a ScaledBasis: `v@m` becomes `(_0,...,_0,v)` nested by its modes.
pub fn basis_to_arith(v: Int, modes: &[usize]) -> IntTuple {
    // `modes` is in print order (innermost first): the outermost mode is the last one.
    let mut cur = I(v);
    for &m in modes {
        let mut t = vec![IntTuple::st(0); m];
        t.push(cur);
        cur = T(t);
    }
    cur
}

/// `a * b` where b may be a ScaledBasis (`a * E<m>` is `(a*1)@m`).
pub fn arith_mul(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    match (a, b) {
        // (the usual case first, as the last arm would compute it)
        (I(x), I(y)) => Ok(I(x.mul(*y)?)),
        _ if a.is_tuple() || b.is_tuple() => Err(EvalError::type_err(format!("cannot multiply `{a}` by `{b}`"))),
        (Basis(b), x) => Ok(IntTuple::basis(b.v.mul(leaf_int(x, "*")?)?, b.modes.clone())),
        (x, Basis(b)) => Ok(IntTuple::basis(leaf_int(x, "*")?.mul(b.v)?, b.modes.clone())),
        _ => Ok(I(leaf_int(a, "*")?.mul(leaf_int(b, "*")?)?)),
    }
}

/// `a + b` on CuTe index values: integers, ScaledBasis elements and ArithmeticTuples.
/// `_0 + x` is x; a basis element plus anything non-zero becomes an ArithmeticTuple.
pub fn arith_add(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    let zero = |x: &IntTuple| matches!(x, I(i) if i.is_const(0)) || matches!(x, Under);
    match (a, b) {
        (I(_) | Under, I(_) | Under) => Ok(I(leaf_int(a, "+")?.add(leaf_int(b, "+")?)?)),
        // C<t> + ScaledBasis<U> (no modes): an integer sum.
        (I(x), Basis(b)) | (Basis(b), I(x)) if b.modes.is_empty() => Ok(I(x.add(b.v)?)),
        (Under, Basis(b)) | (Basis(b), Under) if b.modes.is_empty() => Ok(I(b.v)),
        (x, y) if zero(x) && !matches!(y, I(_) | Under) => {
            if matches!(x, I(i) if i.s) || matches!(x, Under) {
                Ok(y.clone())
            } else {
                Err(EvalError::rule("Arithmetic tuple op+ error", format!("{a} + {b}")))
            }
        }
        (x, y) if zero(y) && !matches!(x, I(_) | Under) => Ok(x.clone()),
        (I(_) | Under, _) | (_, I(_) | Under) => Err(EvalError::rule(
            "Arithmetic tuple op+ error",
            format!("cannot add the integer and the coordinate in {a} + {b}"),
        )),
        _ => {
            let to_at = |x: &IntTuple| -> Vec<IntTuple> {
                match x.view() {
                    V::Basis(b) => {
                        let t = basis_to_arith(b.v, &b.modes);
                        if t.is_tuple() {
                            t.into_kids().unwrap_or_default()
                        } else {
                            vec![t]
                        }
                    }
                    V::T(t) => t.to_vec(),
                    _ => vec![x.clone()],
                }
            };
            let (p, q) = (to_at(a), to_at(b));
            let n = p.len().max(q.len());
            let z = IntTuple::st(0);
            let mut out = Vec::with_capacity(n);
            for k in 0..n {
                out.push(arith_add(p.get(k).unwrap_or(&z), q.get(k).unwrap_or(&z))?);
            }
            Ok(T(out))
        }
    }
}

/// `make_basis_like(shape)`: `E<i,j,...>` at every leaf (identity-layout strides).
pub fn make_basis_like(shape: &IntTuple) -> IntTuple {
    fn go(s: &IntTuple, path: &mut Vec<usize>) -> IntTuple {
        match s.view() {
            V::T(v) => T(v
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    path.push(i);
                    let r = go(e, path);
                    path.pop();
                    r
                })
                .collect()),
            _ => {
                let mut m = path.clone();
                m.reverse();
                IntTuple::basis(st(1), m)
            }
        }
    }
    go(shape, &mut Vec::new())
}

/// `as_arithmetic_tuple` followed by `transform_leaf(identity)`: a ScaledBasis result becomes a
/// plain tuple.
pub fn to_plain(t: &IntTuple) -> IntTuple {
    match t.view() {
        V::Basis(b) if !b.modes.is_empty() => to_plain(&basis_to_arith(b.v, &b.modes)),
        V::Basis(b) => I(b.v),
        V::T(v) => T(v.iter().map(to_plain).collect()),
        _ => t.clone(),
    }
}

#[cfg(test)]
pub(crate) mod tests;
