//! Composition `A o B` of layouts and of a layout with a tiler, ported from `layout.hpp`
//! (`detail::composition_impl`). The divisibility conditions are checked only where CuTe checks
//! them (both operands static); with dynamic operands CuTe computes an answer that may not be
//! `A(B(i))`: we print the same answer and record a warning saying where the law fails.
//!
//! Post (when CuTe's conditions hold): `compatible(B, result)` and `result(i) == A(B(i))`.

use super::coalesce::{coalesce_x_int_into, coalesce_x_into, coalesce_x_profile, from_int_modes, IntModes};
use super::digits;
use super::util::{
    ceil_div_i, concat, concat2, from_modes, leaf_int, leaf_refs, lmode, lrank, make_layout_of_no_modes,
    same_form_leaves, signum, size_of, Leaves, Mode, Modes, Stride,
};
use crate::eval::error::{warn, EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::{
    IntTuple::{self, Basis, Under, I},
    TupleBuilder, T, V,
};
use crate::eval::layout::Layout;
use crate::eval::ops::structure::coprofile;
use crate::eval::ops::tuple::{arith_mul, get_path};
use crate::eval::value::Value;

/// A tiler: what may stand on the right of `o` or as the second argument of the divides and
/// products. CuTe's `Tile<...>` is a tuple of these; a bare layout, integer or `_` is one too.
#[derive(Clone, Debug, PartialEq)]
pub enum Tiler {
    Layout(Layout),
    /// An integer `n`: the layout `n:_1`.
    Int(Int),
    /// `_`: leave this mode alone.
    Under,
    /// `<t0,t1,...>` or a shape `(s0,s1,...)`: one tiler per mode.
    Tuple(Vec<Tiler>),
}

impl std::fmt::Display for Tiler {
    /// CuTe prints a tile as a tuple of its elements.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tiler::Under => write!(f, "_"),
            Tiler::Int(i) => write!(f, "{i}"),
            Tiler::Layout(l) => write!(f, "{l}"),
            Tiler::Tuple(v) => crate::eval::int_tuple::write_seq(f, "(", v, ")"),
        }
    }
}

impl Tiler {
    /// Read a tiler from a value (a layout, an integer, a shape, `_` or `<...>`); other kinds
    /// are type errors.
    pub fn from_value(v: &Value) -> R<Tiler> {
        Tiler::read(v).unwrap_or_else(|| {
            Err(EvalError::type_err(format!("a swizzle or composed layout is not a tiler here, got `{v}`")))
        })
    }
    /// As `from_value`, but `None` where a swizzle or swizzled layout is met before any other
    /// error: the caller's function does not take that kind (the swizzle module's forms do).
    pub fn read(v: &Value) -> Option<R<Tiler>> {
        Some(match v {
            Value::Layout(l) => Ok(Tiler::Layout(l.clone())),
            Value::Tuple(t) => Tiler::from_tuple(t),
            Value::Tile(vs) => {
                let mut out = Vec::with_capacity(vs.len());
                for x in vs {
                    match Tiler::read(x)? {
                        Ok(t) => out.push(t),
                        Err(e) => return Some(Err(e)),
                    }
                }
                Ok(Tiler::Tuple(out))
            }
            Value::Swizzle(_) | Value::Composed(_) => return None,
            other => Err(EvalError::type_err(format!(
                "expected a tiler (a layout, an integer, a shape, `_` or <...>), got {} `{other}`",
                other.kind()
            ))),
        })
    }
    pub fn from_tuple(t: &IntTuple) -> R<Tiler> {
        match t.view() {
            V::I(i) => Ok(Tiler::Int(*i)),
            V::Under => Ok(Tiler::Under),
            V::T(v) => v.iter().map(Tiler::from_tuple).collect::<R<Vec<_>>>().map(Tiler::Tuple),
            V::Basis(..) => Err(EvalError::type_err(format!("a ScaledBasis ({t}) cannot be a tiler"))),
        }
    }
    /// A shape used as a tiler (the atoms' tiles): integers stay integers, tuples become tuples
    /// of tilers.
    pub fn from_shape(s: &IntTuple) -> R<Tiler> {
        Ok(match s.view() {
            V::I(i) => Tiler::Int(*i),
            V::T(v) => Tiler::Tuple(v.iter().map(Tiler::from_shape).collect::<R<_>>()?),
            V::Under => Tiler::Under,
            V::Basis(..) => {
                return Err(EvalError::rule(
                    "not supported",
                    "a scaled-basis tiler is not supported by the atoms functions",
                ))
            }
        })
    }
    /// `size` of a tiler (CuTe's `size` on a layout / integer / tuple).
    pub fn size(&self) -> R<Int> {
        match self {
            Tiler::Under => Err(EvalError::rule("no size", "`_` has no size")),
            Tiler::Int(i) => Ok(*i),
            Tiler::Layout(l) => crate::eval::ops::structure::size(l),
            Tiler::Tuple(v) => v.iter().try_fold(st(1), |acc, t| acc.mul(t.size()?)),
        }
    }
    /// `shape` of a tiler: an integer is its own shape, a layout its shape, a tuple the tuple
    /// of the shapes.
    pub fn shape(&self) -> R<IntTuple> {
        match self {
            Tiler::Under => Err(EvalError::rule("no shape", "`_` has no shape")),
            Tiler::Int(i) => Ok(I(*i)),
            Tiler::Layout(l) => Ok(l.shape.clone()),
            Tiler::Tuple(v) => Ok(T(v.iter().map(|t| t.shape()).collect::<R<_>>()?)),
        }
    }
    pub fn is_static(&self) -> bool {
        match self {
            Tiler::Under => true,
            Tiler::Int(i) => i.s,
            Tiler::Layout(l) => l.shape.is_static() && l.stride.is_static(),
            Tiler::Tuple(v) => v.iter().all(|t| t.is_static()),
        }
    }
    /// The tiler as a value (CuTe prints a tile like a tuple).
    pub fn to_value(&self) -> Value {
        match self {
            Tiler::Layout(l) => Value::Layout(l.clone()),
            Tiler::Int(i) => Value::Tuple(I(*i)),
            Tiler::Under => Value::Tuple(Under),
            Tiler::Tuple(v) => Value::tuple(v.iter().map(|t| t.to_value()).collect()),
        }
    }
    pub fn rank(&self) -> usize {
        match self {
            Tiler::Tuple(v) => v.len(),
            _ => 1,
        }
    }
}

/// The left operand of `composition_impl`: a shape and a stride, or the flat modes of
/// `coalesce_x(A)`, read where they are (the layout they make is a single mode `s:d` for one,
/// the flat tuples `(s0,s1,...):(d0,d1,...)` for more).
#[derive(Clone, Copy)]
enum Lhs<'a> {
    Tree(&'a IntTuple, &'a IntTuple),
    Flat(&'a [Mode]),
    /// Flat modes of integers (a layout of integers, the common case).
    Ints(&'a [(Int, Int)]),
}

impl Lhs<'_> {
    /// `f` of the shape and stride as trees (the paths that walk trees build the layout of
    /// flat modes first).
    fn with_tree<T>(self, f: impl FnOnce(&IntTuple, &IntTuple) -> T) -> T {
        match self {
            Lhs::Tree(s, d) => f(s, d),
            Lhs::Flat(m) => {
                let l = from_modes(m);
                f(&l.shape, &l.stride)
            }
            Lhs::Ints(m) => {
                let l = from_int_modes(m);
                f(&l.shape, &l.stride)
            }
        }
    }
}

/// What a composition has proved of its result so far ([`composition_exact`]): `ok` while
/// every integral mode of the rhs passed through the lhs's modes evenly (`compose_modes`), and,
/// for each lhs mode but the last, how far the rhs's modes reach into it together (`used`, the
/// largest sum of their coordinates there). `ok` is only ever cleared.
struct Exact {
    ok: bool,
    /// (for up to 8 modes: an lhs of more is left to the check)
    used: [i64; 8],
}

impl Exact {
    /// Nothing proved: the check is to run.
    fn no() -> Exact {
        Exact::proving(false)
    }

    /// To be proved as the composition goes, where `ok` (A's shapes positive: its coalesced
    /// modes are A's function on A's domain).
    fn proving(ok: bool) -> Exact {
        Exact { ok, used: [0; 8] }
    }

    /// Modes of the rhs placed at lhs mode `i` (of shape `s`) with coordinates `d * j` for
    /// `j < m`: they must stay below `s` together, so that no sum of them carries. (The last
    /// mode is never placed: `compose_modes` places the modes before it.)
    #[inline]
    fn place(&mut self, i: usize, d: i64, m: i64, s: i64) {
        let Some(u) = self.used.get_mut(i) else {
            self.ok = false;
            return;
        };
        match d.checked_mul(m - 1).and_then(|x| u.checked_add(x)) {
            Some(v) if v < s => *u = v,
            _ => self.ok = false,
        }
    }
}

/// `detail::composition_impl(lhs_shape, lhs_stride, rhs_shape, rhs_stride)`, with what it
/// proves of its result in `exact` (cleared unless proved).
fn composition_impl(lhs: Lhs<'_>, rs: &IntTuple, rd: &IntTuple, exact: &mut Exact) -> R<Layout> {
    // Right-distributivity of composition over a tuple rhs.
    if let Some(rsv) = rs.kids() {
        if rsv.is_empty() && rd.rank() == 0 {
            // CuTe concatenates the modes' compositions with make_layout(), of none here
            return Err(make_layout_of_no_modes(format!("composition with the empty layout {rs}:{rd}")));
        }
        if rs.rank() != rd.rank() || rsv.is_empty() {
            return Err(EvalError::rule(
                "mismatched ranks",
                format!("composition: shape {rs} and stride {rd} of the right operand differ in rank"),
            ));
        }
        // `concat` of the modes' compositions, gathered straight into the two tuples (the ranks
        // agree: rd is a tuple of rsv's length, or one mode)
        let rdv = rd.kids();
        let (mut shape, mut stride) = (TupleBuilder::with_capacity(rsv.len()), TupleBuilder::with_capacity(rsv.len()));
        for (k, s) in rsv.iter().enumerate() {
            let m = composition_impl(lhs, s, rdv.as_ref().map_or(rd, |v| &v[k]), exact)?;
            shape.push(m.shape);
            stride.push(m.stride);
        }
        return Ok(Layout::new(shape.finish(), stride.finish()));
    }
    if rd.is_tuple() {
        return Err(EvalError::rule(
            "mismatched ranks",
            format!("composition: shape {rs} and stride {rd} of the right operand differ in rank"),
        ));
    }
    // A ScaledBasis rhs stride selects a mode of the lhs.
    if let Basis(b) = rd {
        let path: Vec<usize> = b.modes.iter().rev().copied().collect();
        return lhs.with_tree(|ls, ld| {
            composition_impl(Lhs::Tree(&get_path(ls, &path)?, &get_path(ld, &path)?), rs, &I(b.v), exact)
        });
    }
    let rstride = leaf_int(rd, "composition")?;
    let rshape = leaf_int(rs, "composition")?;
    // Any rhs static stride-0: the rhs itself (every point goes to A(0) = 0: exact).
    if rstride.is_const(0) {
        return Ok(Layout::new(rs.clone(), rd.clone()));
    }
    match lhs {
        // a single mode `s:d` scales the rhs stride; more are read by index
        Lhs::Flat([(_, d)]) => {
            exact.ok = false;
            Ok(Layout::new(rs.clone(), mul_stride(rstride, d)?))
        }
        Lhs::Flat(m) if !m.is_empty() => {
            exact.ok = false;
            compose_modes(m.len(), |k| Ok(m[k].0), |r, k| mul_stride(r, &m[k].1), rshape, rstride, exact, AsLayout)
        }
        // (one mode `s:d`: the rhs's points `rstride * i` in A's domain go to `d * rstride * i`:
        // exact)
        Lhs::Ints([(_, d)]) => Ok(Layout::new(rs.clone(), I(rstride.mul(*d)?))),
        Lhs::Ints(m) if !m.is_empty() => {
            // (strides as integers, made tuples at the end: a list of tuples has drop glue)
            compose_modes(m.len(), |k| Ok(m[k].0), |r, k| r.mul(m[k].1), rshape, rstride, exact, AsLayout)
        }
        _ => {
            exact.ok = false;
            lhs.with_tree(|ls, ld| compose_tree(ls, ld, rs, rshape, rstride))
        }
    }
}

/// `composition_impl` with an integral rhs `rshape:rstride` (`rs`) and an lhs given as trees.
fn compose_tree(ls: &IntTuple, ld: &IntTuple, rs: &IntTuple, rshape: Int, rstride: Int) -> R<Layout> {
    let lsv = match ls.view() {
        // lhs integral shape: scale the rhs stride.
        V::I(_) => return Ok(Layout::new(rs.clone(), arith_mul(&I(rstride), ld)?)),
        V::T(v) => v,
        _ => return Err(EvalError::type_err(format!("composition: bad shape {ls}"))),
    };
    // General case: lhs tuple, rhs integral.
    let r = lsv.len();
    let ldv = ld.kids();
    let lstride: &[IntTuple] = match &ldv {
        Some(v) if r != 0 && v.len() == r => v,
        _ => {
            return Err(EvalError::rule(
                "mismatched ranks",
                format!("composition: shape {ls} and stride {ld} of the left operand differ in rank"),
            ))
        }
    };
    // Checked up front, as CuTe's types are: a non-integer shape fails before any mode is read.
    for x in lsv.iter() {
        leaf_int(x, "composition")?;
    }
    compose_modes(
        r,
        |k| leaf_int(&lsv[k], "composition"),
        |r, k| arith_mul(&I(r), &lstride[k]),
        rshape,
        rstride,
        &mut Exact::no(),
        AsLayout,
    )
}

/// The general case of `composition_impl`: an lhs of `r >= 1` modes (integer shapes
/// `lshape(k)`, strides `lstride(k)`) and an integral rhs `rshape:rstride`. While `exact.ok`
/// holds, it is cleared unless each mode the rhs passes through divides evenly (see below), and
/// the coordinates its result modes take in each lhs mode are placed (`Exact::place`).
///
/// Why that is exact: at mode `i` the rhs's points are `d * j` in units of the shapes before it
/// (`j < n`, the rest of the rhs's shape; `d`, the rest stride, positive): their coordinate in
/// mode `i` is `d * j mod s`. If the mode's shape `s` divides `d`, that is 0, and `d / s` is the
/// stride after it. If `d` divides `s`, the first `q = s / d` values of `j` step through it by
/// `d`; when `n <= q` that is all of them, and when `q` divides `n`, `j = j0 + q * j1` carries
/// `j1` with stride 1 into the modes after it. The last mode takes what is left. So each
/// integral mode of B is composed exactly, and A's coordinates of B's points are the sums of
/// its modes' coordinates; where those sums never reach a mode's shape (`Exact::place`), nothing
/// carries, A adds them up, and `R(i) == A(B(i))` for every `i`, with R of B's shape. (Points
/// beyond A's size are not A's: the last mode needs no bound.)
///
/// The result's shape and stride go to `emit` (`Layout::new`, or pushes straight into the
/// tuples where the result is kept, instead of a layout returned and taken apart).
#[inline]
fn compose_modes<St: Into<IntTuple>, O>(
    r: usize,
    lshape: impl Fn(usize) -> R<Int>,
    scaled_lstride: impl Fn(Int, usize) -> R<St>,
    rshape: Int,
    rstride: Int,
    exact: &mut Exact,
    emit: impl Emit<St, O>,
) -> R<O> {
    // (gathered on the stack: a single mode, the common answer, needs no vector, and the
    // others are allocated once, at their number)
    let mut result_shape: smallvec::SmallVec<[Int; 4]> = smallvec::SmallVec::new();
    let mut result_stride: smallvec::SmallVec<[St; 4]> = smallvec::SmallVec::new();
    let mut rest_shape = rshape;
    let mut rest_stride = rstride;
    exact.ok &= rshape.v >= 1 && rstride.v >= 1;
    for i in 0..r - 1 {
        let curr_shape = lshape(i)?;
        if exact.ok {
            let (s, d, n) = (curr_shape.v, rest_stride.v, rest_shape.v);
            // (`n == 1`: one point left, the origin)
            exact.ok = n == 1 || (s >= 1 && (d % s == 0 || (s % d == 0 && (n <= s / d || n % (s / d) == 0))));
        }
        // Weak divisibility condition: checked only when both are static.
        if curr_shape.s && rest_stride.s {
            if curr_shape.v == 0 {
                return Err(EvalError::div_zero(rest_stride, curr_shape));
            }
            if !(rest_stride.v.wrapping_rem(curr_shape.v) == 0 || rest_stride.v < curr_shape.v) {
                return Err(EvalError::rule(
                    "stride divisibility condition",
                    format!(
                        "the stride {rest_stride} of the right operand neither divides by nor is less than the shape {curr_shape} of the left one"
                    ),
                ));
            }
        }
        let abs_rest = rest_stride.abs()?;
        let next_shape = ceil_div_i(curr_shape, abs_rest)?;
        let next_stride = ceil_div_i(abs_rest, curr_shape)?.mul(signum(rest_stride))?;
        if next_shape.is_const(1) || rest_shape.is_const(1) {
            rest_stride = next_stride;
        } else {
            let new_shape = next_shape.min(rest_shape);
            if new_shape.s && rest_shape.s {
                if new_shape.v == 0 {
                    return Err(EvalError::div_zero(rest_shape, new_shape));
                }
                if rest_shape.v.wrapping_rem(new_shape.v) != 0 {
                    return Err(EvalError::rule(
                        "shape divisibility condition",
                        format!("the shape {rest_shape} of the right operand is not divisible by {new_shape}"),
                    ));
                }
            }
            if exact.ok {
                exact.place(i, rest_stride.v, new_shape.v, curr_shape.v);
            }
            result_shape.push(new_shape);
            result_stride.push(scaled_lstride(rest_stride, i)?);
            rest_shape = rest_shape.div(new_shape)?;
            rest_stride = next_stride;
        }
    }
    if result_shape.is_empty() {
        return Ok(emit.one(rest_shape, scaled_lstride(rest_stride, r - 1)?));
    }
    if !rest_shape.is_const(1) {
        result_shape.push(rest_shape);
        result_stride.push(scaled_lstride(rest_stride, r - 1)?);
    } else if result_shape.len() == 1 {
        if let Some(d) = result_stride.pop() {
            return Ok(emit.one(result_shape[0], d));
        }
    }
    Ok(emit.many(&result_shape, result_stride))
}

/// Where [`compose_modes`] gives its result: one integer mode, or tuples. (A trait rather than
/// a closure taking two tuples: the integer case then reaches the result's tuples without an
/// integer element written out and copied.)
trait Emit<St, O> {
    fn one(self, s: Int, d: St) -> O;
    fn many(self, s: &[Int], d: smallvec::SmallVec<[St; 4]>) -> O;
}

/// The result as a layout.
struct AsLayout;

impl<St: Into<IntTuple>> Emit<St, Layout> for AsLayout {
    #[inline(always)]
    fn one(self, s: Int, d: St) -> Layout {
        Layout::new(I(s), d.into())
    }
    #[inline(always)]
    fn many(self, s: &[Int], d: smallvec::SmallVec<[St; 4]>) -> Layout {
        let d = IntTuple::of_buf(d.into_iter().map(Into::into).collect());
        Layout::new(IntTuple::of_int_iter(s.iter().copied()), d)
    }
}

/// The result pushed onto the shape's and stride's tuples where it is kept.
struct Push<'a>(&'a mut TupleBuilder, &'a mut TupleBuilder);

impl Emit<Int, ()> for Push<'_> {
    #[inline(always)]
    fn one(self, s: Int, d: Int) {
        self.0.push_int(s);
        self.1.push_int(d);
    }
    #[inline(always)]
    fn many(self, s: &[Int], d: smallvec::SmallVec<[Int; 4]>) {
        self.0.push(IntTuple::of_int_iter(s.iter().copied()));
        self.1.push(IntTuple::of_int_iter(d.iter().copied()));
    }
}

/// `r * d` for a flat mode's stride `d`, as `arith_mul` multiplies a leaf (its integer case
/// inlined: a call to `arith_mul` on the leaf cost composition 7% more instructions).
#[inline]
fn mul_stride(r: Int, d: &Stride) -> R<IntTuple> {
    match d {
        Stride::I(x) => Ok(I(r.mul(*x)?)),
        b => arith_mul(&I(r), &b.tuple()),
    }
}

fn has_basis(t: &IntTuple) -> bool {
    if t.flat().is_some() {
        return false;
    }
    match t.view() {
        V::T(v) => v.iter().any(has_basis),
        V::Basis(..) => true,
        _ => false,
    }
}

/// `composition(A, B)` of two layouts, without the after-the-fact law check.
pub fn composition_raw(a: &Layout, b: &Layout) -> R<Layout> {
    composition_exact(a, b).map(|(r, _)| r)
}

/// [`composition_raw`], and whether the result is proved to be `A∘B` by how it was made (then
/// [`check_composition`] would find nothing, and is not run): A a layout of integers with
/// positive shapes (its coalesced modes then have A's function on A's domain); each integral
/// mode of B of stride `_0`, or positive and passing through A's modes evenly, or A a single
/// mode; and B's modes' coordinates in each of A's modes but the last never summing past it
/// (`compose_modes` says why that suffices). Anything else is `false`: not proved, to be
/// checked.
pub fn composition_exact(a: &Layout, b: &Layout) -> R<(Layout, bool)> {
    // coalesce_x(lhs, coprofile(rhs)): for integer strides the coprofile is `_0`.
    if has_basis(&b.stride) {
        let flat = coalesce_x_profile(a, &coprofile(b)?)?;
        let r = composition_impl(Lhs::Tree(&flat.shape, &flat.stride), &b.shape, &b.stride, &mut Exact::no())?;
        return Ok((r, false));
    }
    let mut ints = IntModes::new();
    if let Some(positive) = coalesce_x_int_into(a, &mut ints)? {
        let mut exact = Exact::proving(positive);
        let r = composition_impl(Lhs::Ints(&ints), &b.shape, &b.stride, &mut exact)?;
        return Ok((r, exact.ok));
    }
    let mut modes = Modes::new();
    coalesce_x_into(a, &mut modes)?;
    let r = composition_impl(Lhs::Flat(&modes), &b.shape, &b.stride, &mut Exact::no())?;
    Ok((r, false))
}

/// Largest domain on which the law `R(i) == A(B(i))` is checked after a composition.
pub const CHECK_LIMIT: i64 = 1 << 16;

/// The offsets the law checks compute with: `i64` first, with checked arithmetic; when that
/// overflows the check runs again in `i128` (same answer, slower). No hashing anywhere: a law
/// check costs O(n) (O(n log n) for injectivity) for a domain of n <= `CHECK_LIMIT` points.
pub trait Off: Copy + PartialOrd + std::fmt::Display {
    fn of(v: i64) -> Self;
    fn add(self, o: Self) -> Option<Self>;
    fn sub(self, o: Self) -> Option<Self>;
    fn mul(self, o: Self) -> Option<Self>;
    /// `self % o` and `self / o` for `o > 0`.
    fn rem(self, o: Self) -> Option<Self>;
    fn div(self, o: Self) -> Option<Self>;
    /// As an i64, if it is one.
    fn to_i64(self) -> Option<i64>;
}

macro_rules! off_impl {
    ($t:ty) => {
        impl Off for $t {
            fn of(v: i64) -> Self {
                v as $t
            }
            fn add(self, o: Self) -> Option<Self> {
                self.checked_add(o)
            }
            fn sub(self, o: Self) -> Option<Self> {
                self.checked_sub(o)
            }
            fn mul(self, o: Self) -> Option<Self> {
                self.checked_mul(o)
            }
            fn rem(self, o: Self) -> Option<Self> {
                self.checked_rem(o)
            }
            fn div(self, o: Self) -> Option<Self> {
                self.checked_div(o)
            }
            fn to_i64(self) -> Option<i64> {
                i64::try_from(self).ok()
            }
        }
    };
}
off_impl!(i64);
off_impl!(i128);

/// What a law check found.
pub(crate) enum Law {
    Holds,
    /// The warning to record.
    Fails(String),
    /// An offset does not fit in the integer type: check again with a wider one.
    Overflow,
}

/// A law's warning, written without the formatting machinery: `format!` of its four layouts
/// cost about 3,900 instructions, ten times what finding the failure costs (8% of
/// `logical_product`'s engine instructions on its benchmark, where one call in 23 warns).
pub(crate) struct Msg(Vec<u8>);

impl Msg {
    pub(crate) fn new() -> Self {
        Msg(Vec::with_capacity(256))
    }
    /// Text.
    pub(crate) fn s(mut self, t: &str) -> Self {
        self.0.extend_from_slice(t.as_bytes());
        self
    }
    /// An integer, as `Display` writes it.
    pub(crate) fn n<O: Off>(mut self, x: O) -> Self {
        match x.to_i64() {
            Some(v) => self.0.extend_from_slice(crate::eval::int::decimal_bytes(v, &mut [0; 20])),
            None => {
                let _ = std::io::Write::write_fmt(&mut self.0, format_args!("{x}"));
            }
        }
        self
    }
    /// A layout, as `Display` writes it.
    pub(crate) fn l(mut self, l: &Layout) -> Self {
        IntTuple::write_layout_bytes(&l.shape, &l.stride, &mut self.0);
        self
    }
    pub(crate) fn done(self) -> String {
        // (only `str`s and ASCII were written)
        String::from_utf8(self.0).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// Run a law check in i64, and again in i128 when i64 overflows; record the warning, if any.
pub(crate) fn check_law(f64: impl FnOnce() -> Law, f128: impl FnOnce() -> Law) {
    let law = match f64() {
        Law::Overflow => f128(),
        l => l,
    };
    if let Law::Fails(m) = law {
        warn(m);
    }
}

/// A layout's flat integer modes, inline up to 6 (no allocation per law check for most; 8 made
/// each move a call to `memcpy`: 0.5-1.7% more instructions in every checked operation).
pub(crate) type FlatModes<O> = smallvec::SmallVec<[(O, O); 6]>;

/// Flat integer modes of a layout for fast evaluation inside its domain (`None` with ScaledBasis
/// strides or non-positive shapes).
pub(crate) fn flat_modes_of<O: Off>(l: &Layout) -> Option<FlatModes<O>> {
    // Shape and stride of the same form (nearly always): one walk over both.
    let mut out = FlatModes::new();
    let same = same_form_leaves(&l.shape, &l.stride, &mut |a, d| match d {
        I(b) if a.v > 0 => {
            out.push((O::of(a.v), O::of(b.v)));
            Some(())
        }
        _ => None,
    });
    if same.is_some() && !out.is_empty() {
        return Some(out);
    }
    let (mut s, mut d) = (Leaves::new(), Leaves::new());
    leaf_refs(&l.shape, &mut s);
    leaf_refs(&l.stride, &mut d);
    if s.len() != d.len() || s.is_empty() {
        return None;
    }
    s.iter()
        .zip(&d)
        .map(|(a, b)| match (&**a, &**b) {
            (I(a), I(b)) if a.v > 0 => Some((O::of(a.v), O::of(b.v))),
            _ => None,
        })
        .collect()
}

/// `L(i)` for `0 <= i < size(L)` on flat modes (inside the domain every nesting agrees);
/// `None` on overflow.
pub(crate) fn eval_flat<O: Off>(m: &[(O, O)], i: O) -> Option<O> {
    eval_flat_at(m, i, |_, _, _| ()).ok()
}

/// `L(i)` on flat modes with positive shapes: the colexicographic coordinate of `i` (the last
/// mode takes what is left, as in CuTe) dotted with the strides; on overflow, `overflow(op, a,
/// b)` of the operation `a op b` that overflowed.
pub fn eval_flat_at<O: Off, E>(m: &[(O, O)], mut i: O, overflow: impl Fn(&'static str, O, O) -> E) -> Result<O, E> {
    let mut acc = O::of(0);
    let n = m.len();
    for (k, &(s, d)) in m.iter().enumerate() {
        if k + 1 == n {
            let p = i.mul(d).ok_or_else(|| overflow("*", i, d))?;
            acc = acc.add(p).ok_or_else(|| overflow("+", acc, p))?;
        } else {
            let c = i.rem(s).ok_or_else(|| overflow("%", i, s))?;
            let p = c.mul(d).ok_or_else(|| overflow("*", c, d))?;
            acc = acc.add(p).ok_or_else(|| overflow("+", acc, p))?;
            i = i.div(s).ok_or_else(|| overflow("/", i, s))?;
        }
    }
    Ok(acc)
}

/// `L(i)` by CuTe's `crd2idx` rule for an integer coordinate (`i % size(mode)` into each mode
/// but the last, which takes the rest; C++ truncating division), for the layouts `eval_flat`
/// leaves out (a shape that is not positive, as in some answers CuTe gives); `None` on overflow,
/// a zero size or a stride that is not an integer.
pub(crate) fn eval_tree(s: &IntTuple, d: &IntTuple, i: i64) -> Option<i64> {
    fn size(s: &IntTuple) -> Option<i64> {
        match s.view() {
            V::I(v) => Some(v.v),
            V::T(v) => v.iter().try_fold(1i64, |acc, x| acc.checked_mul(size(x)?)),
            _ => None,
        }
    }
    match (s.view(), d.view()) {
        (V::I(_), V::I(d)) => i.checked_mul(d.v),
        (V::T(ss), V::T(ds)) if ss.len() == ds.len() && !ss.is_empty() => {
            let (mut acc, mut i) = (0i64, i);
            for k in 0..ss.len() {
                let v = if k + 1 == ss.len() {
                    eval_tree(&ss[k], &ds[k], i)?
                } else {
                    let p = size(&ss[k])?;
                    let v = eval_tree(&ss[k], &ds[k], i.checked_rem(p)?)?;
                    i = i.checked_div(p)?;
                    v
                };
                acc = acc.checked_add(v)?;
            }
            Some(acc)
        }
        _ => None,
    }
}

/// Colexicographic walk over a layout's domain, giving `L(0), L(1), ...` without divisions.
pub(crate) struct Odometer<'a, O> {
    m: &'a [(O, O)],
    coord: smallvec::SmallVec<[O; 16]>,
    pub(crate) off: O,
}

impl<'a, O: Off> Odometer<'a, O> {
    pub(crate) fn new(m: &'a [(O, O)]) -> Odometer<'a, O> {
        Odometer { m, coord: smallvec::smallvec![O::of(0); m.len()], off: O::of(0) }
    }
    /// The next point; `None` on overflow.
    #[inline]
    pub(crate) fn advance(&mut self) -> Option<()> {
        let (m, coord) = (self.m, self.coord.as_mut_slice());
        let n = m.len();
        for k in 0..n {
            let (s, d) = m[k];
            coord[k] = coord[k].add(O::of(1))?;
            self.off = self.off.add(d)?;
            if coord[k] < s || k + 1 == n {
                return Some(());
            }
            self.off = self.off.sub(d.mul(s)?)?;
            coord[k] = O::of(0);
        }
        Some(())
    }
}

/// Check `r(i) == a(b(i))` for `0 <= i < size(b)` with `0 <= b(i) < size(a)` (domains of at
/// most `CHECK_LIMIT` points), and that r has b's shape (`compatible`); record a warning at the
/// first failure. `what` names the operation.
pub fn check_composition(a: &Layout, b: &Layout, r: &Layout, what: &str) {
    // The usual case, in one walk: R has B's form, and the law is proved from the modes.
    if proved_by_form(a, b, r) {
        return;
    }
    if let Ok(c) = crate::eval::ops::tuple::compatible(&b.shape, &r.shape) {
        if c.v == 0 {
            let (nb, nr) = (size_of(b), size_of(r));
            let why = match (nb, nr) {
                (Some(x), Some(y)) if x != y => format!("has size {y} but B = {b} has size {x}"),
                _ => format!("does not have the shape of B = {b}"),
            };
            warn(format!("{what} is not A∘B: the result {r} {why} (A = {a})"));
            return;
        }
    }
    check_law(|| composition_law::<i64>(a, b, r, what), || composition_law::<i128>(a, b, r, what));
}

/// True when `r` is `compatible` with `b` and `r(i) == a(b(i))` is proved by
/// [`digits::holds`], read in one walk of B and R together: each leaf `m:e` of B (positive
/// integers) stands over a subtree of R (positive integer shapes, integer strides, the same
/// form) of size `m`, whose flat modes are the steps under that leaf. `false` settles nothing:
/// the full check runs then.
fn proved_by_form(a: &Layout, b: &Layout, r: &Layout) -> bool {
    let Some(fa) = flat_modes_of::<i64>(a) else { return false };
    let mut steps: smallvec::SmallVec<[(i64, i64, i64); 8]> = smallvec::SmallVec::new();
    let formed = match flat_steps(b, r, &mut steps) {
        Some(done) => done,
        None => form_steps(&b.shape, &b.stride, &r.shape, &r.stride, &mut steps).is_some(),
    };
    formed && digits::holds(&fa, false, steps.iter().copied())
}

/// [`form_steps`] where B and R are flat tuples of integers of one length (most compositions):
/// each mode `m:e` of B over R's mode `rho:tau` is the step `(e, rho, tau)`, with `rho == m`;
/// `Some(false)` where that fails (as `form_steps` fails), `None` for other forms (`steps`
/// untouched).
fn flat_steps(b: &Layout, r: &Layout, steps: &mut smallvec::SmallVec<[(i64, i64, i64); 8]>) -> Option<bool> {
    let (Some(bs), Some(bd), Some(rs), Some(rd)) = (b.shape.kids(), b.stride.kids(), r.shape.kids(), r.stride.kids())
    else {
        return None;
    };
    let n = bs.len();
    if bd.len() != n || rs.len() != n || rd.len() != n {
        return None;
    }
    for k in 0..n {
        let (I(m), I(e), I(rho), I(tau)) = (&bs[k], &bd[k], &rs[k], &rd[k]) else {
            steps.clear();
            return None;
        };
        if !(m.v > 0 && rho.v > 0 && rho.v == m.v) {
            return Some(false);
        }
        steps.push((e.v, rho.v, tau.v));
    }
    Some(true)
}

/// The steps of [`proved_by_form`] under B's (sub)layout `bs:bd` and R's `rs:rd`.
fn form_steps(
    bs: &IntTuple,
    bd: &IntTuple,
    rs: &IntTuple,
    rd: &IntTuple,
    steps: &mut smallvec::SmallVec<[(i64, i64, i64); 8]>,
) -> Option<()> {
    match (bs.view(), bd.view()) {
        (V::I(m), V::I(e)) if m.v > 0 => {
            // the part of B's coordinate that R's modes so far cover
            let mut covered = 1i64;
            same_form_leaves(rs, rd, &mut |rho, tau| match tau {
                I(tau) if rho.v > 0 => {
                    steps.push((e.v.checked_mul(covered)?, rho.v, tau.v));
                    covered = covered.checked_mul(rho.v)?;
                    Some(())
                }
                _ => None,
            })?;
            (covered == m.v).then_some(())
        }
        (V::T(bs), V::T(bd)) if bs.len() == bd.len() => match (rs.kids(), rd.kids()) {
            (Some(rs), Some(rd)) if rs.len() == bs.len() && rd.len() == bs.len() => {
                for k in 0..bs.len() {
                    form_steps(&bs[k], &bd[k], &rs[k], &rd[k], steps)?;
                }
                Some(())
            }
            _ => None,
        },
        _ => None,
    }
}

/// The product of flat modes' shapes (the layout's size), `None` beyond i64.
fn size_of_modes<O: Off>(m: &[(O, O)]) -> Option<i64> {
    m.iter().try_fold(1i64, |n, &(s, _)| n.checked_mul(s.to_i64()?))
}

fn composition_law<O: Off>(a: &Layout, b: &Layout, r: &Layout, what: &str) -> Law {
    let (Some(fa), Some(fb), Some(fr)) = (flat_modes_of::<O>(a), flat_modes_of::<O>(b), flat_modes_of::<O>(r)) else {
        return Law::Holds;
    };
    // the sizes of B and A (their shapes are positive integers here)
    let (Some(n), Some(na)) = (size_of_modes(&fb), size_of_modes(&fa)) else { return Law::Holds };
    // (the usual case was proved from the modes before: `proved_by_form`)
    if n > CHECK_LIMIT {
        return Law::Holds;
    }
    let (mut ob, mut or) = (Odometer::new(&fb), Odometer::new(&fr));
    let (zero, na) = (O::of(0), O::of(na));
    for i in 0..n {
        if i > 0 && (ob.advance().is_none() || or.advance().is_none()) {
            return Law::Overflow;
        }
        let (bi, ri) = (ob.off, or.off);
        // A(B(i)) is only meaningful where B(i) lies in A's domain
        if !(bi >= zero && bi < na) {
            continue;
        }
        let Some(abi) = eval_flat(&fa, bi) else { return Law::Overflow };
        if abi != ri {
            let m = Msg::new()
                .s(what)
                .s(" is not A∘B at index ")
                .n(O::of(i))
                .s(": A(B(")
                .n(O::of(i))
                .s(")) = A(")
                .n(bi)
                .s(") = ")
                .n(abi)
                .s(", but the result ")
                .l(r)
                .s(" gives ")
                .n(ri)
                .s(" (A = ")
                .l(a)
                .s(", B = ")
                .l(b)
                .s(")")
                .done();
            return Law::Fails(m);
        }
    }
    Law::Holds
}

/// [`composition_exact`] of A with the rank-2 layout `(t, c)`, without making it
/// (`logical_divide`'s composition: the tile and its complement), as a `V`; `check` sees the
/// answer first where its exactness was not proved. `a_ints`: `coalesce_x(A)` as integer modes
/// and whether A's shapes are all positive, where the caller has them already. (Inlined, and
/// the answer made where it is returned: a result returned and then moved is copied, and the
/// copy waits for the stores just made.)
#[inline(always)]
pub fn composition_pair_to<V: From<Layout>>(
    a: &Layout,
    a_ints: Option<(&[(Int, Int)], bool)>,
    t: &Layout,
    c: &Layout,
    check: impl FnOnce(&Layout),
) -> R<V> {
    if !has_basis(&t.stride) && !has_basis(&c.stride) {
        if let Some((ints, positive)) = a_ints {
            return pair_on_ints(ints, positive, t, c, check);
        }
        let mut ints = IntModes::new();
        if let Some(positive) = coalesce_x_int_into(a, &mut ints)? {
            return pair_on_ints(&ints, positive, t, c, check);
        }
    }
    let (r, exact) = composition_exact(a, &concat2(t.clone(), c.clone()))?;
    if !exact {
        check(&r);
    }
    Ok(V::from(r))
}

/// The composition of the two end parts of [`composition_pair_to`] on A's coalesced
/// integer modes: as composition_impl takes a rank-2 rhs, mode by mode, side by side.
/// (Each part's result goes straight into the pair's tuples: returned and then taken apart,
/// it was copied, and the copy waited for the stores just made.)
#[inline(always)]
fn pair_on_ints<V: From<Layout>>(
    ints: &[(Int, Int)],
    positive: bool,
    t: &Layout,
    c: &Layout,
    check: impl FnOnce(&Layout),
) -> R<V> {
    let mut exact = Exact::proving(positive);
    let (mut shape, mut stride) = (TupleBuilder::with_capacity(2), TupleBuilder::with_capacity(2));
    compose_ints_into(ints, &t.shape, &t.stride, &mut exact, &mut shape, &mut stride)?;
    compose_ints_into(ints, &c.shape, &c.stride, &mut exact, &mut shape, &mut stride)?;
    if exact.ok {
        return Ok(V::from(Layout::new(shape.finish(), stride.finish())));
    }
    let r = Layout::new(shape.finish(), stride.finish());
    check(&r);
    Ok(V::from(r))
}

/// [`composition`] as a `V` (a `Value` for the built-in). Where B is a flat tuple of integer
/// modes and A's coalesced modes are integers (most calls), the modes' compositions go
/// straight into the result's tuples and the result is made where it is returned: a layout
/// returned and then taken apart (or moved into a value) is copied, and the copy's loads wait
/// for the stores just made.
/// Its errors are marked as argument `arg`'s ([`EvalError::at_arg`]) where they are made.
#[inline]
pub fn composition_to<V: From<Layout>>(a: &Layout, b: &Layout, arg: usize) -> R<V> {
    let mut bm = BModes::new();
    if flat_int_modes(b, &mut bm) {
        return composition_of_flat(a, b, &bm, arg);
    }
    composition(a, b).map(V::from).map_err(|e| e.at_arg(arg))
}

/// The shape's and stride's modes of `b` where it is a flat tuple of (at least one) integer
/// modes.
#[inline]
pub(crate) fn flat_int_modes(b: &Layout, out: &mut BModes) -> bool {
    // (a tuple of at most `FLAT` integers is an inline one: read without a view)
    if let (Some(s), Some(d)) = (b.shape.flat(), b.stride.flat()) {
        if s.n == 0 || s.n != d.n {
            return false;
        }
        for k in 0..s.n {
            out.push((s.int(k), d.int(k)));
        }
        return true;
    }
    match (b.shape.kids(), b.stride.kids()) {
        (Some(bs), Some(bd)) if !bs.is_empty() && bs.len() == bd.len() => {
            for (x, y) in bs.iter().zip(bd.iter()) {
                let (I(s), I(d)) = (x, y) else {
                    out.clear();
                    return false;
                };
                out.push((*s, *d));
            }
            true
        }
        _ => false,
    }
}

/// B's modes where it is a flat tuple of integer modes ([`flat_int_modes`]).
pub(crate) type BModes = smallvec::SmallVec<[(Int, Int); 4]>;

/// [`composition_to`] for B a flat tuple of integer modes `bs:bd`, by [`compose_flat`].
#[inline(never)]
fn composition_of_flat<V: From<Layout>>(a: &Layout, b: &Layout, bm: &[(Int, Int)], arg: usize) -> R<V> {
    // (the steps inlined here, so that the answer is not copied on its way out)
    compose_flat(a, b, bm, "composition").map_err(|e| e.at_arg(arg))
}

/// [`composition_impl`] of A's coalesced integer modes `m` with the rhs `rs:rd`, its result's
/// shape and stride pushed onto `shape` and `stride` (where a rank-2 or tuple result is kept)
/// instead of returned as a layout to be taken apart: the same steps, an integer mode through
/// [`compose_modes`], a tuple mode by mode.
fn compose_ints_into(
    m: &[(Int, Int)],
    rs: &IntTuple,
    rd: &IntTuple,
    exact: &mut Exact,
    shape: &mut TupleBuilder,
    stride: &mut TupleBuilder,
) -> R<()> {
    // (a flat rhs of integers, the commonest tuple: its modes read without a view)
    if let (Some(fs), Some(fd), false) = (rs.flat(), rd.flat(), m.is_empty()) {
        if fs.n > 0 && fs.n == fd.n {
            let (mut s, mut d) = (TupleBuilder::with_capacity(fs.n), TupleBuilder::with_capacity(fs.n));
            for k in 0..fs.n {
                compose_int_into(m, fs.int(k), fd.int(k), exact, &mut s, &mut d)?;
            }
            shape.push(s.finish());
            stride.push(d.finish());
            return Ok(());
        }
    }
    match (rs, rd, m) {
        (I(rshape), I(rstride), [_, ..]) => compose_int_into(m, *rshape, *rstride, exact, shape, stride)?,
        (I(_), I(rstride), []) if rstride.is_const(0) => {
            shape.push(rs.clone());
            stride.push(rd.clone());
        }
        _ => {
            if let (Some(rsv), Some(rdv)) = (rs.kids(), rd.kids()) {
                if !rsv.is_empty() && rsv.len() == rdv.len() {
                    let (mut s, mut d) =
                        (TupleBuilder::with_capacity(rsv.len()), TupleBuilder::with_capacity(rsv.len()));
                    for (x, y) in rsv.iter().zip(rdv.iter()) {
                        compose_ints_into(m, x, y, exact, &mut s, &mut d)?;
                    }
                    shape.push(s.finish());
                    stride.push(d.finish());
                    return Ok(());
                }
            }
            let r = composition_impl(Lhs::Ints(m), rs, rd, exact)?;
            shape.push(r.shape);
            stride.push(r.stride);
        }
    }
    Ok(())
}

/// [`compose_ints_into`] for an integer rhs mode `rshape:rstride` and `m` not empty.
#[inline(always)]
fn compose_int_into(
    m: &[(Int, Int)],
    rshape: Int,
    rstride: Int,
    exact: &mut Exact,
    shape: &mut TupleBuilder,
    stride: &mut TupleBuilder,
) -> R<()> {
    match m {
        // (the rhs mode itself)
        _ if rstride.is_const(0) => {
            shape.push(I(rshape));
            stride.push(I(rstride));
        }
        [(_, d0)] => {
            shape.push(I(rshape));
            stride.push(I(rstride.mul(*d0)?));
        }
        _ => {
            let scaled = |r: Int, k: usize| r.mul(m[k].1);
            compose_modes(m.len(), |k| Ok(m[k].0), scaled, rshape, rstride, exact, Push(shape, stride))?;
        }
    }
    Ok(())
}

/// `A o B` with its law checked where not proved (the warning names `what`), for B a flat tuple
/// of integer modes `bs:bd` ([`flat_int_modes`]): [`composition_exact`]'s steps (B's strides are
/// integers: no ScaledBasis), each mode of B through [`composition_impl`]'s integer cases
/// straight into the result's tuples where A's coalesced modes are integers. Inlined where it
/// is used, so that the result is not copied on its way out.
#[inline(always)]
pub(crate) fn compose_flat<V: From<Layout>>(a: &Layout, b: &Layout, bm: &[(Int, Int)], what: &str) -> R<V> {
    let mut ints = IntModes::new();
    let Some(positive) = coalesce_x_int_into(a, &mut ints)? else {
        let (r, exact) = composition_exact(a, b)?;
        if !exact {
            check_composition(a, b, &r, what);
        }
        return Ok(V::from(r));
    };
    let mut exact = Exact::proving(positive);
    let (mut shape, mut stride) = (TupleBuilder::with_capacity(bm.len()), TupleBuilder::with_capacity(bm.len()));
    for &(s, d) in bm {
        if ints.is_empty() {
            // (as `compose_ints_into` takes an empty `m`)
            compose_ints_into(&ints, &I(s), &I(d), &mut exact, &mut shape, &mut stride)?;
        } else {
            compose_int_into(&ints, s, d, &mut exact, &mut shape, &mut stride)?;
        }
    }
    if exact.ok {
        // (proved: the answer made where it is returned, not kept for the check and copied)
        return Ok(V::from(Layout::new(shape.finish(), stride.finish())));
    }
    let r = Layout::new(shape.finish(), stride.finish());
    check_composition(a, b, &r, what);
    Ok(V::from(r))
}

/// `composition(A, B)`: the layout `i -> A(B(i))` with B's shape (CuTe's algorithm, exactly).
/// Records a warning when CuTe's answer is not `A(B(i))` (dynamic operands skip CuTe's checks).
pub fn composition(a: &Layout, b: &Layout) -> R<Layout> {
    let (r, exact) = composition_exact(a, b)?;
    if !exact {
        check_composition(a, b, &r, "composition");
    }
    Ok(r)
}

/// `composition(A, tiler)` without warnings: by-mode for a tuple tiler (modes of A not hit are
/// dropped), A itself for `_`, `A o n:_1` for an integer.
pub fn composition_tiler_raw(a: &Layout, t: &Tiler) -> R<Layout> {
    composition_tiler_impl(a, t, false)
}

/// `composition(A, tiler)` (`A o <...>`, `A o (s0,s1)`, `A o n`, `A o _`), with the law check.
pub fn composition_tiler(a: &Layout, t: &Tiler) -> R<Layout> {
    composition_tiler_impl(a, t, true)
}

fn composition_tiler_impl(a: &Layout, t: &Tiler, check: bool) -> R<Layout> {
    match t {
        Tiler::Tuple(ts) => {
            if ts.len() > lrank(a) {
                return Err(EvalError::rule(
                    "static assertion failed",
                    format!("composition: the tiler has {} modes but the layout {a} has rank {}", ts.len(), lrank(a)),
                ));
            }
            let mut modes = Vec::with_capacity(ts.len());
            for (k, tk) in ts.iter().enumerate() {
                modes.push(composition_tiler_impl(&lmode(a, k)?, tk, check)?);
            }
            if modes.is_empty() {
                return Err(EvalError::rule("static assertion failed", "composition with an empty tiler"));
            }
            Ok(concat(modes))
        }
        Tiler::Under => Ok(a.clone()),
        Tiler::Int(n) => {
            let mut modes = Modes::new();
            coalesce_x_into(a, &mut modes)?;
            let r = composition_impl(Lhs::Flat(&modes), &I(*n), &I(st(1)), &mut Exact::no())?;
            if check {
                check_composition(a, &Layout::new(I(*n), I(st(1))), &r, "composition");
            }
            Ok(r)
        }
        Tiler::Layout(b) => {
            if check {
                composition(a, b)
            } else {
                composition_raw(a, b)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{composition, composition_impl, composition_of_flat, pair_on_ints, Exact, Lhs};
    use crate::eval::error::{take_warnings, R};
    use crate::eval::int::Int;
    use crate::eval::int_tuple::{
        IntTuple::{self, I},
        T,
    };
    use crate::eval::layout::Layout;
    use crate::eval::ops::algebra::testing::{shown, Rng};

    /// The warnings' byte writer writes what `Display` writes: integers of both signs and
    /// beyond i64 (the law checks' i128), layouts with static, dynamic, `_` and ScaledBasis
    /// entries, nested or not.
    #[test]
    fn msg_writes_what_display_writes() {
        let nums: [i128; 8] = [0, 7, -7, 42, -1234, i64::MAX as i128, i64::MIN as i128, i128::MAX];
        for x in nums {
            assert_eq!(super::Msg::new().n(x).done(), x.to_string());
        }
        assert_eq!(super::Msg::new().n(-99i64).s(" ∘ ").n(3i64).done(), "-99 ∘ 3");
        let layouts = [
            Layout::new(I(Int::new(4, true)), I(Int::new(-2, false))),
            Layout::new(
                T(vec![I(Int::new(2, true)), T(vec![I(Int::new(3, false)), IntTuple::Under])]),
                T(vec![IntTuple::basis(Int::new(1, true), [1]), T(vec![I(Int::new(12, true)), I(Int::new(0, true))])]),
            ),
            Layout::new(T(vec![]), T(vec![])),
        ];
        for l in &layouts {
            assert_eq!(super::Msg::new().l(l).done(), l.to_string());
        }
    }

    /// `composition_of_flat` (B's modes composed straight into the result) is `composition`
    /// (each mode's layout made, then gathered): answers, errors and law warnings alike, for
    /// 300,000 pseudo-random pairs of flat layouts of static and dynamic integers around the
    /// special values (A of one to three modes, B of one to three).
    #[test]
    fn flat_rhs_composed_in_place_is_composition() {
        let vals = [-2i64, 0, 1, 2, 3, 4, 6, 8, 16, 1 << 40, i64::MAX];
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let int = |g: &mut Rng| Int::new(vals[g.below(vals.len())], g.below(4) != 0);
        let flat = |g: &mut Rng| {
            let r = 1 + g.below(3);
            let s: Vec<IntTuple> = (0..r).map(|_| I(int(g))).collect();
            let d: Vec<IntTuple> = (0..r).map(|_| I(int(g))).collect();
            (s, d)
        };
        for _ in 0..300_000 {
            let (as_, ad) = flat(&mut rng);
            let a = if as_.len() == 1 && rng.below(2) == 0 {
                Layout::new(as_[0].clone(), ad[0].clone())
            } else {
                Layout::new(T(as_), T(ad))
            };
            let (bs, bd) = flat(&mut rng);
            let b = Layout::new(T(bs.clone()), T(bd.clone()));
            let bm: Vec<(Int, Int)> =
                bs.iter().zip(&bd).map(|(s, d)| (s.as_int().unwrap(), d.as_int().unwrap())).collect();
            let fast = shown(composition_of_flat::<Layout>(&a, &b, &bm, 1));
            let general = shown(composition(&a, &b).map_err(|e| e.at_arg(1)));
            assert_eq!(fast, general, "composition({a}, {b})");
        }
    }

    /// `pair_on_ints` (both parts composed straight into the pair's tuples) is the two parts'
    /// `composition_impl` layouts put side by side, with the same proof of exactness: answers
    /// and errors alike, for 300,000 pseudo-random A of integer modes and parts of one integer
    /// mode, a flat tuple or a tuple with a nested mode.
    #[test]
    fn pair_composed_in_place_is_the_parts_side_by_side() {
        let vals = [-2i64, 0, 1, 2, 3, 4, 8, 16, 1 << 40, i64::MAX];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let int = |g: &mut Rng| Int::new(vals[g.below(vals.len())], g.below(4) != 0);
        let part = |g: &mut Rng| -> Layout {
            match g.below(3) {
                0 => Layout::new(I(int(g)), I(int(g))),
                k => {
                    let r = 1 + g.below(3);
                    let mut s: Vec<IntTuple> = (0..r).map(|_| I(int(g))).collect();
                    let mut d: Vec<IntTuple> = (0..r).map(|_| I(int(g))).collect();
                    if k == 2 {
                        s.push(T(vec![I(int(g)), I(int(g))]));
                        d.push(T(vec![I(int(g)), I(int(g))]));
                    }
                    Layout::new(T(s), T(d))
                }
            }
        };
        let show = |r: R<(Layout, bool)>| match r {
            Ok((l, e)) => format!("{l} {e}"),
            Err(e) => format!("error: {e}"),
        };
        for _ in 0..300_000 {
            let ints: Vec<(Int, Int)> = (0..1 + rng.below(3)).map(|_| (int(&mut rng), int(&mut rng))).collect();
            let positive = rng.below(2) == 0;
            let (t, c) = (part(&mut rng), part(&mut rng));
            let mut proved = true;
            let fast = show(pair_on_ints::<Layout>(&ints, positive, &t, &c, |_| proved = false).map(|r| (r, proved)));
            let parts = show((|| {
                let mut exact = Exact::proving(positive);
                let rt = composition_impl(Lhs::Ints(&ints), &t.shape, &t.stride, &mut exact)?;
                let rc = composition_impl(Lhs::Ints(&ints), &c.shape, &c.stride, &mut exact)?;
                Ok((crate::eval::ops::algebra::util::concat2(rt, rc), exact.ok))
            })());
            assert_eq!(fast, parts, "{ints:?} with ({t}, {c})");
        }
        take_warnings();
    }
}
