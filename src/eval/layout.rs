//! Layout, Swizzle and ComposedLayout: the data types and their CuTe print formats.
//! Operations on them live in `ops/`. May import: `eval::int`, `eval::int_tuple`, `eval::error`.

use super::error::R;
use super::int::Int;
use super::int_tuple::IntTuple;
use std::fmt;

/// `shape:stride`. CuTe does not require the two to be congruent (`make_layout((2,3),(1,2,3))`
/// prints as given), so neither do we; operations that need congruence check it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub shape: IntTuple,
    pub stride: IntTuple,
}

impl Layout {
    pub fn new(shape: IntTuple, stride: IntTuple) -> Layout {
        Layout { shape, stride }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::int_tuple::fmt_layout(&self.shape, &self.stride, f)
    }
}

/// `Swizzle<B,M,S>`: bits `[M+S, M+S+B)` of an offset are XORed into bits `[M, M+B)`
/// (for negative S the other way round). Parameters are always static in CuTe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    pub b: i32,
    pub m: i32,
    pub s: i32,
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.b, self.m, self.s)
    }
}

/// Anything that maps an integer (or coordinate) to an integer and can be the outer or inner
/// part of a ComposedLayout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    Swizzle(Swizzle),
    Layout(Layout),
    Composed(Box<Composed>),
}

impl fmt::Display for Func {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Func::Swizzle(s) => write!(f, "{s}"),
            Func::Layout(l) => write!(f, "{l}"),
            Func::Composed(c) => write!(f, "{c}"),
        }
    }
}

/// CuTe's `ComposedLayout<A, O, B>`: `x -> outer(offset + inner(x))`, printed `A o O o B`.
/// The shape (domain) is the inner layout's. `offset` is an integer (`_0` by default).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Composed {
    pub outer: Func,
    pub offset: Int,
    pub inner: Func,
    /// An offset whose C++ type is not a plain integer (`offset` then holds its value):
    /// a `MixedBits` left by slicing a swizzled layout, or the unset shared-memory pointer flag
    /// of a GMMA layout atom.
    pub mixed: Option<TypedOffset>,
}

/// The C++ type of a ComposedLayout's offset when it is not a plain integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypedOffset {
    /// When slicing a swizzled layout leaves an offset whose bits are partly static, CuTe keeps
    /// it as a `MixedBits` (printed `M_0|(64&64)=64`).
    Mixed(MixedBits),
    /// CuTe's `smem_ptr_flag_bits<B>` (`pointer_flagged.hpp`), printed `smem_ptr[Bb](unset)`:
    /// an `Int<0>` that marks the swizzle as acting on the bytes of a shared-memory pointer of
    /// B-bit elements. `upcast`/`downcast` scale B and keep the swizzle; arithmetic on it (a
    /// slice's offset) gives a plain integer.
    SmemFlag(u32),
    /// A `uint32_t`: what adding an integer to a `MixedBits` gives (it converts to `uint32_t`;
    /// `domain_offset` of a layout with such an offset). Printed as the number (`offset` holds it,
    /// in [0, 2^32)); adding to it wraps modulo 2^32, as C++'s unsigned arithmetic does.
    U32,
}

impl fmt::Display for TypedOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypedOffset::Mixed(m) => write!(f, "{m}"),
            TypedOffset::SmemFlag(b) => write!(f, "smem_ptr[{b}b](unset)"),
            // (never printed alone: `Composed` and the tensors print the offset's number)
            TypedOffset::U32 => write!(f, "uint32_t"),
        }
    }
}

impl Composed {
    /// `offset() + v` as CuTe computes it: an `int` sum, or, where the offset is a `MixedBits`
    /// (or already a `uint32_t` made from one), a `uint32_t` sum, modulo 2^32.
    pub fn offset_plus(&self, v: Int) -> R<(Int, Option<TypedOffset>)> {
        if self.unsigned_offset() {
            let sum = (self.offset.v as i128 + v.v as i128).rem_euclid(1 << 32) as i64;
            return Ok((Int::new(sum, false), Some(TypedOffset::U32)));
        }
        Ok((self.offset.add(v)?, None))
    }

    /// The offset is a `MixedBits` or a `uint32_t` made from one: what is added to it is
    /// unsigned, modulo 2^32.
    pub fn unsigned_offset(&self) -> bool {
        matches!(self.mixed, Some(TypedOffset::Mixed(_) | TypedOffset::U32))
    }

    /// The element width B of a GMMA atom's `smem_ptr[Bb](unset)` offset, if it has one.
    pub fn smem_bits(&self) -> Option<u32> {
        match self.mixed {
            Some(TypedOffset::SmemFlag(b)) => Some(b),
            _ => None,
        }
    }
}

/// CuTe's `MixedBits<S, F>`: the value `S | (d & F)` where the bits of `F` are known only at
/// run time (`d`). Printed `M_S|(d&F)=value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MixedBits {
    pub s: u32,
    pub f: u32,
    pub d: u32,
}

impl fmt::Display for MixedBits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "M_{}|({}&{})={}", self.s, self.d, self.f, self.s | self.d)
    }
}

impl fmt::Display for Composed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.mixed {
            Some(m @ (TypedOffset::Mixed(_) | TypedOffset::SmemFlag(_))) => {
                write!(f, "{} o {} o {}", self.outer, m, self.inner)
            }
            Some(TypedOffset::U32) | None => write!(f, "{} o {} o {}", self.outer, self.offset, self.inner),
        }
    }
}
