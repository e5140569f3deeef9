//! `coalesce` (of a layout, by profile, of a shape) and CuTe's internal `coalesce_x`, ported
//! from `layout.hpp` (`detail::bw_coalesce`). Only *static* modes merge: a dynamic layout
//! is never coalesced, a static `_1` mode is dropped, a dynamic `1` is kept.

use super::list::{Grow, Inline, List, Store, CAP};
use super::util::{
    concat, flat_modes_into, from_modes, leaf_int, leaf_refs, lmode, lrank, make_layout_of_no_modes, Leaves, Mode,
    Modes, Stride,
};
use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::{
    IntTuple::{self, I},
    T, V,
};
use crate::eval::layout::Layout;
use std::borrow::Cow;

/// `s * d == front`, as a compile-time true, for integer strides: they compare by value when
/// both are static (`_0 * x` is `_0`).
pub(crate) fn int_merge(s: Int, d: Int, f: Int) -> R<bool> {
    let prod = if d.is_const(0) || s.is_const(0) {
        Some(st(0))
    } else if s.s && d.s {
        Some(s.mul(d)?)
    } else {
        None
    };
    Ok(matches!(prod, Some(p) if p.s && f.s && p.v == f.v))
}

/// A stride `bw_coalesce` merges: a flat mode's [`Stride`] (an integer or a ScaledBasis
/// element), or a plain integer for layouts of integers only (most), whose modes are then
/// `Copy`: nothing to match, clone or drop.
trait MergeStride: Clone {
    /// `s * d == front`, as a compile-time true (ScaledBasis strides must have the same modes
    /// and static equal values).
    fn static_merge(s: Int, d: &Self, front: &Self) -> R<bool>;
    /// The stride of the `_1:_0` that an all-`_1` layout coalesces to.
    fn zero() -> Self;
}

impl MergeStride for Stride {
    fn static_merge(s: Int, d: &Stride, front: &Stride) -> R<bool> {
        Ok(match (d, front) {
            (Stride::I(d), Stride::I(f)) => int_merge(s, *d, *f)?,
            (Stride::Basis(x), Stride::Basis(y)) => {
                x.modes == y.modes && {
                    let p = s.mul(x.v)?;
                    p.s && y.v.s && p.v == y.v.v
                }
            }
            _ => false,
        })
    }
    fn zero() -> Stride {
        Stride::I(st(0))
    }
}

impl MergeStride for Int {
    fn static_merge(s: Int, d: &Int, front: &Int) -> R<bool> {
        int_merge(s, *d, *front)
    }
    fn zero() -> Int {
        st(0)
    }
}

/// What `bw_coalesce` decided for each flat mode, recorded for `explain` (which prints these
/// decisions instead of deriving them again).
#[derive(Clone, Debug, Default)]
pub struct CoalesceTrace {
    /// The flat modes `(shape, stride)`, first to last.
    pub flat: Vec<(Int, IntTuple)>,
    /// Mode k was dropped (a static `_1`).
    pub dropped: Vec<bool>,
    /// Mode k was merged with the next kept mode (`s_k * d_k == d_next`, statically).
    pub joins_next: Vec<bool>,
}

/// `detail::bw_coalesce`: walk the flat modes from the back, starting from `init` (an integer
/// "new" layout), merging a mode into the front of the result when shapes and strides match
/// statically (`s_i * d_i == d_front`). With a trace, `init` is the last of `flat`'s modes
/// as the trace holds them. `new` (empty) receives the result's flat modes (`from_modes` makes
/// the layout of them); it is the caller's, so that the modes are not copied on the way back.
#[inline(always)]
fn bw_coalesce<D: MergeStride, L: Grow<(Int, D)>>(
    flat: &[(Int, D)],
    init: (Int, D),
    mut trace: Option<&mut CoalesceTrace>,
    new: &mut L,
) -> R<()> {
    // new[0] is the front of CuTe's NewShape/NewStride; `front` is its first flat mode.
    new.push(init);
    let mut front = flat.len();
    for (k, (s, d)) in flat.iter().enumerate().rev() {
        let s = *s;
        if s.is_const(1) {
            // shape<I> == _1: skip it
            if let Some(t) = trace.as_deref_mut() {
                t.dropped[k] = true;
            }
            continue;
        }
        if new.len() == 1 && new[0].0.is_const(1) {
            // replace our static shape-1 with anything
            if let Some(t) = trace.as_deref_mut() {
                t.dropped[front] = true;
            }
            new[0] = (s, d.clone());
            front = k;
            continue;
        }
        let fs = new[0].0;
        if fs.s && D::static_merge(s, d, &new[0].1)? {
            new[0] = (s.mul(fs)?, d.clone());
            if let Some(t) = trace.as_deref_mut() {
                t.joins_next[k] = true;
            }
        } else {
            new.insert(0, (s, d.clone()));
        }
        front = k;
    }
    if new.len() == 1 && new[0].0.is_const(1) {
        if let Some(t) = trace {
            t.dropped[front] = true;
        }
        new[0] = (st(1), D::zero());
    }
    Ok(())
}

/// The two modes of a layout `(s0,s1):(d0,d1)` of integers (the commonest form), or `None`.
#[inline(always)]
pub(crate) fn int_mode_pair(l: &Layout) -> Option<(IntMode, IntMode)> {
    // (a tuple of two integers is always an inline one)
    match (l.shape.flat(), l.stride.flat()) {
        (Some(a), Some(b)) if a.n == 2 && b.n == 2 => Some(((a.int(0), b.int(0)), (a.int(1), b.int(1)))),
        _ => None,
    }
}

/// `coalesce(L)`: the simplest layout with the same function on `[0, size(L))` and depth ≤ 1.
/// Post: `size(result) == size(L)`, `result(i) == L(i)` for `0 <= i < size(L)`.
#[inline]
pub fn coalesce(l: &Layout) -> R<Layout> {
    if let Some((m0, m1)) = int_mode_pair(l) {
        return coalesce_two(m0, m1);
    }
    let mut ints = IntModes::new();
    if coalesce_int_into(l, &mut ints)? {
        return Ok(from_int_modes(&ints));
    }
    let mut m = Modes::new();
    coalesce_into(l, &mut m)?;
    Ok(from_modes(&m))
}

/// [`coalesce`] as a `V` (a `Value` for the built-in): a layout of two integer modes (the
/// commonest) is made where it is returned (a layout returned and then moved into a value is
/// copied, and the copy's loads wait for the stores just made).
#[inline(never)]
pub fn coalesce_to<V: From<Layout>>(l: &Layout) -> R<V> {
    if let Some((m0, m1)) = int_mode_pair(l) {
        return coalesce_two(m0, m1).map(V::from);
    }
    coalesce(l).map(V::from)
}

/// `coalesce` of a layout of two integer modes (the commonest): [`bw_coalesce`]'s steps on
/// them, in its order, without the lists. (`coalesce_two_is_bw_coalesce` in the tests holds it
/// to the general walk.)
#[inline(always)]
pub(crate) fn coalesce_two((s, d): (Int, Int), (s1, d1): (Int, Int)) -> R<Layout> {
    // a single mode of static shape `_1` is `_1:_0`
    let one = |s: Int, d: Int| Layout::new(I(s), I(if s.is_const(1) { st(0) } else { d }));
    if s.is_const(1) {
        // the first mode is dropped
        return Ok(one(s1, d1));
    }
    if s1.is_const(1) {
        // the last mode is replaced by the first (whose shape is not `_1`)
        return Ok(Layout::new(I(s), I(d)));
    }
    if s1.s && int_merge(s, d, d1)? {
        return Ok(one(s.mul(s1)?, d));
    }
    Ok(from_int_modes(&[(s, d), (s1, d1)]))
}

/// A flat mode of integers, `(shape, stride)`.
pub(crate) type IntMode = (Int, Int);

/// `coalesce`'s steps on two integer modes, as [`coalesce_two`] takes them: the one mode or the
/// two modes left, in registers (a list written and read back at once costs a stall).
#[inline(always)]
pub(crate) fn coalesce_two_modes((s0, d0): IntMode, (s1, d1): IntMode) -> R<(IntMode, Option<IntMode>)> {
    // (a lone mode of static shape `_1` is `_1:_0`)
    Ok(if s0.is_const(1) {
        ((s1, if s1.is_const(1) { st(0) } else { d1 }), None)
    } else if s1.is_const(1) {
        ((s0, d0), None)
    } else if s1.s && int_merge(s0, d0, d1)? {
        let s = s0.mul(s1)?;
        ((s, if s.is_const(1) { st(0) } else { d0 }), None)
    } else {
        ((s0, d0), Some((s1, d1)))
    })
}

/// `coalesce` of three integer modes (a complement's or an inverse's result before it is
/// coalesced, most often): [`bw_coalesce`]'s steps on them, in its order, with the modes made
/// so far in registers instead of a list that would be read back at once
/// (`coalesce_three_is_bw_coalesce` in the tests holds it to the general walk).
#[inline(always)]
pub(crate) fn coalesce_three(a: (Int, Int), b: (Int, Int), c: (Int, Int)) -> R<Layout> {
    // the walk's list is `[front, t1, t2][..n]`, front first
    let (mut front, mut t1, mut t2, mut n) = (c, c, c, 1);
    // (one step of the walk; taken on b, then a, and not over an array of them: its items
    // would be copied from memory, with their padding)
    macro_rules! step {
        ($m:expr) => {
            let (s, d): (Int, Int) = $m;
            if s.is_const(1) {
                // shape<I> == _1: skip it
            } else if n == 1 && front.0.is_const(1) {
                front = (s, d);
            } else if front.0.s && int_merge(s, d, front.1)? {
                front = (s.mul(front.0)?, d);
            } else {
                (t2, t1, front) = (t1, front, (s, d));
                n += 1;
            }
        };
    }
    step!(b);
    step!(a);
    Ok(match n {
        1 if front.0.is_const(1) => Layout::new(I(st(1)), I(st(0))),
        1 => Layout::new(leaf(front.0), leaf(front.1)),
        2 => Layout::new(IntTuple::pair(front.0, t1.0), IntTuple::pair(front.1, t1.1)),
        _ => Layout::new(IntTuple::triple(front.0, t1.0, t2.0), IntTuple::triple(front.1, t1.1, t2.1)),
    })
}

/// The leaf of `i`, made from its two fields: an integer moved whole has its padding bytes
/// copied too, from wherever it was last kept, and where that was written just before, the
/// copy waits for the store.
#[inline(always)]
fn leaf(i: Int) -> IntTuple {
    I(Int::new(i.v, i.s))
}

/// The flat modes of `coalesce(L)` for a layout of integers only ([`int_modes_into`]: most
/// layouts), on integer modes pushed onto `out` (empty); `Ok(false)`, with nothing pushed, for
/// any other layout (whose modes [`coalesce_into`] gives).
#[inline(always)]
pub fn coalesce_int_into(l: &Layout, out: &mut IntModes) -> R<bool> {
    let mut flat = IntModes::new();
    if !int_modes_into(l, &mut flat) {
        return Ok(false);
    }
    coalesce_int_flat_into(&flat, out)?;
    Ok(true)
}

/// Flat modes of plain integers, `(shape, stride)`, inline: at most [`CAP`] (`int_modes_into`
/// takes fewer, so that a list one longer fits; a layout with more takes the general path).
pub type IntModes = <Inline as Store>::Modes;

/// The flat modes of a layout whose shape and stride are both an integer or both a flat tuple
/// of integers of one length (most layouts), as integers, pushed onto `out` (empty); false for
/// any other layout, for the empty one and for one of `CAP` modes or more (the general path's
/// `flat_modes_into` gives the same modes, or the error). (Lists are filled where they are
/// used: returned, they are copied.)
#[inline(always)]
pub fn int_modes_into(l: &Layout, out: &mut IntModes) -> bool {
    match (&l.shape, &l.stride) {
        (I(s), I(d)) => out.push((*s, *d)),
        (x, y) => {
            if let (Some(a), Some(b)) = (x.flat(), y.flat()) {
                if a.n != b.n || a.n == 0 || a.n >= CAP {
                    return false;
                }
                for k in 0..a.n {
                    out.push((a.int(k), b.int(k)));
                }
                return true;
            }
            let (Some(a), Some(b)) = (x.kids(), y.kids()) else { return false };
            if a.len() != b.len() || a.is_empty() || a.len() >= CAP {
                return false;
            }
            for (x, y) in a.iter().zip(b.iter()) {
                let (I(s), I(d)) = (x, y) else { return false };
                out.push((*s, *d));
            }
        }
    }
    true
}

/// `coalesce` of a layout given by flat modes of integers (at least one).
#[inline]
pub fn coalesce_int_modes(flat: &[(Int, Int)]) -> R<Layout> {
    fn on<L: Grow<(Int, Int)> + Default>(flat: &[(Int, Int)]) -> R<Layout> {
        let mut new = L::default();
        coalesce_int_flat_into(flat, &mut new)?;
        Ok(from_int_modes(&new))
    }
    match flat {
        [m0, m1] => coalesce_two(*m0, *m1),
        [m0, m1, m2] => coalesce_three(*m0, *m1, *m2),
        _ if flat.len() <= CAP => on::<IntModes>(flat),
        _ => on::<Vec<(Int, Int)>>(flat),
    }
}

/// The flat modes of `coalesce` of flat modes of integers (at least one), pushed onto `new`
/// (empty).
#[inline(always)]
pub fn coalesce_int_flat_into<L: Grow<(Int, Int)>>(flat: &[(Int, Int)], new: &mut L) -> R<()> {
    let Some((last, rest)) = flat.split_last() else {
        return Err(EvalError::rule("index out of range", "coalesce of the empty layout ():()"));
    };
    bw_coalesce(rest, *last, None, new)
}

/// The layout of flat modes of integers: a single mode is a plain `s:d`, more are flat tuples
/// (as [`from_modes`] makes it).
#[inline(always)]
pub fn from_int_modes(v: &[(Int, Int)]) -> Layout {
    match v {
        [(s, d)] => Layout::new(I(*s), I(*d)),
        [(s0, d0), (s1, d1)] => Layout::new(IntTuple::pair(*s0, *s1), IntTuple::pair(*d0, *d1)),
        [(s0, d0), (s1, d1), (s2, d2)] => Layout::new(IntTuple::triple(*s0, *s1, *s2), IntTuple::triple(*d0, *d1, *d2)),
        _ => Layout::new(T(v.iter().map(|(s, _)| I(*s)).collect()), T(v.iter().map(|(_, d)| I(*d)).collect())),
    }
}

/// The shape of the layout of flat modes `m` (as [`from_modes`] makes it): a single mode's
/// shape is an integer, more are a flat tuple.
pub fn modes_shape<D>(m: &[(Int, D)]) -> IntTuple {
    match m {
        [(s, _)] => I(*s),
        _ => IntTuple::of_int_iter(m.iter().map(|(s, _)| *s)),
    }
}

/// `shape(coalesce(L))`, without the stride.
pub fn coalesce_shape_of(l: &Layout) -> R<IntTuple> {
    let mut ints = IntModes::new();
    if coalesce_int_into(l, &mut ints)? {
        return Ok(modes_shape(&ints));
    }
    let mut m = Modes::new();
    coalesce_into(l, &mut m)?;
    Ok(modes_shape(&m))
}

/// The flat modes of `coalesce(L)` (without the layout made of them), pushed onto `new` (empty).
pub fn coalesce_into(l: &Layout, new: &mut Modes) -> R<()> {
    let mut flat = Modes::new();
    flat_modes_into(l, "coalesce", &mut flat)?;
    let Some(last) = flat.pop() else {
        return Err(EvalError::rule("index out of range", format!("coalesce of the empty layout {l}")));
    };
    bw_coalesce(&flat, last, None, new)
}

/// `coalesce` of a layout given by its flat modes (at least one).
pub fn coalesce_modes(flat: &[Mode]) -> R<Layout> {
    let mut m = Modes::new();
    coalesce_flat_into(flat, &mut m)?;
    Ok(from_modes(&m))
}

/// `coalesce` of flat modes (at least one), its modes pushed onto `new` (empty).
pub fn coalesce_flat_into(flat: &[Mode], new: &mut Modes) -> R<()> {
    let Some((last, rest)) = flat.split_last() else {
        return Err(EvalError::rule("index out of range", "coalesce of the empty layout ():()"));
    };
    bw_coalesce(rest, last.clone(), None, new)
}

/// `coalesce(L)` and the decisions that led to it (for `explain`).
pub fn coalesce_traced(l: &Layout) -> R<(Layout, CoalesceTrace)> {
    let mut flat = Modes::new();
    flat_modes_into(l, "coalesce", &mut flat)?;
    let Some(last) = flat.pop() else {
        return Err(EvalError::rule("index out of range", format!("coalesce of the empty layout {l}")));
    };
    let n = flat.len() + 1;
    let mut t = CoalesceTrace { flat: Vec::new(), dropped: vec![false; n], joins_next: vec![false; n] };
    let mut m = Modes::new();
    bw_coalesce(&flat, last.clone(), Some(&mut t), &mut m)?;
    flat.push(last);
    t.flat = flat.iter().map(|(s, d)| (*s, d.tuple())).collect();
    Ok((from_modes(&m), t))
}

/// CuTe's `detail::coalesce_x`: like `coalesce`, but it also keeps the function *outside* the
/// domain (a trailing static `_1` mode becomes `_2` so its stride survives). Used by composition.
pub fn coalesce_x(l: &Layout) -> R<Layout> {
    let mut m = Modes::new();
    coalesce_x_into(l, &mut m)?;
    Ok(from_modes(&m))
}

/// The flat modes of `coalesce_x(L)` (at least one), pushed onto `new` (empty).
pub fn coalesce_x_into(l: &Layout, new: &mut Modes) -> R<()> {
    let mut flat = Modes::new();
    flat_modes_into(l, "composition", &mut flat)?;
    let Some((s, d)) = flat.pop() else {
        return Err(EvalError::rule("index out of range", format!("composition with the empty layout {l}")));
    };
    let init = if s.is_const(1) { (st(2), d) } else { (s, d) };
    bw_coalesce(&flat, init, None, new)
}

/// [`coalesce_x_into`] of a layout of integers only ([`int_modes_into`]), on integer modes
/// pushed onto `new` (empty), and whether every shape of the layout is at least 1 (composition's
/// proof needs it); `None`, with nothing pushed, for any other layout.
pub fn coalesce_x_int_into(l: &Layout, new: &mut IntModes) -> R<Option<bool>> {
    let mut flat = IntModes::new();
    if !int_modes_into(l, &mut flat) {
        return Ok(None);
    }
    let positive = flat.iter().all(|(s, _)| s.v >= 1);
    // (not empty: `int_modes_into` takes no empty layout)
    let Some((s, d)) = flat.pop() else { return Ok(None) };
    let init = if s.is_const(1) { (st(2), d) } else { (s, d) };
    bw_coalesce(&flat, init, None, new)?;
    Ok(Some(positive))
}

/// `detail::coalesce_x(L, profile)`: `coalesce_x` at the terminals of the profile.
pub fn coalesce_x_profile(l: &Layout, profile: &IntTuple) -> R<Layout> {
    match profile.view() {
        V::T(p) => {
            if p.len() > lrank(l) {
                return Err(EvalError::rule(
                    "static assertion failed",
                    format!("composition: coprofile {profile} has more modes than the layout {l}"),
                ));
            }
            let mut modes = Vec::with_capacity(lrank(l));
            for (k, pk) in p.iter().enumerate() {
                modes.push(coalesce_x_profile(&lmode(l, k)?, pk)?);
            }
            for k in p.len()..lrank(l) {
                modes.push(lmode(l, k)?);
            }
            Ok(concat(modes))
        }
        _ => coalesce_x(l),
    }
}

/// `coalesce(L, profile)`: coalesce each mode of `L` selected by the terminals of `profile`
/// (a tuple profile keeps the rank: `coalesce(L, (_1,_1))` coalesces mode by mode).
pub fn coalesce_profile(l: &Layout, profile: &IntTuple) -> R<Layout> {
    match profile.view() {
        V::T(p) => {
            if p.is_empty() && lrank(l) == 0 {
                // CuTe's transform_layout keeps the modes the profile does not reach: of a rank-0
                // layout none
                return Err(make_layout_of_no_modes(format!(
                    "coalesce of the empty layout {l} by the empty profile {profile}"
                )));
            }
            if p.len() > lrank(l) {
                return Err(EvalError::rule(
                    "static assertion failed",
                    format!("coalesce: profile {profile} has more modes than the layout {l}"),
                ));
            }
            let mut modes = Vec::with_capacity(lrank(l));
            for (k, pk) in p.iter().enumerate() {
                modes.push(coalesce_profile(&lmode(l, k)?, pk)?);
            }
            for k in p.len()..lrank(l) {
                modes.push(lmode(l, k)?);
            }
            Ok(concat(modes))
        }
        _ => coalesce(l),
    }
}

/// `coalesce(shape)`: merge neighbouring modes of the flattened shape that are both static or
/// both dynamic (`(_2,_3,4,5)` → `(_6,20)`).
#[inline]
pub fn coalesce_shape(s: &IntTuple) -> R<IntTuple> {
    let mut leaves = Leaves::new();
    leaf_refs(s, &mut leaves);
    let Some((first, rest)) = leaves.split_first() else {
        return Err(EvalError::rule("index out of range", format!("coalesce of the empty shape {s}")));
    };
    if !s.is_tuple() {
        return Ok(first.clone().into_owned());
    }
    fn on<L: List<Int>>(first: &IntTuple, rest: &[Cow<'_, IntTuple>]) -> R<IntTuple> {
        let mut out = L::default();
        out.push(leaf_int(first, "coalesce")?);
        for a in rest {
            merge_shape(&mut out, leaf_int(a, "coalesce")?)?;
        }
        Ok(if out.len() == 1 { I(out[0]) } else { IntTuple::of_int_iter(out.iter().copied()) })
    }
    if leaves.len() <= CAP {
        on::<<Inline as Store>::Ints>(first, rest)
    } else {
        on::<Vec<Int>>(first, rest)
    }
}

/// One step of [`coalesce_shape`]: `a` merged into the last of `out` (not empty) when both are
/// static or both dynamic, else pushed.
#[inline]
pub fn merge_shape<L: List<Int>>(out: &mut L, a: Int) -> R<()> {
    match out.last_mut() {
        Some(back) if back.s == a.s => *back = back.mul(a)?,
        _ => out.push(a),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{coalesce_int_flat_into, coalesce_three, coalesce_two, coalesce_two_modes, from_int_modes, IntModes};
    use crate::eval::int::Int;

    /// The two-mode path (`coalesce_two`, and the modes `coalesce_two_modes` leaves) takes `bw_coalesce`'s steps: the same layout or the same error for
    /// every pair of modes of static and dynamic integers around the special values.
    #[test]
    fn coalesce_two_is_bw_coalesce() {
        let vals = [-3i64, -2, -1, 0, 1, 2, 3, 4, 6, 8, 16, 1 << 40, i64::MAX];
        let ints: Vec<Int> = vals.iter().flat_map(|&v| [Int::new(v, true), Int::new(v, false)]).collect();
        let show = |r: crate::eval::error::R<crate::eval::layout::Layout>| match r {
            Ok(l) => format!("{l}"),
            Err(e) => format!("error: {e}"),
        };
        let mut n = 0;
        for &s0 in &ints {
            for &d0 in &ints {
                for &s1 in &ints {
                    for &d1 in &ints {
                        let two = show(coalesce_two((s0, d0), (s1, d1)));
                        let mut new = IntModes::new();
                        let walk = show(
                            coalesce_int_flat_into(&[(s0, d0), (s1, d1)], &mut new).map(|()| from_int_modes(&new)),
                        );
                        assert_eq!(two, walk, "({s0},{s1}):({d0},{d1})");
                        // (and the modes `coalesce_two_modes` leaves make the same layout)
                        let modes = show(coalesce_two_modes((s0, d0), (s1, d1)).map(|(a, b)| match b {
                            Some(b) => from_int_modes(&[a, b]),
                            None => from_int_modes(&[a]),
                        }));
                        assert_eq!(modes, walk, "({s0},{s1}):({d0},{d1})");
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(n, ints.len().pow(4));
    }

    /// `coalesce_three` is the general walk on three modes, for static and dynamic integers
    /// around the special values (`_0`, `_1`, products that match and overflow).
    #[test]
    fn coalesce_three_is_bw_coalesce() {
        let vals = [-2i64, 0, 1, 2, 4, 8, 1 << 40, i64::MAX];
        let ints: Vec<Int> = vals.iter().flat_map(|&v| [Int::new(v, true), Int::new(v, false)]).collect();
        let show = |r: crate::eval::error::R<crate::eval::layout::Layout>| match r {
            Ok(l) => format!("{l}"),
            Err(e) => format!("error: {e}"),
        };
        let modes: Vec<(Int, Int)> = ints.iter().flat_map(|&s| ints.iter().map(move |&d| (s, d))).collect();
        let mut n = 0;
        for &a in &modes {
            for &b in &modes {
                for &c in &modes {
                    let three = show(coalesce_three(a, b, c));
                    let mut new = IntModes::new();
                    let walk = show(coalesce_int_flat_into(&[a, b, c], &mut new).map(|()| from_int_modes(&new)));
                    assert_eq!(three, walk, "{a:?} {b:?} {c:?}");
                    n += 1;
                }
            }
        }
        assert_eq!(n, modes.len().pow(3));
    }
}
