//! The slice of CuTe's layout algebra that the atoms machinery (`mma_atom.hpp`, `copy_atom.hpp`)
//! is built from, ported case by case from `layout.hpp`, `int_tuple.hpp`, `stride.hpp` with
//! CuTe's static/dynamic rules.
//!
//! This is a private facade: the atoms code calls only these functions, so that it can be
//! switched to the shared implementations in `eval::ops` function by function. Every function
//! keeps CuTe's name; every `static_assert` it can hit is an `EvalError::rule` with CuTe's text.
//! May import: `eval::int`, `eval::int_tuple`, `eval::layout`, `eval::error`.

use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::IntTuple::{self, Basis, Under, I, T};
use crate::eval::layout::Layout;

// ------------------------------------------------------------------------------------------
// Tilers: what CuTe accepts as the right-hand side of composition / divide / product
// ------------------------------------------------------------------------------------------

/// A tiler element: `_`, an integer (a stride-1 layout of that size), a layout, or a tuple of
/// tilers (one per mode).
#[derive(Clone, Debug, PartialEq)]
pub enum Tl {
    U,
    I(Int),
    L(Layout),
    T(Vec<Tl>),
}

impl Tl {
    /// A shape used as a tiler: integers stay integers, tuples become tuples of tilers.
    pub fn from_shape(s: &IntTuple) -> R<Tl> {
        Ok(match s {
            I(i) => Tl::I(*i),
            T(v) => Tl::T(v.iter().map(Tl::from_shape).collect::<R<_>>()?),
            Under => Tl::U,
            Basis(..) => return Err(unsupported("a scaled-basis tiler")),
        })
    }
    /// `size` of a tiler (CuTe's `size` on a layout / integer / tuple).
    pub fn size(&self) -> R<Int> {
        match self {
            Tl::U => Err(EvalError::rule("no size", "`_` has no size")),
            Tl::I(i) => Ok(*i),
            Tl::L(l) => size(l),
            Tl::T(v) => v.iter().try_fold(st(1), |acc, t| acc.mul(t.size()?)),
        }
    }
    /// `shape` of a tiler: an integer is its own shape, a layout its shape, a tuple the tuple
    /// of the shapes.
    pub fn shape(&self) -> R<IntTuple> {
        match self {
            Tl::U => Err(EvalError::rule("no shape", "`_` has no shape")),
            Tl::I(i) => Ok(I(*i)),
            Tl::L(l) => Ok(l.shape.clone()),
            Tl::T(v) => Ok(T(v.iter().map(|t| t.shape()).collect::<R<_>>()?)),
        }
    }
    pub fn is_static(&self) -> bool {
        match self {
            Tl::U => true,
            Tl::I(i) => i.s,
            Tl::L(l) => l.shape.is_static() && l.stride.is_static(),
            Tl::T(v) => v.iter().all(|t| t.is_static()),
        }
    }
}

impl std::fmt::Display for Tl {
    /// CuTe prints a tile as a tuple of its elements.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tl::U => write!(f, "_"),
            Tl::I(i) => write!(f, "{i}"),
            Tl::L(l) => write!(f, "{l}"),
            Tl::T(v) => {
                write!(f, "(")?;
                for (k, e) in v.iter().enumerate() {
                    if k > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{e}")?;
                }
                write!(f, ")")
            }
        }
    }
}

fn unsupported(what: &str) -> EvalError {
    EvalError::rule("not supported", format!("{what} is not supported by the atoms functions"))
}

// ------------------------------------------------------------------------------------------
// IntTuple helpers (int_tuple.hpp, tuple_algorithms.hpp)
// ------------------------------------------------------------------------------------------

/// `get<i>(t)`: a tuple's element, or the non-tuple itself for `i == 0`.
pub fn get(t: &IntTuple, i: usize) -> R<IntTuple> {
    t.get(i).cloned()
}

/// `wrap(t)`: the modes of a tuple, or the non-tuple as a single mode.
pub fn wrap(t: &IntTuple) -> Vec<IntTuple> {
    t.modes()
}

/// `unwrap`: a 1-tuple is replaced by its element, recursively.
pub fn unwrap(t: IntTuple) -> IntTuple {
    match t {
        T(mut v) if v.len() == 1 => unwrap(v.remove(0)),
        x => x,
    }
}

/// `flatten`: an integer stays an integer, a tuple becomes the tuple of its leaves.
pub fn flatten(t: &IntTuple) -> IntTuple {
    match t {
        T(_) => T(t.leaves()),
        x => x.clone(),
    }
}

fn as_int(t: &IntTuple) -> R<Int> {
    match t {
        I(i) => Ok(*i),
        Under => Ok(st(0)), // CuTe's Underscore is an Int<0>
        other => Err(EvalError::type_err(format!("expected an integer, got {other}"))),
    }
}

/// `product(t)`: the product of all leaves (`_1` for an empty tuple).
pub fn product(t: &IntTuple) -> R<Int> {
    match t {
        I(i) => Ok(*i),
        T(v) => v.iter().try_fold(st(1), |acc, e| acc.mul(product(e)?)),
        Under => Err(EvalError::rule("no size", "`_` has no size")),
        Basis(..) => Err(unsupported("a scaled-basis shape")),
    }
}

/// `product_each(t)`: the product of each mode (always a tuple).
pub fn product_each(t: &IntTuple) -> R<IntTuple> {
    Ok(T(wrap(t).iter().map(|m| product(m).map(I)).collect::<R<_>>()?))
}

/// `ceil_div(a, b)` on integers: `(a + b - 1) / b`.
pub fn ceil_div_i(a: Int, b: Int) -> R<Int> {
    a.add(b)?.sub(st(1))?.div(b)
}

/// `ceil_div(a, b)` on IntTuples (tuple/int fold, tuple/tuple by mode, int/tuple by product).
pub fn ceil_div(a: &IntTuple, b: &IntTuple) -> R<IntTuple> {
    match (a, b) {
        (T(av), T(bv)) => {
            if av.len() < bv.len() {
                return Err(EvalError::rule("mismatched ranks", format!("ceil_div({a}, {b})")));
            }
            let mut out = Vec::new();
            for (k, x) in av.iter().enumerate() {
                let y = bv.get(k).cloned().unwrap_or(I(st(1)));
                out.push(ceil_div(x, &y)?);
            }
            Ok(T(out))
        }
        (T(av), I(_)) => {
            let mut rest = b.clone();
            let mut out = Vec::new();
            for x in av {
                out.push(ceil_div(x, &rest)?);
                rest = ceil_div(&rest, x)?;
            }
            Ok(T(out))
        }
        (I(x), T(_)) => Ok(I(ceil_div_i(*x, product(b)?)?)),
        (I(x), I(y)) => Ok(I(ceil_div_i(*x, *y)?)),
        _ => Err(EvalError::type_err(format!("ceil_div({a}, {b})"))),
    }
}

/// CuTe's `signum` (static if the argument is).
fn signum(x: Int) -> Int {
    Int::new(x.v.signum(), x.s)
}

/// `coalesce(shape)`: flatten and multiply adjacent modes of equal static-ness.
pub fn coalesce_shape(s: &IntTuple) -> R<IntTuple> {
    let leaves = match s {
        T(_) => s.leaves(),
        x => return Ok(x.clone()),
    };
    let mut it = leaves.into_iter();
    let Some(first) = it.next() else {
        return Err(EvalError::rule("empty shape", "coalesce of an empty shape"));
    };
    let mut acc: IntTuple = first;
    for a in it {
        let a_i = as_int(&a)?;
        let back = match &acc {
            T(v) => v.last().cloned().unwrap_or(I(st(1))),
            x => x.clone(),
        };
        let b_i = as_int(&back)?;
        if b_i.s == a_i.s {
            let p = I(b_i.mul(a_i)?);
            acc = match acc {
                T(mut v) => {
                    v.pop();
                    v.push(p);
                    T(v)
                }
                _ => p,
            };
        } else {
            acc = match acc {
                T(mut v) => {
                    v.push(a);
                    T(v)
                }
                x => T(vec![x, a]),
            };
        }
    }
    Ok(acc)
}

/// `compact_major<LayoutLeft>(shape, current)`: column-major strides starting at `current`;
/// a static size-1 mode gets stride `_0`.
pub fn compact_left(shape: &IntTuple, current: Int) -> R<IntTuple> {
    fn go(s: &IntTuple, cur: Int) -> R<(IntTuple, Int)> {
        match s {
            T(v) => {
                let mut out = Vec::new();
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
            other => Err(EvalError::type_err(format!("expected a shape, got {other}"))),
        }
    }
    Ok(go(shape, current)?.0)
}

/// `zip(t)`: transpose a tuple of tuples (a tuple of non-tuples becomes a 1-tuple of it).
pub fn zip_t(t: &IntTuple) -> R<IntTuple> {
    match t {
        T(v) => match v.first() {
            Some(T(first)) => {
                let n = first.len();
                let mut out = Vec::new();
                for j in 0..n {
                    let mut col = Vec::new();
                    for e in v {
                        col.push(get(e, j).map_err(|_| EvalError::rule("mismatched ranks", format!("zip of {t}")))?);
                    }
                    out.push(T(col));
                }
                Ok(T(out))
            }
            _ => Ok(T(vec![t.clone()])),
        },
        x => Ok(x.clone()),
    }
}

/// `zip2_by(t, guide)`: ((A,B,...),(a,b,...,x,y)) following the profile of the tiler.
pub fn zip2_by(t: &IntTuple, guide: &Tl) -> R<IntTuple> {
    match guide {
        Tl::T(g) => {
            let tv = wrap(t);
            if tv.len() < g.len() {
                return Err(EvalError::rule("mismatched ranks", format!("zip2_by of {t} by a tiler of rank {}", g.len())));
            }
            let mut first = Vec::new();
            let mut second = Vec::new();
            for (k, gk) in g.iter().enumerate() {
                let split = zip2_by(&tv[k], gk)?;
                first.push(get(&split, 0)?);
                second.push(get(&split, 1)?);
            }
            second.extend(tv[g.len()..].iter().cloned());
            Ok(T(vec![T(first), T(second)]))
        }
        _ => {
            if t.rank() != 2 || !t.is_tuple() {
                return Err(EvalError::rule("mismatched ranks", format!("zip2_by expects a rank-2 mode, got {t}")));
            }
            Ok(t.clone())
        }
    }
}

/// `slice(coord, t)`: the sub-tuples of `t` where `coord` has `_`, concatenated (a flat tuple of
/// the selected modes).
pub fn slice_t(c: &IntTuple, t: &IntTuple) -> R<IntTuple> {
    fn lift(c: &IntTuple, t: &IntTuple, out: &mut Vec<IntTuple>) -> R<()> {
        match c {
            T(cv) => {
                let tv = match t {
                    T(tv) if tv.len() == cv.len() => tv,
                    _ => return Err(EvalError::rule("mismatched ranks", format!("slice coordinate {c} for {t}"))),
                };
                for (ci, ti) in cv.iter().zip(tv) {
                    lift(ci, ti, out)?;
                }
                Ok(())
            }
            Under => {
                out.push(t.clone());
                Ok(())
            }
            _ => Ok(()),
        }
    }
    match c {
        Under => Ok(t.clone()),
        T(_) => {
            let mut out = Vec::new();
            lift(c, t, &mut out)?;
            Ok(T(out))
        }
        _ => Ok(T(vec![])),
    }
}

/// `crd2idx(coord, shape, stride)`; `_` counts as a static 0.
pub fn crd2idx(c: &IntTuple, s: &IntTuple, d: &IntTuple) -> R<Int> {
    match (c, s) {
        (T(cv), T(sv)) => {
            let dv = match d {
                T(dv) if dv.len() == sv.len() && cv.len() == sv.len() => dv,
                _ => return Err(EvalError::rule("mismatched ranks", format!("crd2idx({c}, {s}, {d})"))),
            };
            let mut acc: Option<Int> = None;
            for k in 0..cv.len() {
                let x = crd2idx(&cv[k], &sv[k], &dv[k])?;
                acc = Some(match acc {
                    None => x,
                    Some(a) => a.add(x)?,
                });
            }
            Ok(acc.unwrap_or(st(0)))
        }
        (T(_), _) => Err(EvalError::rule("invalid parameters", format!("crd2idx({c}, {s}, {d})"))),
        (_, T(sv)) => {
            let dv = match d {
                T(dv) if dv.len() == sv.len() => dv,
                _ => return Err(EvalError::rule("mismatched ranks", format!("crd2idx({c}, {s}, {d})"))),
            };
            let mut coord = as_int(c)?;
            let n = sv.len();
            if n == 0 {
                return Ok(st(0));
            }
            let mut acc: Option<Int> = None;
            for k in 0..n {
                let x = if k + 1 == n {
                    crd2idx(&I(coord), &sv[k], &dv[k])?
                } else if coord.is_const(0) {
                    crd2idx(&I(st(0)), &sv[k], &dv[k])?
                } else {
                    let p = product(&sv[k])?;
                    let (div, m) = (coord.div(p)?, coord.rem(p)?);
                    let x = crd2idx(&I(m), &sv[k], &dv[k])?;
                    coord = div;
                    x
                };
                acc = Some(match acc {
                    None => x,
                    Some(a) => a.add(x)?,
                });
            }
            Ok(acc.unwrap_or(st(0)))
        }
        (_, _) => as_int(c)?.mul(as_int(d)?),
    }
}

/// `crd2idx(coord, shape)`: colexicographic index (Horner) of a coordinate.
pub fn crd2idx_shape(c: &IntTuple, s: &IntTuple) -> R<Int> {
    match c {
        I(_) | Under => as_int(c),
        T(_) => {
            let fc = c.leaves();
            let fs = flatten(&product_like(s, c)?).modes();
            if fc.len() != fs.len() || fc.is_empty() {
                return Err(EvalError::rule("mismatched ranks", format!("crd2idx({c}, {s})")));
            }
            let mut acc = as_int(&fc[fc.len() - 1])?;
            for k in (0..fc.len() - 1).rev() {
                acc = as_int(&fc[k])?.add(as_int(&fs[k])?.mul(acc)?)?;
            }
            Ok(acc)
        }
        _ => Err(EvalError::type_err(format!("crd2idx of {c}"))),
    }
}

/// `product_like(t, guide)`: the product of `t` at the leaves of `guide`.
fn product_like(t: &IntTuple, guide: &IntTuple) -> R<IntTuple> {
    match guide {
        T(g) => {
            let tv = match t {
                T(tv) if tv.len() == g.len() => tv,
                _ => return Err(EvalError::rule("mismatched ranks", format!("{t} like {guide}"))),
            };
            Ok(T(g.iter().zip(tv).map(|(gi, ti)| product_like(ti, gi)).collect::<R<_>>()?))
        }
        _ => Ok(I(product(t)?)),
    }
}

/// `idx2crd(idx, shape, stride)` (the hierarchical coordinate of `Layout::get_hier_coord`).
pub fn idx2crd(idx: Int, s: &IntTuple, d: &IntTuple) -> R<IntTuple> {
    match (s, d) {
        (T(sv), T(dv)) => {
            if sv.len() != dv.len() {
                return Err(EvalError::rule("mismatched ranks", format!("idx2crd({idx}, {s}, {d})")));
            }
            Ok(T(sv.iter().zip(dv).map(|(si, di)| idx2crd(idx, si, di)).collect::<R<_>>()?))
        }
        (T(_), I(di)) => {
            let cd = compact_left(s, *di)?;
            idx2crd(idx, s, &cd)
        }
        (I(si), I(di)) => {
            if si.is_const(1) {
                Ok(I(st(0)))
            } else {
                Ok(I(idx.div(*di)?.rem(*si)?))
            }
        }
        _ => Err(EvalError::type_err(format!("idx2crd({idx}, {s}, {d})"))),
    }
}

// ------------------------------------------------------------------------------------------
// Layout construction and structure (layout.hpp)
// ------------------------------------------------------------------------------------------

/// `make_layout(shape)`: compact column-major.
pub fn make_layout(shape: &IntTuple) -> R<Layout> {
    Ok(Layout::new(shape.clone(), compact_left(shape, st(1))?))
}

/// `make_layout(L0, L1, ...)`: concatenation (always a tuple, even of one layout).
pub fn concat(ls: &[Layout]) -> Layout {
    Layout::new(T(ls.iter().map(|l| l.shape.clone()).collect()), T(ls.iter().map(|l| l.stride.clone()).collect()))
}

/// `layout<i>(L)`: mode `i` as a layout.
pub fn mode(l: &Layout, i: usize) -> R<Layout> {
    Ok(Layout::new(get(&l.shape, i)?, get(&l.stride, i).map_err(|_| mismatch(l))?))
}

fn mismatch(l: &Layout) -> EvalError {
    EvalError::rule("mismatched ranks", format!("shape and stride of {l} are not congruent"))
}

/// The modes of a layout (a non-tuple layout is its own single mode).
pub fn modes(l: &Layout) -> R<Vec<Layout>> {
    match (&l.shape, &l.stride) {
        (T(s), T(d)) if s.len() == d.len() => Ok(s.iter().zip(d).map(|(a, b)| Layout::new(a.clone(), b.clone())).collect()),
        (T(_), _) | (_, T(_)) => Err(mismatch(l)),
        _ => Ok(vec![l.clone()]),
    }
}

pub fn rank(l: &Layout) -> usize {
    l.shape.rank()
}

pub fn size(l: &Layout) -> R<Int> {
    product(&l.shape)
}

/// `cosize(L)`: `L(size-1) + 1` computed as CuTe's coshape (sum of (s-1)*|d|, plus 1).
pub fn cosize(l: &Layout) -> R<Int> {
    fn go(s: &IntTuple, d: &IntTuple) -> R<Option<Int>> {
        match (s, d) {
            (T(sv), T(dv)) if sv.len() == dv.len() => {
                let mut acc: Option<Int> = None;
                for (a, b) in sv.iter().zip(dv) {
                    if let Some(x) = go(a, b)? {
                        acc = Some(match acc {
                            None => x,
                            Some(y) => y.add(x)?,
                        });
                    }
                }
                Ok(acc)
            }
            (I(a), I(b)) => Ok(Some(a.sub(st(1))?.mul(b.abs()?)?)),
            _ => Err(EvalError::rule("mismatched ranks", format!("cosize of {s}:{d}"))),
        }
    }
    let ip = go(&l.shape, &l.stride)?.unwrap_or(st(0));
    ip.add(st(1))
}

/// `append<N>(L)`: pad with `_1:_0` modes up to rank N.
pub fn append_to(l: &Layout, n: usize) -> R<Layout> {
    let r = rank(l);
    if r == n {
        return Ok(l.clone());
    }
    if r > n {
        return Err(EvalError::rule("rank too large", format!("{l} has rank {r} > {n}")));
    }
    let mut ms = if l.shape.is_tuple() { modes(l)? } else { vec![l.clone()] };
    while ms.len() < n {
        ms.push(Layout::new(I(st(1)), I(st(0))));
    }
    Ok(concat(&ms))
}

/// `filter_zeros(L)`: size-1 where the stride is a static 0.
pub fn filter_zeros(l: &Layout) -> R<Layout> {
    fn go(d: &IntTuple, s: &IntTuple) -> R<IntTuple> {
        match (d, s) {
            (T(dv), T(sv)) if dv.len() == sv.len() => Ok(T(dv.iter().zip(sv).map(|(a, b)| go(a, b)).collect::<R<_>>()?)),
            (I(x), _) if x.is_const(0) => Ok(I(st(1))),
            (I(_), _) => Ok(s.clone()),
            _ => Err(EvalError::rule("mismatched ranks", format!("filter_zeros of {s}:{d}"))),
        }
    }
    Ok(Layout::new(go(&l.stride, &l.shape)?, l.stride.clone()))
}

/// `filter(L) = coalesce(filter_zeros(L))`.
pub fn filter(l: &Layout) -> R<Layout> {
    coalesce(&filter_zeros(l)?)
}

/// The "new" part of bw_coalesce: an integer or a tuple, as in CuTe.
enum NewMode {
    One(Int, Int),
    Many(Vec<Int>, Vec<Int>),
}

/// detail::bw_coalesce over flat shape/stride lists, from index `i` down to 0.
fn bw_coalesce(os: &[Int], od: &[Int], init: NewMode) -> R<Layout> {
    let mut new = init;
    for i in (0..os.len()).rev() {
        let (s, d) = (os[i], od[i]);
        if s.is_const(1) {
            continue;
        }
        match &mut new {
            NewMode::One(ns, _) if ns.is_const(1) => {
                new = NewMode::One(s, d);
                continue;
            }
            _ => {}
        }
        let (ns0, nd0) = match &new {
            NewMode::One(a, b) => (*a, *b),
            NewMode::Many(a, b) => (a[0], b[0]),
        };
        let p = s.mul(d)?;
        if ns0.s && p.s && nd0.s && p.v == nd0.v {
            let merged = s.mul(ns0)?;
            match &mut new {
                NewMode::One(a, b) => {
                    *a = merged;
                    *b = d;
                }
                NewMode::Many(a, b) => {
                    a[0] = merged;
                    b[0] = d;
                }
            }
        } else {
            new = match new {
                NewMode::One(a, b) => NewMode::Many(vec![s, a], vec![d, b]),
                NewMode::Many(mut a, mut b) => {
                    a.insert(0, s);
                    b.insert(0, d);
                    NewMode::Many(a, b)
                }
            };
        }
    }
    Ok(match new {
        NewMode::One(a, _) if a.is_const(1) => Layout::new(I(st(1)), I(st(0))),
        NewMode::One(a, b) => Layout::new(I(a), I(b)),
        NewMode::Many(a, b) => Layout::new(T(a.into_iter().map(I).collect()), T(b.into_iter().map(I).collect())),
    })
}

fn flat_ints(l: &Layout) -> R<(Vec<Int>, Vec<Int>)> {
    let s: Vec<Int> = l.shape.leaves().iter().map(as_int).collect::<R<_>>()?;
    let d: Vec<Int> = l.stride.leaves().iter().map(|x| match x {
        I(i) => Ok(*i),
        Basis(..) => Err(unsupported("a scaled-basis stride")),
        o => Err(EvalError::type_err(format!("expected an integer stride, got {o}"))),
    }).collect::<R<_>>()?;
    if s.len() != d.len() || s.is_empty() {
        return Err(mismatch(l));
    }
    Ok((s, d))
}

/// `coalesce(L)`.
pub fn coalesce(l: &Layout) -> R<Layout> {
    let (s, d) = flat_ints(l)?;
    let n = s.len();
    bw_coalesce(&s[..n - 1], &d[..n - 1], NewMode::One(s[n - 1], d[n - 1]))
}

/// `detail::coalesce_x(L)`: like coalesce, but a trailing static size-1 mode becomes size 2 so
/// the function is kept outside the domain too.
fn coalesce_x(l: &Layout) -> R<Layout> {
    let (s, d) = flat_ints(l)?;
    let n = s.len();
    let last = if s[n - 1].is_const(1) { st(2) } else { s[n - 1] };
    bw_coalesce(&s[..n - 1], &d[..n - 1], NewMode::One(last, d[n - 1]))
}

/// `transform_layout(L, profile, f)`: `f` on the first rank(profile) modes, the rest kept.
fn transform_by(l: &Layout, prof_rank: usize, mut f: impl FnMut(&Layout, usize) -> R<Layout>, keep_rest: bool) -> R<Layout> {
    let ms = modes(l)?;
    if prof_rank > ms.len() {
        return Err(EvalError::rule("too many modes", format!("a profile of rank {prof_rank} for {l}")));
    }
    let mut out = Vec::new();
    for (k, m) in ms.iter().enumerate() {
        if k < prof_rank {
            out.push(f(m, k)?);
        } else if keep_rest {
            out.push(m.clone());
        }
    }
    Ok(concat(&out))
}

/// `coalesce(L, profile)`: coalesce at the terminals of the profile.
pub fn coalesce_by(l: &Layout, prof: &IntTuple) -> R<Layout> {
    match prof {
        T(p) => transform_by(l, p.len(), |m, k| coalesce_by(m, &p[k]), true),
        _ => coalesce(l),
    }
}

fn coalesce_x_by(l: &Layout, prof: &IntTuple) -> R<Layout> {
    match prof {
        T(p) => transform_by(l, p.len(), |m, k| coalesce_x_by(m, &p[k]), true),
        _ => coalesce_x(l),
    }
}

/// `zip(L)`.
pub fn zip(l: &Layout) -> R<Layout> {
    Ok(Layout::new(zip_t(&l.shape)?, zip_t(&l.stride)?))
}

/// `L(coord)` with underscores: the sliced layout (no offset).
pub fn slice(c: &IntTuple, l: &Layout) -> R<Layout> {
    Ok(Layout::new(slice_t(c, &l.shape)?, slice_t(c, &l.stride)?))
}

/// `slice_and_offset(coord, L)`.
pub fn slice_and_offset(c: &IntTuple, l: &Layout) -> R<(Layout, Int)> {
    Ok((slice(c, l)?, crd2idx(c, &l.shape, &l.stride)?))
}

/// `L.get_flat_coord(idx)`: one integer per top-level mode.
pub fn get_flat_coord(l: &Layout, idx: Int) -> R<Vec<Int>> {
    let hier = idx2crd(idx, &l.shape, &l.stride)?;
    let shapes = wrap(&l.shape);
    let coords = wrap(&hier);
    shapes.iter().zip(coords.iter()).map(|(s, c)| crd2idx_shape(c, s)).collect()
}

// ------------------------------------------------------------------------------------------
// Composition, complement, inverses
// ------------------------------------------------------------------------------------------

/// detail::composition_impl
fn composition_impl(ls: &IntTuple, ld: &IntTuple, rs: &IntTuple, rd: &IntTuple) -> R<Layout> {
    if let T(rsv) = rs {
        let rdv = match rd {
            T(v) if v.len() == rsv.len() => v,
            _ => return Err(EvalError::rule("mismatched ranks", format!("{rs}:{rd} is not congruent"))),
        };
        let parts = rsv.iter().zip(rdv).map(|(s, d)| composition_impl(ls, ld, s, d)).collect::<R<Vec<_>>>()?;
        return Ok(concat(&parts));
    }
    let rstride = match rd {
        I(i) => *i,
        Basis(..) => return Err(unsupported("a scaled-basis stride on the right of a composition")),
        o => return Err(EvalError::type_err(format!("expected an integer stride, got {o}"))),
    };
    if rstride.is_const(0) {
        return Ok(Layout::new(rs.clone(), rd.clone()));
    }
    if let I(lstride) = ld {
        if ls.is_int() {
            return Ok(Layout::new(rs.clone(), I(rstride.mul(*lstride)?)));
        }
    }
    let lsv = wrap(ls);
    let ldv = wrap(ld);
    if lsv.len() != ldv.len() || lsv.is_empty() {
        return Err(EvalError::rule("mismatched ranks", format!("{ls}:{ld} is not congruent")));
    }
    let r = lsv.len();
    let mut res_s: Vec<Int> = Vec::new();
    let mut res_d: Vec<Int> = Vec::new();
    let mut rest_shape = as_int(rs)?;
    let mut rest_stride = rstride;
    for i in 0..r - 1 {
        let curr_shape = as_int(&lsv[i])?;
        let curr_stride = as_int(&ldv[i])?;
        if curr_shape.s && rest_stride.s {
            let ok = rest_stride.v.checked_rem(curr_shape.v).map(|m| m == 0).unwrap_or(false) || rest_stride.v < curr_shape.v;
            if !ok {
                return Err(EvalError::rule(
                    "Stride Divisibility Condition",
                    format!("stride {rest_stride} is neither a multiple of nor less than shape {curr_shape}"),
                ));
            }
        }
        let next_shape = ceil_div_i(curr_shape, rest_stride.abs()?)?;
        let next_stride = ceil_div_i(rest_stride.abs()?, curr_shape)?.mul(signum(rest_stride))?;
        if next_shape.is_const(1) || rest_shape.is_const(1) {
            rest_stride = next_stride;
        } else {
            let new_shape = next_shape.min(rest_shape);
            if new_shape.s && rest_shape.s && rest_shape.rem(new_shape)?.v != 0 {
                return Err(EvalError::rule(
                    "Shape Divisibility Condition",
                    format!("shape {rest_shape} is not a multiple of {new_shape}"),
                ));
            }
            res_s.push(new_shape);
            res_d.push(rest_stride.mul(curr_stride)?);
            rest_shape = rest_shape.div(new_shape)?;
            rest_stride = next_stride;
        }
    }
    let last_d = as_int(&ldv[r - 1])?;
    if res_s.is_empty() {
        Ok(Layout::new(I(rest_shape), I(rest_stride.mul(last_d)?)))
    } else if rest_shape.is_const(1) {
        Ok(Layout::new(unwrap(T(res_s.into_iter().map(I).collect())), unwrap(T(res_d.into_iter().map(I).collect()))))
    } else {
        res_s.push(rest_shape);
        res_d.push(rest_stride.mul(last_d)?);
        Ok(Layout::new(T(res_s.into_iter().map(I).collect()), T(res_d.into_iter().map(I).collect())))
    }
}

/// `coprofile(L)` for integer strides is `_0` (not a tuple), so composition coalesces the whole
/// left-hand side.
fn check_int_strides(l: &Layout) -> R<()> {
    if l.stride.leaves().iter().any(|x| matches!(x, Basis(..))) {
        return Err(unsupported("a scaled-basis stride"));
    }
    Ok(())
}

/// `composition(lhs, rhs)` of two layouts.
pub fn composition(lhs: &Layout, rhs: &Layout) -> R<Layout> {
    check_int_strides(rhs)?;
    let flat = coalesce_x_by(lhs, &I(st(0)))?;
    composition_impl(&flat.shape, &flat.stride, &rhs.shape, &rhs.stride)
}

/// `composition(lhs, tiler)`.
pub fn composition_t(lhs: &Layout, rhs: &Tl) -> R<Layout> {
    match rhs {
        Tl::T(v) => {
            if v.len() > rank(lhs) {
                return Err(EvalError::rule("too many modes", format!("a tiler of rank {} for {lhs}", v.len())));
            }
            transform_by(lhs, v.len(), |m, k| composition_t(m, &v[k]), false)
        }
        Tl::U => Ok(lhs.clone()),
        Tl::I(i) => {
            let flat = coalesce_x(lhs)?;
            composition_impl(&flat.shape, &flat.stride, &I(*i), &I(st(1)))
        }
        Tl::L(l) => composition(lhs, l),
    }
}

/// `complement(L, cotarget)`.
pub fn complement(l: &Layout, cotarget: &IntTuple) -> R<Layout> {
    let f = filter(l)?;
    let shape = wrap(&f.shape).iter().map(as_int).collect::<R<Vec<_>>>()?;
    let stride = wrap(&f.stride).iter().map(as_int).collect::<R<Vec<_>>>()?;
    if let (I(d), false) = (&f.stride, f.stride.is_tuple()) {
        if d.is_const(0) {
            return make_layout(&coalesce_shape(cotarget)?);
        }
    }
    let r = shape.len();
    if r > 1 && !f.stride.is_static() {
        return Err(EvalError::rule("Dynamic-stride complement only for rank-1 layouts", format!("complement of {l}")));
    }
    let mut sh = shape;
    let mut sd = stride;
    let mut res_s: Vec<Int> = Vec::new();
    let mut res_d: Vec<Int> = vec![st(1)];
    for i in 0..r - 1 {
        // cute::min over the tuple, then the first index holding it
        let mut min_stride = sd[sd.len() - 1];
        for k in (0..sd.len() - 1).rev() {
            min_stride = if sd[k].v < min_stride.v { sd[k] } else { min_stride };
        }
        let min_idx = sd.iter().position(|x| x.v == min_stride.v).unwrap_or(0);
        let new_shape = min_stride.div(res_d[i])?;
        if new_shape.is_const(0) {
            return Err(EvalError::rule("Non-injective Layout detected in complement.", format!("complement of {l}")));
        }
        let new_stride = min_stride.mul(sh[min_idx])?;
        sh.remove(min_idx);
        sd.remove(min_idx);
        res_s.push(new_shape);
        res_d.push(new_stride);
    }
    let new_shape = sd[0].div(res_d[r - 1])?;
    if new_shape.is_const(0) {
        return Err(EvalError::rule("Non-injective Layout detected in complement.", format!("complement of {l}")));
    }
    res_s.push(new_shape);
    let new_stride = sd[0].mul(sh[0])?;
    let rest_shape = coalesce_shape(&ceil_div(cotarget, &I(new_stride))?)?;
    let rest_stride = compact_left(&rest_shape, new_stride)?;
    let full = Layout::new(
        T(vec![T(res_s.into_iter().map(I).collect()), rest_shape]),
        T(vec![T(res_d.into_iter().map(I).collect()), rest_stride]),
    );
    coalesce(&full)
}

/// `complement(L)`: cotarget `cosize(filter(L))`.
pub fn complement1(l: &Layout) -> R<Layout> {
    let f = filter(l)?;
    complement(l, &I(cosize(&f)?))
}

/// CuTe's `exchange_sort` of (key, value) pairs (not stable, exactly as CuTe sorts).
fn exchange_sort(mut a: Vec<(i64, usize)>) -> Vec<(i64, usize)> {
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

fn preprod(shape: &[Int]) -> R<Vec<Int>> {
    let mut out = vec![st(1)];
    for s in shape {
        let b = *out.last().unwrap_or(&st(1));
        out.push(s.mul(b)?);
    }
    Ok(out)
}

/// `right_inverse(L)`.
pub fn right_inverse(l: &Layout) -> R<Layout> {
    let c = coalesce(l)?;
    let lstride = wrap(&c.stride).iter().map(as_int).collect::<R<Vec<_>>>()?;
    let lshape = wrap(&c.shape).iter().map(as_int).collect::<R<Vec<_>>>()?;
    let pre = preprod(&lshape)?;
    let keyed: Vec<(i64, usize)> = lstride.iter().enumerate().filter(|(_, d)| d.s).map(|(i, d)| (d.v, i)).collect();
    let sorted = exchange_sort(keyed);
    let mut rs = vec![st(1)];
    let mut rd = vec![st(0)];
    let mut curr = st(1);
    for (_, i) in sorted {
        let (ishape, istride) = (lshape[i], lstride[i]);
        if curr.s && istride.v == curr.v {
            rs.push(ishape);
            rd.push(pre[i]);
            curr = ishape.mul(istride)?;
        }
    }
    coalesce(&Layout::new(T(rs.into_iter().map(I).collect()), T(rd.into_iter().map(I).collect())))
}

/// `left_inverse(L)`.
pub fn left_inverse(l: &Layout) -> R<Layout> {
    let c = coalesce(l)?;
    let lstride = wrap(&c.stride).iter().map(as_int).collect::<R<Vec<_>>>()?;
    let lshape = wrap(&c.shape).iter().map(as_int).collect::<R<Vec<_>>>()?;
    let pre = preprod(&lshape)?;
    if lstride.iter().any(|d| !d.s) {
        return Err(EvalError::rule("Left inverse requires static strides.", format!("left_inverse of {l}")));
    }
    let sorted = exchange_sort(lstride.iter().enumerate().map(|(i, d)| (d.v, i)).collect());
    let mut rs: Vec<Int> = Vec::new();
    let mut rd = vec![st(0)];
    for &(_, i) in &sorted {
        let istride = lstride[i];
        if istride.is_const(0) {
            continue;
        }
        let sz = rs.iter().try_fold(st(1), |a, b| a.mul(*b))?;
        if istride.rem(sz)?.v != 0 {
            return Err(EvalError::rule("Left inverse divisibility condition", format!("left_inverse of {l}")));
        }
        rs.push(istride.div(sz)?);
        rd.push(pre[i]);
    }
    let back = sorted.last().map(|p| p.1).unwrap_or(0);
    rs.push(lshape[back]);
    coalesce(&Layout::new(T(rs.into_iter().map(I).collect()), T(rd.into_iter().map(I).collect())))
}

// ------------------------------------------------------------------------------------------
// Divide and product
// ------------------------------------------------------------------------------------------

/// `logical_divide(L, tiler)`.
pub fn logical_divide(l: &Layout, t: &Tl) -> R<Layout> {
    match t {
        Tl::T(v) => {
            if v.len() > rank(l) {
                return Err(EvalError::rule("logical_divide: Too many modes in tiler.", format!("a tiler of rank {} for {l}", v.len())));
            }
            transform_by(l, v.len(), |m, k| logical_divide(m, &v[k]), true)
        }
        Tl::U => Ok(l.clone()),
        Tl::I(i) => logical_divide(l, &Tl::L(make_layout(&I(*i))?)),
        Tl::L(tl) => {
            let c = complement(tl, &coalesce(l)?.shape)?;
            composition(l, &concat(&[tl.clone(), c]))
        }
    }
}

/// `zipped_divide(L, tiler)`.
pub fn zipped_divide(l: &Layout, t: &Tl) -> R<Layout> {
    let d = logical_divide(l, t)?;
    Ok(Layout::new(zip2_by(&d.shape, t)?, zip2_by(&d.stride, t)?))
}

/// `logical_product(block, tiler)`.
pub fn logical_product(b: &Layout, t: &Tl) -> R<Layout> {
    match t {
        Tl::T(v) => {
            if v.len() > rank(b) {
                return Err(EvalError::rule("logical_product: Too many modes in tiler.", format!("a tiler of rank {} for {b}", v.len())));
            }
            transform_by(b, v.len(), |m, k| logical_product(m, &v[k]), true)
        }
        Tl::U => Ok(b.clone()),
        Tl::I(i) => logical_product(b, &Tl::L(make_layout(&I(*i))?)),
        Tl::L(tl) => {
            let c = complement(b, &I(size(b)?.mul(cosize(tl)?)?))?;
            Ok(concat(&[b.clone(), composition(&c, tl)?]))
        }
    }
}

/// `zipped_product(block, tiler)`.
pub fn zipped_product(b: &Layout, t: &Tl) -> R<Layout> {
    let p = logical_product(b, t)?;
    Ok(Layout::new(zip2_by(&p.shape, t)?, zip2_by(&p.stride, t)?))
}

/// `result(_, repeat<rank<1>>(_))`: unpack the second mode of a rank-2 layout.
fn unpack_second(r: &Layout) -> R<Layout> {
    let r1 = get(&r.shape, 1)?.rank();
    let inner = if r1 == 1 { Under } else { T(vec![Under; r1]) };
    slice(&T(vec![Under, inner]), r)
}

/// `tiled_product(block, tiler)`.
pub fn tiled_product(b: &Layout, t: &Tl) -> R<Layout> {
    unpack_second(&zipped_product(b, t)?)
}

/// `raked_product(block, tiler)` of two layouts.
pub fn raked_product(b: &Layout, t: &Layout) -> R<Layout> {
    let r = rank(b).max(rank(t));
    let p = logical_product(&append_to(b, r)?, &Tl::L(append_to(t, r)?))?;
    let (m0, m1) = (mode(&p, 0)?, mode(&p, 1)?);
    Ok(Layout::new(zip_t(&T(vec![m1.shape, m0.shape]))?, zip_t(&T(vec![m1.stride, m0.stride]))?))
}

// ------------------------------------------------------------------------------------------
// upcast / downcast / recast
// ------------------------------------------------------------------------------------------

/// `upcast<N>(L)`.
pub fn upcast(n: i64, l: &Layout) -> R<Layout> {
    fn go(n: i64, s: &IntTuple, d: &IntTuple) -> R<Layout> {
        match s {
            T(sv) => {
                let dv = match d {
                    T(dv) if dv.len() == sv.len() => dv,
                    _ => return Err(EvalError::rule("mismatched ranks", format!("upcast of {s}:{d}"))),
                };
                let parts = sv.iter().zip(dv).map(|(a, b)| go(n, a, b)).collect::<R<Vec<_>>>()?;
                Ok(concat(&parts))
            }
            _ => {
                let di = match d {
                    I(i) => *i,
                    _ => return Err(EvalError::rule("mismatched ranks", format!("upcast of {s}:{d}"))),
                };
                if di.is_const(0) {
                    Ok(Layout::new(s.clone(), d.clone()))
                } else if di.s {
                    if di.v % n != 0 && n % di.v != 0 {
                        return Err(EvalError::rule("Divisibility condition", format!("upcast<{n}> of stride {di}")));
                    }
                    let nn = st(n);
                    let shape = ceil_div(s, &I(ceil_div_i(nn, di.abs()?)?))?;
                    let stride = signum(di).mul(ceil_div_i(di.abs()?, nn)?)?;
                    Ok(Layout::new(shape, I(stride)))
                } else {
                    Ok(Layout::new(s.clone(), I(di.div(st(n))?)))
                }
            }
        }
    }
    if n <= 0 {
        return Err(EvalError::div_zero(st(1), st(n)));
    }
    go(n, &l.shape, &l.stride)
}

/// `recast_layout<uint1_t, T>(L)` for a value type of `bits` bits: `upcast<bits>` (identity for 1).
pub fn recast_from_bits(bits: i64, l: &Layout) -> R<Layout> {
    if bits == 1 {
        Ok(l.clone())
    } else {
        upcast(bits, l)
    }
}

/// `L.with_shape(shape) = composition(L, make_layout(shape))`.
pub fn with_shape(l: &Layout, shape: &IntTuple) -> R<Layout> {
    composition(l, &make_layout(shape)?)
}

/// Evaluate a layout at a 1-D index (for the tests' laws).
pub fn eval(l: &Layout, idx: i64) -> R<i64> {
    Ok(crd2idx(&I(Int::new(idx, false)), &l.shape, &l.stride)?.v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::atoms::lit::parse_layout;

    fn l(s: &str) -> Layout {
        parse_layout(s).unwrap()
    }

    #[test]
    fn basics() {
        assert_eq!(coalesce(&l("(_2,_4):(_1,_2)")).unwrap().to_string(), "_8:_1");
        assert_eq!(make_layout(&l("(_1,_8):(_0,_1)").shape).unwrap().to_string(), "(_1,_8):(_0,_1)");
        assert_eq!(composition(&l("(_6,_2):(_8,_2)"), &l("(_4,_3):(_3,_1)")).unwrap().to_string(), "((_2,_2),_3):((_24,_2),_8)");
        assert_eq!(right_inverse(&l("(_2,_4):(_4,_1)")).unwrap().to_string(), "(_4,_2):(_2,_1)");
        assert_eq!(complement(&l("_4:_1"), &I(st(24))).unwrap().to_string(), "_6:_4");
        assert_eq!(
            tiled_product(&l("_32:_1"), &Tl::L(l("(_2,_2,_1):(_1,_2,_0)"))).unwrap().to_string(),
            "(_32,_2,_2,_1):(_1,_32,_64,_0)"
        );
    }
}
