//! Inverses and the functions built on them, ported from `layout.hpp`: `right_inverse`,
//! `left_inverse`, `max_common_layout`, `max_common_vector`, `nullspace`, `domain_distribute`,
//! `max_alignment`.

use super::coalesce::{
    coalesce, coalesce_int_flat_into, coalesce_int_modes, coalesce_into, coalesce_three, coalesce_two,
    coalesce_two_modes, int_mode_pair, int_modes_into, IntModes,
};
use super::composition::{
    check_law, composition_raw, eval_flat, eval_tree, flat_modes_of, Law, Odometer, Off, CHECK_LIMIT,
};
use super::digits;
use super::list::{Grow, Heap, Inline, Store};
use super::util::{compact_col_major, exchange_sort_by_key, leaf_int, lmode, product};
use super::util::{size_of, stride_int, Modes};
use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::{
    IntTuple::{self, I},
    T, V,
};
use crate::eval::layout::Layout;
use crate::eval::ops::tuple::{gcd, get_mode};

/// The modes of `coalesce(L)` as integer `(shape, stride)` pairs, plus the exclusive prefix
/// products of the shape `(_1, s0, s0*s1, ...)`, and which of the inverses' exactness
/// conditions L meets ([`right_inverse_is_exact`], [`left_inverse_is_exact`]), read from L's
/// flat modes on the way.
///
/// A layout of integers (most) has its lists inline ([`int_modes_into`] takes fewer than
/// `CAP` modes, so that the prefix products, one more, fit) and goes to `on_inline`; any
/// other has them on the heap and goes to `on_heap` (the same function, on the other lists).
#[inline(always)]
fn prepared<T>(
    l: &Layout,
    what: &str,
    on_inline: impl FnOnce(&Lists<Inline>) -> R<T>,
    on_heap: impl FnOnce(&Lists<Heap>) -> R<T>,
) -> R<T> {
    let mut flat = IntModes::new();
    if int_modes_into(l, &mut flat) {
        // a layout of integers (most): coalesced on integer modes
        let (mut shapes_ok, mut strides_static, mut strides_nonneg) = (true, true, true);
        for (s, d) in flat.iter() {
            shapes_ok &= s.s && s.v >= 1;
            strides_static &= d.s;
            strides_nonneg &= d.v >= 0;
        }
        let right_exact = shapes_ok && strides_static;
        let mut p = Lists::<Inline> { right_exact, left_exact: right_exact && strides_nonneg, ..Lists::default() };
        coalesce_int_flat_into(&flat, &mut p.modes)?;
        prefix_products(&mut p)?;
        on_inline(&p)
    } else {
        let mut p = Lists::<Heap> {
            right_exact: right_inverse_is_exact(l),
            left_exact: left_inverse_is_exact(l),
            ..Lists::default()
        };
        let mut modes = Modes::new();
        coalesce_into(l, &mut modes)?;
        for (s, d) in &modes {
            p.modes.push((*s, stride_int(d, what)?));
        }
        prefix_products(&mut p)?;
        on_heap(&p)
    }
}

/// The exclusive prefix products of the shapes of `p.modes`, into `p.pre`.
#[inline(always)]
fn prefix_products<S: Store>(p: &mut Lists<S>) -> R<()> {
    let mut b = st(1);
    p.pre.push(b);
    for (s, _) in p.modes.iter() {
        b = s.mul(b)?;
        p.pre.push(b);
    }
    Ok(())
}

/// What [`prepared`] fills in (inline lists returned by value were copied twice each, a tenth
/// of an inverse's instructions).
struct Lists<S: Store> {
    modes: S::Modes,
    pre: S::Ints,
    right_exact: bool,
    left_exact: bool,
}

impl<S: Store> Default for Lists<S> {
    #[inline(always)]
    fn default() -> Self {
        Lists { modes: S::Modes::default(), pre: S::Ints::default(), right_exact: false, left_exact: false }
    }
}

fn tup(v: Vec<Int>) -> IntTuple {
    T(v.into_iter().map(I).collect())
}

/// `right_inverse(L)`: a layout R with `L(R(i)) == i` for all `i < size(R)`, built from the
/// static strides of L only (dynamic strides are ignored).
pub fn right_inverse(l: &Layout) -> R<Layout> {
    right_inverse_exact(l).map(|(r, _)| r)
}

/// [`right_inverse`] as a `V` (a `Value` for the built-in), its law checked where it does not
/// hold by construction ([`check_right_inverse`]). A layout of two integer modes (the
/// commonest) takes [`right_inverse_of_two`]; its answer is made where it is returned.
#[inline]
pub fn right_inverse_checked<V: From<Layout>>(l: &Layout) -> R<V> {
    if let Some((m0, m1)) = int_mode_pair(l) {
        return right_inverse_of_two(l, m0, m1);
    }
    let (r, exact) = right_inverse_exact(l)?;
    if !exact {
        check_right_inverse(l, &r);
    }
    Ok(V::from(r))
}

/// [`right_inverse_checked`] of the layout `l` of two integer modes `m0`, `m1`: the steps of
/// [`prepared`] (`coalesce`, as `coalesce_two` takes them, and the prefix products) and of
/// [`right_inverse_of`] (the modes by stride, `exchange_sort`'s order, chained from stride
/// `_1`), in their order, on integers in registers: lists written and read back at once cost a
/// stall at each read. (`two_modes_in_registers_are_the_listed_steps` holds it to the lists.)
#[inline(never)]
fn right_inverse_of_two<V: From<Layout>>(l: &Layout, m0: (Int, Int), m1: (Int, Int)) -> R<V> {
    let exact = [m0, m1].iter().all(|(s, d)| s.s && s.v >= 1 && d.s);
    // coalesce: one mode or two
    let (a, b) = coalesce_two_modes(m0, m1)?;
    // the prefix products of the shapes: `_1`, a, a*b (all made: an overflow is an error)
    let pa = a.0.mul(st(1))?;
    if let Some((sb, _)) = b {
        sb.mul(pa)?;
    }
    // the modes with static strides by stride (`exchange_sort`: the second first only where
    // its stride is smaller), each taken where its stride is the extent so far
    let (first, second) = match b {
        Some(b) if a.1.s && b.1.s && b.1.v < a.1.v => ((b, pa), Some((a, st(1)))),
        Some(b) if a.1.s && b.1.s => ((a, st(1)), Some((b, pa))),
        Some(b) if b.1.s => ((b, pa), None),
        _ if a.1.s => ((a, st(1)), None),
        _ => return finish(l, Layout::new(I(st(1)), I(st(0))), exact),
    };
    // (`curr` is made for every mode taken, the last too: an overflow there is an error)
    let ((fm, fp), mut curr) = (first, st(1));
    let t0 = if fm.1.v == 1 {
        curr = fm.0.mul(fm.1)?;
        Some((fm.0, fp))
    } else {
        None
    };
    let t1 = match second {
        Some((m, p)) if curr.s && m.1.v == curr.v => {
            m.0.mul(m.1)?;
            Some((m.0, p))
        }
        _ => None,
    };
    let one = (st(1), st(0));
    let r = match (t0, t1) {
        (None, None) => Layout::new(I(st(1)), I(st(0))),
        (Some(x), None) | (None, Some(x)) => coalesce_two(one, x)?,
        (Some(x), Some(y)) => coalesce_three(one, x, y)?,
    };
    finish(l, r, exact)
}

/// The end of [`right_inverse_of_two`]: the law checked where it is not exact, the layout as
/// a `V`.
#[inline(always)]
fn finish<V: From<Layout>>(l: &Layout, r: Layout, exact: bool) -> R<V> {
    if !exact {
        check_right_inverse(l, &r);
    }
    Ok(V::from(r))
}

/// [`right_inverse`], and [`right_inverse_is_exact`] of L (read on the way).
pub fn right_inverse_exact(l: &Layout) -> R<(Layout, bool)> {
    prepared(l, "right_inverse", right_inverse_of, right_inverse_of)
}

/// [`right_inverse_exact`] of the prepared lists.
#[inline(always)]
fn right_inverse_of<S: Store>(p: &Lists<S>) -> R<(Layout, bool)> {
    let (modes, pre) = (&p.modes, &p.pre);
    let mut sorted = S::Keyed::default();
    for (k, (_, d)) in modes.iter().enumerate() {
        if d.s {
            sorted.push((d.v, k));
        }
    }
    exchange_sort_by_key(&mut sorted);
    // the result's modes `(shape, stride)`, coalesced at the end
    let mut rmodes = S::Modes::default();
    rmodes.push((st(1), st(0)));
    let mut curr = st(1);
    for &(_, i) in sorted.iter() {
        let (ishape, istride) = modes[i];
        if curr.s && istride.v == curr.v {
            rmodes.push((ishape, pre[i]));
            curr = ishape.mul(istride)?;
        }
    }
    Ok((coalesce_int_modes(&rmodes)?, p.right_exact))
}

/// `left_inverse(L)`: a layout R with `R(L(i)) == i` for injective L (static strides only).
pub fn left_inverse(l: &Layout) -> R<Layout> {
    left_inverse_exact(l).map(|(r, _)| r)
}

/// [`left_inverse`], and [`left_inverse_is_exact`] of L (read on the way).
pub fn left_inverse_exact(l: &Layout) -> R<(Layout, bool)> {
    prepared(l, "left_inverse", |p| left_inverse_of(l, p), |p| left_inverse_of(l, p))
}

/// [`left_inverse_exact`] of L from its prepared lists.
#[inline(always)]
fn left_inverse_of<S: Store>(l: &Layout, p: &Lists<S>) -> R<(Layout, bool)> {
    let (modes, pre) = (&p.modes, &p.pre);
    if !modes.iter().all(|(_, d)| d.s) {
        return Err(EvalError::rule("left inverse requires static strides", format!("{l} has dynamic strides")));
    }
    let mut sorted = S::Keyed::default();
    for (k, (_, d)) in modes.iter().enumerate() {
        sorted.push((d.v, k));
    }
    exchange_sort_by_key(&mut sorted);
    // The result's modes `(shape, stride)`, coalesced at the end: each shape with the stride
    // before it (`_0` first), then the last shape with the last stride.
    let mut rmodes = S::Modes::default();
    let mut rstride = st(0);
    // `product` of the shapes so far, kept as it grows (the product of no modes is `_1`; `_1 * x`
    // is x); the last shape pushed is multiplied in when the next one needs it, as `product`
    // would be.
    let (mut sz, mut unmul) = (st(1), None);
    for &(_, i) in sorted.iter() {
        let istride = modes[i].1;
        if istride.is_const(0) {
            continue;
        }
        if let Some(m) = unmul.take() {
            sz = sz.mul(m)?;
        }
        if sz.v == 0 || istride.v.wrapping_rem(sz.v) != 0 {
            return Err(EvalError::rule(
                "left inverse divisibility condition",
                format!("stride {istride} of {l} is not divisible by {sz}"),
            ));
        }
        let m = istride.div(sz)?;
        rmodes.push((m, rstride));
        unmul = Some(m);
        rstride = pre[i];
    }
    let Some(&(_, last)) = sorted.last() else {
        return Err(EvalError::rule("index out of range", format!("left_inverse of {l}")));
    };
    rmodes.push((modes[last].0, rstride));
    Ok((coalesce_int_modes(&rmodes)?, p.left_exact))
}

/// The modes of `x -> M(x)` for [`digits::holds`] against the identity on M's domain: each flat
/// mode of M with its stride as the step, its size, and its position in M's domain as the stride
/// the identity takes (an inverse must give back `i`). `None` on overflow.
fn identity_steps<O: Off>(m: &[(O, O)]) -> Option<smallvec::SmallVec<[(O, O, O); 8]>> {
    let mut pos = O::of(1);
    let mut steps = smallvec::SmallVec::with_capacity(m.len());
    for &(s, d) in m {
        steps.push((d, s, pos));
        pos = pos.mul(s)?;
    }
    Some(steps)
}

/// True when `right_inverse(L)` satisfies `L(R(i)) == i` by construction, so that
/// [`check_right_inverse`] has nothing to find: every shape of L is a static integer `>= 1` and
/// every stride a static integer. Then coalescing keeps L's function, and the modes that
/// `right_inverse` chains (a mode is taken when its stride equals `curr`, which starts at 1 and
/// becomes `shape * stride` of the mode taken) have strides `1, s_a, s_a s_b, ...` and positions
/// `p_a, p_b, ...` in L's domain (the prefix products of L's shape). R maps `i`, written in
/// the mixed radix `(s_a, s_b, ...)` as digits `c_a, c_b, ...`, to `sum c_m p_m`; that is L's
/// domain index of the coordinate with `c_m` in mode m and 0 elsewhere (each `c_m < s_m`), so
/// it is below `size(L)`, and L maps it to `sum c_m d_m = c_a + c_b s_a + ... = i`.
/// (The property test `exact_inverses_need_no_check` holds this to a plain evaluator.)
pub fn right_inverse_is_exact(l: &Layout) -> bool {
    static_leaves(&l.shape, 1) && static_leaves(&l.stride, i64::MIN)
}

/// True when [`check_left_inverse`] cannot warn about `left_inverse(L)`: every shape of L is a
/// static integer `>= 1` and every stride a static integer `>= 0`. The check warns only where L
/// is injective and the law fails, and for such an L the law holds: coalescing keeps L's
/// function; a mode of stride 0 and shape `>= 2` makes L not injective; `left_inverse` takes the
/// other modes by increasing stride `d_a < d_b < ...`, each divisible by the one before (it
/// refuses otherwise), and an injective L then has `d_b >= s_a d_a` (were `d_b = q d_a` with
/// `q < s_a`, coordinate `q` of mode a and 1 of mode b would meet), so `sum c_k d_k`, read in
/// the mixed radix `(d_a, d_b / d_a, ..., s_last)` of R's shape, has the digits `0, c_a, c_b,
/// ...`, which R's strides `(0, p_a, p_b, ...)` (the modes' positions in L's domain) send back
/// to `sum c_k p_k`, L's domain index of the coordinate. (The property test
/// `exact_inverses_need_no_check` holds both of these claims to a plain evaluator.)
pub fn left_inverse_is_exact(l: &Layout) -> bool {
    static_leaves(&l.shape, 1) && static_leaves(&l.stride, 0)
}

/// Every leaf of `t` a static integer `>= min`.
fn static_leaves(t: &IntTuple, min: i64) -> bool {
    if let Some(f) = t.flat() {
        return (0..f.n).all(|k| {
            let i = f.int(k);
            i.s && i.v >= min
        });
    }
    match t.view() {
        V::I(x) => x.s && x.v >= min,
        // (an integer child checked here, without a call: most are)
        V::T(v) => v.iter().all(|x| match x {
            I(i) => i.s && i.v >= min,
            _ => static_leaves(x, min),
        }),
        _ => false,
    }
}

/// Record a warning when `right_inverse(L) = ri` does not satisfy `L(ri(i)) == i` (CuTe's
/// precondition is a static layout; with dynamic shapes it may print a non-inverse).
pub fn check_right_inverse(l: &Layout, ri: &Layout) {
    let (Some(n), Some(nl)) = (size_of(ri), size_of(l)) else { return };
    if !(0..=CHECK_LIMIT).contains(&n) {
        return;
    }
    check_law(|| right_law::<i64>(l, ri, n, nl), || right_law::<i128>(l, ri, n, nl));
}

fn right_law<O: Off>(l: &Layout, ri: &Layout, n: i64, nl: i64) -> Law {
    let (Some(fl), Some(fr)) = (flat_modes_of::<O>(l), flat_modes_of::<O>(ri)) else { return Law::Holds };
    if identity_steps(&fr).as_ref().is_some_and(|steps| digits::holds(&fl, true, steps.iter().copied())) {
        return Law::Holds;
    }
    let (zero, nl) = (O::of(0), O::of(nl));
    let mut r = Odometer::new(&fr);
    for i in 0..n {
        if i > 0 && r.advance().is_none() {
            return Law::Overflow;
        }
        let x = r.off;
        let lx = if x >= zero && x < nl {
            match eval_flat(&fl, x) {
                Some(v) => Some(v),
                None => return Law::Overflow,
            }
        } else {
            None
        };
        if lx != Some(O::of(i)) {
            return Law::Fails(format!(
                "right_inverse is not a right inverse at index {i}: L(R({i})) != {i} (L = {l}, R = {ri})"
            ));
        }
    }
    Law::Holds
}

/// Record a warning when L is injective but `left_inverse(L) = li` does not satisfy
/// `li(L(i)) == i` (CuTe's precondition is a static layout).
pub fn check_left_inverse(l: &Layout, li: &Layout) {
    let Some(n) = size_of(l) else { return };
    if !(0..=CHECK_LIMIT).contains(&n) {
        return;
    }
    check_law(|| left_law::<i64>(l, li, n), || left_law::<i128>(l, li, n));
}

/// `li(L(i)) == i` for every i proves L injective, so injectivity (a sort of L's image) is
/// only looked at when the law fails at some index: a non-injective L has no left inverse
/// to check.
fn left_law<O: Off>(l: &Layout, li: &Layout, n: i64) -> Law {
    let (Some(fl), Some(fi)) = (flat_modes_of::<O>(l), flat_modes_of::<O>(li)) else { return left_law_tree(l, li, n) };
    if identity_steps(&fl).as_ref().is_some_and(|steps| digits::holds(&fi, true, steps.iter().copied())) {
        return Law::Holds;
    }
    let mut at = Odometer::new(&fl);
    for i in 0..n {
        if i > 0 && at.advance().is_none() {
            return Law::Overflow;
        }
        let found = match eval_flat(&fi, at.off) {
            Some(v) if v == O::of(i) => continue,
            Some(_) => Law::Fails(format!(
                "left_inverse is not a left inverse at index {i}: R(L({i})) != {i} (L = {l}, R = {li})"
            )),
            None => Law::Overflow,
        };
        return match injective(&fl, n) {
            Some(true) => found,
            Some(false) => Law::Holds,
            None => Law::Overflow,
        };
    }
    Law::Holds
}

/// `left_law` where a shape is not positive (CuTe answers `(_-1,_-3,1):(_0,2,2)` for one such
/// layout, a fuzz finding): the same law, each point by CuTe's `crd2idx` rule.
fn left_law_tree(l: &Layout, li: &Layout, n: i64) -> Law {
    let mut image = Vec::with_capacity(n as usize);
    for i in 0..n {
        match eval_tree(&l.shape, &l.stride, i) {
            Some(v) => image.push(v),
            None => return Law::Overflow,
        }
    }
    if !all_distinct(image.clone()) {
        return Law::Holds; // not injective: no left inverse to check
    }
    for (i, &x) in image.iter().enumerate() {
        match eval_tree(&li.shape, &li.stride, x) {
            Some(v) if v == i as i64 => {}
            Some(_) => {
                return Law::Fails(format!(
                    "left_inverse is not a left inverse at index {i}: R(L({i})) != {i} (L = {l}, R = {li})"
                ))
            }
            None => return Law::Overflow,
        }
    }
    Law::Holds
}

/// Whether `L(0), ..., L(n-1)` are all different (`None` on overflow).
fn injective<O: Off>(fl: &[(O, O)], n: i64) -> Option<bool> {
    let mut image = Vec::with_capacity(n as usize);
    for i in 0..n {
        image.push(eval_flat(fl, O::of(i))?);
    }
    Some(all_distinct(image))
}

/// Whether the offsets are all different (sorted, not hashed: O(n log n)).
fn all_distinct<O: PartialOrd>(mut image: Vec<O>) -> bool {
    image.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    !image.windows(2).any(|w| w[0] == w[1])
}

/// The static identity part of `coalesce(a o right_inverse(b))`, if any: `(inv_b, common)`.
fn common_part(a: &Layout, b: &Layout) -> R<(Layout, Option<Layout>)> {
    let inv_b = right_inverse(b)?;
    let common = coalesce(&composition_raw(a, &inv_b)?)?;
    let s0 = leaf_int(&get_mode(&common.shape, 0)?, "max_common_layout")?;
    let d0 = leaf_int(&get_mode(&common.stride, 0)?, "max_common_layout")?;
    if s0.s && d0.is_const(1) {
        Ok((inv_b, Some(lmode(&common, 0)?)))
    } else {
        Ok((inv_b, None))
    }
}

/// `max_common_layout(a, b)`: a layout R pointing to the largest run of contiguous elements on
/// which a and b agree: `a(R(i)) == i == b(R(i))`.
pub fn max_common_layout(a: &Layout, b: &Layout) -> R<Layout> {
    match common_part(a, b)? {
        (inv_b, Some(c0)) => composition_raw(&inv_b, &c0),
        (_, None) => Ok(Layout::new(I(st(1)), I(st(0)))),
    }
}

/// `max_common_vector(a, b)`: the number of contiguous elements on which a and b agree
/// (static; `_1` when nothing static is common).
pub fn max_common_vector(a: &Layout, b: &Layout) -> R<Int> {
    match common_part(a, b)? {
        (_, Some(c0)) => leaf_int(&c0.shape, "max_common_vector"),
        (_, None) => Ok(st(1)),
    }
}

/// `nullspace(L)`: the layout of the coordinates L maps to 0 through its static-0 strides.
/// Post: `L(result(i)) == 0`.
pub fn nullspace(l: &Layout) -> R<Layout> {
    let flat_stride = l.stride.leaves();
    let iseq: Vec<usize> =
        flat_stride.iter().enumerate().filter(|(_, d)| matches!(d, I(i) if i.is_const(0))).map(|(k, _)| k).collect();
    if iseq.is_empty() {
        return Ok(Layout::new(I(st(1)), I(st(0))));
    }
    let flat_shape = l.shape.leaves();
    let rstride = compact_col_major(&T(flat_shape.clone()), st(1))?;
    let rstride = rstride.modes();
    let mut s = Vec::with_capacity(iseq.len());
    let mut d = Vec::with_capacity(iseq.len());
    for i in iseq {
        let (Some(a), Some(b)) = (flat_shape.get(i), rstride.get(i)) else {
            return Err(EvalError::rule("mismatched ranks", format!("nullspace of {l}")));
        };
        s.push(a.clone());
        d.push(b.clone());
    }
    let un = |v: Vec<IntTuple>| if v.len() == 1 { v.into_iter().next().unwrap_or(T(vec![])) } else { T(v) };
    Ok(Layout::new(un(s), un(d)))
}

/// `domain_distribute(a, b)`: distribute the static integer `b` over the (static) shape `a`.
pub fn domain_distribute(a: &IntTuple, b: &IntTuple) -> R<Layout> {
    let bi = match b {
        I(i) => *i,
        _ => {
            return Err(EvalError::rule("static assertion failed", format!("domain_distribute: {b} is not an integer")))
        }
    };
    if !bi.s {
        return Err(EvalError::rule("static assertion failed", format!("domain_distribute: {b} is not static")));
    }
    if !a.is_static() {
        return Err(EvalError::rule("static assertion failed", format!("domain_distribute: {a} is not static")));
    }
    let flat: IntTuple = if a.is_tuple() { T(a.leaves()) } else { a.clone() };
    let leaves: Vec<Int> = flat.leaves().iter().map(|x| leaf_int(x, "domain_distribute")).collect::<R<_>>()?;
    let mut result = Vec::with_capacity(leaves.len());
    let mut rest = bi;
    for a_ in leaves {
        let g = gcd(a_, rest)?;
        result.push(g);
        rest = rest.div(g)?;
    }
    let stride = compact_col_major(&flat, st(1))?;
    coalesce(&Layout::new(tup(result), stride))
}

/// `max_alignment(L)`: the largest N for which `upcast<N>(L)` compiles (static parts only).
pub fn max_alignment(l: &Layout) -> R<Int> {
    let flat = coalesce(l)?;
    let ss = flat.shape.map_ints(&mut |s| Ok(if s.s { s } else { st(1) }))?;
    let sd = flat.stride.map_ints(&mut |d| Ok(if d.s { d } else { st(0) }))?;
    let f = Layout::new(ss, sd);
    let permuted = crate::eval::ops::divide::logical_divide(&f, &right_inverse(&f)?)?;
    let s0 = product(&get_mode(&permuted.shape, 0)?)?;
    let d1 = get_mode(&permuted.stride, 1)?;
    gcd_tuple(s0, &d1)
}

/// `gcd(a, t)` with a tuple folded the CuTe way: `gcd(a, gcd(t0, gcd(t1, ...)))`.
fn gcd_tuple(a: Int, t: &IntTuple) -> R<Int> {
    fn g(t: &IntTuple) -> R<Int> {
        match t.kids() {
            Some(v) => {
                let Some((last, init)) = v.split_last() else {
                    return Err(EvalError::rule("index out of range", "gcd of ()"));
                };
                let mut acc = g(last)?;
                for e in init.iter().rev() {
                    acc = gcd(g(e)?, acc)?;
                }
                Ok(acc)
            }
            None => leaf_int(t, "gcd"),
        }
    }
    gcd(a, g(t)?)
}

#[cfg(test)]
mod tests {
    use super::{check_right_inverse, right_inverse_exact, right_inverse_of_two};
    use crate::eval::int::Int;
    use crate::eval::int_tuple::{IntTuple::I, T};
    use crate::eval::layout::Layout;
    use crate::eval::ops::algebra::testing::shown;

    /// `right_inverse_of_two` (in registers) is the listed steps (`right_inverse_exact`, then
    /// the law checked where it is not exact): answers, errors and law warnings alike, for two
    /// modes of static and dynamic integers around the special values.
    #[test]
    fn two_modes_in_registers_are_the_listed_steps() {
        let vals = [-2i64, -1, 0, 1, 2, 3, 4, 6, 8, 1 << 40, i64::MAX];
        let any: Vec<Int> = vals.iter().flat_map(|&v| [Int::new(v, true), Int::new(v, false)]).collect();
        let mut n = 0;
        for &s0 in &any {
            for &d0 in &any {
                for &s1 in &any {
                    for &d1 in &any {
                        let l = Layout::new(T(vec![I(s0), I(s1)]), T(vec![I(d0), I(d1)]));
                        let fast = shown(right_inverse_of_two::<Layout>(&l, (s0, d0), (s1, d1)));
                        let listed = shown(right_inverse_exact(&l).map(|(r, exact)| {
                            if !exact {
                                check_right_inverse(&l, &r);
                            }
                            r
                        }));
                        assert_eq!(fast, listed, "right_inverse of {l}");
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(n, any.len().pow(4));
    }
}
