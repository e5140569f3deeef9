//! Hopper shared memory for wgmma, ported from CuTe's `atom/mma_traits_sm90_gmma.hpp`,
//! `arch/mma_sm90_desc.hpp` and `pointer_flagged.hpp`: the eight GMMA layout atoms,
//! `make_gmma_desc<K|MN>` with CuTe's refusals, and the byte ↔ element view of a swizzle with
//! its TMA swizzle mode.
//!
//! The library API (`Major`, `LayoutType`, `GmmaDesc`, `make_gmma_desc`, `gmma_atom`) is what
//! the Hopper kernel generator calls, so what the REPL prints is what a kernel uses. `analyze`
//! records every step of the descriptor's derivation for `explain`.
//! May import: `eval::{ops, layout, value, int, int_tuple, error}`.

use super::error::{EvalError, R};
use super::int::{st, Int};
use super::int_tuple::IntTuple::{self, I};
use super::int_tuple::{T, V};
use super::layout::{Composed, Func, Layout, Swizzle, TypedOffset};
use super::ops::algebra as cast;
use super::ops::algebra::Tiler;
use super::ops::divide::logical_divide_tiler;
use super::value::Value;
use std::fmt;

/// Which mode of the operand tile is contiguous: `GMMA::Major`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Major {
    K,
    MN,
}

impl fmt::Display for Major {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Major::K => "K",
            Major::MN => "MN",
        })
    }
}

/// `GMMA::LayoutType`: the descriptor's swizzle mode (CuTe's encoding: INTERLEAVE 0, B128 1,
/// B64 2, B32 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayoutType {
    Interleave,
    B128,
    B64,
    B32,
}

impl LayoutType {
    /// The 2-bit code in the descriptor.
    pub fn code(self) -> u8 {
        match self {
            LayoutType::Interleave => 0,
            LayoutType::B128 => 1,
            LayoutType::B64 => 2,
            LayoutType::B32 => 3,
        }
    }
    fn from_code(c: u8) -> LayoutType {
        match c & 3 {
            0 => LayoutType::Interleave,
            1 => LayoutType::B128,
            2 => LayoutType::B64,
            _ => LayoutType::B32,
        }
    }
    /// CuTe's `to_string(LayoutType)`.
    pub fn name(self) -> &'static str {
        match self {
            LayoutType::Interleave => "INTERLEAVE",
            LayoutType::B128 => "B128",
            LayoutType::B64 => "B64",
            LayoutType::B32 => "B32",
        }
    }
    /// The byte swizzle `Sw<B,4,3>`'s B: 0 (interleaved), 1 (32B), 2 (64B), 3 (128B).
    pub fn swizzle_b(self) -> i32 {
        match self {
            LayoutType::Interleave => 0,
            LayoutType::B32 => 1,
            LayoutType::B64 => 2,
            LayoutType::B128 => 3,
        }
    }
    /// W: the swizzle's row width in 16-byte units (1 for interleaved).
    pub fn width(self) -> i64 {
        1 << self.swizzle_b()
    }
    /// The width of a swizzled row in bytes (0 for interleaved), the `swizzle_bytes` of `gmma_atom`.
    pub fn swizzle_bytes(self) -> u32 {
        match self {
            LayoutType::Interleave => 0,
            t => 16 << t.swizzle_b(),
        }
    }
}

/// CuTe's `GmmaDescriptor` (the 64-bit wgmma matrix descriptor), its fields as stored (each
/// offset in 16-byte units, truncated to its 14-bit field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GmmaDesc {
    pub start_address: u16,
    pub leading_off: u16,
    pub stride_off: u16,
    pub base_offset: u8,
    pub layout_type: LayoutType,
}

impl GmmaDesc {
    /// The 64-bit encoding: start address bits [0,14), leading byte offset [16,30), stride byte
    /// offset [32,46), base offset [49,52), layout type [62,64).
    pub fn bits(&self) -> u64 {
        (self.start_address as u64 & 0x3fff)
            | (self.leading_off as u64 & 0x3fff) << 16
            | (self.stride_off as u64 & 0x3fff) << 32
            | (self.base_offset as u64 & 0x7) << 49
            | (self.layout_type.code() as u64) << 62
    }
    /// The descriptor of a 64-bit encoding.
    pub fn from_bits(d: u64) -> GmmaDesc {
        GmmaDesc {
            start_address: (d & 0x3fff) as u16,
            leading_off: (d >> 16 & 0x3fff) as u16,
            stride_off: (d >> 32 & 0x3fff) as u16,
            base_offset: (d >> 49 & 0x7) as u8,
            layout_type: LayoutType::from_code((d >> 62) as u8),
        }
    }
}

/// CuTe's `print(GmmaDescriptor)`.
impl fmt::Display for GmmaDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "GmmaDescriptor: 0x{:016x}", self.bits())?;
        writeln!(f, "  start_addr :  0x{:04x}", self.start_address)?;
        writeln!(f, "  leading_off:  0x{:04x} ({})", self.leading_off, self.leading_off)?;
        writeln!(f, "  stride_off :  0x{:04x} ({})", self.stride_off, self.stride_off)?;
        writeln!(f, "  base_offset:  0x{:01x}", self.base_offset)?;
        write!(f, "  layout_type:  0x{:01x} ({})", self.layout_type.code(), self.layout_type.name())
    }
}

// ---------------------------------------------------------------------------------------------
// GMMA layout atoms
// ---------------------------------------------------------------------------------------------

/// `Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>` for a T of `elem_bits` bits, or why not.
/// `swizzle_bytes` is 0 (INTER), 32, 64 or 128.
pub fn try_gmma_atom(major: Major, swizzle_bytes: u32, elem_bits: u32) -> R<Value> {
    let b = match swizzle_bytes {
        0 => 0,
        32 => 1,
        64 => 2,
        128 => 3,
        n => {
            return Err(EvalError::rule(
                "no GMMA layout atom",
                format!("the swizzle width is 0 (INTER), 32, 64 or 128 bytes, not {n}"),
            ))
        }
    };
    // The atoms in bits: 8 rows of W*128 bits, K- or MN-contiguous.
    let w = 128i64 << b;
    let bits_atom = match major {
        Major::K => Layout::new(T(vec![I(st(8)), I(st(w))]), T(vec![I(st(w)), I(st(1))])),
        Major::MN => Layout::new(T(vec![I(st(w)), I(st(8))]), T(vec![I(st(1)), I(st(w))])),
    };
    let flagged = Composed {
        outer: Func::Swizzle(Swizzle { b, m: 4, s: 3 }),
        offset: st(0),
        inner: Func::Layout(bits_atom),
        mixed: Some(TypedOffset::SmemFlag(1)),
    };
    upcast_flagged(&flagged, elem_bits)
}

/// The GMMA layout atom (see `try_gmma_atom`) for the Hopper kernel generator. Arguments
/// outside CuTe's atoms (a swizzle width other than 0/32/64/128, an element width that is not
/// a power of two up to 128 bits) give the error as printed text.
pub fn gmma_atom(major: Major, swizzle_bytes: u32, elem_bits: u32) -> Value {
    try_gmma_atom(major, swizzle_bytes, elem_bits).unwrap_or_else(|e| Value::Text(format!("error: {e}")))
}

/// `upcast<N>(A o smem_ptr[Bb](unset) o L)` (`pointer_flagged.hpp`): the swizzle is kept (it acts
/// on bytes), the flag becomes `smem_ptr[(B*N)b]`, the layout is upcast.
fn upcast_flagged(c: &Composed, n: u32) -> R<Value> {
    let (Some(bits), Func::Layout(l)) = (c.smem_bits(), &c.inner) else {
        return Err(EvalError::type_err(format!("`{c}` is not a GMMA layout atom")));
    };
    if n == 0 {
        return Err(EvalError::rule("sizeof_bits", "an element has at least 1 bit"));
    }
    let inner = cast::upcast(l, n as i64)?;
    Ok(Value::Composed(Box::new(Composed {
        outer: c.outer.clone(),
        offset: st(0),
        inner: Func::Layout(inner),
        mixed: Some(TypedOffset::SmemFlag(bits * n)),
    })))
}

/// `A o smem_ptr[Bb](unset) o L` as written: CuTe's `ComposedLayout<A, smem_ptr_flag_bits<B>, L>`.
pub fn smem_flagged(outer: Value, bits: u32, inner: Value) -> R<Value> {
    let f = |v: Value| match v {
        Value::Layout(l) => Ok(Func::Layout(l)),
        Value::Swizzle(s) => Ok(Func::Swizzle(s)),
        Value::Composed(c) => Ok(Func::Composed(c)),
        v => Err(EvalError::type_err(format!("expected a layout or swizzle, got {} `{v}`", v.kind()))),
    };
    if i32::try_from(bits).is_err() {
        return Err(EvalError::rule("smem_ptr_flag_bits", format!("{bits} bits is not an int")));
    }
    Ok(Value::Composed(Box::new(Composed {
        outer: f(outer)?,
        offset: st(0),
        inner: f(inner)?,
        mixed: Some(TypedOffset::SmemFlag(bits)),
    })))
}

// ---------------------------------------------------------------------------------------------
// make_gmma_desc
// ---------------------------------------------------------------------------------------------

/// A check of `make_gmma_desc` that failed: CuTe's message and what it found.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// CuTe's static_assert text, e.g. `Not a canonical GMMA_K Layout: Expected stride failure.`
    pub message: String,
    /// Which rule broke, with the values (for `explain`).
    pub why: String,
}

/// Every step of `make_gmma_desc<Major>(make_tensor(make_smem_ptr((T*)0, Sw), L))`.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub major: Major,
    /// The pointer's swizzle, acting on bytes (`Sw<0,4,3>` for a plain smem pointer).
    pub swizzle: Swizzle,
    pub elem_bits: u32,
    /// The tensor's layout, in elements.
    pub layout: Layout,
    pub layout_type: Option<LayoutType>,
    /// `recast_layout<T, uint128_t>(layout)`: in 16-byte units.
    pub u128: Option<Layout>,
    /// `logical_divide(u128, <W:1, 8:1>)` (MN) or `logical_divide(u128, <8:1, 2:1>)` (K).
    pub canonical: Option<Layout>,
    pub result: Result<GmmaDesc, Refusal>,
}

fn refuse(message: impl Into<String>, why: impl Into<String>) -> Refusal {
    Refusal { message: message.into(), why: why.into() }
}

/// The descriptor of a shared-memory operand tile `layout` (in elements of `elem_bits` bits): a
/// plain layout (no swizzle) or a GMMA atom layout `Sw<B,4,3> o smem_ptr[Nb](unset) o L` (or one
/// tiled with `tile_to_shape`). Refusals carry CuTe's message.
pub fn make_gmma_desc(major: Major, layout: &Value, elem_bits: u32) -> R<GmmaDesc> {
    let (sw, l) = split_operand(layout, elem_bits)?;
    let a = analyze(major, sw, &l, elem_bits);
    a.result.map_err(|r| EvalError::rule(r.message, r.why))
}

/// The pointer swizzle and element layout of a `make_gmma_desc` operand (`make_tensor` of it).
pub fn split_operand(v: &Value, elem_bits: u32) -> R<(Swizzle, Layout)> {
    match v {
        Value::Layout(l) => Ok((Swizzle { b: 0, m: 4, s: 3 }, l.clone())),
        Value::Composed(c) => match (c.smem_bits(), &c.outer, &c.inner) {
            (Some(b), Func::Swizzle(sw), Func::Layout(l)) => {
                if b != elem_bits {
                    return Err(EvalError::rule(
                        "Expected a B-bit pointer type",
                        format!("the layout is for {b}-bit elements (smem_ptr[{b}b]), the type has {elem_bits} bits"),
                    ));
                }
                Ok((*sw, l.clone()))
            }
            (Some(_), _, _) => Err(EvalError::rule(
                "Unsupported layout swizzle",
                format!("`{c}`: the outer function of a shared-memory layout must be a swizzle"),
            )),
            (None, _, _) => Err(EvalError::rule(
                "no matching function for call to 'layout_type'",
                format!(
                    "`{c}` is a swizzled layout on elements; a GMMA operand is a plain layout behind a \
                     byte-swizzled pointer: write make_gmma_desc<K>(Sw<B,4,3>, L, T) or use a GMMA atom"
                ),
            )),
        },
        v => Err(EvalError::type_err(format!("make_gmma_desc needs a layout, got {} `{v}`", v.kind()))),
    }
}

fn static_i(i: &IntTuple) -> Option<i64> {
    match i {
        I(x) if x.s => Some(x.v),
        _ => None,
    }
}

fn mode(l: &Layout, path: &[usize]) -> Option<(IntTuple, IntTuple)> {
    // (recursive: an inline tuple's elements live only as long as its view)
    fn go(s: &IntTuple, d: &IntTuple, path: &[usize]) -> Option<(IntTuple, IntTuple)> {
        let Some((&k, rest)) = path.split_first() else { return Some((s.clone(), d.clone())) };
        match (s.view(), d.view()) {
            (V::T(sv), V::T(dv)) if k < sv.len() && k < dv.len() => go(&sv[k], &dv[k], rest),
            _ => None,
        }
    }
    go(&l.shape, &l.stride, path)
}

fn size_of(t: &IntTuple) -> R<Int> {
    crate::eval::ops::algebra::util::product(t)
}

/// Run CuTe's checks in CuTe's order, recording each intermediate value.
pub fn analyze(major: Major, sw: Swizzle, l: &Layout, elem_bits: u32) -> Analysis {
    let mut a = Analysis {
        major,
        swizzle: sw,
        elem_bits,
        layout: l.clone(),
        layout_type: None,
        u128: None,
        canonical: None,
        result: Err(refuse("", "")),
    };
    a.result = run_checks(&mut a);
    a
}

fn run_checks(a: &mut Analysis) -> Result<GmmaDesc, Refusal> {
    let kname = match a.major {
        Major::K => "GMMA_K",
        Major::MN => "GMMA_MN",
    };
    if a.layout.shape.rank() != 2 || !a.layout.shape.is_tuple() {
        return Err(refuse(
            "GMMA Descriptors can only be constructed on rank-2 tensors",
            format!("{} has rank {}; the operand tile is (MN, K)", a.layout, a.layout.shape.rank()),
        ));
    }
    let u128 = cast::recast_layout(&a.layout, a.elem_bits as i64, 128)
        .map_err(|e| refuse(e.rule.clone(), format!("recasting {} to 16-byte units: {e}", a.layout)))?;
    a.u128 = Some(u128.clone());
    let sw = a.swizzle;
    if sw.m != 4 || !(0..=3).contains(&sw.b) || sw.s != 3 {
        return Err(refuse(
            "Unsupported layout swizzle",
            format!("{sw} is not a GMMA swizzle: the byte swizzles are Sw<0,4,3>, Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3>"),
        ));
    }
    let lt = match sw.b {
        0 => LayoutType::Interleave,
        1 => LayoutType::B32,
        2 => LayoutType::B64,
        _ => LayoutType::B128,
    };
    a.layout_type = Some(lt);
    let w = lt.width();
    let inter = lt == LayoutType::Interleave;
    let t_elems = if a.elem_bits > 0 { 128 / a.elem_bits as i64 } else { 0 };
    let sizes = |k: usize| -> Result<Int, Refusal> {
        let (s, _) = mode(&u128, &[k]).ok_or_else(|| refuse("rank", "mode missing"))?;
        size_of(&s).map_err(|e| refuse(e.rule.clone(), e.detail.clone()))
    };
    // CuTe checks sizes with CUTE_STATIC_ASSERT_V and reads strides as constexpr: a dynamic one
    // does not compile ("'value' is not a member of 'bool'", "the value of 'canonical_layout' is
    // not usable in a constant expression").
    let dynamic = |what: &str| {
        refuse(
            "not a compile-time layout",
            format!("{what} is known only at run time; CuTe builds the descriptor at compile time, from static (`_n`) shapes and strides"),
        )
    };
    let tile = match a.major {
        Major::MN => {
            let k = sizes(1)?;
            if !k.s {
                return Err(dynamic(&format!("the K-size {k}")));
            }
            let dense = 256 / a.elem_bits as i64;
            let sparse = [128 / a.elem_bits as i64, 512 / a.elem_bits as i64];
            if k.v != dense && !sparse.contains(&k.v) {
                return Err(refuse(
                    format!("Not a canonical {kname} Layout: Expected K-size 256/sizeof_bits<T> for dense or (128|512)/sizeof_bits<T> for sparse"),
                    format!("the K mode has {} elements; a wgmma K step of {}-bit data is {dense} elements (32 bytes)", k.v, a.elem_bits),
                ));
            }
            vec![Layout::new(I(st(w)), I(st(1))), Layout::new(I(st(8)), I(st(1)))]
        }
        Major::K => {
            let mn = sizes(0)?;
            if !mn.s {
                return Err(dynamic(&format!("the MN-size {mn}")));
            }
            if mn.v % 8 != 0 {
                return Err(refuse(
                    format!("Not a canonical {kname} Layout: Expected MN-size multiple of 8"),
                    format!("the MN mode has {} rows; GMMA reads 8-row core matrices", mn.v),
                ));
            }
            let k = sizes(1)?;
            if !k.s {
                return Err(dynamic(&format!("the K-size {k}")));
            }
            if k.v != 2 && k.v != 4 {
                return Err(refuse(
                    format!("Not a canonical {kname} Layout: Expected K-size 2 for dense or 4 for sparse (in units of uint128_t)"),
                    format!(
                        "the K mode is {} units of 16 bytes ({} elements); one wgmma K step is 2 units = 32 bytes = {} elements of {} bits",
                        k.v,
                        k.v * t_elems,
                        2 * t_elems,
                        a.elem_bits
                    ),
                ));
            }
            vec![Layout::new(I(st(8)), I(st(1))), Layout::new(I(st(2)), I(st(1)))]
        }
    };
    let tiler = Tiler::Tuple(tile.into_iter().map(Tiler::Layout).collect());
    let canonical =
        logical_divide_tiler(&u128, &tiler).map_err(|e| refuse(e.rule.clone(), format!("logical_divide: {e}")))?;
    a.canonical = Some(canonical.clone());
    let profile_ok = matches!(canonical.shape.view(), V::T(v) if v.len() == 2 && v.iter().all(|m| matches!(m.view(), V::T(x) if x.len() == 2 && x.iter().all(|e| matches!(e, I(_))))));
    if !profile_ok {
        return Err(refuse(
            format!("Not a canonical {kname} Layout: Expected profile failure"),
            format!("{canonical} is not of the form ((a,b),(c,d))"),
        ));
    }
    let stride = |p: [usize; 2]| -> Result<i64, Refusal> {
        let (_, d) = mode(&canonical, &p).ok_or_else(|| refuse("profile", "mode missing"))?;
        static_i(&d).ok_or_else(|| dynamic(&format!("the stride {d} (mode <{},{}>)", p[0], p[1])))
    };
    let bad_stride = |which: &str, got: i64, want: i64, rule: &str| {
        refuse(
            format!("Not a canonical {kname} Layout: Expected stride failure"),
            format!("stride<{which}> is {got} (16-byte units), expected {want}: {rule}"),
        )
    };
    let (lbo, sbo) = match a.major {
        Major::MN => {
            let s00 = stride([0, 0])?;
            if !inter && s00 != 1 {
                return Err(bad_stride("0,0", s00, 1, "the MN mode must be contiguous within a swizzle row"));
            }
            let s10 = stride([1, 0])?;
            if s10 != w {
                return Err(bad_stride(
                    "1,0",
                    s10,
                    w,
                    &format!("consecutive K rows of a core matrix are one swizzle row (W = {w} x 16 bytes) apart"),
                ));
            }
            let s01 = stride([0, 1])?;
            let s11 = stride([1, 1])?;
            if inter {
                (s11, s01)
            } else {
                (s01, s11)
            }
        }
        Major::K => {
            let s00 = stride([0, 0])?;
            if s00 != w {
                return Err(bad_stride(
                    "0,0",
                    s00,
                    w,
                    &format!("consecutive MN rows of a core matrix are one swizzle row (W = {w} x 16 bytes) apart"),
                ));
            }
            let s10 = stride([1, 0])?;
            if !inter && s10 != 1 {
                return Err(bad_stride("1,0", s10, 1, "the two 16-byte halves of a K step must be adjacent"));
            }
            let s01 = stride([0, 1])?;
            (s10, s01)
        }
    };
    // `constexpr uint32_t` stored in 14-bit bitfields
    let field = |x: i64| (x as u32 & 0x3fff) as u16;
    Ok(GmmaDesc { start_address: 0, leading_off: field(lbo), stride_off: field(sbo), base_offset: 0, layout_type: lt })
}

// ---------------------------------------------------------------------------------------------
// Byte ↔ element view of a swizzle, TMA swizzle mode
// ---------------------------------------------------------------------------------------------

/// `recast_layout<From, To>(Sw)` for bit widths: the same permutation of memory seen in other
/// units (a swizzle on bytes is `Sw<B,M,S>`, on 16-bit elements `Sw<B,M-1,S>`).
pub fn recast_swizzle(sw: Swizzle, from_bits: u32, to_bits: u32) -> R<Swizzle> {
    use super::ops::swizzle::bits;
    if from_bits == 0 || to_bits == 0 {
        return Err(EvalError::rule("sizeof_bits", "an element has at least 1 bit"));
    }
    let g = super::int::gcd_i64(from_bits as i64, to_bits as i64);
    let (num, den) = (to_bits as i64 / g, from_bits as i64 / g);
    let up = if num > 1 { bits::upcast(sw, num)? } else { sw };
    if den > 1 {
        bits::downcast(up, den)
    } else {
        Ok(up)
    }
}

/// The byte swizzle of an element swizzle of `elem_bits`-bit data (`recast_layout<T, uint8_t>`).
pub fn swizzle_bytes(sw: Swizzle, elem_bits: u32) -> R<Swizzle> {
    recast_swizzle(sw, elem_bits, 8)
}

/// The element swizzle of a byte swizzle for `elem_bits`-bit data (`recast_layout<uint8_t, T>`).
pub fn swizzle_elems(sw: Swizzle, elem_bits: u32) -> R<Swizzle> {
    recast_swizzle(sw, 8, elem_bits)
}

/// The TMA (`cuTensorMapEncodeTiled`) swizzle mode of a byte swizzle, as CuTe's
/// `get_tma_swizzle_bits` / `get_tma_swizzle_base` choose it: Sw<0|1|2|3,4,3> → none, 32B, 64B,
/// 128B (16-byte base); Sw<2,5,2>, Sw<2,6,S> → 128B with a 32- or 64-byte base.
pub fn tma_swizzle(sw: Swizzle) -> R<String> {
    let mode = |b: i32| match b {
        0 => "none (CU_TENSOR_MAP_SWIZZLE_NONE)",
        1 => "32B (CU_TENSOR_MAP_SWIZZLE_32B)",
        2 => "64B (CU_TENSOR_MAP_SWIZZLE_64B)",
        _ => "128B (CU_TENSOR_MAP_SWIZZLE_128B)",
    };
    let why = |msg: &str, detail: String| Err(EvalError::rule(msg.to_string(), detail));
    match sw.m {
        4 if (0..=3).contains(&sw.b) && sw.s == 3 => Ok(format!("{} on 16-byte units", mode(sw.b))),
        4 if (0..=3).contains(&sw.b) => why(
            "Expected S = 3 when M == 4. Unsupported layout swizzle",
            format!("{sw}: TMA XORs the 16-byte unit index with the row index 8 units (128 bytes) up, S = 3"),
        ),
        4 => why(
            "Expected B = 0,1,2, or 3 when M == 4. Unsupported layout swizzle",
            format!("{sw}: TMA swizzles at most 8 units of 16 bytes (128B)"),
        ),
        5 if sw.b == 2 && sw.s == 2 => Ok("128B (CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B) on 32-byte units".to_string()),
        5 => why("Expected B = 2 when M == 5. Unsupported layout swizzle", format!("{sw}")),
        6 if sw.b == 2 => Ok("128B (CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B) on 64-byte units".to_string()),
        6 => why("Expected B = 2 when M == 5. Unsupported layout swizzle", format!("{sw}")),
        m => why(
            "Expected 128b=16B=(2^4)B to 512b=64B=(2^6)B base swizzle",
            format!(
                "{sw} permutes units of 2^{m} = {} bytes; TMA swizzles units of 16, 32 or 64 bytes (on a byte swizzle M is 4, 5 or 6; an element swizzle needs its type: tma_swizzle(Sw, T))",
                1i64 << m.clamp(0, 62)
            ),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Built-ins
// ---------------------------------------------------------------------------------------------

use super::builtins::{Args, Builtin, TArg};
use crate::eval::builtins::b;

fn type_arg(v: &Value) -> R<u32> {
    match v {
        Value::Tag(t) => {
            cast::type_bits(t).map(|b| b as u32).ok_or_else(|| EvalError::type_err(format!("unknown value type {t}")))
        }
        v => Err(EvalError::type_err(format!("expected a value type such as half_t, got {} `{v}`", v.kind()))),
    }
}

fn atom(a: &Args, major: Major, bytes: u32) -> R<Value> {
    match a.args {
        [t] => try_gmma_atom(major, bytes, type_arg(t).map_err(|e| e.at_arg(0))?),
        // (one argument: the registry's arity)
        _ => Err(a.refuse()),
    }
}

macro_rules! atom_fn {
    ($f:ident, $major:expr, $bytes:literal) => {
        fn $f(a: &Args) -> R<Value> {
            atom(a, $major, $bytes)
        }
    };
}
atom_fn!(f_k_inter, Major::K, 0);
atom_fn!(f_k_sw32, Major::K, 32);
atom_fn!(f_k_sw64, Major::K, 64);
atom_fn!(f_k_sw128, Major::K, 128);
atom_fn!(f_mn_inter, Major::MN, 0);
atom_fn!(f_mn_sw32, Major::MN, 32);
atom_fn!(f_mn_sw64, Major::MN, 64);
atom_fn!(f_mn_sw128, Major::MN, 128);

/// `make_gmma_desc<K|MN>`'s template argument.
pub fn major_targ(targs: &[TArg]) -> R<Major> {
    match targs {
        [TArg::Name(n)] if n == "K" => Ok(Major::K),
        [TArg::Name(n)] if n == "MN" => Ok(Major::MN),
        _ => Err(EvalError::arity("make_gmma_desc<K>(...) or make_gmma_desc<MN>(...): one major, K or MN")),
    }
}

/// The operand of the REPL's `make_gmma_desc` forms: (swizzle, element layout, element bits).
pub fn desc_args(a: &Args) -> R<(Major, Swizzle, Layout, u32)> {
    let major = major_targ(a.targs)?;
    match a.args {
        [l, t] => {
            let bits = type_arg(t).map_err(|e| e.at_arg(1))?;
            let (sw, l) = split_operand(l, bits).map_err(|e| e.at_arg(0))?;
            Ok((major, sw, l, bits))
        }
        [Value::Swizzle(sw), Value::Layout(l), t] => Ok((major, *sw, l.clone(), type_arg(t).map_err(|e| e.at_arg(2))?)),
        [s, _, _] if !matches!(s, Value::Swizzle(_)) => {
            Err(EvalError::type_err(format!("expected a byte swizzle Sw<B,4,3>, got {} `{s}`", s.kind())).at_arg(0))
        }
        [_, l, _] => {
            Err(EvalError::type_err(format!("expected a plain layout behind the swizzle, got {} `{l}`", l.kind()))
                .at_arg(1))
        }
        _ => Err(EvalError::arity("make_gmma_desc<K>(L, T) or make_gmma_desc<K>(Sw, L, T)")),
    }
}

fn f_make_gmma_desc(a: &Args) -> R<Value> {
    let (major, sw, l, bits) = desc_args(a)?;
    let an = analyze(major, sw, &l, bits);
    match an.result {
        Ok(d) => Ok(Value::Text(d.to_string())),
        Err(r) => Err(EvalError::rule(r.message, r.why)),
    }
}

/// `(Sw, T)` or a GMMA atom / swizzled layout: the swizzle, and the element bits if known.
fn swizzle_and_type(a: &Args) -> R<(Swizzle, Option<u32>, bool)> {
    match a.args {
        [Value::Swizzle(sw), t] => Ok((*sw, Some(type_arg(t).map_err(|e| e.at_arg(1))?), false)),
        [Value::Swizzle(sw)] => Ok((*sw, None, false)),
        [Value::Composed(c)] | [Value::Composed(c), _] => match (&c.outer, c.smem_bits()) {
            (Func::Swizzle(sw), Some(b)) => Ok((*sw, Some(b), true)),
            (Func::Swizzle(sw), None) => match a.args.get(1) {
                Some(t) => Ok((*sw, Some(type_arg(t).map_err(|e| e.at_arg(1))?), false)),
                None => Ok((*sw, None, false)),
            },
            _ => Err(EvalError::type_err(format!("`{c}` has no swizzle"))),
        },
        _ => Err(a.refuse()),
    }
}

fn f_swizzle_bytes(a: &Args) -> R<Value> {
    match swizzle_and_type(a)? {
        (sw, _, true) => Ok(Value::Swizzle(sw)),
        (sw, Some(b), false) => swizzle_bytes(sw, b).map(Value::Swizzle),
        (_, None, _) => Err(EvalError::arity("swizzle_bytes(Sw, T): the element type is needed")),
    }
}

fn f_swizzle_elems(a: &Args) -> R<Value> {
    match swizzle_and_type(a)? {
        (sw, Some(b), true) => swizzle_elems(sw, b).map(Value::Swizzle),
        (sw, Some(b), false) if a.args.len() == 2 && matches!(a.args[0], Value::Swizzle(_)) => {
            swizzle_elems(sw, b).map(Value::Swizzle)
        }
        (sw, _, false) if matches!(a.args[0], Value::Composed(_)) => Ok(Value::Swizzle(sw)),
        _ => Err(EvalError::arity("swizzle_elems(Sw, T): the element type is needed")),
    }
}

fn f_tma_swizzle(a: &Args) -> R<Value> {
    let (sw, bits, flagged) = swizzle_and_type(a)?;
    let bytes = match (flagged, bits, a.args) {
        (true, _, _) => sw,
        (false, Some(b), _) => swizzle_bytes(sw, b)?,
        (false, None, [Value::Swizzle(_)]) => sw,
        (false, None, _) => {
            return Err(EvalError::arity("tma_swizzle(S, T): a swizzled layout on elements needs its element type"))
        }
    };
    let mode = tma_swizzle(bytes)?;
    if bytes == sw {
        Ok(Value::Text(format!("{mode} (byte swizzle {bytes})")))
    } else {
        Ok(Value::Text(format!(
            "{mode} (byte swizzle {bytes} = element swizzle {sw} of {}-bit data)",
            bits.unwrap_or(0)
        )))
    }
}

fn f_as_pi(a: &Args) -> R<Value> {
    match a.args {
        [Value::Composed(c)] => match (c.smem_bits(), &c.outer) {
            (Some(b), Func::Swizzle(sw)) => {
                let e = swizzle_elems(*sw, b)?;
                crate::eval::ops::swizzle::composed::compose3(Func::Swizzle(e), st(0), Value::from(c.inner.clone()))
            }
            _ => Err(a.refuse()),
        },
        _ => Err(a.refuse()),
    }
}

/// The arity of the GMMA layout atoms `Layout_*_Atom(T)`.
const ATOM_ARITY: crate::eval::builtins::Arity =
    crate::eval::builtins::Arity::Says(1, 1, 0, "a GMMA layout atom takes one value type: Layout_K_SW128_Atom(half_t)");

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[
    b!("Layout_K_INTER_Atom", "Layout_K_INTER_Atom(T)", "GMMA smem layout atom, K-major, no swizzle: 8 rows of 16 bytes (the swizzle acts on bytes, through the smem pointer)", "Layout_K_INTER_Atom(half_t)", "Sw<0,4,3> o smem_ptr[16b](unset) o (_8,_8):(_8,_1)", f_k_inter; ATOM_ARITY),
    b!("Layout_K_SW32_Atom", "Layout_K_SW32_Atom(T)", "GMMA smem layout atom, K-major, 32-byte swizzle: 8 rows of 32 bytes", "Layout_K_SW32_Atom(half_t)", "Sw<1,4,3> o smem_ptr[16b](unset) o (_8,_16):(_16,_1)", f_k_sw32; ATOM_ARITY),
    b!("Layout_K_SW64_Atom", "Layout_K_SW64_Atom(T)", "GMMA smem layout atom, K-major, 64-byte swizzle: 8 rows of 64 bytes", "Layout_K_SW64_Atom(half_t)", "Sw<2,4,3> o smem_ptr[16b](unset) o (_8,_32):(_32,_1)", f_k_sw64; ATOM_ARITY),
    b!("Layout_K_SW128_Atom", "Layout_K_SW128_Atom(T)", "GMMA smem layout atom, K-major, 128-byte swizzle: 8 rows of 128 bytes", "Layout_K_SW128_Atom(half_t)", "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", f_k_sw128; ATOM_ARITY),
    b!("Layout_MN_INTER_Atom", "Layout_MN_INTER_Atom(T)", "GMMA smem layout atom, MN-major, no swizzle: 8 columns of 16 bytes", "Layout_MN_INTER_Atom(half_t)", "Sw<0,4,3> o smem_ptr[16b](unset) o (_8,_8):(_1,_8)", f_mn_inter; ATOM_ARITY),
    b!("Layout_MN_SW32_Atom", "Layout_MN_SW32_Atom(T)", "GMMA smem layout atom, MN-major, 32-byte swizzle: 8 columns of 32 bytes", "Layout_MN_SW32_Atom(half_t)", "Sw<1,4,3> o smem_ptr[16b](unset) o (_16,_8):(_1,_16)", f_mn_sw32; ATOM_ARITY),
    b!("Layout_MN_SW64_Atom", "Layout_MN_SW64_Atom(T)", "GMMA smem layout atom, MN-major, 64-byte swizzle: 8 columns of 64 bytes", "Layout_MN_SW64_Atom(half_t)", "Sw<2,4,3> o smem_ptr[16b](unset) o (_32,_8):(_1,_32)", f_mn_sw64; ATOM_ARITY),
    b!("Layout_MN_SW128_Atom", "Layout_MN_SW128_Atom(T)", "GMMA smem layout atom, MN-major, 128-byte swizzle: 8 columns of 128 bytes", "Layout_MN_SW128_Atom(half_t)", "Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)", f_mn_sw128; ATOM_ARITY),
    b!("make_gmma_desc", "make_gmma_desc<K|MN>(L, T) | make_gmma_desc<K|MN>(Sw, L, T)", "the wgmma shared-memory descriptor of one operand tile L of T (a plain layout, a GMMA atom layout, or L behind the byte swizzle Sw); CuTe's refusal when L is not canonical (`explain` says why)", "make_gmma_desc<K>(Sw<3,4,3>, (_64,_16):(_64,_1), half_t)", "GmmaDescriptor: 0x4000004000010000\n  start_addr :  0x0000\n  leading_off:  0x0001 (1)\n  stride_off :  0x0040 (64)\n  base_offset:  0x0\n  layout_type:  0x1 (B128)", f_make_gmma_desc; crate::eval::builtins::Arity::Says(2, 3, 0, "make_gmma_desc<K>(L, T) or make_gmma_desc<K>(Sw, L, T)")),
    b!("swizzle_bytes", "swizzle_bytes(Sw, T) | swizzle_bytes(A)", "the byte swizzle of an element swizzle of T (recast_layout<T,uint8_t>); of a GMMA atom, its swizzle (already on bytes)", "swizzle_bytes(Sw<3,3,3>, half_t)", "Sw<3,4,3>", f_swizzle_bytes),
    b!("swizzle_elems", "swizzle_elems(Sw, T) | swizzle_elems(A)", "the element swizzle of a byte swizzle for T (recast_layout<uint8_t,T>); of a GMMA atom, for its element type", "swizzle_elems(Sw<3,4,3>, half_t)", "Sw<3,3,3>", f_swizzle_elems),
    b!("tma_swizzle", "tma_swizzle(A) | tma_swizzle(Sw) | tma_swizzle(Sw, T)", "the TMA swizzle mode (none/32B/64B/128B) of a GMMA atom, a byte swizzle, or an element swizzle of T (CuTe's get_tma_swizzle_bits), or why there is none", "tma_swizzle(Layout_K_SW128_Atom(half_t))", "128B (CU_TENSOR_MAP_SWIZZLE_128B) on 16-byte units (byte swizzle Sw<3,4,3>)", f_tma_swizzle),
    b!("as_position_independent_swizzle_layout", "as_position_independent_swizzle_layout(A)", "a GMMA atom layout with its byte swizzle recast to elements: Sw o _0 o L, the layout a position-independent smem tensor has", "as_position_independent_swizzle_layout(Layout_K_SW128_Atom(half_t))", "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", f_as_pi),
];

// ---------------------------------------------------------------------------------------------
// explain make_gmma_desc
// ---------------------------------------------------------------------------------------------

/// CuTe's canonical form (its comment in `make_gmma_desc`), in 16-byte units and in elements.
fn canonical_form(major: Major, lt: LayoutType) -> (&'static str, &'static str) {
    match (major, lt) {
        (Major::K, LayoutType::Interleave) => ("((8,n),2):((1,SBO),LBO)", "((8,n),(T,2)):((1T,SBO),(1,LBO))"),
        (Major::K, LayoutType::B32) => ("((8,n),2):((2,SBO),1)", "((8,n),(T,2)):((2T,SBO),(1,T))"),
        (Major::K, LayoutType::B64) => ("((8,n),2):((4,SBO),1)", "((8,n),(T,2)):((4T,SBO),(1,T))"),
        (Major::K, LayoutType::B128) => ("((8,n),2):((8,SBO),1)", "((8,n),(T,2)):((8T,SBO),(1,T))"),
        (Major::MN, LayoutType::Interleave) => {
            ("((1,n),(8,k)):((X,SBO),(1,LBO))", "((T,1,n),(8,k)):((1,T,SBO),(1T,LBO))")
        }
        (Major::MN, LayoutType::B32) => ("((2,n),(8,k)):((1,LBO),(2,SBO))", "((T,2,n),(8,k)):((1,T,LBO),(2T,SBO))"),
        (Major::MN, LayoutType::B64) => ("((4,n),(8,k)):((1,LBO),(4,SBO))", "((T,4,n),(8,k)):((1,T,LBO),(4T,SBO))"),
        (Major::MN, LayoutType::B128) => ("((8,n),(8,k)):((1,LBO),(8,SBO))", "((T,8,n),(8,k)):((1,T,LBO),(8T,SBO))"),
    }
}

fn atom_name(major: Major, lt: LayoutType) -> String {
    let sw = match lt {
        LayoutType::Interleave => "INTER",
        LayoutType::B32 => "SW32",
        LayoutType::B64 => "SW64",
        LayoutType::B128 => "SW128",
    };
    format!("Layout_{major}_{sw}_Atom")
}

fn type_name(bits: u32) -> &'static str {
    match bits {
        4 => "uint4b_t",
        8 => "int8_t",
        16 => "half_t",
        32 => "float",
        64 => "double",
        128 => "uint128_t",
        _ => "T",
    }
}

/// A canonical operand tile CuTe accepts, as close to `a` as the rules allow: the same major,
/// element type and (where possible) swizzle and MN extent, one K step, the atom tiled densely.
/// Returns the expression to write and its value.
fn nearest(a: &Analysis, tname: &str) -> Option<(String, Value)> {
    let bits = a.elem_bits;
    if bits == 0 || bits > 64 || 128 % bits != 0 {
        return None;
    }
    let t = 128 / bits as i64; // elements per 16 bytes
    let kstep = 2 * t; // one dense wgmma K step: 32 bytes
                       // the swizzle: the user's if it is a GMMA one, else its byte view for T if that is one
    let lt = a.layout_type.or_else(|| {
        let sw = a.swizzle;
        let cand = if sw.m != 4 { swizzle_bytes(sw, bits).ok()? } else { sw };
        (cand.m == 4 && cand.s == 3 && (0..=3).contains(&cand.b)).then_some(match cand.b {
            0 => LayoutType::Interleave,
            1 => LayoutType::B32,
            2 => LayoutType::B64,
            _ => LayoutType::B128,
        })
    })?;
    let (mn_mode, _) = mode(&a.layout, &[0])?;
    let mn = size_of(&mn_mode).ok().filter(|m| m.v > 0).map(|m| m.v).unwrap_or(64);
    let w = lt.width();
    let atom_mn = match a.major {
        Major::K => 8,
        Major::MN => w * t,
    };
    let mn = (mn + atom_mn - 1) / atom_mn * atom_mn;
    let atom_k = match a.major {
        Major::K => w * t,
        Major::MN => 8,
    };
    let name = atom_name(a.major, lt);
    let atom = try_gmma_atom(a.major, lt.swizzle_bytes(), bits).ok()?;
    let tile_k = atom_k.max(kstep);
    let shape = Value::Tuple(T(vec![I(st(mn)), I(st(tile_k))]));
    let tiled = crate::eval::builtins::call("tile_to_shape", &[], &[atom, shape]).ok()?;
    if tile_k == kstep {
        return Some((
            format!("make_gmma_desc<{}>(tile_to_shape({name}({tname}), (_{mn},_{kstep})), {tname})", a.major),
            tiled,
        ));
    }
    let tiler = Value::Tile(vec![Value::Tuple(IntTuple::Under), Value::Layout(Layout::new(I(st(kstep)), I(st(1))))]);
    let step = crate::eval::builtins::call("composition", &[], &[tiled, tiler]).ok()?;
    Some((
        format!(
            "make_gmma_desc<{}>(composition(tile_to_shape({name}({tname}), (_{mn},_{tile_k})), <_,_{kstep}:_1>), {tname})",
            a.major
        ),
        step,
    ))
}

/// `explain make_gmma_desc<...>(...)`: the operand, the layout type, the recast to 16-byte
/// units, the canonical form and each of CuTe's checks; for a refusal, the rule that broke and
/// the nearest layout CuTe accepts.
pub fn explain_desc(targs: &[TArg], args: &[Value]) -> R<Vec<String>> {
    let sig = crate::eval::builtins::lookup("make_gmma_desc").map_or("", |b| b.sig);
    let refs = crate::eval::builtins::refs(args);
    let a = Args { name: "make_gmma_desc", sig, targs, args: &refs };
    let (major, sw, l, bits) = desc_args(&a)?;
    let tname = match args.last() {
        Some(Value::Tag(t)) => t.clone(),
        _ => type_name(bits).to_string(),
    };
    let an = analyze(major, sw, &l, bits);
    let mut out = Vec::new();
    let flagged = matches!(args.first(), Some(Value::Composed(_)));
    out.push(format!(
        "  operand: make_tensor(make_smem_ptr(({tname}*)0{}), {l}){}",
        if sw.b == 0 && !flagged { String::new() } else { format!(", {sw}") },
        if flagged { "  (the atom's swizzle moves to the pointer)" } else { "" }
    ));
    let t = if bits > 0 && 128 % bits == 0 { 128 / bits } else { 0 };
    if let Some(u) = &an.u128 {
        out.push(format!(
            "  in 16-byte units (1 uint128_t = {t} x {bits}-bit): recast_layout<{tname},uint128_t>(L) = {u}"
        ));
    }
    match an.layout_type {
        Some(lt) => {
            let (units, elems) = canonical_form(major, lt);
            out.push(format!(
                "  layout type: the byte swizzle {sw} is {}: W = {} x 16 bytes per swizzled row",
                lt.name(),
                lt.width()
            ));
            out.push(format!("  canonical GMMA_{major} {} form, in 16-byte units: {units}", lt.name()));
            out.push(format!("    (in elements, T = {t}: {elems})"));
        }
        None if an.u128.is_some() => out.push(format!(
            "  layout type: {sw} is not one of the GMMA byte swizzles Sw<0,4,3> (INTERLEAVE), Sw<1,4,3> (B32), Sw<2,4,3> (B64), Sw<3,4,3> (B128){}",
            match swizzle_bytes(sw, bits) {
                Ok(b) if sw.m != 4 && b.m == 4 && b.s == 3 => format!("; {sw} looks like an element swizzle of {tname}: on bytes it is {b}"),
                _ => String::new(),
            }
        )),
        None => {}
    }
    if let Some(c) = &an.canonical {
        let tile = match major {
            Major::K => "<_8:_1,_2:_1>".to_string(),
            Major::MN => format!("<_{}:_1,_8:_1>", an.layout_type.map(|x| x.width()).unwrap_or(1)),
        };
        out.push(format!("  logical_divide(u128, {tile}) = {c}"));
    }
    match &an.result {
        Ok(d) => {
            let lt = d.layout_type;
            let (lbo_from, sbo_from) = match (major, lt) {
                (Major::K, _) => ("stride<1,0>", "stride<0,1>"),
                (Major::MN, LayoutType::Interleave) => ("stride<1,1>", "stride<0,1>"),
                (Major::MN, _) => ("stride<0,1>", "stride<1,1>"),
            };
            out.push("  checks: sizes and the fixed strides of the canonical form hold".to_string());
            out.push(format!(
                "  leading byte offset LBO = {lbo_from} = {} (x 16 = {} bytes)",
                d.leading_off,
                d.leading_off as u32 * 16
            ));
            out.push(format!(
                "  stride byte offset  SBO = {sbo_from} = {} (x 16 = {} bytes)",
                d.stride_off,
                d.stride_off as u32 * 16
            ));
            out.push(format!("  descriptor bits: 0x{:016x}", d.bits()));
        }
        Err(r) => {
            out.push(format!("  refused: {}", r.why));
            out.push(format!("  CuTe: {}.", r.message.trim_end_matches('.')));
            // The same element layout may be canonical behind another byte swizzle.
            let others: Vec<String> = (0..4)
                .map(|b| Swizzle { b, m: 4, s: 3 })
                .filter(|s2| *s2 != sw)
                .filter_map(|s2| analyze(major, s2, &l, bits).result.ok().map(|d| (s2, d)))
                .map(|(s2, d)| {
                    format!(
                        "make_gmma_desc<{major}>({s2}, {l}, {tname}) ({}, LBO {}, SBO {})",
                        d.layout_type.name(),
                        d.leading_off,
                        d.stride_off
                    )
                })
                .collect();
            if !others.is_empty() {
                out.push(format!("  the same layout is canonical behind another swizzle: {}", others.join("; ")));
            }
            match nearest(&an, &tname) {
                Some((expr, v)) => {
                    let ok = match split_operand(&v, bits) {
                        Ok((s2, l2)) => analyze(major, s2, &l2, bits).result.ok(),
                        Err(_) => None,
                    };
                    match ok {
                        Some(d) => {
                            out.push(format!("  nearest canonical layout: {v}"));
                            out.push(format!("    write: {expr}"));
                            out.push(format!(
                                "    accepted: {}, LBO {}, SBO {} (0x{:016x})",
                                d.layout_type.name(),
                                d.leading_off,
                                d.stride_off,
                                d.bits()
                            ));
                        }
                        None => out.push(format!(
                            "  start from {} and tile_to_shape it to (MN, K), one K step of {} elements",
                            atom_name(major, an.layout_type.unwrap_or(LayoutType::B128)),
                            2 * t
                        )),
                    }
                }
                None => out.push(format!(
                    "  start from a GMMA atom ({}({tname}), ...) and tile_to_shape it; one K step is 32 bytes",
                    atom_name(major, LayoutType::B128)
                )),
            }
        }
    }
    Ok(out)
}
