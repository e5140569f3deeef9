//! Counting tensors and their partitions: what `partition_A/B/C`, `partition_S/D` and
//! `retile_S/D` print. The tensor of a layout `L` is CuTe's `make_coord_tensor(L)`: an
//! `ArithmeticTupleIterator` starting at the coprofile `_0`, laid out by `L`; slicing it at a
//! thread's coordinate moves the iterator by the offset, printed `ArithTuple<offset> o <layout>`.
//! May import: `atoms::alg`, the algebra data types.

use super::{alg, swz};
use crate::eval::error::{EvalError, R};
use crate::eval::int::{st, Int};
use crate::eval::int_tuple::IntTuple::{self, Under, T};
use crate::eval::layout::{Layout, Swizzle};
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
    pub swizzle: Option<(Swizzle, swz::Mb)>,
}

impl fmt::Display for Partition {
    /// CuTe's `print(Tensor)` of a counting tensor: the iterator, ` o `, the layout.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ArithTuple{} o ", self.offset)?;
        if let Some((sw, off)) = &self.swizzle {
            write!(f, "{sw} o {off} o ")?;
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
    let rest = alg::get(&alg::get(&t.shape, 1)?, 1)?;
    Ok(T(vec![thr, T(vec![Under, repeat_under(rest.rank())])]))
}

impl Source {
    pub fn layout(&self) -> &Layout {
        match self {
            Source::Plain(l) => l,
            Source::Swizzled { inner, .. } => inner,
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
                let (layout, off) = alg::slice_and_offset_t(&c, &t)?;
                // the counting tensor starts at coprofile(L): `_0`, or `(_0,_0)` for a 2-D identity
                let start = crate::eval::ops::structure::coprofile(l)?;
                Ok(Partition { offset: crate::eval::ops::tuple::arith_add(&start, &off)?, layout, swizzle: None })
            }
            Source::Swizzled { sw, offset, inner } => {
                let t = frg(inner)?;
                let c = coord(&t)?;
                let (layout, off, keep) = swz::slice_and_offset(&c, sw, *offset, &t)?;
                Ok(Partition { offset: IntTuple::I(st(0).add(off)?), layout, swizzle: keep.map(|o| (*sw, o)) })
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
                    layout: alg::slice(&c, &t)?,
                    swizzle: None,
                })
            }
            Source::Swizzled { sw, offset, inner } => {
                let (t, c) = f(inner)?;
                let (layout, _, keep) = swz::slice_and_offset(&c, sw, *offset, &t)?;
                Ok(Partition { offset: IntTuple::I(st(0)), layout, swizzle: keep.map(|o| (*sw, o)) })
            }
        }
    }
}

/// The error for tensors we cannot build.
pub fn unsupported_tensor(what: &str) -> EvalError {
    EvalError::rule("not supported", format!("partitioning {what} is not supported"))
}
