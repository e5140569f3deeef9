//! Counting tensors and their partitions: what `partition_A/B/C`, `partition_S/D` and
//! `retile_S/D` print. The tensor of a layout `L` is CuTe's `make_coord_tensor(L)`: an
//! `ArithmeticTupleIterator` starting at the coprofile `_0`, laid out by `L`; slicing it at a
//! thread's coordinate moves the iterator by the offset, printed `ArithTuple<offset> o <layout>`.
//! May import: the algebra data types, `eval::ops`.

use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::IntTuple::{self, Under};
use crate::eval::int_tuple::T;
use crate::eval::layout::{Composed, Func, TypedOffset};
use crate::eval::layout::{Layout, Swizzle};
use crate::eval::ops::coord as oc;
use crate::eval::value::Value;
use std::fmt;

/// The layout a counting tensor is built on.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    Plain(Layout),
    /// `Sw<B,M,S> o offset o L`: its counting tensor starts at the integer `_0`.
    Swizzled {
        sw: Swizzle,
        offset: Int,
        inner: Layout,
    },
    /// `A o offset o L` (a layout outer function): also starts at `_0`; slicing accumulates the
    /// offset into the ComposedLayout (CuTe's generic `slice_and_offset`).
    Composed {
        outer: Layout,
        offset: Int,
        inner: Layout,
    },
}

/// A thread's partition of a counting tensor.
#[derive(Clone, Debug, PartialEq)]
pub struct Partition {
    /// The iterator's coordinate (the index of the thread's first element; a coordinate tuple
    /// for a layout with scaled-basis strides such as `make_identity_layout`).
    pub offset: IntTuple,
    /// The partition's layout (a plain layout, also where CuTe decays a swizzle into one).
    pub layout: Layout,
    /// Set when the layout stays swizzled: `Sw<B,M,S> o offset o layout`.
    pub swizzle: Option<(Swizzle, SwOffset)>,
    /// Set for a tensor on `A o offset o L` (A a layout): `A o offset o layout`.
    pub composed: Option<(Layout, Int)>,
    /// The iterator's integer is a `uint32_t`: a slice of a swizzled tensor whose offset was a
    /// `uint32_t` (`TypedOffset::U32`) moved it by an unsigned offset. Its elements are then
    /// sums modulo 2^32, as C++'s unsigned arithmetic gives them.
    pub unsigned: bool,
}

impl fmt::Display for Partition {
    /// CuTe's `print(Tensor)` of a counting tensor: the iterator, ` o `, the layout.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ArithTuple{} o ", self.offset)?;
        if let Some((sw, off)) = &self.swizzle {
            write!(f, "{sw} o {off} o ")?;
        }
        if let Some((a, off)) = &self.composed {
            write!(f, "{a} o {off} o ")?;
        }
        write!(f, "{}", self.layout)
    }
}

/// `repeat<n>(_)`: `_` for n == 1, else a tuple of n underscores.
pub fn repeat_under(n: usize) -> IntTuple {
    if n == 1 {
        Under
    } else {
        T(vec![Under; n])
    }
}

/// The ThrMMA slicing coordinate `(thr, (_, repeat<rank<1,1>(t)>(_)))`.
pub fn partition_coord(thr: IntTuple, t: &Layout) -> R<IntTuple> {
    let rest = t.shape.get(1)?.get(1)?.rank();
    Ok(T(vec![thr, T(vec![Under, repeat_under(rest)])]))
}

impl Source {
    pub fn layout(&self) -> &Layout {
        match self {
            Source::Plain(l) => l,
            Source::Swizzled { inner, .. } | Source::Composed { inner, .. } => inner,
        }
    }

    /// Partition: `make_tensor(data, frg(layout))(coord)`.
    pub fn partition(
        &self,
        frg: impl Fn(&Layout) -> R<Layout>,
        coord: impl Fn(&Layout) -> R<IntTuple>,
    ) -> R<Partition> {
        match self {
            Source::Plain(l) => {
                let t = frg(l)?;
                let c = coord(&t)?;
                let (layout, off) = oc::slice_and_offset(&c, &t)?;
                // the counting tensor starts at coprofile(L): `_0`, or `(_0,_0)` for a 2-D identity
                let start = crate::eval::ops::structure::coprofile(l)?;
                Ok(Partition {
                    offset: crate::eval::ops::tuple::arith_add(&start, &off)?,
                    layout,
                    swizzle: None,
                    composed: None,
                    unsigned: false,
                })
            }
            Source::Swizzled { sw, offset, inner } => {
                let t = frg(inner)?;
                let c = coord(&t)?;
                let (layout, off, keep) = swizzle_slice(&c, sw, *offset, &t)?;
                Ok(Partition {
                    offset: IntTuple::I(st(0).add(off)?),
                    layout,
                    swizzle: keep.map(|o| (*sw, o)),
                    composed: None,
                    unsigned: false,
                })
            }
            Source::Composed { outer, offset, inner } => {
                let t = frg(inner)?;
                composed_slice(outer, *offset, &coord(&t)?, &t)
            }
        }
    }

    /// A tensor whose layout is rebuilt without moving the iterator (`retile`): `f` gives the
    /// layout before CuTe's last step and the coordinate it is sliced at. A swizzled tensor's
    /// ComposedLayout is sliced by the swizzle rules (the swizzle may decay into the layout);
    /// `slice` keeps only the layout, so the iterator stays the integer `_0`.
    pub fn relayout(&self, f: impl Fn(&Layout) -> R<(Layout, IntTuple)>) -> R<Partition> {
        match self {
            Source::Plain(l) => {
                let (t, c) = f(l)?;
                Ok(Partition {
                    offset: crate::eval::ops::structure::coprofile(l)?,
                    layout: oc::slice(&c, &t)?,
                    swizzle: None,
                    composed: None,
                    unsigned: false,
                })
            }
            Source::Swizzled { sw, offset, inner } => {
                let (t, c) = f(inner)?;
                let (layout, _, keep) = swizzle_slice(&c, sw, *offset, &t)?;
                Ok(Partition {
                    offset: IntTuple::I(st(0)),
                    layout,
                    swizzle: keep.map(|o| (*sw, o)),
                    composed: None,
                    unsigned: false,
                })
            }
            Source::Composed { outer, offset, inner } => {
                let (t, c) = f(inner)?;
                composed_slice(outer, *offset, &c, &t)
            }
        }
    }
}

/// A tensor on `outer o offset o t` sliced at `c`: the slice's offset moves into the composed
/// layout's offset (CuTe's slice_and_offset); the iterator stays `_0`.
fn composed_slice(outer: &Layout, offset: Int, c: &IntTuple, t: &Layout) -> R<Partition> {
    let (layout, off) = oc::slice_and_offset(c, t)?;
    let off = offset_int(&off)?;
    Ok(Partition {
        offset: IntTuple::I(st(0)),
        layout,
        swizzle: None,
        composed: Some((outer.clone(), offset.add(off)?)),
        unsigned: false,
    })
}

/// The integer offset of a slice of a layout with integer strides.
fn offset_int(off: &IntTuple) -> R<Int> {
    match off {
        IntTuple::I(i) => Ok(*i),
        other => Err(EvalError::rule("not supported", format!("a composed tensor sliced to the offset {other}"))),
    }
}

/// The error for tensors we cannot build.
pub fn unsupported_tensor(what: &str) -> EvalError {
    EvalError::rule("not supported", format!("partitioning {what} is not supported"))
}

/// The offset of a layout that stays swizzled: an integer, or CuTe's `MixedBits` (some bits
/// known only at run time), printed `M_S|(d&F)=value`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwOffset {
    pub offset: Int,
    pub mixed: Option<TypedOffset>,
}

impl fmt::Display for SwOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.mixed {
            Some(m @ (TypedOffset::Mixed(_) | TypedOffset::SmemFlag(_))) => write!(f, "{m}"),
            Some(TypedOffset::U32) | None => write!(f, "{}", self.offset),
        }
    }
}

/// `slice_and_offset(coord, Sw<B,M,S> o offset o layout)` (CuTe's `swizzle_layout.hpp`, shared
/// with `eval::ops::swizzle`): the sliced layout, the offset, and — when the swizzle does not
/// decay into the layout's strides — the ComposedLayout's new offset.
fn swizzle_slice(c: &IntTuple, sw: &Swizzle, offset: Int, t: &Layout) -> R<(Layout, Int, Option<SwOffset>)> {
    let composed = Composed { outer: Func::Swizzle(*sw), offset, inner: Func::Layout(t.clone()), mixed: None };
    let (v, off) = crate::eval::ops::swizzle::composed::slice_and_offset(&Value::Tuple(c.clone()), &composed)?;
    let off = match off {
        Value::Tuple(IntTuple::I(i)) => i,
        other => return Err(EvalError::type_err(format!("a swizzled slice gave the offset `{other}`"))),
    };
    match v {
        Value::Layout(l) => Ok((l, off, None)),
        Value::Composed(k) => match (k.outer, k.inner) {
            (Func::Swizzle(_), Func::Layout(l)) => Ok((l, off, Some(SwOffset { offset: k.offset, mixed: k.mixed }))),
            (a, b) => Err(EvalError::type_err(format!("a swizzled slice gave `{a} o {b}`"))),
        },
        other => Err(EvalError::type_err(format!("a swizzled slice gave `{other}`"))),
    }
}
