//! Static/dynamic integers: CuTe's `Int<N>` (static, printed `_N`) and plain `int` (dynamic).
//!
//! Every arithmetic rule that mixes static and dynamic integers lives here, so the rest of the
//! algebra never has to think about it. All arithmetic is checked: overflow is an error.
//! May import: `eval::error` only.

use super::error::{EvalError, R};
use std::fmt;

/// One integer of an IntTuple: its value and whether CuTe knows it at compile time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Int {
    pub v: i64,
    /// `true` for `Int<N>` (prints `_N`), `false` for a run-time `int`.
    pub s: bool,
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.s {
            f.write_str("_")?;
        }
        write_i64(f, self.v)
    }
}

/// `v` in decimal, written in one piece (printing is a large part of a script's time).
pub fn write_i64(f: &mut impl fmt::Write, v: i64) -> fmt::Result {
    f.write_str(decimal(v, &mut [0; 20]))
}

/// `v` in decimal, in `buf` (no allocation; the pictures write a few numbers per cell).
pub fn decimal(v: i64, buf: &mut [u8; 20]) -> &str {
    // Only ASCII digits and `-` were written.
    std::str::from_utf8(decimal_bytes(v, buf)).unwrap_or("?")
}

/// [`decimal`]'s bytes (the printers append them to bytes: no UTF-8 check needed).
#[inline]
pub fn decimal_bytes(v: i64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    let mut n = v.unsigned_abs();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // i64::MIN has 19 digits, so there is room for its sign.
    if v < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    &buf[at..]
}

/// Static integer `_v`.
pub const fn st(v: i64) -> Int {
    Int { v, s: true }
}
/// Dynamic integer `v`.
pub const fn dy(v: i64) -> Int {
    Int { v, s: false }
}

// `add`, `mul`, ... return `R<Int>` (overflow is an error), so they are not the `std::ops` traits.
#[allow(clippy::should_implement_trait)]
impl Int {
    pub const fn new(v: i64, s: bool) -> Int {
        Int { v, s }
    }
    /// True if static and equal to `v` (CuTe's `is_constant<v, T>`).
    pub fn is_const(self, v: i64) -> bool {
        self.s && self.v == v
    }
    /// CuTe's compile-time booleans: `true_type` prints `_1`, a run-time bool prints `1`.
    pub fn bool(b: bool, s: bool) -> Int {
        Int { v: b as i64, s }
    }

    /// `a + b`: static only if both are.
    #[inline]
    pub fn add(self, o: Int) -> R<Int> {
        match self.v.checked_add(o.v) {
            Some(v) => Ok(Int::new(v, self.s && o.s)),
            None => Err(overflow("+", self, o)),
        }
    }
    #[inline]
    pub fn sub(self, o: Int) -> R<Int> {
        match self.v.checked_sub(o.v) {
            Some(v) => Ok(Int::new(v, self.s && o.s)),
            None => Err(overflow("-", self, o)),
        }
    }
    /// `a * b`: static if both are; `_0 * x` and `x * _0` are static `_0` (CuTe's C<0> overloads).
    #[inline]
    pub fn mul(self, o: Int) -> R<Int> {
        if self.is_const(0) || o.is_const(0) {
            return Ok(st(0));
        }
        match self.v.checked_mul(o.v) {
            Some(v) => Ok(Int::new(v, self.s && o.s)),
            None => Err(overflow("*", self, o)),
        }
    }
    /// `a / b` truncating like C++; `_0 / x` is `_0` (`_0 / 0` too when the `0` is dynamic: CuTe's
    /// `C<0> / U` overload does not divide). Any other division by zero is an error.
    #[inline]
    pub fn div(self, o: Int) -> R<Int> {
        if o.v == 0 {
            return self.by_zero(o);
        }
        if self.is_const(0) {
            return Ok(st(0));
        }
        match self.v.checked_div(o.v) {
            Some(v) => Ok(Int::new(v, self.s && o.s)),
            None => Err(overflow("/", self, o)),
        }
    }
    /// `a % b` like C++; `x % _1` and `_0 % x` are `_0` (`_0 % 0` too when the `0` is dynamic, as
    /// for `/`).
    #[inline]
    pub fn rem(self, o: Int) -> R<Int> {
        if o.v == 0 {
            return self.by_zero(o);
        }
        if self.is_const(0) || o.is_const(1) || o.is_const(-1) {
            return Ok(st(0));
        }
        match self.v.checked_rem(o.v) {
            Some(v) => Ok(Int::new(v, self.s && o.s)),
            None => Err(overflow("%", self, o)),
        }
    }
    /// `self / o` or `self % o` for `o` equal to 0: `_0` when `self` is a static `_0` and `o` is
    /// dynamic (CuTe's `C<0>` overloads compute nothing), else the division-by-zero error.
    #[cold]
    #[inline(never)]
    fn by_zero(self, o: Int) -> R<Int> {
        if self.is_const(0) && !o.s {
            Ok(st(0))
        } else {
            Err(EvalError::div_zero(self, o))
        }
    }
    /// `a & b`: static if both are; `_0 & x` and `x & _0` are static `_0` (CuTe's C<0> overloads).
    pub fn and(self, o: Int) -> Int {
        if self.is_const(0) || o.is_const(0) {
            return st(0);
        }
        Int::new(self.v & o.v, self.s && o.s)
    }
    /// `a | b`: static only if both are (CuTe has no mixed special case for `|`).
    pub fn or(self, o: Int) -> Int {
        Int::new(self.v | o.v, self.s && o.s)
    }
    /// `a ^ b`: static only if both are.
    pub fn xor(self, o: Int) -> Int {
        Int::new(self.v ^ o.v, self.s && o.s)
    }
    /// `~a`: keeps static-ness.
    pub fn not(self) -> Int {
        Int::new(!self.v, self.s)
    }
    /// CuTe's `shiftl(x, s)`: `x << s`, or `x >> -s` for negative `s`; static if both are.
    /// A shift of 64 bits or more, or one that loses bits of `x`, is an overflow error.
    pub fn shiftl(self, o: Int) -> R<Int> {
        let s = self.s && o.s;
        if o.v <= -64 || o.v >= 64 {
            return Err(shift_overflow("shiftl", self, o));
        }
        if o.v < 0 {
            return Ok(Int::new(self.v >> -o.v, s));
        }
        let r = self.v << o.v;
        if r >> o.v != self.v {
            return Err(shift_overflow("shiftl", self, o));
        }
        Ok(Int::new(r, s))
    }
    /// CuTe's `shiftr(x, s)`: `x >> s` (arithmetic), or `x << -s` for negative `s`.
    pub fn shiftr(self, o: Int) -> R<Int> {
        if o.v == i64::MIN {
            return Err(shift_overflow("shiftr", self, o));
        }
        self.shiftl(Int::new(-o.v, o.s)).map_err(|_| shift_overflow("shiftr", self, o))
    }
    pub fn neg(self) -> R<Int> {
        st(0).sub(self).map(|r| Int::new(r.v, self.s))
    }
    pub fn abs(self) -> R<Int> {
        if self.v < 0 {
            self.neg()
        } else {
            Ok(self)
        }
    }
    pub fn min(self, o: Int) -> Int {
        Int::new(self.v.min(o.v), self.s && o.s)
    }
    pub fn max(self, o: Int) -> Int {
        Int::new(self.v.max(o.v), self.s && o.s)
    }
    /// Comparisons give CuTe booleans: static if both operands are static.
    pub fn lt(self, o: Int) -> Int {
        Int::bool(self.v < o.v, self.s && o.s)
    }
    pub fn eq(self, o: Int) -> Int {
        Int::bool(self.v == o.v, self.s && o.s)
    }
}

/// The overflow error of `a op b` (apart, and cold: every step of arithmetic checks, few fail).
#[cold]
#[inline(never)]
fn overflow(op: &str, a: Int, b: Int) -> EvalError {
    EvalError::overflow(op, a, b)
}

fn shift_overflow(f: &str, a: Int, b: Int) -> EvalError {
    EvalError::new(
        super::error::ErrorKind::Overflow,
        "integer overflow",
        format!("{f}({a}, {b}) does not fit in 64 bits"),
    )
}

/// Greatest common divisor of magnitudes (gcd(0, x) = |x|), as `cute::gcd` on values.
pub fn gcd_i64(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a as i64
}
