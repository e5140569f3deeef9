//! IntTuple: CuTe's nested tuples of integers (shapes, strides, coordinates, profiles).
//!
//! This file owns the data type, its CuTe print format and small structural helpers. The
//! IntTuple *functions* of CuTe's `int_tuple.hpp` (size, product, ceil_div, shape_div, ...)
//! live in `ops/tuple.rs`.
//! May import: `eval::int`, `eval::error`.

use super::error::{EvalError, R};
use super::int::{st, Int};
use std::fmt;

/// A CuTe tuple element: an integer, `_` (Underscore), a scaled basis element (`_1@0`, only as
/// a stride of identity layouts), or a nested tuple.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntTuple {
    I(Int),
    T(Vec<IntTuple>),
    /// `_`: "all of this mode" in slices and tilers.
    Under,
    /// `value@m0@m1...`: CuTe's ScaledBasis (`E<m>` scaled by value), printed `_1@0`.
    /// `modes` are listed in print order (innermost first).
    Basis(Int, Vec<usize>),
}

pub use IntTuple::{Basis, Under, I, T};

impl fmt::Display for IntTuple {
    /// CuTe's `print`: `_4`, `4`, `(a,b)`, `(8)` for a rank-1 tuple, `()`, `_`, `_1@0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            I(i) => fmt::Display::fmt(i, f),
            Under => f.write_str("_"),
            Basis(v, modes) => {
                fmt::Display::fmt(v, f)?;
                for m in modes {
                    write!(f, "@{m}")?;
                }
                Ok(())
            }
            T(v) => write_seq(f, "(", v, ")"),
        }
    }
}

impl From<Int> for IntTuple {
    fn from(i: Int) -> Self {
        I(i)
    }
}

impl IntTuple {
    pub fn st(v: i64) -> IntTuple {
        I(st(v))
    }
    pub fn dy(v: i64) -> IntTuple {
        I(Int::new(v, false))
    }
    pub fn is_int(&self) -> bool {
        matches!(self, I(_))
    }
    pub fn is_tuple(&self) -> bool {
        matches!(self, T(_))
    }
    /// The integer, or a type error naming what was expected.
    pub fn as_int(&self) -> R<Int> {
        match self {
            I(i) => Ok(*i),
            other => Err(EvalError::type_err(format!("expected an integer, got {other}"))),
        }
    }
    /// CuTe's `rank`: number of top-level modes (an integer or `_` has rank 1).
    pub fn rank(&self) -> usize {
        match self {
            T(v) => v.len(),
            _ => 1,
        }
    }
    /// CuTe's `depth`: 0 for an integer, 1 + max depth of the elements for a tuple.
    pub fn depth(&self) -> usize {
        match self {
            T(v) => 1 + v.iter().map(|e| e.depth()).max().unwrap_or(0),
            _ => 0,
        }
    }
    /// Mode `i` (`get<i>`): a tuple's element, or the integer itself when `i == 0`.
    pub fn get(&self, i: usize) -> R<&IntTuple> {
        match self {
            T(v) => v.get(i).ok_or_else(|| {
                EvalError::rule("index out of range", format!("get<{i}> of {self}, which has rank {}", v.len()))
            }),
            _ if i == 0 => Ok(self),
            _ => Err(EvalError::rule("index out of range", format!("get<{i}> of {self}, which has rank 1"))),
        }
    }
    /// The modes as a slice: a tuple's elements, or the non-tuple itself as a single mode.
    pub fn modes(&self) -> Vec<IntTuple> {
        match self {
            T(v) => v.clone(),
            x => vec![x.clone()],
        }
    }
    /// All leaves in order (depth-first).
    pub fn leaves(&self) -> Vec<IntTuple> {
        let mut out = Vec::new();
        fn go(t: &IntTuple, out: &mut Vec<IntTuple>) {
            match t {
                T(v) => v.iter().for_each(|e| go(e, out)),
                x => out.push(x.clone()),
            }
        }
        go(self, &mut out);
        out
    }
    /// True if every integer leaf is static (an empty tuple is static).
    pub fn is_static(&self) -> bool {
        match self {
            I(i) => i.s,
            T(v) => v.iter().all(|e| e.is_static()),
            Under => true,
            Basis(i, _) => i.s,
        }
    }
    /// Apply `f` to every integer leaf, keeping the structure.
    pub fn map_ints(&self, f: &mut impl FnMut(Int) -> R<Int>) -> R<IntTuple> {
        Ok(match self {
            I(i) => I(f(*i)?),
            T(v) => T(v.iter().map(|e| e.map_ints(f)).collect::<R<_>>()?),
            Under => Under,
            Basis(i, m) => Basis(f(*i)?, m.clone()),
        })
    }
}

/// `open e0,e1,... close`: CuTe's tuple print for any printable elements.
pub fn write_seq<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    open: &str,
    items: impl IntoIterator<Item = T>,
    close: &str,
) -> fmt::Result {
    f.write_str(open)?;
    for (k, e) in items.into_iter().enumerate() {
        if k > 0 {
            f.write_str(",")?;
        }
        fmt::Display::fmt(&e, f)?;
    }
    f.write_str(close)
}

/// Build a tuple from elements.
pub fn tup(v: Vec<IntTuple>) -> IntTuple {
    T(v)
}
