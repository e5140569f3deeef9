//! Copy operations as data: CuTe's `Copy_Traits` (`ThrID`, `SrcLayout`, `DstLayout`,
//! `RefLayout`; (thread, value) -> bit) from `cute/atom/copy_traits{,_sm50,_sm75,_sm80,_sm90}.hpp`,
//! one row per instruction, written as CuTe prints them. The parameterised operations
//! (`UniversalCopy<S,D>`, `SM80_CP_ASYNC_*<S,D>`, `AutoVectorizingCopyWithAssumedAlignment<N>`)
//! are one row each with the bit widths filled in.
//! May import: `eval::*` data types, `atoms::lit`, `atoms::types`.

use super::lit::parse_layout;
use super::types::value_type_bits;
use crate::eval::builtins::TArg;
use crate::eval::error::{EvalError, R};
use crate::eval::layout::Layout;

/// A copy operation's traits.
#[derive(Clone, Debug, PartialEq)]
pub struct CopyTraits {
    /// The operation as written, e.g. `SM80_CP_ASYNC_CACHEALWAYS<uint128_t>`.
    pub name: String,
    pub thr_id: Layout,
    pub src: Layout,
    pub dst: Layout,
    pub r#ref: Layout,
}

/// Which of Src/Dst the RefLayout is.
#[derive(Clone, Copy)]
enum Ref {
    Src,
    Dst,
}

/// name | ThrID | SrcLayout | DstLayout | RefLayout is Src or Dst
const COPY_ROWS: &[(&str, &str, &str, &str, Ref)] = &[
    // ldmatrix (copy_traits_sm75.hpp)
    ("SM75_U32x1_LDSM_N", "_32:_1", "((_8,_4),_128):((_128,_0),_1)", "(_32,_32):(_32,_1)", Ref::Dst),
    ("SM75_U32x2_LDSM_N", "_32:_1", "((_16,_2),_128):((_128,_0),_1)", "(_32,(_32,_2)):(_32,(_1,_1024))", Ref::Dst),
    ("SM75_U32x4_LDSM_N", "_32:_1", "(_32,_128):(_128,_1)", "(_32,(_32,_4)):(_32,(_1,_1024))", Ref::Dst),
    (
        "SM75_U16x2_LDSM_T",
        "_32:_1",
        "((_8,_4),_128):((_128,_0),_1)",
        "((_4,_8),(_16,_2)):((_256,_16),(_1,_128))",
        Ref::Dst,
    ),
    (
        "SM75_U16x4_LDSM_T",
        "_32:_1",
        "((_16,_2),_128):((_128,_0),_1)",
        "((_4,_8),(_16,_2,_2)):((_256,_16),(_1,_128,_1024))",
        Ref::Dst,
    ),
    (
        "SM75_U16x8_LDSM_T",
        "_32:_1",
        "(_32,_128):(_128,_1)",
        "((_4,_8),(_16,_2,_4)):((_256,_16),(_1,_128,_1024))",
        Ref::Dst,
    ),
    ("SM75_U32x1_MOVM_T", "_32:_1", "(_32,_32):(_32,_1)", "(_32,_32):(_32,_1)", Ref::Dst),
    // stmatrix (copy_traits_sm90.hpp): Src/Dst of the matching ldmatrix swapped, Ref = Src
    ("SM90_U32x1_STSM_N", "_32:_1", "(_32,_32):(_32,_1)", "((_8,_4),_128):((_128,_0),_1)", Ref::Src),
    ("SM90_U32x2_STSM_N", "_32:_1", "(_32,(_32,_2)):(_32,(_1,_1024))", "((_16,_2),_128):((_128,_0),_1)", Ref::Src),
    ("SM90_U32x4_STSM_N", "_32:_1", "(_32,(_32,_4)):(_32,(_1,_1024))", "(_32,_128):(_128,_1)", Ref::Src),
    (
        "SM90_U16x2_STSM_T",
        "_32:_1",
        "((_4,_8),(_16,_2)):((_256,_16),(_1,_128))",
        "((_8,_4),_128):((_128,_0),_1)",
        Ref::Src,
    ),
    (
        "SM90_U16x4_STSM_T",
        "_32:_1",
        "((_4,_8),(_16,_2,_2)):((_256,_16),(_1,_128,_1024))",
        "((_16,_2),_128):((_128,_0),_1)",
        Ref::Src,
    ),
    (
        "SM90_U16x8_STSM_T",
        "_32:_1",
        "((_4,_8),(_16,_2,_4)):((_256,_16),(_1,_128,_1024))",
        "(_32,_128):(_128,_1)",
        Ref::Src,
    ),
    // warp shuffles (copy_traits_sm50.hpp)
    (
        "SM50_Shuffle_U32_2x2Trans_XOR1",
        "_32:_1",
        "(_32,_64):(_64,_1)",
        "((_2,_16),(_32,_2)):((_32,_128),(_1,_64))",
        Ref::Src,
    ),
    (
        "SM50_Shuffle_U32_2x2Trans_XOR4",
        "_32:_1",
        "(_32,_64):(_64,_1)",
        "((_4,_2,_4),(_32,_2)):((_64,_32,_512),(_1,_256))",
        Ref::Src,
    ),
    // SM100 (copy_traits_sm100.hpp, included by copy_atom.hpp; TMEM/UTCCP copies not supported)
    ("SM100_LOAD_256bit_CACHE_NOALLOCATION", "_1:_0", "(_1,_256):(_0,_1)", "(_1,_256):(_0,_1)", Ref::Src),
    ("SM100_STORE_256bit_CACHE_NOALLOCATION", "_1:_0", "(_1,_256):(_0,_1)", "(_1,_256):(_0,_1)", Ref::Src),
    ("SM100_SU4_DU8x16_x1_LDSM_N", "_32:_1", "((_8,_4),_128):((_128,_0),_1)", "(_32,_32):(_32,_1)", Ref::Dst),
    (
        "SM100_SU4_DU8x16_x2_LDSM_N",
        "_32:_1",
        "((_16,_2),_128):((_128,_0),_1)",
        "(_32,(_32,_2)):(_32,(_1,_1024))",
        Ref::Dst,
    ),
    ("SM100_SU4_DU8x16_x4_LDSM_N", "_32:_1", "(_32,_128):(_128,_1)", "(_32,(_32,_4)):(_32,(_1,_1024))", Ref::Dst),
    ("SM100_SU6_DU8x16_x1_LDSM_N", "_32:_1", "((_8,_4),_128):((_128,_0),_1)", "(_32,_32):(_32,_1)", Ref::Dst),
    (
        "SM100_SU6_DU8x16_x2_LDSM_N",
        "_32:_1",
        "((_16,_2),_128):((_128,_0),_1)",
        "(_32,(_32,_2)):(_32,(_1,_1024))",
        Ref::Dst,
    ),
    ("SM100_SU6_DU8x16_x4_LDSM_N", "_32:_1", "(_32,_128):(_128,_1)", "(_32,(_32,_4)):(_32,(_1,_1024))", Ref::Dst),
    (
        "SM100_U8x16_LDSM_T",
        "_32:_1",
        "((_2,_2,_4,_2),_128):((_128,_1024,_256,_2048),_1)",
        "((_4,_8),(_8,_2,_2,_4)):((_256,_8),(_1,_128,_64,_1024))",
        Ref::Dst,
    ),
    (
        "SM100_U8x16_STSM_T",
        "_32:_1",
        "((_4,_8),(_8,_2,_2,_4)):((_256,_8),(_1,_128,_64,_1024))",
        "(_32,_128):(_128,_1)",
        Ref::Src,
    ),
    (
        "SM100_U8x4_STSM_T",
        "_32:_1",
        "((_4,_8),(_8,_2,_2)):((_256,_8),(_1,_128,_64))",
        "((_8,_4),_128):((_128,_0),_1)",
        Ref::Src,
    ),
    (
        "SM100_U8x8_LDSM_T",
        "_32:_1",
        "((_2,_2,_4,_2),_128):((_128,_1024,_256,_0),_1)",
        "((_4,_8),(_8,_2,_2,_2)):((_256,_8),(_1,_128,_64,_1024))",
        Ref::Dst,
    ),
    (
        "SM100_U8x8_STSM_T",
        "_32:_1",
        "((_4,_8),(_8,_2,_2,_2)):((_256,_8),(_1,_128,_64,_1024))",
        "((_16,_2),_128):((_128,_0),_1)",
        Ref::Src,
    ),
];

/// cp.async operations: (name, allowed sizeof(T) in bytes).
const CP_ASYNC: &[(&str, &[i64])] = &[
    ("SM80_CP_ASYNC_CACHEALWAYS", &[4, 8, 16]),
    ("SM80_CP_ASYNC_CACHEGLOBAL", &[16]),
    ("SM80_CP_ASYNC_CACHEALWAYS_ZFILL", &[4, 8, 16]),
    ("SM80_CP_ASYNC_CACHEGLOBAL_ZFILL", &[16]),
];

fn one_thread(name: String, src_bits: i64, dst_bits: i64) -> R<CopyTraits> {
    let src = parse_layout(&format!("(_1,_{src_bits}):(_0,_1)"))?;
    Ok(CopyTraits {
        name,
        thr_id: parse_layout("_1:_0")?,
        dst: parse_layout(&format!("(_1,_{dst_bits}):(_0,_1)"))?,
        r#ref: src.clone(),
        src,
    })
}

fn auto_vectorizing(name: String, bits: i64) -> R<CopyTraits> {
    if ![8, 16, 32, 64, 128].contains(&bits) {
        return Err(EvalError::rule(
            "Expected MaxVecBits to be 8 or 16 or 32 or 64 or 128 for alignment and performance.",
            format!("AutoVectorizingCopyWithAssumedAlignment<{bits}>"),
        ));
    }
    let l = parse_layout("(_1,_1):(_0,_0)")?;
    Ok(CopyTraits { name, thr_id: parse_layout("_1:_0")?, src: l.clone(), dst: l.clone(), r#ref: l })
}

/// The value types `<S>` or `<S,D>` of a templated copy, as (name, bits).
fn src_dst_types(name: &str, targs: &[TArg]) -> R<Vec<(String, i64)>> {
    if targs.is_empty() || targs.len() > 2 {
        return Err(EvalError::arity(format!("{name} takes one or two value types, e.g. {name}<uint128_t>")));
    }
    targs
        .iter()
        .map(|t| match t {
            TArg::Name(n) => value_type_bits(n)
                .map(|b| (n.clone(), b))
                .ok_or_else(|| EvalError::type_err(format!("{name}: `{n}` is not a value type"))),
            TArg::Int(i) => Err(EvalError::type_err(format!("{name}: `{i}` is not a value type"))),
        })
        .collect()
}

fn bytes(bits: i64) -> i64 {
    ((bits + 7) / 8).max(1)
}

/// The traits of copy operation `name<targs>`: `None` if `name` is not a copy operation.
pub fn lookup(name: &str, targs: &[TArg]) -> Option<R<CopyTraits>> {
    if let Some((n, thr, src, dst, r)) = COPY_ROWS.iter().find(|row| row.0 == name) {
        if !targs.is_empty() {
            return Some(Err(EvalError::rule("not a template", format!("'{name}' takes no template arguments"))));
        }
        let build = || -> R<CopyTraits> {
            let (s, d) = (parse_layout(src)?, parse_layout(dst)?);
            let rf = match r {
                Ref::Src => s.clone(),
                Ref::Dst => d.clone(),
            };
            Ok(CopyTraits { name: n.to_string(), thr_id: parse_layout(thr)?, src: s, dst: d, r#ref: rf })
        };
        return Some(build());
    }
    if let Some((_, sizes)) = CP_ASYNC.iter().find(|(n, _)| *n == name) {
        return Some((|| {
            let ts = src_dst_types(name, targs)?;
            let (s, d) = (&ts[0], ts.get(1).unwrap_or(&ts[0]));
            if bytes(s.1) != bytes(d.1) {
                return Err(EvalError::rule(
                    "cp.async requires sizeof(src_value_type) == sizeof(dst_value_type)",
                    format!("{name}<{},{}>", s.0, d.0),
                ));
            }
            if !sizes.contains(&bytes(s.1)) {
                return Err(EvalError::rule(
                    "cp.async sizeof(TS) is not supported",
                    format!("{name}<{}>: {} bytes", s.0, bytes(s.1)),
                ));
            }
            let shown = ts.iter().map(|t| t.0.as_str()).collect::<Vec<_>>().join(",");
            one_thread(format!("{name}<{shown}>"), s.1, d.1)
        })());
    }
    match name {
        "UniversalCopy" => Some((|| {
            let ts = src_dst_types(name, targs)?;
            for t in &ts {
                if t.1 < 8 {
                    return Err(EvalError::rule(
                        "static assertion failed",
                        format!("UniversalCopy needs values of at least 8 bits: sizeof_bits<{}> = {}", t.0, t.1),
                    ));
                }
            }
            let d = ts.get(1).unwrap_or(&ts[0]);
            let shown = ts.iter().map(|t| t.0.as_str()).collect::<Vec<_>>().join(",");
            one_thread(format!("UniversalCopy<{shown}>"), ts[0].1, d.1)
        })()),
        "AutoVectorizingCopy" | "DefaultCopy" => Some(if targs.is_empty() {
            auto_vectorizing(name.to_string(), if name == "DefaultCopy" { 8 } else { 128 })
        } else {
            Err(EvalError::rule("not a template", format!("'{name}' takes no template arguments")))
        }),
        "AutoVectorizingCopyWithAssumedAlignment" => Some(match targs {
            [] => auto_vectorizing(name.to_string(), 128),
            [TArg::Int(b)] => auto_vectorizing(format!("{name}<{b}>"), *b),
            _ => {
                Err(EvalError::type_err(format!("{name} takes one integer template argument (bits), e.g. {name}<64>")))
            }
        }),
        _ => None,
    }
}

/// Names of the fixed copy operations (for completion and tests).
pub fn fixed_names() -> Vec<&'static str> {
    let mut v: Vec<&str> = COPY_ROWS.iter().map(|r| r.0).collect();
    v.extend(CP_ASYNC.iter().map(|r| r.0));
    v.extend(["UniversalCopy", "AutoVectorizingCopy", "DefaultCopy", "AutoVectorizingCopyWithAssumedAlignment"]);
    v
}
