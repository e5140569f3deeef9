//! Small helpers specific to the algebra: scalar CuTe arithmetic on `Int` (ceil_div, signum),
//! a layout as flat `(shape, stride)` pairs, `get<i>` / concatenation of layouts, CuTe's
//! exchange sort, and a fast evaluator used to check laws (`R(i) == A(B(i))`) after the fact.
//! The IntTuple and structure functions themselves come from `ops::tuple` / `ops::structure`.

use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::Scaled;
use crate::eval::int_tuple::{
    IntTuple::{self, Basis, Under, I},
    T, V,
};
use crate::eval::layout::Layout;
use std::borrow::Cow;

/// CuTe's scalar `ceil_div(a, b) = (a + b - _1) / b`, static only if both are.
#[inline]
pub fn ceil_div_i(a: Int, b: Int) -> R<Int> {
    a.add(b)?.sub(st(1))?.div(b)
}

/// CuTe's `signum`: static for a static argument.
pub fn signum(a: Int) -> Int {
    Int::new(a.v.signum(), a.s)
}

/// The integer at a leaf, or a type error naming what the algebra cannot handle.
#[inline]
pub fn leaf_int(t: &IntTuple, what: &str) -> R<Int> {
    match t {
        I(i) => Ok(*i),
        _ => Err(not_int(t, what)),
    }
}

/// The integer stride of a flat mode, or [`leaf_int`]'s error for a ScaledBasis stride.
#[inline]
pub fn stride_int(d: &Stride, what: &str) -> R<Int> {
    match d {
        Stride::I(x) => Ok(*x),
        b => Err(not_int(&b.tuple(), what)),
    }
}

/// CuTe's refusal where `transform_layout` is left with no modes: it calls `make_layout()` with
/// none, which does not compile (`detail` says what was asked).
#[cold]
pub fn make_layout_of_no_modes(detail: String) -> EvalError {
    EvalError::rule("no matching function make_layout()", detail)
}

/// [`leaf_int`]'s error (apart: the integer case is inlined where it is asked).
#[cold]
fn not_int(t: &IntTuple, what: &str) -> EvalError {
    match t {
        Under => EvalError::type_err(format!("{what}: `_` is not an integer here")),
        Basis(..) => {
            EvalError::type_err(format!("{what}: ScaledBasis strides ({t}) are not supported by this operation"))
        }
        _ => EvalError::type_err(format!("{what}: expected an integer, got the tuple {t}")),
    }
}

/// Flat leaves of shape and stride, paired (CuTe flattens both separately and indexes them
/// together, so they need the same number of leaves, not the same nesting). Shapes must be
/// integers; strides may be integers or ScaledBasis elements (identity layouts). Pushed onto
/// `out` (empty): filled in place, not copied on the way back.
pub fn flat_modes_into(l: &Layout, what: &str, out: &mut Modes) -> R<()> {
    // Shape and stride of the same form (nearly always): one walk over both.
    if congruent_into(l, out) {
        return Ok(());
    }
    // Leaves by reference: no clone of the trees, no allocation for up to 16 leaves.
    let (mut s, mut d) = (Leaves::new(), Leaves::new());
    leaf_refs(&l.shape, &mut s);
    leaf_refs(&l.stride, &mut d);
    if s.len() != d.len() {
        return Err(EvalError::rule(
            "mismatched ranks",
            format!("{what}: shape {} and stride {} have different numbers of modes", l.shape, l.stride),
        ));
    }
    for (a, b) in s.iter().zip(d) {
        match Stride::of(&b) {
            Some(x) => out.push((leaf_int(a, what)?, x)),
            None => return Err(EvalError::type_err(format!("{what}: bad stride {b}"))),
        }
    }
    Ok(())
}

/// Walk the leaves of a shape and a stride of the same form together, `leaf(shape, stride)` at
/// each (the shape's leaf an integer); `None` where the forms differ, a shape leaf is not an
/// integer, or `leaf` says so.
pub fn same_form_leaves(s: &IntTuple, d: &IntTuple, leaf: &mut impl FnMut(Int, &IntTuple) -> Option<()>) -> Option<()> {
    match (s.view(), d.kids()) {
        (V::I(a), _) => leaf(*a, d),
        (V::T(a), Some(b)) if a.len() == b.len() => {
            for (x, y) in a.iter().zip(b.iter()) {
                // (an integer shape is a leaf: taken here, without a call; most are)
                match x {
                    I(v) => leaf(*v, y)?,
                    _ => same_form_leaves(x, y, leaf)?,
                }
            }
            Some(())
        }
        _ => None,
    }
}

/// The flat modes of a layout whose shape and stride have the same form, leaf for leaf, with
/// integer shapes and integer or ScaledBasis strides (nearly every layout); `None` otherwise,
/// and for the empty layout. Leaf-by-leaf operations (`filter_zeros`) can then work on the
/// modes directly.
#[inline]
pub fn congruent_modes(l: &Layout) -> Option<Modes> {
    let mut out = Modes::new();
    congruent_into(l, &mut out).then_some(out)
}

/// [`congruent_modes`] pushed onto `out` (empty): false, with `out` cleared, where it gives
/// `None`. (Filled in place: a returned list of modes is copied on the way.)
#[inline]
pub fn congruent_into(l: &Layout, out: &mut Modes) -> bool {
    // Flat tuples of integers, the most common layout: paired without the walk and its calls
    // (the walk took 5-8% of the algebra's instructions).
    match (&l.shape, &l.stride) {
        (I(s), I(d)) => {
            out.push((*s, Stride::I(*d)));
            return true;
        }
        (s, d) => {
            // (a flat tuple of integers of more than `FLAT` is a list of integers)
            if let (Some(a), Some(b)) = (s.flat(), d.flat()) {
                if a.n == b.n && a.n > 0 {
                    for k in 0..a.n {
                        out.push((a.int(k), Stride::I(b.int(k))));
                    }
                    return true;
                }
            } else if let (Some(a), Some(b)) = (s.kids(), d.kids()) {
                if a.len() == b.len() && !a.is_empty() {
                    for (x, y) in a.iter().zip(b.iter()) {
                        let (I(s), I(d)) = (x, y) else {
                            out.clear();
                            return congruent_walk(l, out);
                        };
                        out.push((*s, Stride::I(*d)));
                    }
                    return true;
                }
            }
        }
    }
    congruent_walk(l, out)
}

/// [`congruent_into`] by [`same_form_leaves`].
fn congruent_walk(l: &Layout, out: &mut Modes) -> bool {
    let walked = same_form_leaves(&l.shape, &l.stride, &mut |a, d| {
        out.push((a, Stride::of(d)?));
        Some(())
    });
    if walked.is_none() || out.is_empty() {
        out.clear();
        return false;
    }
    true
}

/// The stride of a flat mode: an integer (nearly always) or a ScaledBasis element (identity
/// layouts). A leaf, not a tree: 16 bytes, and lists of modes drop without walking trees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stride {
    I(Int),
    Basis(Box<Scaled>),
}

impl Stride {
    /// The stride at a leaf of a layout's stride (`None` for `_` or a tuple).
    #[inline]
    pub fn of(t: &IntTuple) -> Option<Stride> {
        match t {
            I(x) => Some(Stride::I(*x)),
            Basis(b) => Some(Stride::Basis(b.clone())),
            _ => None,
        }
    }

    /// The stride as a leaf of a tuple.
    #[inline]
    pub fn tuple(&self) -> IntTuple {
        match self {
            Stride::I(x) => I(*x),
            Stride::Basis(b) => Basis(b.clone()),
        }
    }
}

/// A flat mode: its shape and stride.
pub type Mode = (Int, Stride);

/// A layout's flat `(shape, stride)` modes, inline up to 3 (no allocation for most layouts;
/// a larger inline buffer costs more in copies than it saves: 4 took 1-4% more instructions
/// in every operation, 2 up to 6% more in complement and left_inverse).
pub type Modes = smallvec::SmallVec<[Mode; 3]>;

/// The leaves of a tuple, inline up to 16: by reference, or an inline tuple's integer copied
/// out.
pub(crate) type Leaves<'a> = smallvec::SmallVec<[Cow<'a, IntTuple>; 16]>;

/// Push the leaves of `t` (depth-first) onto `out`.
pub(crate) fn leaf_refs<'a>(t: &'a IntTuple, out: &mut Leaves<'a>) {
    if let Some(f) = t.flat() {
        for k in 0..f.n {
            out.push(Cow::Owned(I(f.int(k))));
        }
        return;
    }
    match t.kids() {
        Some(v) => {
            for k in 0..v.len() {
                match v.at(k) {
                    Some(Cow::Borrowed(e)) => leaf_refs(e, out),
                    // (an inline tuple's element: an integer)
                    Some(owned) => out.push(owned),
                    None => {}
                }
            }
        }
        None => out.push(Cow::Borrowed(t)),
    }
}

/// Build a layout from flat modes: a single mode is a plain `s:d`, more are a flat tuple (this
/// is how `bw_coalesce` ends).
pub fn from_modes(v: &[Mode]) -> Layout {
    // (two and three modes, most results, as `vec![...]`: each block taken and filled in
    // place, without the generic capacity and push calls)
    match v {
        [(s, d)] => Layout::new(I(*s), d.tuple()),
        [(s0, d0), (s1, d1)] => Layout::new(IntTuple::pair(*s0, *s1), IntTuple::tuple2(d0.tuple(), d1.tuple())),
        [(s0, d0), (s1, d1), (s2, d2)] => {
            Layout::new(IntTuple::triple(*s0, *s1, *s2), IntTuple::tuple3(d0.tuple(), d1.tuple(), d2.tuple()))
        }
        _ => {
            let (mut s, mut d) = (Vec::with_capacity(v.len()), Vec::with_capacity(v.len()));
            for (a, b) in v {
                s.push(I(*a));
                d.push(b.tuple());
            }
            Layout::new(T(s), T(d))
        }
    }
}

/// `rank(layout)`: the rank of its shape.
pub fn lrank(l: &Layout) -> usize {
    l.shape.rank()
}

/// `get<i>(layout)` (= `layout<i>`): the i-th sub-layout.
pub fn lmode(l: &Layout, i: usize) -> R<Layout> {
    crate::eval::ops::structure::layout_get(l, &[i])
}

/// `make_layout(l0, l1, ...)`: concatenation; one layout gives a rank-1 tuple `(s):(d)`.
pub fn concat(ls: Vec<Layout>) -> Layout {
    // The modes are moved, not cloned (what `make_layout_cat` builds from a slice).
    let (mut s, mut d) = (Vec::with_capacity(ls.len()), Vec::with_capacity(ls.len()));
    for l in ls {
        s.push(l.shape);
        d.push(l.stride);
    }
    Layout::new(T(s), T(d))
}

/// `make_layout(a, b)` of two layouts: [`concat`] without the list (the shape's and stride's
/// tuples are the only allocations).
pub fn concat2(a: Layout, b: Layout) -> Layout {
    Layout::new(IntTuple::tuple2(a.shape, b.shape), IntTuple::tuple2(a.stride, b.stride))
}

/// `product` of an IntTuple (`size`).
pub fn product(t: &IntTuple) -> R<Int> {
    crate::eval::ops::tuple::product(t)
}

/// `compact_major<LayoutLeft>(shape, current)`.
pub fn compact_col_major(shape: &IntTuple, current: Int) -> R<IntTuple> {
    crate::eval::ops::tuple::compact_col_major(shape, &I(current))
}

/// Size of a layout's domain as a plain number, if it can be computed.
pub fn size_of(l: &Layout) -> Option<i64> {
    // `product`'s value, walked in i64 (its static rules change no value; any error is `None`)
    fn go(t: &IntTuple) -> Option<i64> {
        match t.view() {
            V::I(i) => Some(i.v),
            V::T(v) => v.iter().try_fold(1i64, |acc, e| acc.checked_mul(go(e)?)),
            _ => None,
        }
    }
    go(&l.shape)
}

/// CuTe's `exchange_sort` of (key, value) pairs by key (not stable; reproduced exactly since
/// the order of equal keys is visible in the results of the inverses).
pub fn exchange_sort_by_key(a: &mut [(i64, usize)]) {
    let n = a.len();
    for i in 0..n {
        for j in i + 1..n {
            if a[j].0 < a[i].0 {
                a.swap(i, j);
            }
        }
    }
}
