//! The lists of integer modes the algebra's integer paths work on: [`Fixed`], at most `N` items
//! inline and never more, where the caller has bounded the length first (most layouts have a
//! few modes), and `Vec` for anything longer. Code that builds such lists is generic over
//! [`Store`], and its entry point picks [`Inline`] or [`Heap`] by the bound.
//!
//! (`SmallVec` checks where its items are on every access and push and has drop glue; on the
//! bench files that was 10-25% of an inverse's or a coalesce's instructions. A list that can
//! not spill needs neither.)

use super::super::super::int::Int;
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

/// The most modes a list of [`Inline`] holds.
pub const CAP: usize = 16;

/// A list of at most `N` `Copy` items, inline. Pushing past `N` panics (a bug: callers bound
/// their lengths first).
pub struct Fixed<T: Copy, const N: usize> {
    len: usize,
    buf: [MaybeUninit<T>; N],
}

impl<T: Copy, const N: usize> Fixed<T, N> {
    #[inline(always)]
    pub fn new() -> Self {
        Fixed { len: 0, buf: [const { MaybeUninit::uninit() }; N] }
    }
    #[inline(always)]
    pub fn push(&mut self, t: T) {
        // (the index is checked: past `N` it panics)
        self.buf[self.len] = MaybeUninit::new(t);
        self.len += 1;
    }
    #[inline(always)]
    pub fn insert(&mut self, i: usize, t: T) {
        assert!(i <= self.len);
        let k = self.len;
        self.push(t);
        // (a short shift written out: the loop became a call to `memmove`, and the lists are
        // short)
        match k - i {
            0 => {}
            1 => self.buf[i + 1] = self.buf[i],
            2 => {
                self.buf[i + 2] = self.buf[i + 1];
                self.buf[i + 1] = self.buf[i];
            }
            _ => self.buf.copy_within(i..k, i + 1),
        }
        self.buf[i] = MaybeUninit::new(t);
    }
    #[inline(always)]
    pub fn pop(&mut self) -> Option<T> {
        let t = *self.last()?;
        self.len -= 1;
        Some(t)
    }
    #[inline(always)]
    pub fn extend_from_slice(&mut self, s: &[T]) {
        for &x in s {
            self.push(x);
        }
    }
}

impl<T: Copy, const N: usize> Default for Fixed<T, N> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> Deref for Fixed<T, N> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: the first `len` items are initialised (`push`, `insert`, `remove` keep it so)
        unsafe { std::slice::from_raw_parts(self.buf.as_ptr().cast::<T>(), self.len) }
    }
}

impl<T: Copy, const N: usize> DerefMut for Fixed<T, N> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`
        unsafe { std::slice::from_raw_parts_mut(self.buf.as_mut_ptr().cast::<T>(), self.len) }
    }
}

/// A list `coalesce`'s walk builds on (its general modes are not `Copy`: `SmallVec` too).
pub trait Grow<T>: DerefMut<Target = [T]> {
    fn push(&mut self, t: T);
    fn insert(&mut self, i: usize, t: T);
}

/// What the integer paths do to their lists besides [`Grow`]'s: a `Vec`'s methods.
pub trait List<T: Copy>: Grow<T> + Default {
    fn pop(&mut self) -> Option<T>;
    /// The most items it can hold.
    fn room(&self) -> usize;
    #[inline(always)]
    fn extend_from_slice(&mut self, s: &[T]) {
        for &x in s {
            self.push(x);
        }
    }
}

impl<T: Copy, const N: usize> Grow<T> for Fixed<T, N> {
    #[inline(always)]
    fn push(&mut self, t: T) {
        Fixed::push(self, t)
    }
    #[inline(always)]
    fn insert(&mut self, i: usize, t: T) {
        Fixed::insert(self, i, t)
    }
}

impl<T: Copy, const N: usize> List<T> for Fixed<T, N> {
    #[inline(always)]
    fn pop(&mut self) -> Option<T> {
        Fixed::pop(self)
    }
    #[inline(always)]
    fn room(&self) -> usize {
        N
    }
}

impl<T: Copy> Grow<T> for Vec<T> {
    #[inline(always)]
    fn push(&mut self, t: T) {
        Vec::push(self, t)
    }
    #[inline(always)]
    fn insert(&mut self, i: usize, t: T) {
        Vec::insert(self, i, t)
    }
}

impl<T: Copy> List<T> for Vec<T> {
    #[inline(always)]
    fn pop(&mut self) -> Option<T> {
        Vec::pop(self)
    }
    #[inline(always)]
    fn room(&self) -> usize {
        usize::MAX
    }
    #[inline(always)]
    fn extend_from_slice(&mut self, s: &[T]) {
        Vec::extend_from_slice(self, s)
    }
}

impl<A: smallvec::Array> Grow<A::Item> for smallvec::SmallVec<A> {
    #[inline(always)]
    fn push(&mut self, t: A::Item) {
        smallvec::SmallVec::push(self, t)
    }
    #[inline(always)]
    fn insert(&mut self, i: usize, t: A::Item) {
        smallvec::SmallVec::insert(self, i, t)
    }
}

/// Where an integer path keeps its lists: the types of [`Inline`] or [`Heap`].
pub trait Store {
    /// Modes `(shape, stride)`.
    type Modes: List<(Int, Int)>;
    /// Integers (shapes, prefix products).
    type Ints: List<Int>;
    /// `(key, position)` pairs to sort.
    type Keyed: List<(i64, usize)>;
}

/// Lists of at most [`CAP`] items, inline.
pub struct Inline;

/// Lists of any length, on the heap.
pub struct Heap;

impl Store for Inline {
    type Modes = Fixed<(Int, Int), CAP>;
    type Ints = Fixed<Int, CAP>;
    type Keyed = Fixed<(i64, usize), CAP>;
}

impl Store for Heap {
    type Modes = Vec<(Int, Int)>;
    type Ints = Vec<Int>;
    type Keyed = Vec<(i64, usize)>;
}

#[cfg(test)]
mod tests {
    use super::{Fixed, Grow, List};

    /// The list operations agree with `Vec`'s.
    #[test]
    fn fixed_is_a_vec() {
        let mut f: Fixed<u32, 8> = Fixed::new();
        let mut v: Vec<u32> = Vec::new();
        for k in 0..5 {
            Grow::push(&mut f, k);
            v.push(k);
        }
        Grow::insert(&mut f, 0, 9);
        v.insert(0, 9);
        Grow::insert(&mut f, 3, 7);
        v.insert(3, 7);
        Grow::insert(&mut f, 7, 8);
        v.insert(7, 8);
        assert_eq!(&f[..], &v[..]);
        // shifts of one and two items (written out) and of none
        let (mut g, mut w): (Fixed<u32, 8>, Vec<u32>) = (Fixed::new(), Vec::new());
        for (at, x) in [(0, 1), (0, 2), (1, 3), (1, 4), (4, 5), (2, 6), (6, 7)] {
            Grow::insert(&mut g, at, x);
            w.insert(at, x);
            assert_eq!(&g[..], &w[..]);
        }
        assert_eq!(List::pop(&mut f), v.pop());
        assert_eq!(&f[..], &v[..]);
        let mut g: Fixed<u32, 8> = Fixed::new();
        List::extend_from_slice(&mut g, &v);
        assert_eq!(&g[..], &v[..]);
        assert_eq!(List::room(&g), 8);
    }

    #[test]
    #[should_panic]
    fn fixed_refuses_more_than_its_capacity() {
        let mut f: Fixed<u8, 2> = Fixed::new();
        for k in 0..3 {
            Grow::push(&mut f, k);
        }
    }
}
