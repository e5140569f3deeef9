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
/// a stride of identity layouts), or a tuple.
///
/// A tuple of at most [`FLAT`] integers (most shapes, strides and coordinates) is held inline
/// in `F`, with no heap block; any other tuple (longer, nested, or holding `_`/basis elements)
/// is `N`, one heap block of elements. [`T`] builds either and never makes an `N` that `F` can
/// hold, so equality and hashing stay structural. Read a tuple's elements through
/// [`IntTuple::view`] (or [`IntTuple::kids`]), never by matching `F`/`N`.
///
/// Why this form (issue 8, measured on the benchmark's files): an operation now allocates its
/// answer's blocks only, none for most answers (`tests/alloc.rs`); the type stays 24 bytes,
/// as when every tuple was a vector. Three inline integers (a 32-byte type) ran no faster, and
/// a tree of inline nodes (the ninth session's `flat` branch, 88 bytes) spent more on copies
/// than the allocations it saved. A tuple cannot hold inline copies of itself, hence the two
/// forms and the views.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntTuple {
    I(Int),
    /// An inline tuple of `n` integers: values `v[..n]` (the rest 0), bit `k` of `s` set when
    /// element `k` is static (the rest clear).
    F {
        n: u8,
        s: u8,
        v: [i64; FLAT],
    },
    /// Any other tuple (see the type's doc), built only here. A boxed slice, not a vector: two
    /// words, so that the type stays 24 bytes.
    N(Box<[IntTuple]>),
    /// `_`: "all of this mode" in slices and tilers.
    Under,
    /// `value@m0@m1...`: CuTe's ScaledBasis (`E<m>` scaled by value), printed `_1@0`. Boxed:
    /// rare, and every tuple node is copied often.
    Basis(Box<Scaled>),
}

/// How many integer elements a tuple holds inline (the tag, `n` and `s` share the first word of
/// a 24-byte IntTuple; `tests/alloc.rs` holds the size).
pub const FLAT: usize = 2;
// (`pair` writes two integers inline; the static bits are one byte)
const _: () = assert!(FLAT >= 2 && FLAT <= 8);

/// A tuple built from its elements: inline when it is at most [`FLAT`] integers.
#[allow(non_snake_case)]
#[inline]
pub fn T(v: Vec<IntTuple>) -> IntTuple {
    if v.len() <= FLAT {
        if let Some(f) = flat_of(&v) {
            return f;
        }
    }
    IntTuple::N(v.into_boxed_slice())
}

/// The inline form of `v`, when every element is an integer (and there are at most [`FLAT`]).
#[inline]
fn flat_of(v: &[IntTuple]) -> Option<IntTuple> {
    let mut vals = [0i64; FLAT];
    let mut s = 0u8;
    for (k, e) in v.iter().enumerate() {
        match e {
            I(i) => {
                vals[k] = i.v;
                s |= (i.s as u8) << k;
            }
            _ => return None,
        }
    }
    Some(IntTuple::F { n: v.len() as u8, s, v: vals })
}

/// Elements gathered for a tuple ([`IntTuple::of_buf`]): on the stack up to [`FLAT`].
pub type TupleBuf = smallvec::SmallVec<[IntTuple; FLAT]>;

/// A tuple built element by element: integers kept as an inline tuple's fields while every
/// element so far is one and there are at most [`FLAT`] (most results), so nothing is written
/// as an element and read back; the first other element moves them into a list.
#[derive(Default)]
pub struct TupleBuilder {
    n: u8,
    s: u8,
    v: [i64; FLAT],
    /// The list's capacity when it is made (the number of elements expected, at least).
    cap: usize,
    spill: Vec<IntTuple>,
}

impl TupleBuilder {
    #[inline(always)]
    pub fn new() -> TupleBuilder {
        TupleBuilder::with_capacity(FLAT + 1)
    }

    /// A builder for about `cap` elements (the list, if one is needed, is made that large).
    #[inline(always)]
    pub fn with_capacity(cap: usize) -> TupleBuilder {
        TupleBuilder { n: 0, s: 0, v: [0; FLAT], cap, spill: Vec::new() }
    }

    /// Append an integer element.
    #[inline(always)]
    pub fn push_int(&mut self, i: Int) {
        if (self.n as usize) < FLAT && self.spill.is_empty() {
            self.v[self.n as usize] = i.v;
            self.s |= (i.s as u8) << self.n;
            self.n += 1;
        } else {
            self.spill_ints();
            self.spill.push(I(i));
        }
    }

    /// Append an element.
    #[inline(always)]
    pub fn push(&mut self, e: IntTuple) {
        match e {
            I(i) => self.push_int(i),
            e => {
                self.spill_ints();
                self.spill.push(e);
            }
        }
    }

    /// Move the integers kept inline into the list (once).
    #[inline]
    fn spill_ints(&mut self) {
        if self.spill.capacity() == 0 {
            self.spill.reserve_exact(self.cap.max(self.n as usize + 1));
        }
        if self.n > 0 {
            for k in 0..self.n as usize {
                self.spill.push(I(Int { v: self.v[k], s: (self.s >> k) & 1 == 1 }));
            }
            self.n = 0;
        }
    }

    /// The tuple.
    #[inline(always)]
    pub fn finish(self) -> IntTuple {
        if self.spill.is_empty() {
            IntTuple::F { n: self.n, s: self.s, v: self.v }
        } else {
            T(self.spill)
        }
    }
}

/// An inline tuple's integers, copied out ([`IntTuple::flat`]).
#[derive(Clone, Copy, Debug)]
pub struct Flat {
    pub n: usize,
    s: u8,
    v: [i64; FLAT],
}

impl Flat {
    /// Element `k` (`k < n`).
    #[inline(always)]
    pub fn int(&self, k: usize) -> Int {
        Int { v: self.v[k], s: (self.s >> k) & 1 == 1 }
    }
}

/// A tuple's elements, as a slice: borrowed from an `N` tuple's block, or an inline tuple's
/// integers written out as elements on the stack (no heap).
pub struct Kids<'a> {
    /// A block's elements (when `n` is `u8::MAX`).
    slice: &'a [IntTuple],
    /// How many of `buf` an inline tuple wrote, or `u8::MAX` for a block's `slice`.
    n: u8,
    buf: [std::mem::MaybeUninit<IntTuple>; FLAT],
}

impl<'a> Kids<'a> {
    /// Element `k` with the tuple's lifetime (an inline element is copied out).
    #[inline]
    pub fn at(&self, k: usize) -> Option<std::borrow::Cow<'a, IntTuple>> {
        if self.n == u8::MAX {
            self.slice.get(k).map(std::borrow::Cow::Borrowed)
        } else {
            self.get(k).map(|e| std::borrow::Cow::Owned(e.clone()))
        }
    }
}

impl std::ops::Deref for Kids<'_> {
    type Target = [IntTuple];
    #[inline]
    fn deref(&self) -> &[IntTuple] {
        if self.n == u8::MAX {
            self.slice
        } else {
            // SAFETY: `kids_unchecked` wrote the first `n` cells (integers: no drop glue), and
            // `n <= FLAT` for an inline tuple.
            unsafe { std::slice::from_raw_parts(self.buf.as_ptr() as *const IntTuple, self.n as usize) }
        }
    }
}

impl fmt::Debug for Kids<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

/// What an IntTuple is, for matching: its integer, its elements (a slice), `_` or a basis
/// element. Mirrors the old variants, so `match t.view() { V::T(v) => ... }` reads as before.
#[derive(Debug)]
pub enum V<'a> {
    I(&'a Int),
    T(Kids<'a>),
    Under,
    Basis(&'a Scaled),
}

impl IntTuple {
    /// The tuple's form, for matching (see [`V`]).
    #[inline]
    pub fn view(&self) -> V<'_> {
        match self {
            I(i) => V::I(i),
            IntTuple::F { .. } | IntTuple::N(_) => V::T(self.kids_unchecked()),
            Under => V::Under,
            Basis(b) => V::Basis(b),
        }
    }

    /// The elements, when a tuple.
    #[inline]
    pub fn kids(&self) -> Option<Kids<'_>> {
        match self {
            IntTuple::F { .. } | IntTuple::N(_) => Some(self.kids_unchecked()),
            _ => None,
        }
    }

    #[inline]
    fn kids_unchecked(&self) -> Kids<'_> {
        let mut k = Kids { slice: &[], n: u8::MAX, buf: [const { std::mem::MaybeUninit::uninit() }; FLAT] };
        match self {
            IntTuple::F { n, s, v } => {
                k.n = *n;
                for (j, (cell, &x)) in k.buf.iter_mut().zip(v).enumerate().take(*n as usize) {
                    cell.write(I(Int { v: x, s: (s >> j) & 1 == 1 }));
                }
            }
            IntTuple::N(v) => k.slice = v,
            _ => {}
        }
        k
    }

    /// The elements, owned (a tuple's), or `None`.
    pub fn into_kids(self) -> Option<Vec<IntTuple>> {
        match self {
            IntTuple::N(v) => Some(v.into_vec()),
            IntTuple::F { .. } => Some(self.kids_unchecked().to_vec()),
            _ => None,
        }
    }

    /// A tuple's block of elements, taken out (`_` left in its place); `None`, with `self`
    /// unchanged, for anything that has none (an integer, an inline tuple, `_`, a basis element).
    pub fn take_block(&mut self) -> Option<Vec<IntTuple>> {
        if !matches!(self, IntTuple::N(_)) {
            return None;
        }
        match std::mem::replace(self, Under) {
            IntTuple::N(v) => Some(v.into_vec()),
            _ => None,
        }
    }

    /// A tuple's integers when it is an inline one (at most [`FLAT`] integers), for hot paths
    /// that read them without a view.
    #[inline(always)]
    pub fn flat(&self) -> Option<Flat> {
        match self {
            IntTuple::F { n, s, v } => Some(Flat { n: *n as usize, s: *s, v: *v }),
            _ => None,
        }
    }

    /// The tuple `(a,b)` of two integers (inline).
    #[inline(always)]
    pub fn pair(a: Int, b: Int) -> IntTuple {
        IntTuple::F {
            n: 2,
            s: a.s as u8 | (b.s as u8) << 1,
            v: {
                let mut v = [0; FLAT];
                v[0] = a.v;
                v[1] = b.v;
                v
            },
        }
    }

    /// The tuple `(a,b,c)` of three integers (inline).
    #[inline(always)]
    pub fn triple(a: Int, b: Int, c: Int) -> IntTuple {
        IntTuple::of_ints(&[a, b, c])
    }

    /// The tuple `(a,b)` (inline when both are integers; no list is made for it).
    #[inline(always)]
    pub fn tuple2(a: IntTuple, b: IntTuple) -> IntTuple {
        match (&a, &b) {
            (I(x), I(y)) => IntTuple::pair(*x, *y),
            _ => IntTuple::N(Box::new([a, b])),
        }
    }

    /// The tuple `(a,b,c)` (inline when all are integers; no list is made for it).
    #[inline(always)]
    pub fn tuple3(a: IntTuple, b: IntTuple, c: IntTuple) -> IntTuple {
        match (&a, &b, &c) {
            (I(x), I(y), I(z)) => IntTuple::triple(*x, *y, *z),
            _ => IntTuple::N(Box::new([a, b, c])),
        }
    }

    /// The tuple of the elements gathered in `b` (inline when at most [`FLAT`] integers; the
    /// buffer's own block, if it spilled, becomes the tuple's).
    #[inline]
    pub fn of_buf(b: TupleBuf) -> IntTuple {
        if b.len() <= FLAT {
            if let Some(f) = flat_of(&b) {
                return f;
            }
        }
        IntTuple::N(b.into_boxed_slice())
    }

    /// The tuple of the integers `ints` yields (inline when at most [`FLAT`]).
    #[inline]
    pub fn of_int_iter(ints: impl ExactSizeIterator<Item = Int>) -> IntTuple {
        if ints.len() <= FLAT {
            let mut v = [0i64; FLAT];
            let mut s = 0u8;
            let mut n = 0;
            for (k, i) in ints.enumerate().take(FLAT) {
                v[k] = i.v;
                s |= (i.s as u8) << k;
                n = k + 1;
            }
            IntTuple::F { n: n as u8, s, v }
        } else {
            IntTuple::N(ints.map(I).collect())
        }
    }

    /// The tuple of `ints` (inline when at most [`FLAT`]).
    #[inline]
    pub fn of_ints(ints: &[Int]) -> IntTuple {
        IntTuple::of_int_iter(ints.iter().copied())
    }

    /// A tuple built from its elements (as [`T`]).
    #[allow(non_snake_case)]
    #[inline]
    pub fn T(v: Vec<IntTuple>) -> IntTuple {
        T(v)
    }
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

pub use IntTuple::{Basis, Under, I};

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
        IntTuple::F { n, s, v } => {
            out.push(b'(');
            for (k, &x) in v.iter().enumerate().take(*n as usize) {
                if k > 0 {
                    out.push(b',');
                }
                push_int(out, Int { v: x, s: (s >> k) & 1 == 1 });
            }
            out.push(b')');
        }
        IntTuple::N(v) => {
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
        IntTuple::F { .. } | IntTuple::N(_) => {
            w.byte(b'(')?;
            for (k, e) in t.kids_unchecked().iter().enumerate() {
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
        matches!(self, IntTuple::F { .. } | IntTuple::N(_))
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
            IntTuple::F { n, .. } => *n as usize,
            IntTuple::N(v) => v.len(),
            _ => 1,
        }
    }
    /// CuTe's `depth`: 0 for an integer, 1 + max depth of the elements for a tuple.
    pub fn depth(&self) -> usize {
        match self {
            IntTuple::F { .. } => 1,
            IntTuple::N(v) => 1 + v.iter().map(|e| e.depth()).max().unwrap_or(0),
            _ => 0,
        }
    }
    /// Mode `i` (`get<i>`): a tuple's element, or the integer itself when `i == 0`.
    pub fn get(&self, i: usize) -> R<std::borrow::Cow<'_, IntTuple>> {
        match self.kids() {
            Some(v) => v.at(i).ok_or_else(|| {
                EvalError::rule("index out of range", format!("get<{i}> of {self}, which has rank {}", v.len()))
            }),
            _ if i == 0 => Ok(std::borrow::Cow::Borrowed(self)),
            _ => Err(EvalError::rule("index out of range", format!("get<{i}> of {self}, which has rank 1"))),
        }
    }
    /// The modes as a slice: a tuple's elements, or the non-tuple itself as a single mode.
    pub fn modes(&self) -> Vec<IntTuple> {
        match self.view() {
            V::T(v) => v.to_vec(),
            _ => vec![self.clone()],
        }
    }
    /// All leaves in order (depth-first).
    pub fn leaves(&self) -> Vec<IntTuple> {
        let mut out = Vec::new();
        fn go(t: &IntTuple, out: &mut Vec<IntTuple>) {
            match t.view() {
                V::T(v) => v.iter().for_each(|e| go(e, out)),
                _ => out.push(t.clone()),
            }
        }
        go(self, &mut out);
        out
    }
    /// True if every integer leaf is static (an empty tuple is static).
    pub fn is_static(&self) -> bool {
        match self {
            I(i) => i.s,
            IntTuple::F { n, s, .. } => s.count_ones() == *n as u32,
            IntTuple::N(v) => v.iter().all(|e| e.is_static()),
            Under => true,
            Basis(b) => b.v.s,
        }
    }
    /// Apply `f` to every integer leaf, keeping the structure.
    pub fn map_ints(&self, f: &mut impl FnMut(Int) -> R<Int>) -> R<IntTuple> {
        Ok(match self {
            I(i) => I(f(*i)?),
            IntTuple::F { n, s, v } => {
                let mut out = [0i64; FLAT];
                let mut outs = 0u8;
                for k in 0..*n as usize {
                    let i = f(Int { v: v[k], s: (s >> k) & 1 == 1 })?;
                    out[k] = i.v;
                    outs |= (i.s as u8) << k;
                }
                IntTuple::F { n: *n, s: outs, v: out }
            }
            IntTuple::N(v) => T(v.iter().map(|e| e.map_ints(f)).collect::<R<_>>()?),
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
