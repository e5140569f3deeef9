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
    /// `value@m0@m1...`: CuTe's ScaledBasis (`E<m>` scaled by value), printed `_1@0`. Boxed:
    /// rare, and an IntTuple is then 24 bytes instead of 32 (every tuple node is copied often).
    Basis(Box<Scaled>),
}

/// The payload of a ScaledBasis element: the value and the modes of `E<...>`, listed in print
/// order (innermost first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Scaled {
    pub v: Int,
    pub modes: Box<[usize]>,
}

impl IntTuple {
    /// The ScaledBasis element `v@modes...` (modes in print order).
    pub fn basis(v: Int, modes: impl Into<Box<[usize]>>) -> IntTuple {
        Basis(Box::new(Scaled { v, modes: modes.into() }))
    }
}

pub use IntTuple::{Basis, Under, I, T};

impl fmt::Display for IntTuple {
    /// CuTe's `print`: `_4`, `4`, `(a,b)`, `(8)` for a rank-1 tuple, `()`, `_`, `_1@0`.
    /// (The pieces are gathered in a buffer on the stack and handed to `f` a few at a time:
    /// printing is a large part of a script's time. No formatting option changes the text.)
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut w = Batch { f: To::Fmt(f), buf: [0; 128], n: 0 };
        write_tuple(&mut w, self)?;
        w.flush()
    }
}

/// A layout's text, `shape:stride`, gathered in one buffer (as an IntTuple's `Display`).
pub fn fmt_layout(shape: &IntTuple, stride: &IntTuple, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let mut w = Batch { f: To::Fmt(f), buf: [0; 128], n: 0 };
    write_tuple(&mut w, shape)?;
    w.byte(b':')?;
    write_tuple(&mut w, stride)?;
    w.flush()
}

impl IntTuple {
    /// Append the text of `self` (as `Display`) to `out`, without the formatting machinery.
    pub fn write_bytes(&self, out: &mut Vec<u8>) {
        push_tuple(out, self);
    }

    /// Append `shape:stride` (a layout's text) to `out`, as [`IntTuple::write_bytes`] does.
    pub fn write_layout_bytes(shape: &IntTuple, stride: &IntTuple, out: &mut Vec<u8>) {
        push_tuple(out, shape);
        out.push(b':');
        push_tuple(out, stride);
    }
}

/// The text of `t` (as `Display`) pushed onto `out` directly (most of a script's output).
fn push_tuple(out: &mut Vec<u8>, t: &IntTuple) {
    match t {
        I(i) => push_int(out, *i),
        T(v) => {
            out.push(b'(');
            for (k, e) in v.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                // (an integer child without a call: most are)
                match e {
                    I(i) => push_int(out, *i),
                    _ => push_tuple(out, e),
                }
            }
            out.push(b')');
        }
        _ => {
            // (`_` and ScaledBasis elements: rare, the formatted way)
            let mut w = Batch { f: To::Bytes(out), buf: [0; 128], n: 0 };
            let _ = write_tuple(&mut w, t).and_then(|()| w.flush());
        }
    }
}

/// As `Int`'s `Display`: `_` when static, `-` when negative, the digits.
#[inline(always)]
fn push_int(out: &mut Vec<u8>, i: Int) {
    if i.s {
        out.push(b'_');
    }
    if (0..10).contains(&i.v) {
        // (one digit: most of a layout's integers)
        out.push(b'0' + i.v as u8);
        return;
    }
    if (10..100).contains(&i.v) {
        // (two digits: most of the rest)
        out.extend_from_slice(&[b'0' + (i.v / 10) as u8, b'0' + (i.v % 10) as u8]);
        return;
    }
    out.extend_from_slice(super::int::decimal_bytes(i.v, &mut [0; 20]));
}

/// The text of `t` (as `Display`).
fn write_tuple(w: &mut Batch<'_, '_>, t: &IntTuple) -> fmt::Result {
    match t {
        I(i) => w.int(*i),
        Under => w.byte(b'_'),
        Basis(b) => {
            w.int(b.v)?;
            for m in &b.modes {
                fmt::Write::write_fmt(w, format_args!("@{m}"))?;
            }
            Ok(())
        }
        T(v) => {
            w.byte(b'(')?;
            for (k, e) in v.iter().enumerate() {
                if k > 0 {
                    w.byte(b',')?;
                }
                write_tuple(w, e)?;
            }
            w.byte(b')')
        }
    }
}

/// Where a [`Batch`] writes: a formatter, or bytes (the session's output buffer).
enum To<'a, 'b> {
    Fmt(&'a mut fmt::Formatter<'b>),
    Bytes(&'a mut Vec<u8>),
}

impl To<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        match self {
            To::Fmt(f) => f.write_str(s),
            To::Bytes(v) => {
                v.extend_from_slice(s.as_bytes());
                Ok(())
            }
        }
    }
}

/// Gathers the text in a buffer on the stack before writing it to `f`.
struct Batch<'a, 'b> {
    f: To<'a, 'b>,
    buf: [u8; 128],
    n: usize,
}

impl Batch<'_, '_> {
    fn flush(&mut self) -> fmt::Result {
        if self.n > 0 {
            match &mut self.f {
                // (bytes need no UTF-8 check)
                To::Bytes(v) => v.extend_from_slice(&self.buf[..self.n]),
                To::Fmt(f) => {
                    // Only whole `str`s and ASCII bytes were copied in, so this is UTF-8.
                    let text = std::str::from_utf8(&self.buf[..self.n]).map_err(|_| fmt::Error)?;
                    f.write_str(text)?;
                }
            }
            self.n = 0;
        }
        Ok(())
    }

    /// Room for `k` more bytes.
    fn room(&mut self, k: usize) -> fmt::Result {
        if self.n + k > self.buf.len() {
            self.flush()?;
        }
        Ok(())
    }

    fn byte(&mut self, b: u8) -> fmt::Result {
        self.room(1)?;
        self.buf[self.n] = b;
        self.n += 1;
        Ok(())
    }

    /// As `Int`'s `Display`: `_` when static, `-` when negative, the digits.
    fn int(&mut self, i: Int) -> fmt::Result {
        self.room(22)?;
        if i.s {
            self.buf[self.n] = b'_';
            self.n += 1;
        }
        if i.v < 0 {
            self.buf[self.n] = b'-';
            self.n += 1;
        }
        let mut x = i.v.unsigned_abs();
        if x < 10 {
            // (one digit: most of a layout's integers)
            self.buf[self.n] = b'0' + x as u8;
            self.n += 1;
            return Ok(());
        }
        // The number of digits (at most 20).
        let mut len = 1;
        let mut p = 10u64;
        while len < 20 && x >= p {
            len += 1;
            p = p.wrapping_mul(10);
        }
        let end = self.n + len;
        for at in (self.n..end).rev() {
            self.buf[at] = b'0' + (x % 10) as u8;
            x /= 10;
        }
        self.n = end;
        Ok(())
    }
}

impl fmt::Write for Batch<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if s.len() > self.buf.len() - self.n {
            self.flush()?;
            if s.len() > self.buf.len() {
                return self.f.write_str(s);
            }
        }
        self.buf[self.n..self.n + s.len()].copy_from_slice(s.as_bytes());
        self.n += s.len();
        Ok(())
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
            Basis(b) => b.v.s,
        }
    }
    /// Apply `f` to every integer leaf, keeping the structure.
    pub fn map_ints(&self, f: &mut impl FnMut(Int) -> R<Int>) -> R<IntTuple> {
        Ok(match self {
            I(i) => I(f(*i)?),
            T(v) => T(v.iter().map(|e| e.map_ints(f)).collect::<R<_>>()?),
            Under => Under,
            Basis(b) => IntTuple::basis(f(b.v)?, b.modes.clone()),
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

#[cfg(test)]
mod print_tests {
    use super::*;

    #[test]
    fn integers_print_as_int_does() {
        let mut vals = vec![0, 1, 9, 10, 11, 99, 100, 101, 12345, i64::MAX, i64::MIN, i64::MIN + 1];
        let mut p = 1i64;
        while let Some(q) = p.checked_mul(10) {
            vals.extend([p - 1, p, p + 1, -p, 1 - p]);
            p = q;
        }
        vals.extend([p - 1, p, -p]);
        for v in vals {
            for s in [false, true] {
                let i = Int { v, s };
                let want = format!("{}{v}", if s { "_" } else { "" });
                assert_eq!(I(i).to_string(), want);
                assert_eq!(i.to_string(), want);
            }
        }
    }

    #[test]
    fn long_and_nested_tuples_print_whole() {
        let leaves: Vec<IntTuple> = (0..100).map(|k| I(Int { v: i64::MIN + k, s: k % 2 == 0 })).collect();
        let want = format!(
            "({})",
            (0..100)
                .map(|k| format!("{}{}", if k % 2 == 0 { "_" } else { "" }, i64::MIN + k))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert_eq!(T(leaves.clone()).to_string(), want);
        let nested = T(vec![
            T(vec![]),
            Under,
            T(vec![I(Int { v: 3, s: true })]),
            IntTuple::basis(Int { v: 1, s: true }, [1, 0]),
        ]);
        assert_eq!(nested.to_string(), "((),_,(_3),_1@1@0)");
        assert_eq!(format!("{:>30}", nested), "((),_,(_3),_1@1@0)");
        assert_eq!(T(vec![T(leaves.clone()), T(leaves)]).to_string(), format!("({want},{want})"));
    }
}
