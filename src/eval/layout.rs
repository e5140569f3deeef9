//! Layout, Swizzle and ComposedLayout: the data types and their CuTe print formats.
//! Operations on them live in `ops/`. May import: `eval::int`, `eval::int_tuple`, `eval::error`.

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
        fmt::Display::fmt(&self.shape, f)?;
        f.write_str(":")?;
        fmt::Display::fmt(&self.stride, f)
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
    /// When slicing a swizzled layout leaves an offset whose bits are partly static, CuTe keeps
    /// it as a `MixedBits` (printed `M_0|(64&64)=64`); `offset` then holds its value.
    pub mixed: Option<MixedBits>,
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
            Some(m) => write!(f, "{} o {} o {}", self.outer, m, self.inner),
            None => write!(f, "{} o {} o {}", self.outer, self.offset, self.inner),
        }
    }
}
