//! The swizzle functor (`swizzle.hpp`): `Swizzle<B,M,S>` construction with CuTe's static_asserts,
//! application to an integer, `make_swizzle<Y,Z>()` from masks, merging (composition of two
//! swizzles), upcast/downcast, and CuTe's `MixedBits` (offsets with some bits known statically,
//! some dynamically) as far as slicing a swizzled layout needs it.
//! May import: `eval::{int, layout, error}`.

use crate::eval::error::{EvalError, R};
use crate::eval::int::{dy, st, Int};
use crate::eval::layout::Swizzle;

/// `Swizzle<B,M,S>{}`: checks CuTe's static_asserts and that the masks are valid 32-bit `int`
/// constant expressions (the C++ fails to compile otherwise).
pub fn make(b: i64, m: i64, s: i64) -> R<Swizzle> {
    let fits = |x: i64| i32::try_from(x).is_ok();
    if !fits(b) || !fits(m) || !fits(s) {
        return Err(EvalError::rule(
            "swizzle parameter",
            format!("Sw<{b},{m},{s}>: template arguments must fit in a 32-bit int"),
        ));
    }
    if m < 0 {
        return Err(EvalError::rule("MBase must be positive", format!("Sw<{b},{m},{s}> has MBase = {m}")));
    }
    if b < 0 {
        return Err(EvalError::rule("BBits must be positive", format!("Sw<{b},{m},{s}> has BBits = {b}")));
    }
    if s.abs() < b {
        return Err(EvalError::rule("abs(SShift) must be more than BBits", format!("Sw<{b},{m},{s}>: |{s}| < {b}")));
    }
    // bit_msk = (1 << B) - 1 must be a constant expression of type int.
    if b > 30 {
        return Err(EvalError::rule(
            "swizzle mask overflow",
            format!("Sw<{b},{m},{s}>: (1 << {b}) - 1 does not fit in a 32-bit int"),
        ));
    }
    let bit_msk: u64 = (1u64 << b) - 1;
    for k in [m + s.max(0), m - s.min(0)] {
        if k >= 32 || (bit_msk << k) > u32::MAX as u64 {
            return Err(EvalError::rule(
                "swizzle mask overflow",
                format!("Sw<{b},{m},{s}>: the mask {bit_msk} << {k} does not fit in 32 bits"),
            ));
        }
    }
    Ok(Swizzle { b: b as i32, m: m as i32, s: s as i32 })
}

/// The mask `((1 << B) - 1) << shift` as CuTe's `int` constant (bit 31 makes it negative).
fn mask(sw: Swizzle, shift: i32) -> i64 {
    let bit_msk: u64 = (1u64 << sw.b) - 1;
    ((bit_msk << shift) as u32) as i32 as i64
}

/// `yyy_msk`: the bits that are XORed into the Z bits.
pub fn yyy_msk(sw: Swizzle) -> i64 {
    mask(sw, sw.m + sw.s.max(0))
}

/// `zzz_msk`: the bits that receive the XOR.
pub fn zzz_msk(sw: Swizzle) -> i64 {
    mask(sw, sw.m - sw.s.min(0))
}

/// `shiftr(x, s)`: `x >> s` for s >= 0, `x << -s` otherwise (wrapping like the C++ does).
fn shiftr64(x: i64, s: i32) -> i64 {
    if s >= 0 {
        x >> s.min(63)
    } else {
        x.wrapping_shl((-s) as u32)
    }
}

/// `Swizzle<B,M,S>::apply(offset)` = `offset ^ shiftr(offset & yyy_msk, S)`.
/// A static offset gives a static result. Values that fit in 32 bits are computed as C++ `int`
/// (wrapping on the left shift, as the compiled code does); larger ones as 64-bit `long`.
pub fn apply(sw: Swizzle, x: Int) -> Int {
    let y = yyy_msk(sw);
    let v = if let Ok(o) = i32::try_from(x.v) {
        let t = o & (y as i32);
        let sh = if sw.s >= 0 { t >> sw.s.min(31) } else { t.wrapping_shl((-sw.s) as u32) };
        (o ^ sh) as i64
    } else {
        x.v ^ shiftr64(x.v & y, sw.s)
    };
    Int::new(v, x.s)
}

/// `make_swizzle<Y, Z>()`: the swizzle whose yyy/zzz masks are Y and Z.
pub fn from_masks(y: u32, z: u32) -> R<Swizzle> {
    let bz = y.count_ones();
    let by = z.count_ones();
    if bz != by {
        return Err(EvalError::rule(
            "Number of bits in Y and Z don't match",
            format!("make_swizzle<{y},{z}>: {bz} bits in Y, {by} in Z"),
        ));
    }
    let tzy = y.trailing_zeros();
    let tzz = z.trailing_zeros();
    let m = tzy.min(tzz) % 32;
    let s = tzy as i64 - tzz as i64;
    let sw = make(bz as i64, m as i64, s)?;
    let code = (yyy_msk(sw) as u32) | (zzz_msk(sw) as u32);
    if (y | z) != code {
        return Err(EvalError::rule(
            "make_swizzle: Something went wrong",
            format!("masks Y = {y}, Z = {z} do not form a swizzle (got {sw})"),
        ));
    }
    Ok(sw)
}

/// `composition(Swizzle, Swizzle)`: merge two swizzles of the same shift.
pub fn merge(a: Swizzle, b: Swizzle) -> R<Swizzle> {
    if a.s != b.s {
        return Err(EvalError::rule(
            "Can only merge swizzles of the same shift",
            format!("{a} o {b}: shifts {} and {}", a.s, b.s),
        ));
    }
    let y = (yyy_msk(a) ^ yyy_msk(b)) as u32;
    let z = (zzz_msk(a) ^ zzz_msk(b)) as u32;
    from_masks(y, z)
}

/// log2 of a power of two, or CuTe's static_assert.
fn log2_pow2(n: i64, what: &str) -> R<i32> {
    if n <= 0 || n > u32::MAX as i64 || (n & (n - 1)) != 0 {
        return Err(EvalError::rule("N must be a power of two", format!("{what}<{n}>")));
    }
    Ok(n.trailing_zeros() as i32)
}

/// `upcast<N>(Swizzle)`.
pub fn upcast(sw: Swizzle, n: i64) -> R<Swizzle> {
    let l = log2_pow2(n, "upcast")?;
    let new_m = sw.m - l;
    if new_m >= 0 {
        make(sw.b as i64, new_m as i64, sw.s as i64)
    } else {
        make((sw.b + new_m).max(0) as i64, 0, sw.s as i64)
    }
}

/// `downcast<N>(Swizzle)`.
pub fn downcast(sw: Swizzle, n: i64) -> R<Swizzle> {
    let l = log2_pow2(n, "downcast")?;
    make(sw.b as i64, sw.m as i64 + l as i64, sw.s as i64)
}

/// The static offset of a composed layout as CuTe's `upcast`/`downcast` see it: only static
/// offsets are accepted (there is no overload for a run-time `int`), and the arithmetic with
/// `C<uint32_t N>` makes the result unsigned.
fn static_offset(o: Int, what: &str, n: i64) -> R<i64> {
    if !o.s {
        return Err(EvalError::rule(
            "no matching function",
            format!("{what}<{n}> of the run-time offset {o} (CuTe has no {what} for a dynamic int)"),
        ));
    }
    Ok(if i32::try_from(o.v).is_ok() { (o.v as i32 as u32) as i64 } else { o.v })
}

/// `upcast<N>(offset)` for a static offset: `safe_div(offset, C<N>)`.
pub fn upcast_int(o: Int, n: i64) -> R<Int> {
    log2_pow2(n, "upcast")?;
    let t = static_offset(o, "upcast", n)?;
    if t % n != 0 {
        return Err(EvalError::rule("Static safe_div requires t % u == 0", format!("upcast<{n}> of offset {o}")));
    }
    Ok(st(t / n))
}

/// `downcast<N>(offset)` for a static offset: `offset * C<N>`.
pub fn downcast_int(o: Int, n: i64) -> R<Int> {
    log2_pow2(n, "downcast")?;
    let t = static_offset(o, "downcast", n)?;
    if t <= u32::MAX as i64 {
        Ok(st(((t as u32).wrapping_mul(n as u32)) as i64))
    } else {
        st(t).mul(st(n))
    }
}

// ------------------------------------------------------------------------------------------
// MixedBits
// ------------------------------------------------------------------------------------------

/// An offset while slicing a swizzled layout: a static or dynamic integer, or CuTe's
/// `MixedBits<S,F>` (value `S | (d & F)`, bits in F known only at run time).
/// `u` marks an integer whose C++ type became `uint32_t` (mixing with the `uint32_t` masks of
/// `make_mixed_bits`): it prints as unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Off {
    Int { i: Int, u: bool },
    Mixed { s: u32, f: u32, d: u32 },
}

/// A boolean that is static (`true_type`/`false_type`) or a run-time `bool` (with its value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    Static(bool),
    Dynamic(bool),
}

/// An integer of C++ type `int` (or `long`), unsigned when `u`.
fn num(v: i64, s: bool, u: bool) -> Off {
    let v = if u && i32::try_from(v).is_ok() { (v as i32 as u32) as i64 } else { v };
    Off::Int { i: Int::new(v, s), u }
}

// `add` returns `R<Int>` (checked), so it is not `std::ops::Add`.
#[allow(clippy::should_implement_trait)]
impl Off {
    /// A signed integer offset.
    pub fn int(i: Int) -> Off {
        Off::Int { i, u: false }
    }

    /// The integer as CuTe prints it, or `None` for MixedBits.
    pub fn as_int(self) -> Option<Int> {
        match self {
            Off::Int { i, .. } => Some(i),
            Off::Mixed { .. } => None,
        }
    }

    /// `make_mixed_bits(C<s>, d, C<f>)`; `s_unsigned` is the type of `s`.
    pub fn make(s: u32, d: Int, f: u32, s_unsigned: bool) -> Off {
        let new_f = f & !s;
        if d.s {
            // C<s> | (d & C<new_f>): static, uint32_t.
            num((s | ((d.v as u32) & new_f)) as i64, true, true)
        } else if new_f == 0 {
            // d & C<0> is C<0> (int): C<s> keeps its type.
            num(s as i64, true, s_unsigned)
        } else {
            Off::Mixed { s, f: new_f, d: (d.v as u32) & new_f }
        }
    }

    /// `a ^ b`.
    pub fn xor(self, o: Off) -> Off {
        match (self, o) {
            (Off::Int { i: a, u: ua }, Off::Int { i: b, u: ub }) => num(a.v ^ b.v, a.s && b.s, ua || ub),
            (Off::Mixed { s: s0, f: f0, d }, Off::Int { i: c, .. })
            | (Off::Int { i: c, .. }, Off::Mixed { s: s0, f: f0, d }) => {
                if c.s {
                    let s1 = c.v as u32;
                    Off::make((!s0 & s1 & !f0) | (s0 & !s1), dy(((s0 | d) ^ s1) as i64), f0, true)
                } else {
                    // A run-time int converts the MixedBits to uint32_t.
                    num(((s0 | d) as i64) ^ c.v, false, true)
                }
            }
            (Off::Mixed { s: s0, f: f0, d: d0 }, Off::Mixed { s: s1, f: f1, d: d1 }) => {
                Off::make((!s0 & s1 & !f0) | (s0 & !s1 & !f1), dy(((s0 | d0) ^ (s1 | d1)) as i64), f0 | f1, true)
            }
        }
    }

    /// `a & C<m>` (m a static `int`).
    pub fn and_c(self, m: i64) -> Off {
        match self {
            Off::Int { i: a, u } => {
                if m == 0 && !a.s {
                    num(0, true, false)
                } else {
                    num(a.v & m, a.s, u)
                }
            }
            Off::Mixed { s, f, d } => Off::make(s & (m as u32), dy(d as i64), f & (m as u32), true),
        }
    }

    /// `shiftr(a, C<k>)`.
    pub fn shiftr_c(self, k: i32) -> Off {
        match self {
            Off::Int { i: a, u } => num(shiftr64(a.v, k), a.s, u),
            Off::Mixed { s, f, d } => {
                let sh = |x: u32| {
                    if k >= 0 {
                        x.checked_shr(k as u32).unwrap_or(0)
                    } else {
                        x.checked_shl((-k) as u32).unwrap_or(0)
                    }
                };
                Off::make(sh(s), dy(sh(d) as i64), sh(f), true)
            }
        }
    }

    /// `a == C<0>`.
    pub fn eq_zero(self) -> Cond {
        match self {
            Off::Int { i: a, .. } => {
                if a.s {
                    Cond::Static(a.v == 0)
                } else {
                    Cond::Dynamic(a.v == 0)
                }
            }
            Off::Mixed { s, d, .. } => Cond::Dynamic((s | d) == 0),
        }
    }

    /// `Swizzle(a)`: `a ^ shiftr(a & yyy_msk, S)`.
    pub fn swizzle(self, sw: Swizzle) -> Off {
        match self {
            Off::Int { i: a, u } => {
                let r = apply(sw, a);
                num(r.v, r.s, u)
            }
            m => m.xor(m.and_c(yyy_msk(sw)).shiftr_c(sw.s)),
        }
    }

    /// `a + b` for an integer b (a MixedBits converts to uint32_t, a run-time value). An
    /// unsigned `a` plus an `int` is a `uint32_t` in C++: the sum wraps modulo 2^32
    /// (`uint32_t(-8) + 24` is 16).
    pub fn add(self, b: Int) -> R<Int> {
        let (a, b, u) = match self {
            Off::Int { i, u } => (i, b, u),
            Off::Mixed { s, d, .. } => (dy((s | d) as i64), dy(b.v), true),
        };
        let r = a.add(b)?;
        if u && u32::try_from(a.v).is_ok() && i32::try_from(b.v).is_ok() {
            return Ok(Int::new(r.v as u32 as i64, r.s));
        }
        Ok(num(r.v, r.s, u).as_int().unwrap_or(r))
    }

    /// CuTe's print: an integer, or `M_S|(d&F)=v`.
    pub fn show(self) -> String {
        match self {
            Off::Int { i, .. } => i.to_string(),
            Off::Mixed { s, f, d } => format!("M_{s}|({d}&{f})={}", s | d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sw(b: i64, m: i64, s: i64) -> Swizzle {
        make(b, m, s).unwrap()
    }

    #[test]
    fn static_asserts() {
        assert_eq!(make(3, 3, 2).unwrap_err().rule, "abs(SShift) must be more than BBits");
        assert_eq!(make(3, -1, 3).unwrap_err().rule, "MBase must be positive");
        assert_eq!(make(-1, 3, 3).unwrap_err().rule, "BBits must be positive");
        assert!(make(1, 30, 1).is_ok());
        assert!(make(1, 30, 2).is_err());
        assert!(make(31, 0, 31).is_err());
        assert!(make(30, 0, 30).is_err());
        assert!(make(0, 0, 0).is_ok());
    }

    #[test]
    fn apply_values() {
        // From the oracle.
        assert_eq!(apply(sw(3, 3, 3), st(64)), st(72));
        assert_eq!(apply(sw(3, 3, 3), dy(64)), dy(72));
        assert_eq!(apply(sw(3, 3, 3), st(511)), st(455));
        assert_eq!(apply(sw(3, 4, 3), dy(1000)), dy(920));
        assert_eq!(apply(sw(2, 3, 3), dy(200)), dy(208));
        assert_eq!(apply(sw(3, 3, 3), dy(-1)), dy(-57));
        assert_eq!(apply(sw(3, 3, -3), dy(-100)), dy(-164));
        assert_eq!(apply(sw(1, 29, -2), dy(536870912)), dy(-1610612736));
        assert_eq!(apply(sw(2, 3, 3), dy(4294967296)), dy(4294967296));
        assert_eq!(apply(sw(0, 0, 0), dy(5)), dy(5));
    }

    #[test]
    fn involution() {
        for (b, m, s) in [(3, 3, 3), (2, 0, -3), (1, 1, 2), (3, 4, 5)] {
            let w = sw(b, m, s);
            for x in -300..3000 {
                assert_eq!(apply(w, apply(w, dy(x))), dy(x));
            }
        }
    }

    #[test]
    fn merging() {
        assert_eq!(merge(sw(3, 3, 3), sw(3, 3, 3)).unwrap(), sw(0, 0, 0));
        assert_eq!(merge(sw(2, 3, 3), sw(1, 5, 3)).unwrap(), sw(3, 3, 3));
        assert_eq!(merge(sw(3, 3, 3), sw(2, 3, 4)).unwrap_err().rule, "Can only merge swizzles of the same shift");
    }

    #[test]
    fn casts() {
        assert_eq!(upcast(sw(3, 3, 3), 2).unwrap(), sw(3, 2, 3));
        assert_eq!(upcast(sw(3, 3, 3), 16).unwrap(), sw(2, 0, 3));
        assert_eq!(downcast(sw(3, 3, 3), 2).unwrap(), sw(3, 4, 3));
        assert!(upcast(sw(3, 3, 3), 3).is_err());
    }
}
