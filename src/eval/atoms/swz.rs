//! Slicing a swizzled counting tensor at a (dynamic) thread coordinate: CuTe's
//! `slice_and_offset(coord, ComposedLayout<Swizzle<B,M,S>,Offset,Layout>)` of
//! `swizzle_layout.hpp`, with its `MixedBits` arithmetic (`swizzle.hpp`) — the swizzle decays
//! into a plain layout whose strides may be thread-dependent (dynamic, possibly negative).
//! May import: `atoms::alg`, the algebra data types.

use super::alg;
use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::IntTuple::{self, Under, I, T};
use crate::eval::layout::{Layout, Swizzle};

/// A value that CuTe tracks bit by bit: static, `MixedBits<S,F>` (static bits `s`, bits `f`
/// that are dynamic with value `d`), or a plain dynamic integer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mb {
    C(i64),
    M { s: u32, f: u32, d: u32 },
    D(i64),
}

impl std::fmt::Display for Mb {
    /// CuTe's prints: `_v` (static), `v` (dynamic), `M_S|(d&F)=value` (MixedBits).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mb::C(v) => write!(f, "_{v}"),
            Mb::D(v) => write!(f, "{v}"),
            Mb::M { s, f: fl, d } => write!(f, "M_{s}|({d}&{fl})={}", s | d),
        }
    }
}

impl Mb {
    pub fn of(i: Int) -> Mb {
        if i.s {
            Mb::C(i.v)
        } else {
            Mb::D(i.v)
        }
    }
    fn value(self) -> i64 {
        match self {
            Mb::C(v) | Mb::D(v) => v,
            Mb::M { s, d, .. } => (s | d) as i64,
        }
    }
    pub fn to_int(self) -> Int {
        match self {
            Mb::C(v) => st(v),
            x => Int::new(x.value(), false),
        }
    }
    /// `make_mixed_bits(C<s>, d, C<f>)`.
    fn make(s: u32, d: Mb, f: u32) -> Mb {
        let new_f = f & !s;
        match d {
            Mb::C(dv) => Mb::C((s | (dv as u32 & new_f)) as i64),
            _ if new_f == 0 => Mb::C(s as i64),
            _ => Mb::M { s, f: new_f, d: d.value() as u32 & new_f },
        }
    }
    fn and_c(self, v: u32) -> Mb {
        match self {
            Mb::C(a) => Mb::C(a & v as i64),
            Mb::M { s, f, d } => Mb::make(s & v, Mb::D(d as i64), f & v),
            Mb::D(a) => {
                if v == 0 {
                    Mb::C(0)
                } else {
                    Mb::D(a & v as i64)
                }
            }
        }
    }
    fn xor(self, o: Mb) -> Mb {
        match (self, o) {
            (Mb::C(a), Mb::C(b)) => Mb::C(a ^ b),
            (Mb::M { s: s0, f: f0, d: d0 }, Mb::M { s: s1, f: f1, d: d1 }) => {
                Mb::make((!s0 & s1 & !f0) | (s0 & !s1 & !f1), Mb::D(((s0 | d0) ^ (s1 | d1)) as i64), f0 | f1)
            }
            (Mb::M { s, f, d }, Mb::C(v)) | (Mb::C(v), Mb::M { s, f, d }) => {
                let v = v as u32;
                Mb::make((!s & v & !f) | (s & !v), Mb::D(((s | d) ^ v) as i64), f)
            }
            (a, b) => Mb::D(a.value() ^ b.value()),
        }
    }
    /// `shiftr(x, C<n>)` (a negative n shifts left).
    fn shiftr(self, n: i32) -> Mb {
        let sh = |x: u32| if n >= 0 { x >> n } else { x << (-n) };
        let shi = |x: i64| if n >= 0 { x >> n } else { x << (-n) };
        match self {
            Mb::C(v) => Mb::C(shi(v)),
            Mb::D(v) => Mb::D(shi(v)),
            Mb::M { s, f, d } => Mb::make(sh(s), Mb::D(sh(d) as i64), sh(f)),
        }
    }
    /// `x == C<v>`: a static boolean only when x is static.
    fn eq_c(self, v: i64) -> Option<bool> {
        match self {
            Mb::C(a) => Some(a == v),
            _ => None,
        }
    }
}

fn yyy(sw: &Swizzle) -> u32 {
    ((1u32 << sw.b) - 1) << (sw.m + sw.s.max(0))
}
fn zzz(sw: &Swizzle) -> u32 {
    ((1u32 << sw.b) - 1) << (sw.m - sw.s.min(0))
}

/// `Swizzle::apply(offset) = offset ^ shiftr(offset & yyy_msk, msk_sft)`.
fn apply(sw: &Swizzle, x: Mb) -> Mb {
    x.xor(x.and_c(yyy(sw)).shiftr(sw.s))
}

/// `dice(c, t)`: the sub-tuples of `t` where `c` is not `_` (each kept as one element).
fn dice(c: &IntTuple, t: &IntTuple) -> R<IntTuple> {
    fn lift(c: &IntTuple, t: &IntTuple, out: &mut Vec<IntTuple>) -> R<()> {
        match c {
            T(cv) => {
                let tv = match t {
                    T(tv) if tv.len() == cv.len() => tv,
                    _ => return Err(EvalError::rule("mismatched ranks", format!("dice {c} of {t}"))),
                };
                for (a, b) in cv.iter().zip(tv) {
                    lift(a, b, out)?;
                }
                Ok(())
            }
            Under => Ok(()),
            _ => {
                out.push(t.clone());
                Ok(())
            }
        }
    }
    match c {
        T(_) => {
            let mut out = Vec::new();
            lift(c, t, &mut out)?;
            Ok(T(out))
        }
        Under => Ok(T(vec![])),
        _ => Ok(t.clone()),
    }
}

/// `idx2crd(coord, shape)` (colexicographic, the last mode not reduced).
fn idx2crd_shape(c: &IntTuple, s: &IntTuple) -> R<IntTuple> {
    match (c, s) {
        (T(cv), T(sv)) if cv.len() == sv.len() => {
            Ok(T(cv.iter().zip(sv).map(|(a, b)| idx2crd_shape(a, b)).collect::<R<_>>()?))
        }
        (T(_), _) => Err(EvalError::rule("mismatched ranks", format!("idx2crd({c}, {s})"))),
        (I(x), T(sv)) => {
            let mut coord = *x;
            let mut out = Vec::new();
            for (k, sk) in sv.iter().enumerate() {
                if k + 1 == sv.len() {
                    out.push(idx2crd_shape(&I(coord), sk)?);
                } else if coord.is_const(0) {
                    out.push(idx2crd_shape(&I(st(0)), sk)?);
                } else {
                    let p = alg::product(sk)?;
                    out.push(idx2crd_shape(&I(coord.rem(p)?), sk)?);
                    coord = coord.div(p)?;
                }
            }
            Ok(T(out))
        }
        (x, _) => Ok(x.clone()),
    }
}

/// `to_mixed_bits(shape, stride, coord)`: the XOR of `coord * stride` per leaf.
fn to_mixed_bits(s: &IntTuple, d: &IntTuple, c: &IntTuple) -> R<Mb> {
    match (s, d, c) {
        (T(sv), T(dv), T(cv)) if sv.len() == dv.len() && sv.len() == cv.len() => {
            let mut acc: Option<Mb> = None;
            for k in 0..sv.len() {
                let x = to_mixed_bits(&sv[k], &dv[k], &cv[k])?;
                acc = Some(match acc {
                    None => x,
                    Some(a) => a.xor(x),
                });
            }
            acc.ok_or_else(|| EvalError::rule("empty", "to_mixed_bits of an empty tuple"))
        }
        (I(si), I(di), I(ci)) => {
            let f = si.sub(st(1))?.mul(*di)?;
            let p = si.mul(*di)?;
            if !f.s || !p.s {
                return Err(EvalError::rule(
                    "not supported",
                    "a swizzled layout with dynamic strides sliced at a thread",
                ));
            }
            if p.v != 0 && (p.v < 0 || (p.v & (p.v - 1)) != 0) {
                return Err(EvalError::rule("Requires pow2 shape*stride.", format!("{si}*{di}")));
            }
            Ok(Mb::make(0, Mb::of(ci.mul(*di)?), f.v as u32))
        }
        _ => Err(EvalError::rule(
            "Either Shape, Stride, and Coord must be all tuples, or they must be all integral",
            format!("{s}:{d} at {c}"),
        )),
    }
}

/// `slice_and_offset(coord, Sw o offset o layout)`: the sliced layout, the offset, and — when
/// the swizzle does not decay — the ComposedLayout's new offset (the layout stays swizzled).
pub fn slice_and_offset(coord: &IntTuple, sw: &Swizzle, offset: Int, layout: &Layout) -> R<(Layout, Int, Option<Mb>)> {
    let (b, m, s) = (sw.b, sw.m, sw.s.abs());
    if b < 0 || m < 0 || s < b || m + b + s > 30 {
        return Err(EvalError::rule(
            "not supported",
            format!("slicing a tensor swizzled by {sw} (the swizzle must satisfy 0 <= B <= |S| and M+B+|S| <= 30)"),
        ));
    }
    if b == 0 {
        // Swizzle<0,M,S> composed with offset 0 is the layout itself
        let (l, off) = alg::slice_and_offset(coord, layout)?;
        return Ok((l, offset.add(off)?, None));
    }
    if !coord.leaves().iter().any(|x| !matches!(x, Under)) {
        // all `_`: just reshape, keep the swizzle
        return Ok((alg::slice(coord, layout)?, st(0), Some(Mb::of(offset))));
    }
    let p = |e: i32| st(1i64 << e);
    let sw_shape = T(vec![I(p(m)), I(p(b)), I(p(s - b)), I(p(b)), I(st(1))]);
    let sw_l = alg::make_layout(&sw_shape)?;
    let sd = alg::wrap(&sw_l.stride);
    let size = alg::size(&sw_l)?;
    let anti = Layout::new(sw_shape.clone(), T(vec![sd[0].clone(), I(st(0)), sd[2].clone(), I(st(0)), I(size)]));
    let only = Layout::new(sw_shape, T(vec![I(st(0)), sd[1].clone(), I(st(0)), sd[3].clone(), I(st(0))]));

    let sliced = alg::slice(coord, layout)?;
    let diced = Layout::new(dice(coord, &layout.shape)?, dice(coord, &layout.stride)?);
    let diced_coord = dice(coord, coord)?;
    let diced_anti = alg::composition(&anti, &diced)?;
    let diced_only = alg::composition(&only, &diced)?;

    let mixed = to_mixed_bits(&diced_only.shape, &diced_only.stride, &idx2crd_shape(&diced_coord, &diced_only.shape)?)?;
    let offset_only_zy = Mb::of(offset).xor(mixed);
    let offset_anti_zy = alg::crd2idx(&diced_coord, &diced_anti.shape, &diced_anti.stride)?;

    let sliced_only = alg::composition(&only, &sliced)?;
    let last = alg::size(&sliced_only)?.sub(st(1))?;
    let active = alg::crd2idx(&I(last), &sliced_only.shape, &sliced_only.stride)?;
    if active.s {
        let a = Mb::C(active.v);
        let collide = a.value() & !apply(sw, a).value();
        if collide != 0 {
            // hits on Y and Z: not reducible, the result stays swizzled
            return Ok((sliced, offset_anti_zy, Some(offset_only_zy)));
        }
    }
    let zm = zzz(sw) as i64;
    let ym = yyy(sw) as i64;
    let (z, y) = (zm & -zm, ym & -ym);
    let strides = |lo: bool| -> Vec<IntTuple> {
        (0..b)
            .map(|i| {
                let bit = 1i64 << i;
                // make_swizzle_strides(true_type, ...) when Z is the lower mask, else the other
                let (test, a, c) =
                    if lo == (z < y) { (y << i, z * bit, -z * bit) } else { (z << i, (y + z) * bit, (y - z) * bit) };
                match offset_only_zy.and_c(test as u32).eq_c(0) {
                    Some(true) => I(st(a)),
                    Some(false) => I(st(c)),
                    None if a == c => I(st(a)),
                    None => {
                        let v = offset_only_zy.value() & test;
                        I(Int::new(if v == 0 { a } else { c }, false))
                    }
                }
            })
            .collect()
    };
    let rep2 = |n: i32| if n == 1 { I(st(2)) } else { T(vec![I(st(2)); n as usize]) };
    let wrap1 = |v: Vec<IntTuple>| T(v);
    let swizzle_layout = Layout::new(
        T(vec![I(p(m)), rep2(b), I(p(s - b)), rep2(b), I(st(1))]),
        T(vec![I(st(1)), wrap1(strides(true)), I(p(m + b)), wrap1(strides(false)), I(p(m + b + s))]),
    );
    let swizzle_layout = if b == 1 {
        // repeat<1>(_2) is `_2` while the strides are a 1-tuple; CuTe's flattening makes them agree
        Layout::new(
            swizzle_layout.shape.clone(),
            T(alg::wrap(&swizzle_layout.stride)
                .into_iter()
                .map(|x| match x {
                    T(v) if v.len() == 1 => v.into_iter().next().unwrap_or(I(st(0))),
                    o => o,
                })
                .collect()),
        )
    } else {
        swizzle_layout
    };
    let result = alg::composition(&swizzle_layout, &sliced)?;
    let off = apply(sw, offset_only_zy).to_int().add(offset_anti_zy)?;
    Ok((result, off, None))
}
