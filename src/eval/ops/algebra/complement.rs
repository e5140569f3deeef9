//! `complement(L, cotarget)`, ported from `layout.hpp` (`detail::complement`).
//!
//! Post: the result is ordered (strides increasing), disjoint from L (their images meet only at
//! 0), and `size(result) >= cotarget / size(filter(L))`. CuTe refuses dynamic strides for rank > 1.

use super::coalesce::{
    coalesce, coalesce_int_modes, coalesce_modes, coalesce_shape, coalesce_three, coalesce_two, from_int_modes,
    int_merge, int_mode_pair, int_modes_into, merge_shape, IntModes,
};
use super::composition::{check_law, flat_modes_of, Law, Odometer, Off, CHECK_LIMIT};
use super::list::{Grow, Heap, Inline, List, Store, CAP};
use super::util::{compact_col_major, congruent_modes, from_modes, leaf_refs, stride_int, Leaves, Mode, Modes, Stride};
use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::{
    IntTuple::{self, I},
    T, V as TV,
};
use crate::eval::layout::Layout;
use crate::eval::ops::structure::{cosize, filter_int_modes_into, filter_modes, filter_modes_into};
use crate::eval::ops::tuple::{ceil_div, ceil_div_int, ceil_div_ints, compact_step};

/// The steps `complement` took, as it took them (what `explain complement` shows): the modes of
/// `filter(L)` in the order it picked them (the smallest remaining stride first), the mode each
/// pick made of the gap below that stride (`(shape, stride)`; shape 1: no gap), and the stride
/// the rest up to the cotarget starts at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComplementTrace {
    pub sorted: Vec<(Int, Int)>,
    pub gaps: Vec<(Int, Int)>,
    pub rest_stride: Int,
}

/// Flat modes whose strides must be integers, as integers (complement needs integer strides).
fn ints_of(m: &[Mode]) -> R<Vec<(Int, Int)>> {
    m.iter().map(|(s, d)| Ok((*s, stride_int(d, "complement")?))).collect()
}

/// The number of integers of `t`.
fn leaf_count(t: &IntTuple) -> usize {
    if let Some(f) = t.flat() {
        return f.n;
    }
    match t.kids() {
        Some(xs) => xs.iter().map(leaf_count).sum(),
        _ => 1,
    }
}

/// [`complement_impl`] on lists inline where they fit: its lists hold at most the filtered
/// modes, one more, and the cotarget's integers.
fn complement_ints(filtered: &[(Int, Int)], cotarget: &IntTuple, trace: Option<&mut ComplementTrace>) -> R<Layout> {
    // (an integer cotarget, most calls, without the walk)
    let rest = if let I(_) = cotarget { 1 } else { leaf_count(cotarget) };
    if filtered.len() + rest < CAP {
        complement_impl::<Inline>(filtered, cotarget, trace)
    } else {
        complement_impl::<Heap>(filtered, cotarget, trace)
    }
}

/// `detail::complement(shape, stride, cotarget)` on the flat modes of a filtered layout (as
/// `filter_modes` gives them), recording its steps in `trace` when there is one.
#[inline]
fn complement_impl<S: Store>(
    filtered: &[(Int, Int)],
    cotarget: &IntTuple,
    trace: Option<&mut ComplementTrace>,
) -> R<Layout> {
    if let [(_, d)] = filtered {
        if d.is_const(0) {
            // irreducible rank-1 stride-0 layout
            let s = coalesce_shape(cotarget)?;
            let d = compact_col_major(&s, st(1))?;
            return Ok(Layout::new(s, d));
        }
    }
    // (the filtered layout, for messages)
    let f = || from_int_modes(filtered);
    match (filtered, cotarget, &trace) {
        // one mode or two and an integer cotarget (most calls): the steps below without lists
        ([m], I(c), None) => one_int_mode(*m, *c, f, || complement_steps::<S>(filtered, cotarget, None)),
        ([m0, m1], I(c), None) => two_int_modes(*m0, *m1, *c, f, || complement_steps::<S>(filtered, cotarget, None)),
        _ => complement_steps::<S>(filtered, cotarget, trace),
    }
}

/// The error of a complement whose filtered layout `f` maps two coordinates to one index.
#[cold]
fn non_injective(f: Layout) -> EvalError {
    EvalError::rule(
        "non-injective layout detected in complement",
        format!("{f} maps two coordinates to the same index"),
    )
}

/// [`complement_steps`] for one filtered mode `s:d` (not `_0`) and an integer cotarget, without
/// lists, where it makes an integer rest; `general` (those steps) otherwise. Every answer is
/// returned as it is made, never taken apart and put together again (a copy whose loads would
/// wait for the stores just made). `f` makes the filtered layout, for messages.
#[inline(always)]
fn one_int_mode<V: From<Layout>>(
    (s, d): (Int, Int),
    c: Int,
    f: impl Fn() -> Layout,
    general: impl FnOnce() -> R<V>,
) -> R<V> {
    // (a `_0` stride is the irreducible rank-1 case)
    if d.is_const(0) {
        return general();
    }
    // (`cur` is `_1`, so the division is exact and nothing is checked after)
    let new_shape = d.div(st(1))?;
    if new_shape.is_const(0) {
        return Err(non_injective(f()));
    }
    if let Some(rest) = int_rest(c, d.mul(s)?)? {
        return coalesce_two((new_shape, st(1)), rest).map(V::from);
    }
    general()
}

/// The rest mode `n:stride` of the complement's last step, as `with_rest` lays out an integer
/// rest: `n = ceil(c / stride)`, stride `_0` where `n` is `_1`; `None` where `stride * n`
/// overflows (the general steps then say so).
#[inline(always)]
fn int_rest(c: Int, stride: Int) -> R<Option<(Int, Int)>> {
    let n = ceil_div_int(c, stride)?;
    Ok(if n.is_const(1) {
        Some((n, st(0)))
    } else if stride.mul(n).is_ok() {
        Some((n, stride))
    } else {
        None
    })
}

/// [`one_int_mode`] for two filtered modes: [`complement_steps`] in their order, the modes
/// sorted by stride, where the strides are static and the rest is an integer; `general`
/// otherwise (which refuses dynamic strides).
#[inline(always)]
fn two_int_modes<V: From<Layout>>(
    m0: (Int, Int),
    m1: (Int, Int),
    c: Int,
    f: impl Fn() -> Layout,
    general: impl FnOnce() -> R<V>,
) -> R<V> {
    if !(m0.1.s && m1.1.s) {
        return general();
    }
    let ((s0, d0), (s1, d1)) = if m1.1.v < m0.1.v { (m1, m0) } else { (m0, m1) };
    let g0 = d0.div(st(1))?;
    let cur = d0.mul(s0)?;
    if g0.is_const(0) {
        return Err(non_injective(f()));
    }
    let g1 = d1.div(cur)?;
    // CuTe divides each stride by the extent before it and truncates: where a division is
    // inexact its answer may not be a complement, so the law is checked then (and only then)
    let inexact = d1.v.checked_rem(cur.v) != Some(0);
    if g1.is_const(0) {
        return Err(non_injective(f()));
    }
    if let Some(rest) = int_rest(c, d1.mul(s1)?)? {
        if !inexact {
            return coalesce_three((g0, st(1)), (g1, cur), rest).map(V::from);
        }
        let res = coalesce_three((g0, st(1)), (g1, cur), rest)?;
        check_complement(&f(), &I(c), &res);
        return Ok(V::from(res));
    }
    general()
}

/// `detail::complement`'s steps on the filtered modes, recording them in `trace` when there
/// is one.
fn complement_steps<S: Store>(
    filtered: &[(Int, Int)],
    cotarget: &IntTuple,
    mut trace: Option<&mut ComplementTrace>,
) -> R<Layout> {
    // a traced run is a second run of a call already made (explain): its law warning is that call's
    let check = trace.is_none();
    let f = || from_int_modes(filtered);
    let r = filtered.len();
    if r == 0 {
        return Err(EvalError::rule("mismatched ranks", format!("complement of {}", f())));
    }
    if r > 1 && !filtered.iter().all(|(_, d)| d.s) {
        return Err(EvalError::rule(
            "dynamic-stride complement only for rank-1 layouts",
            format!("{} has rank {r} and dynamic strides", f()),
        ));
    }
    let mut inexact = false;
    // The modes in the order complement picks them, the smallest stride first (all static
    // here) and, of equal strides, the first: a stable sort by stride. (A rank-1 layout, most
    // calls, has nothing to order: no copy.) Then the result's modes `(gap, stride)` as they
    // are made (the rest's follow them); `cur` is the stride the next gap starts at.
    let mut order = S::Modes::default();
    if r > 1 {
        order.extend_from_slice(filtered);
        for i in 1..r {
            let mut j = i;
            while j > 0 && order[j - 1].1.v > order[j].1.v {
                order.swap(j - 1, j);
                j -= 1;
            }
        }
    }
    let mut modes = S::Modes::default();
    let mut cur = st(1);
    for &(min_shape, min_stride) in order.iter().take(r - 1) {
        let new_shape = min_stride.div(cur)?;
        inexact |= min_stride.v.checked_rem(cur.v) != Some(0);
        let new_stride = min_stride.mul(min_shape)?;
        if new_shape.is_const(0) {
            return Err(non_injective(f()));
        }
        if let Some(t) = trace.as_deref_mut() {
            t.sorted.push((min_shape, min_stride));
            t.gaps.push((new_shape, cur));
        }
        modes.push((new_shape, cur));
        cur = new_stride;
    }
    let (last_shape, last_stride) = if r > 1 { order[r - 1] } else { filtered[0] };
    let new_shape = last_stride.div(cur)?;
    inexact |= last_stride.v.checked_rem(cur.v) != Some(0);
    if new_shape.is_const(0) {
        return Err(non_injective(f()));
    }
    modes.push((new_shape, cur));
    let new_stride = last_stride.mul(last_shape)?;
    if let Some(t) = trace {
        t.sorted.push((last_shape, last_stride));
        t.gaps.push((new_shape, cur));
        t.rest_stride = new_stride;
    }
    // (a flat tuple of integers read without a view: logical_divide's cotarget, just made)
    let mut cot = S::Ints::default();
    if let Some(f) = cotarget.flat() {
        (0..f.n).for_each(|k| cot.push(f.int(k)));
    } else if let Some(xs) = cotarget.kids() {
        if xs.iter().all(|x| matches!(x, I(_))) {
            xs.iter().filter_map(|x| x.as_int().ok()).for_each(|i| cot.push(i));
        }
    }
    let res = match cotarget.view() {
        TV::T(_) if !cot.is_empty() => {
            // A flat tuple of integers (logical_divide's cotarget, shape(coalesce(L))): the rest
            // made on integers, step by step as `ceil_div` folds it, `coalesce_shape` merges it
            // and `compact_col_major` strides it (the same steps, so the same errors first).
            let mut rest = S::Ints::default();
            ceil_div_ints(cot.iter().copied(), new_stride, |q| rest.push(q))?;
            let mut shapes = S::Ints::default();
            shapes.push(rest[0]);
            for &a in &rest[1..] {
                merge_shape(&mut shapes, a)?;
            }
            let mut at = new_stride;
            for &s in shapes.iter() {
                let (d, next) = compact_step(s, at)?;
                modes.push((s, d));
                at = next;
            }
            coalesce_int_modes(&modes)?
        }
        // (an integer cotarget, most calls: its rest without a tuple built and dropped)
        TV::I(c) => {
            let n = ceil_div_int(*c, new_stride)?;
            // (as `with_rest` lays out an integer rest, without the call)
            if n.is_const(1) || new_stride.mul(n).is_ok() {
                modes.push((n, if n.is_const(1) { st(0) } else { new_stride }));
                coalesce_int_modes(&modes)?
            } else {
                with_rest(I(n), new_stride, &mut modes)?
            }
        }
        _ => with_rest(ceil_div(cotarget, &I(new_stride))?, new_stride, &mut modes)?,
    };
    if inexact && check {
        check_complement(&f(), cotarget, &res);
    }
    Ok(res)
}

/// The end of [`complement_impl`] for a rest other than a flat tuple of integers: `coalesce` of
/// the result's modes (`modes`) followed by the rest's, `rest` laid out compactly from
/// `new_stride`.
fn with_rest<L: List<(Int, Int)>>(rest: IntTuple, new_stride: Int, modes: &mut L) -> R<Layout> {
    Ok(match rest {
        // An integer rest (an integer cotarget): its one mode `n:new_stride` (`_1:_0` for a
        // static `_1`), as `compact_col_major` makes it. (It multiplies even where it does not use
        // the product: an overflow there is the general path's error.)
        I(n) if n.is_const(1) || new_stride.mul(n).is_ok() => {
            modes.push((n, if n.is_const(1) { st(0) } else { new_stride }));
            coalesce_int_modes(modes)?
        }
        rest => {
            let rest_shape = coalesce_shape(&rest)?;
            let rest_stride = compact_col_major(&rest_shape, new_stride)?;
            // coalesce((result, rest)): its flat modes are the result's, then the rest's (a
            // compact stride has its shape's form), so they are gathered without building the
            // tuple first.
            let rest = Layout::new(rest_shape, rest_stride);
            let mut tail = IntModes::new();
            if int_modes_into(&rest, &mut tail) {
                // (integers, nearly always: the same modes on the integer path)
                if modes.len() + tail.len() <= modes.room() {
                    modes.extend_from_slice(&tail);
                    coalesce_int_modes(modes)?
                } else {
                    coalesce_int_modes(&[&modes[..], &tail[..]].concat())?
                }
            } else {
                match congruent_modes(&rest) {
                    Some(tail) => {
                        let mut all = Modes::new();
                        all.extend(modes.iter().map(|&(s, d)| (s, Stride::I(d))));
                        all.extend(tail);
                        coalesce_modes(&all)?
                    }
                    None => {
                        let rs = T(modes.iter().map(|&(s, _)| I(s)).collect());
                        let rd = T(modes.iter().map(|&(_, d)| I(d)).collect());
                        coalesce(&Layout::new(T(vec![rs, rest.shape]), T(vec![rd, rest.stride])))?
                    }
                }
            }
        }
    })
}

/// Records a warning when `res` breaks complement's postconditions (`layout.hpp`): ordered,
/// disjoint from L except at 0, and `size(res) >= cotarget / size(L)` (L filtered). Both domains
/// are enumerated (odometer walks, i64 then i128 on overflow, no hashing), so only for at most
/// `CHECK_LIMIT` points each.
fn check_complement(l: &Layout, cotarget: &IntTuple, res: &Layout) {
    let (Some(nl), Some(nr), Some(cot)) = (points(l), points(res), product(cotarget)) else {
        return;
    };
    check_law(
        || complement_law::<i64>(l, res, cotarget, (nl, nr, cot)),
        || complement_law::<i128>(l, res, cotarget, (nl, nr, cot)),
    );
}

/// The law of [`check_complement`] in `O` for `L` of `nl` points, `res` of `nr`, and the
/// cotarget's product `cot`.
fn complement_law<O: Off + Ord>(l: &Layout, res: &Layout, cotarget: &IntTuple, (nl, nr, cot): (i64, i64, i128)) -> Law {
    let (Some(mut vl), Some(vr)) = (offsets::<O>(l, nl), offsets::<O>(res, nr)) else { return Law::Overflow };
    let why = if nl > 0 && (nr as i128) < cot / nl as i128 {
        format!("it has {nr} points, fewer than {cot}/{nl}")
    } else if let Some(i) = (1..vr.len()).find(|&i| vr[i - 1] >= vr[i]) {
        format!("it is not ordered at index {i}")
    } else {
        vl.sort_unstable();
        match (1..vr.len()).find(|&i| vl.binary_search(&vr[i]).is_ok()) {
            Some(i) => format!("its value {} at index {i} is also a value of L", vr[i]),
            None => return Law::Holds,
        }
    };
    Law::Fails(format!(
        "complement is not a complement of L = {l} for cotarget {cotarget}: {why} (CuTe truncates a stride \
         that is not a multiple of the extent before it)"
    ))
}

/// The product of the integer leaves of `t`, or `None`.
fn product(t: &IntTuple) -> Option<i128> {
    let mut v = Leaves::new();
    leaf_refs(t, &mut v);
    v.iter().try_fold(1i128, |acc, x| match &**x {
        I(i) => acc.checked_mul(i.v as i128),
        _ => None,
    })
}

/// The number of points of `l` when its leaves are integers (as many shapes as strides, no
/// negative shape) and there are at most `CHECK_LIMIT` of them, or `None`.
fn points(l: &Layout) -> Option<i64> {
    let (mut s, mut d) = (Leaves::new(), Leaves::new());
    leaf_refs(&l.shape, &mut s);
    leaf_refs(&l.stride, &mut d);
    if s.len() != d.len() || !d.iter().all(|x| matches!(&**x, I(_))) {
        return None;
    }
    s.iter().try_fold(1i64, |n, x| match &**x {
        I(e) if e.v >= 0 => n.checked_mul(e.v).filter(|&n| n <= CHECK_LIMIT),
        _ => None,
    })
}

/// `L(0), ..., L(n - 1)` for the `n` points of `l` ([`points`]), walked by an odometer; `None`
/// on overflow.
fn offsets<O: Off>(l: &Layout, n: i64) -> Option<Vec<O>> {
    if n == 0 {
        return Some(Vec::new());
    }
    // no flat modes with points: a rank-0 layout, whose one point is 0
    let Some(m) = flat_modes_of::<O>(l) else { return Some(vec![O::of(0)]) };
    let mut at = Odometer::new(&m);
    let mut v = Vec::with_capacity(n as usize);
    v.push(at.off);
    for _ in 1..n {
        at.advance()?;
        v.push(at.off);
    }
    Some(v)
}

/// `complement(L, cotarget)`: the layout of the "rest" of `[0, cotarget)` not covered by L.
pub fn complement(l: &Layout, cotarget: &IntTuple) -> R<Layout> {
    complement_to(l, cotarget)
}

/// [`complement`] as a `V` (a `Value` for the built-in): made where it is returned, not
/// returned as a layout and then moved into a value (a copy whose loads would wait for the
/// stores just made), on the commonest path.
#[inline]
pub fn complement_to<V: From<Layout>>(l: &Layout, cotarget: &IntTuple) -> R<V> {
    match (&l.shape, &l.stride, cotarget) {
        (I(s), I(d), I(c)) => complement_of_one(l, (*s, *d), *c),
        (s, d, I(c)) if s.is_tuple() && d.is_tuple() => match int_mode_pair(l) {
            Some((m0, m1)) => complement_of_two(l, m0, m1, *c),
            None => complement_listed(l, cotarget).map(V::from),
        },
        _ => complement_listed(l, cotarget).map(V::from),
    }
}

/// [`complement_of_two`] for a layout of one integer mode `s:d`: `filter` makes a `_0` stride
/// or a `_1` shape `_1:_0` (the irreducible case, which the general steps take).
#[inline(never)]
fn complement_of_one<V: From<Layout>>(l: &Layout, (s, d): (Int, Int), c: Int) -> R<V> {
    let m = if d.is_const(0) || s.is_const(1) { (st(1), st(0)) } else { (s, d) };
    one_int_mode(m, c, || from_int_modes(&[m]), || complement_listed(l, &I(c)).map(V::from))
}

/// [`complement`] of a layout of two integer modes for an integer cotarget (the commonest
/// rank-2 call): `filter` (a `_0` stride makes its shape `_1`, then `coalesce`'s steps on the
/// two modes, as `coalesce_two` takes them) and the complement's steps on the one or two modes
/// left, all in registers: a list written and read back at once costs a stall at each read.
/// Where those steps are not the whole answer, [`complement_listed`] from the start.
#[inline(never)]
fn complement_of_two<V: From<Layout>>(l: &Layout, m0: (Int, Int), m1: (Int, Int), c: Int) -> R<V> {
    let zero = |(s, d): (Int, Int)| if d.is_const(0) { (st(1), d) } else { (s, d) };
    let ((s0, d0), (s1, d1)) = (zero(m0), zero(m1));
    let general = || complement_listed(l, &I(c)).map(V::from);
    // `coalesce`'s steps on the two modes, as `coalesce_two` takes them, written out (through
    // `coalesce_two_modes` the modes went through memory here: 10% slower); a lone mode of
    // static shape `_1` is `_1:_0`
    let one = |(s, d): (Int, Int)| {
        let m = (s, if s.is_const(1) { st(0) } else { d });
        one_int_mode(m, c, || from_int_modes(&[m]), general)
    };
    if s0.is_const(1) {
        return one((s1, d1));
    }
    if s1.is_const(1) {
        return one_int_mode((s0, d0), c, || from_int_modes(&[(s0, d0)]), general);
    }
    if s1.s && int_merge(s0, d0, d1)? {
        return one((s0.mul(s1)?, d0));
    }
    two_int_modes((s0, d0), (s1, d1), c, || from_int_modes(&[(s0, d0), (s1, d1)]), general)
}

/// [`complement`] on the filtered modes in a list.
fn complement_listed(l: &Layout, cotarget: &IntTuple) -> R<Layout> {
    let mut m = IntModes::new();
    if let Some(r) = filter_int_modes_into(l, &mut m) {
        r?;
        return complement_ints(&m, cotarget, None);
    }
    let mut g = Modes::new();
    filter_modes_into(l, &mut g)?;
    complement_ints(&ints_of(&g)?, cotarget, None)
}

/// `complement(L)`: the complement with respect to `cosize(filter(L))`.
pub fn complement_cosize(l: &Layout) -> R<Layout> {
    let m = filter_modes(l)?;
    let c = cosize(&from_modes(&m))?;
    complement_ints(&ints_of(&m)?, &I(c), None)
}

/// `complement(L, cotarget)` (`complement(L)` for `None`) and the steps it took.
pub fn complement_traced(l: &Layout, cotarget: Option<&IntTuple>) -> R<(Layout, ComplementTrace)> {
    let m = filter_modes(l)?;
    let cot = match cotarget {
        Some(c) => c.clone(),
        None => I(cosize(&from_modes(&m))?),
    };
    let mut t = ComplementTrace { sorted: Vec::new(), gaps: Vec::new(), rest_stride: st(1) };
    let r = complement_ints(&ints_of(&m)?, &cot, Some(&mut t))?;
    Ok((r, t))
}

#[cfg(test)]
mod tests {
    use super::{complement_impl, complement_listed, complement_of_one, complement_of_two, ComplementTrace};
    use crate::eval::error::{take_warnings, R};
    use crate::eval::int::{st, Int};
    use crate::eval::int_tuple::IntTuple::I;
    use crate::eval::layout::Layout;
    use crate::eval::ops::algebra::list::Inline;
    use crate::eval::ops::algebra::testing::shown;

    /// The one- and two-mode paths with an integer cotarget take the general steps: the same
    /// layout or the same error as the traced run, which always takes the general steps, for
    /// modes and cotargets of static and dynamic integers around the special values.
    #[test]
    fn short_paths_are_the_general_steps() {
        let show = |r: R<Layout>| match r {
            Ok(l) => format!("{l}"),
            Err(e) => format!("error: {e}"),
        };
        let vals = [-2i64, 0, 1, 2, 3, 4, 6, 8, 1 << 40, i64::MAX];
        let any: Vec<Int> = vals.iter().flat_map(|&v| [Int::new(v, true), Int::new(v, false)]).collect();
        let stat: Vec<Int> = vals.iter().map(|&v| st(v)).collect();
        let cots: Vec<Int> =
            [0i64, 1, 7, 64, 3316, i64::MAX].iter().flat_map(|&v| [st(v), Int::new(v, false)]).collect();
        let agree = |f: &[(Int, Int)], c: Int| {
            let mut t = ComplementTrace { sorted: Vec::new(), gaps: Vec::new(), rest_stride: st(1) };
            let short = show(complement_impl::<Inline>(f, &I(c), None));
            let general = show(complement_impl::<Inline>(f, &I(c), Some(&mut t)));
            assert_eq!(short, general, "complement of {f:?} for {c}");
        };
        let mut n = 0;
        for &c in &cots {
            for &s in &any {
                for &d in &any {
                    agree(&[(s, d)], c);
                    n += 1;
                }
            }
            // (two modes take the short path only with static strides; others are refused first)
            for &s0 in &any {
                for &d0 in &stat {
                    for &s1 in &any {
                        for &d1 in &stat {
                            agree(&[(s0, d0), (s1, d1)], c);
                            n += 1;
                        }
                    }
                }
            }
        }
        take_warnings();
        assert_eq!(n, cots.len() * (any.len().pow(2) + any.len().pow(2) * stat.len().pow(2)));
    }

    /// `complement_of_two` and `complement_of_one` (filter and complement in registers) are
    /// `complement_listed` (the lists), answers, errors and law warnings alike, for one and two
    /// modes of static and dynamic integers around the special values.
    #[test]
    fn two_modes_in_registers_are_the_listed_steps() {
        use crate::eval::int_tuple::T;
        let vals = [-2i64, 0, 1, 2, 3, 4, 6, 8, 1 << 40, i64::MAX];
        let any: Vec<Int> = vals.iter().flat_map(|&v| [Int::new(v, true), Int::new(v, false)]).collect();
        let cots: Vec<Int> =
            [0i64, 1, 7, 64, 3316, i64::MAX].iter().flat_map(|&v| [st(v), Int::new(v, false)]).collect();
        let mut n = 0;
        for &c in &cots {
            for &s0 in &any {
                for &d0 in &any {
                    for &s1 in &any {
                        for &d1 in &any {
                            let l = Layout::new(T(vec![I(s0), I(s1)]), T(vec![I(d0), I(d1)]));
                            let fast = shown(complement_of_two::<Layout>(&l, (s0, d0), (s1, d1), c));
                            let listed = shown(complement_listed(&l, &I(c)));
                            assert_eq!(fast, listed, "complement of {l} for {c}");
                            n += 1;
                        }
                    }
                    // one mode
                    let l = Layout::new(I(s0), I(d0));
                    let fast = shown(complement_of_one::<Layout>(&l, (s0, d0), c));
                    let listed = shown(complement_listed(&l, &I(c)));
                    assert_eq!(fast, listed, "complement of {l} for {c}");
                }
            }
        }
        assert_eq!(n, cots.len() * any.len().pow(4));
    }
}
