//! `run gemm` / `emit gemm` options: parsing the `key=value` values into a checked configuration.
//! Every refusal names the option (`.at_arg(3 + i)`: M, N, K come first) and the reason.
//! May import: `eval` (values, errors), `runtime::lower`.

use super::lower::{self, host_eval, inverse_coords, mode_sizes};
use super::GemmOpt;
use crate::eval::atoms::mma_table::MmaTraits;
use crate::eval::atoms::AtomValue;
use crate::eval::error::{EvalError, R};
use crate::eval::int::{dy, st};
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::{Composed, Func, Layout, Swizzle};
use crate::eval::ops::algebra::Tiler;
use crate::eval::value::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DType {
    F16,
    BF16,
    F32,
}

impl DType {
    pub fn name(self) -> &'static str {
        match self {
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F32 => "f32",
        }
    }
    pub fn bytes(self) -> i64 {
        match self {
            DType::F32 => 4,
            _ => 2,
        }
    }
}

/// Which dimension of an operand is contiguous in global memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Major {
    /// K contiguous (A row-major MxK, B "column-major" i.e. stored NxK row by row).
    K,
    /// M (for A) or N (for B) contiguous.
    MN,
}

/// One operand (A or B) as the kernel sees it.
#[derive(Clone, Debug)]
pub struct Operand {
    /// 'a' or 'b'
    pub name: char,
    pub major: Major,
    /// Rows of the block tile in this operand's M or N dimension.
    pub tile_mn: i64,
    /// The problem extent in M (for A) or N (for B).
    pub extent_mn: i64,
    /// Global layout `(MN, K) -> element offset`.
    pub gmem: Layout,
    /// What the user gave (or the default atom), for the source comment.
    pub smem_given: Value,
    /// The shared-memory layout `(tile_mn, BK, stages) -> element offset` (tile_to_shape'd).
    pub smem: Value,
    /// Elements of one stage (stage p starts at `p * stage_stride`).
    pub stage_stride: i64,
    /// `cosize` of `smem` (all stages).
    pub smem_elems: i64,
    /// Copy thread layout: `(thread coordinate in mn, thread coordinate in k) -> thread index`,
    /// in units of 8-element (16-byte) vectors along the contiguous dimension.
    pub copy: Layout,
    /// The copy tile (mn, k) covered by all threads in one step, in elements.
    pub copy_tile: (i64, i64),
    /// Elements per global access (8 = 16-byte cp.async; fewer when the contiguous extent is
    /// not a multiple of 8, since rows are then not 16-byte aligned).
    pub vec: i64,
}

#[derive(Clone, Debug)]
pub struct GemmConfig {
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub dtype: DType,
    pub out: DType,
    /// `TN`, `NN`, `NT` or `TT` (BLAS convention: A is MxK, `T` = row-major i.e. K-major).
    pub layout: String,
    pub bm: i64,
    pub bn: i64,
    pub bk: i64,
    pub stages: i64,
    /// The MMA atom (SM80 16x8x16, fp32 accumulation): its TV layouts, from the atoms module.
    pub atom: MmaTraits,
    /// Warp layout `(warps in M, warps in N) -> warp index`.
    pub warps: Layout,
    pub wm: i64,
    pub wn: i64,
    /// The tiled MMA's order of the block tile's rows: index `x = r + 16 * (warp_m + wm * i)`
    /// (row r of the i-th 16-row atom of warp warp_m, CuTe's thrfrg order) -> tile row. It is
    /// the permutation of `make_tiled_mma`, extended over BM as `logical_divide` does
    /// (`(P, complement(P, BM))`); identity `BM:1` without one. A bijection of [0, BM).
    pub perm_m: Layout,
    /// The same for columns: `x = c + 8 * (warp_n + wn * j)` -> tile column.
    pub perm_n: Layout,
    /// The tiled MMA the kernel implements, as a `.cute` expression (for the header comment).
    pub tiled_mma: String,
    pub a: Operand,
    pub b: Operand,
    /// Output C is M x N row-major: `(M,N):(N,1)`.
    pub gmem_c: Layout,
    /// Timed iterations (median reported) and warm-up runs.
    pub iters: i64,
    pub warmup: i64,
    /// Thread blocks are rasterised in groups of this many block rows (L2 reuse).
    pub raster: i64,
    /// The options as given, for the header comment.
    pub given: Vec<String>,
}

impl GemmConfig {
    pub fn threads(&self) -> i64 {
        self.wm * self.wn * 32
    }
    /// Per-warp tile.
    pub fn warp_tile(&self) -> (i64, i64) {
        (self.bm / self.wm, self.bn / self.wn)
    }
    pub fn smem_bytes(&self) -> i64 {
        (round_up(self.a.smem_elems, 64) + round_up(self.b.smem_elems, 64)) * 2
    }
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }
    pub fn describe(&self) -> String {
        format!(
            "{}x{}x{} {}*{}->{} {} tile <{},{},{}> stages {} warps {}",
            self.m,
            self.n,
            self.k,
            self.dtype.name(),
            self.dtype.name(),
            self.out.name(),
            self.layout,
            self.bm,
            self.bn,
            self.bk,
            self.stages,
            self.warps
        )
    }
}

pub fn round_up(x: i64, m: i64) -> i64 {
    (x + m - 1) / m * m
}

/// The largest dynamic shared memory a block may opt into on sm_90 (H100/H200).
pub const MAX_SMEM: i64 = 232448;

/// Every `key=value` option of `run gemm` / `emit gemm`: its key, its default and what it
/// takes. Integer options carry their range, and `Opts::int` parses them from this table.
pub struct OptSpec {
    pub key: &'static str,
    pub default: &'static str,
    pub takes: &'static str,
    /// For integer options: (default, lo, hi, name in the range message).
    pub int: Option<(i64, i64, i64, &'static str)>,
}

const fn opt(key: &'static str, default: &'static str, takes: &'static str) -> OptSpec {
    OptSpec { key, default, takes, int: None }
}

const fn int_opt(key: &'static str, default: i64, lo: i64, hi: i64, what: &'static str) -> OptSpec {
    OptSpec { key, default: "", takes: "an integer", int: Some((default, lo, hi, what)) }
}

pub const OPTIONS: &[OptSpec] = &[
    opt("dtype", "f16 (or the MMA atom's)", "f16 | bf16"),
    opt("out", "dtype", "f16 | bf16 | f32"),
    opt("layout", "TN", "TN | NN | NT | TT"),
    opt("tile", "<128,256,64>", "a tiler <BM,BN,BK>"),
    int_opt("stages", 3, 2, 8, "stages"),
    opt("mma", "(2,4,1)", "a warp layout, an MMA atom or a tiled MMA"),
    opt("smem_a", "Sw<3,3,3> o (_8,_64):(_64,_1)", "a layout or swizzled layout"),
    opt("smem_b", "Sw<3,3,3> o (_8,_64):(_64,_1)", "a layout or swizzled layout"),
    opt("copy_a", "coalesced 16-byte vectors", "a thread layout"),
    opt("copy_b", "coalesced 16-byte vectors", "a thread layout"),
    int_opt("iters", 30, 1, 100000, "iters"),
    int_opt("warmup", 5, 0, 10000, "warmup"),
    int_opt("raster", 8, 1, 1024, "raster (block rows per group)"),
    opt("arch", "sm90 on a compute capability 9.0 GPU, else sm80", "sm80 | sm90"),
    int_opt("consumers", 2, 1, 2, "consumers (consumer warpgroups)"),
    int_opt("persistent", 1, 0, 1, "persistent"),
    int_opt("tma_store", 1, 0, 1, "tma_store (epilogue through shared memory and TMA stores)"),
    int_opt("cluster", 1, 1, 2, "cluster (CTAs per cluster along M; 2: B multicast)"),
];

/// Options only the sm90 kernel takes.
pub const SM90_KEYS: &[&str] = &["consumers", "persistent", "tma_store", "cluster"];

/// The option keys, in table order.
pub fn keys() -> Vec<&'static str> {
    OPTIONS.iter().map(|o| o.key).collect()
}

fn tag_name(v: &Value) -> Option<String> {
    match v {
        Value::Tag(s) | Value::Text(s) => Some(s.clone()),
        _ => None,
    }
}

fn parse_dtype(v: &Value, allow_f32: bool) -> R<DType> {
    let name = tag_name(v)
        .ok_or_else(|| EvalError::type_err(format!("expected a type name (f16, bf16), got {} `{v}`", v.kind())))?;
    match name.as_str() {
        "f16" | "half" | "half_t" | "fp16" => Ok(DType::F16),
        "bf16" | "bfloat16" | "bfloat16_t" => Ok(DType::BF16),
        "f32" | "float" | "fp32" if allow_f32 => Ok(DType::F32),
        _ => Err(EvalError::rule(
            "gemm type",
            format!(
                "`{name}` is not supported here; use {}",
                if allow_f32 { "f16, bf16 or f32" } else { "f16 or bf16" }
            ),
        )),
    }
}

fn int_list(v: &Value) -> R<Vec<i64>> {
    let elems = match v {
        Value::Tuple(IntTuple::I(i)) => return Ok(vec![i.v]),
        Value::Tuple(_) | Value::Tile(_) => v.elems(),
        _ => return Err(EvalError::type_err(format!("expected integers, got {} `{v}`", v.kind()))),
    };
    elems
        .iter()
        .map(|e| match e {
            Value::Tuple(IntTuple::I(i)) => Ok(i.v),
            Value::Layout(l) => match (&l.shape, &l.stride) {
                // `<128,128,32>` may arrive as stride-1 layouts
                (IntTuple::I(s), IntTuple::I(d)) if d.v == 1 => Ok(s.v),
                _ => Err(EvalError::type_err(format!("expected an integer, got the layout `{l}`"))),
            },
            other => Err(EvalError::type_err(format!("expected an integer, got {} `{other}`", other.kind()))),
        })
        .collect()
}

fn one_int(v: &Value) -> R<i64> {
    match v {
        Value::Tuple(IntTuple::I(i)) => Ok(i.v),
        _ => Err(EvalError::type_err(format!("expected an integer, got {} `{v}`", v.kind()))),
    }
}

fn lay(shape: &[i64], stride: &[i64]) -> Layout {
    Layout::new(
        IntTuple::T(shape.iter().map(|&x| IntTuple::st(x)).collect()),
        IntTuple::T(stride.iter().map(|&x| IntTuple::st(x)).collect()),
    )
}

fn dy_lay(shape: &[i64], stride: &[i64]) -> Layout {
    Layout::new(
        IntTuple::T(shape.iter().map(|&x| IntTuple::dy(x)).collect()),
        IntTuple::T(stride.iter().map(|&x| IntTuple::dy(x)).collect()),
    )
}

/// Every integer of a layout value made static: the generator knows them all, and the kernel
/// folds them in (so `(8,64):(64,1)` behaves as `(_8,_64):(_64,_1)` in tile_to_shape).
pub fn staticize(v: &Value) -> Value {
    fn func(f: &Func) -> Func {
        match f {
            Func::Layout(l) => Func::Layout(static_layout(l)),
            Func::Swizzle(s) => Func::Swizzle(*s),
            Func::Composed(c) => Func::Composed(Box::new(composed(c))),
        }
    }
    fn composed(c: &Composed) -> Composed {
        Composed { outer: func(&c.outer), offset: st(c.offset.v), inner: func(&c.inner), mixed: None }
    }
    match v {
        Value::Layout(l) => Value::Layout(static_layout(l)),
        Value::Composed(c) => Value::Composed(Box::new(composed(c))),
        other => other.clone(),
    }
}

pub fn static_layout(l: &Layout) -> Layout {
    let mk = |t: &IntTuple| t.map_ints(&mut |i| Ok(st(i.v))).unwrap_or_else(|_| t.clone());
    Layout::new(mk(&l.shape), mk(&l.stride))
}

/// Default swizzled shared-memory atom for a tile of `tile_mn x bk` halves: 128-byte rows
/// (`Sw<3,3,3> o (8,64):(64,1)` for K-major), narrower when the tile is narrower.
pub fn default_atom(major: Major, tile_mn: i64, bk: i64) -> Value {
    let contiguous = if major == Major::K { bk } else { tile_mn };
    let (b, w) = if contiguous % 64 == 0 {
        (3, 64)
    } else if contiguous % 32 == 0 {
        (2, 32)
    } else {
        (1, 16)
    };
    let inner = if major == Major::K { lay(&[8, w], &[w, 1]) } else { lay(&[w, 8], &[1, w]) };
    Value::Composed(Box::new(Composed {
        outer: Func::Swizzle(Swizzle { b, m: 3, s: 3 }),
        offset: st(0),
        inner: Func::Layout(inner),
        mixed: None,
    }))
}

/// Default copy thread layout: consecutive threads take consecutive 16-byte vectors along the
/// contiguous dimension (coalesced).
fn default_copy(major: Major, tile_mn: i64, bk: i64, threads: i64) -> Layout {
    match major {
        Major::K => {
            let tk = crate::eval::int::gcd_i64(bk / 8, threads).max(1);
            let tm = threads / tk;
            lay(&[tm, tk], &[tk, 1])
        }
        Major::MN => {
            let tm = crate::eval::int::gcd_i64(tile_mn / 8, threads).max(1);
            let tk = threads / tm;
            lay(&[tm, tk], &[1, tm])
        }
    }
}

pub(crate) struct Raw<'a> {
    pub(crate) opt: Option<(usize, &'a Value)>,
}

impl<'a> Raw<'a> {
    pub(crate) fn at(&self) -> usize {
        self.opt.map(|o| o.0 + 3).unwrap_or(0)
    }
}

/// The options as given, each checked against the table once (unknown keys, duplicates).
pub(crate) struct Opts<'a> {
    seen: Vec<(&'static str, usize, &'a Value)>,
}

impl<'a> Opts<'a> {
    pub(crate) fn new(opts: &'a [GemmOpt]) -> R<Opts<'a>> {
        let mut seen: Vec<(&'static str, usize, &Value)> = Vec::new();
        for (i, o) in opts.iter().enumerate() {
            let key = OPTIONS.iter().map(|s| s.key).find(|k| *k == o.key).ok_or_else(|| {
                EvalError::rule("gemm option", format!("unknown key `{}`; known keys: {}", o.key, keys().join(", ")))
                    .at_arg(i + 3)
            })?;
            if seen.iter().any(|s| s.0 == key) {
                return Err(EvalError::rule("gemm option", format!("`{key}` is given twice")).at_arg(i + 3));
            }
            seen.push((key, i, &o.value));
        }
        Ok(Opts { seen })
    }
    pub(crate) fn get(&self, key: &str) -> Raw<'a> {
        Raw { opt: self.seen.iter().find(|s| s.0 == key).map(|s| (s.1, s.2)) }
    }
    /// An integer option of the table: its value or default, checked against its range.
    pub(crate) fn int(&self, key: &str) -> R<i64> {
        let spec = OPTIONS.iter().find(|s| s.key == key).and_then(|s| s.int);
        let (default, lo, hi, what) = spec.ok_or_else(|| EvalError::runtime("gemm", format!("internal: {key}")))?;
        let r = self.get(key);
        let v = match r.opt {
            Some((_, v)) => one_int(v).map_err(|e| e.at_arg(r.at()))?,
            None => default,
        };
        if !(lo..=hi).contains(&v) {
            return Err(
                EvalError::rule(format!("gemm {key}"), format!("{what} must be {lo}..{hi}, got {v}")).at_arg(r.at())
            );
        }
        Ok(v)
    }
}

/// The one line per option of the header comment (a TiledMMA prints over several lines).
pub(crate) fn given_lines(opts: &[GemmOpt]) -> Vec<String> {
    opts.iter()
        .map(|o| format!("{}={}", o.key, o.value.to_string().split_whitespace().collect::<Vec<_>>().join(" ")))
        .collect()
}

pub(crate) fn check_sizes(m: i64, n: i64, k: i64) -> R<()> {
    for (i, d) in [m, n, k].iter().enumerate() {
        if *d <= 0 {
            return Err(EvalError::rule("gemm size", format!("M, N and K must be positive, got {d}")).at_arg(i));
        }
        if *d > (1 << 20) {
            return Err(EvalError::limit(format!("{d} is larger than the largest supported extent 1048576")).at_arg(i));
        }
    }
    Ok(())
}

/// `dtype` and `out` (before the MMA, which may fix the input type).
pub(crate) fn parse_types(o: &Opts) -> R<(DType, DType)> {
    let r = o.get("dtype");
    let dtype = match r.opt {
        Some((_, v)) => parse_dtype(v, false).map_err(|e| e.at_arg(r.at()))?,
        None => DType::F16,
    };
    let r = o.get("out");
    let out = match r.opt {
        Some((_, v)) => parse_dtype(v, true).map_err(|e| e.at_arg(r.at()))?,
        None => dtype,
    };
    Ok((dtype, out))
}

pub(crate) fn parse_layout(o: &Opts) -> R<String> {
    let r = o.get("layout");
    Ok(match r.opt {
        Some((_, v)) => tag_name(v).filter(|s| ["TN", "NN", "NT", "TT"].contains(&s.as_str())).ok_or_else(|| {
            EvalError::rule(
                "gemm layout",
                format!("expected TN, NN, NT or TT (BLAS convention: A is MxK, T = K-major), got `{v}`"),
            )
            .at_arg(r.at())
        })?,
        None => "TN".to_string(),
    })
}

/// The operands' majors of a BLAS layout tag: A is MxK (`T` = K-major), B is KxN (`N` = K-major).
pub(crate) fn majors(layout: &str) -> (Major, Major) {
    let a = if layout.starts_with('T') { Major::K } else { Major::MN };
    let b = if layout.ends_with('N') { Major::K } else { Major::MN };
    (a, b)
}

pub(crate) fn parse_tile(o: &Opts) -> R<(i64, i64, i64)> {
    let r = o.get("tile");
    let (bm, bn, bk) = match r.opt {
        Some((_, v)) => {
            let t = int_list(v).map_err(|e| e.at_arg(r.at()))?;
            if t.len() != 3 {
                return Err(
                    EvalError::rule("gemm tile", format!("expected a tiler <BM,BN,BK>, got `{v}`")).at_arg(r.at())
                );
            }
            (t[0], t[1], t[2])
        }
        None => (128, 256, 64),
    };
    let tile_err = |msg: String| EvalError::rule("gemm tile", msg).at_arg(r.at());
    for (name, x) in [("BM", bm), ("BN", bn), ("BK", bk)] {
        if x <= 0 || x % 16 != 0 || x > 512 {
            return Err(tile_err(format!(
                "{name} = {x} must be a positive multiple of 16 (the MMA is 16x8x16), at most 512"
            )));
        }
    }
    Ok((bm, bn, bk))
}

/// What `mma=` decides: the atom (and so the input type), the warps and the tiled MMA's order.
struct MmaChoice {
    atom: MmaTraits,
    dtype: DType,
    warps: Layout,
    wm: i64,
    wn: i64,
    perm_m: Layout,
    perm_n: Layout,
    tiled_mma: String,
}

fn parse_mma(o: &Opts, dtype: DType, bm: i64, bn: i64, bk: i64) -> R<MmaChoice> {
    let get = |key: &str| o.get(key);
    let r = get("mma");
    let mut atom_given: Option<MmaTraits> = None;
    // Some: a TiledMMA value (its permutations, `_` where none); None: a warp layout, an atom or
    // the default, where each warp computes one contiguous block.
    let mut perms: Option<[Tiler; 3]> = None;
    let warps = match r.opt {
        Some((_, v)) => match v {
            Value::Layout(l) => static_layout(l),
            Value::Tuple(_) | Value::Tile(_) => {
                let t = int_list(v).map_err(|e| e.at_arg(r.at()))?;
                if t.len() == 2 || (t.len() == 3 && t[2] == 1) {
                    lay(&[t[0], t[1]], &[1, t[0]])
                } else {
                    return Err(EvalError::rule(
                        "gemm mma",
                        format!("expected the warp layout of SM80 16x8x16 atoms, like (2,4,1); got `{v}` (K must be 1)"),
                    )
                    .at_arg(r.at()));
                }
            }
            Value::Atom(a) => {
                let (traits, w) = mma_from_atom(a).map_err(|e| e.at_arg(r.at()))?;
                atom_given = Some(traits);
                match w {
                    Some((w, p)) => {
                        perms = Some(p);
                        w
                    }
                    None => lay(&[2, 4], &[1, 2]),
                }
            }
            Value::Tag(name) => {
                return Err(EvalError::rule(
                    "gemm mma",
                    format!("`{name}` is not an MMA this generator knows; use SM80_16x8x16_F32F16F16F32_TN, SM80_16x8x16_F32BF16BF16F32_TN, make_tiled_mma(...) of one, or a warp layout like (2,4,1)"),
                )
                .at_arg(r.at()))
            }
            other => return Err(EvalError::type_err(format!("mma: expected a tiled MMA or a warp layout like (2,4,1), got {} `{other}`", other.kind())).at_arg(r.at())),
        },
        None => lay(&[2, 4], &[1, 2]),
    };
    // the atom fixes the input type; an explicit dtype must agree
    let dtype = match (&atom_given, get("dtype").opt) {
        (Some(t), Some(_)) => {
            let want = if t.name.contains("BF16") { DType::BF16 } else { DType::F16 };
            if want != dtype {
                return Err(EvalError::rule(
                    "gemm mma",
                    format!("{} multiplies {} inputs, but dtype={}", t.name, want.name(), dtype.name()),
                )
                .at_arg(r.at()));
            }
            dtype
        }
        (Some(t), None) => {
            if t.name.contains("BF16") {
                DType::BF16
            } else {
                DType::F16
            }
        }
        _ => dtype,
    };
    let atom = match atom_given {
        Some(t) => t,
        None => default_atom_traits(dtype).map_err(|e| e.at_arg(r.at()))?,
    };
    let mma_at = r.at();
    let warp_sizes = lower::mode_sizes(&Value::Layout(warps.clone())).map_err(|e| e.at_arg(mma_at))?;
    let (wm, wn) = match warp_sizes.as_slice() {
        [a, b] => (*a, *b),
        [a, b, 1] => (*a, *b),
        _ => {
            return Err(EvalError::rule(
                "gemm mma",
                format!("the warp layout {warps} must have rank 2 (M, N) or K = 1"),
            )
            .at_arg(mma_at))
        }
    };
    let warps = if warp_sizes.len() == 3 {
        // (a stride that is not a 3-tuple: a structured fuzz finding, the slice panicked)
        let (s, d) = (warps.shape.modes(), warps.stride.modes());
        match (s.get(..2), d.get(..2)) {
            (Some(s), Some(d)) => Layout::new(IntTuple::T(s.to_vec()), IntTuple::T(d.to_vec())),
            _ => {
                return Err(EvalError::rule(
                    "gemm mma",
                    format!("the warp layout {warps}: its shape and stride are not congruent"),
                )
                .at_arg(mma_at))
            }
        }
    } else {
        warps
    };
    if wm <= 0 || wn <= 0 || wm.checked_mul(wn).is_none_or(|w| w > 16) {
        return Err(
            EvalError::rule("gemm mma", format!("{wm}x{wn} warps: between 1 and 16 warps per block")).at_arg(mma_at)
        );
    }
    inverse_coords(&warps, super::expr::var("warp", 0, wm * wn)).map_err(|e| e.at_arg(mma_at))?;
    if bm % (wm * 16) != 0 {
        return Err(EvalError::rule("gemm mma", format!("{wm} warps in M with 16-row MMAs do not tile BM = {bm}"))
            .at_arg(mma_at));
    }
    if bn % (wn * 16) != 0 {
        return Err(EvalError::rule(
            "gemm mma",
            format!("{wn} warps in N with 16-column B loads (ldmatrix.x4) do not tile BN = {bn}"),
        )
        .at_arg(mma_at));
    }
    let (perm_m, perm_n) = match &perms {
        None => (contiguous_blocks(16, wm, bm), contiguous_blocks(8, wn, bn)),
        Some(p) => {
            if let Some((_, Value::Atom(a))) = r.opt {
                if let AtomValue::TiledMma(t) = &**a {
                    check_partitions(t, bm, bn, bk).map_err(|e| e.at_arg(mma_at))?;
                }
            }
            check_k_permutation(&p[2]).map_err(|e| e.at_arg(mma_at))?;
            (
                extend_permutation(&p[0], bm, "M", "BM").map_err(|e| e.at_arg(mma_at))?,
                extend_permutation(&p[1], bn, "N", "BN").map_err(|e| e.at_arg(mma_at))?,
            )
        }
    };
    let tiled_mma = {
        let full = Layout::new(
            IntTuple::T(vec![warps.shape.modes()[0].clone(), warps.shape.modes()[1].clone(), IntTuple::st(1)]),
            IntTuple::T(vec![warps.stride.modes()[0].clone(), warps.stride.modes()[1].clone(), IntTuple::st(0)]),
        );
        let pm = match &perms {
            None => format!("<{},{},_>", perm_m, perm_n),
            Some(p) => format!("<{}>", p.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")),
        };
        format!("make_tiled_mma({}, {}, {})", atom.name, full, pm)
    };
    let acc = (bm / wm) * (bn / wn) / 32;
    if acc > 128 {
        return Err(EvalError::rule(
            "gemm mma",
            format!(
                "a {}x{} warp tile needs {acc} accumulator registers per thread (at most 128 fit beside the fragments)",
                bm / wm,
                bn / wn
            ),
        )
        .at_arg(mma_at));
    }
    Ok(MmaChoice { atom, dtype, warps, wm, wn, perm_m, perm_n, tiled_mma })
}

/// The shared-memory layout, copy layout and global layout of operand `name`.
#[allow(clippy::too_many_arguments)]
fn parse_operand(
    o: &Opts,
    name: char,
    major: Major,
    tile_mn: i64,
    extent_mn: i64,
    k: i64,
    bk: i64,
    stages: i64,
    threads: i64,
) -> R<Operand> {
    let get = |key: &str| o.get(key);
    let r = get(if name == 'a' { "smem_a" } else { "smem_b" });
    let given = match r.opt {
        Some((_, v)) => staticize(v),
        None => default_atom(major, tile_mn, bk),
    };
    let (smem, stage_stride, smem_elems) =
        check_smem(name, &given, major, tile_mn, bk, stages).map_err(|e| e.at_arg(r.at()))?;
    let rc = get(if name == 'a' { "copy_a" } else { "copy_b" });
    let copy = match rc.opt {
        Some((_, Value::Layout(l))) => static_layout(l),
        Some((_, v @ Value::Tuple(_))) => {
            // a shape: column-major threads
            let t = int_list(v).map_err(|e| e.at_arg(rc.at()))?;
            if t.len() != 2 {
                return Err(
                    EvalError::rule("gemm copy", format!("expected a 2-D thread layout, got `{v}`")).at_arg(rc.at())
                );
            }
            lay(&t, &[1, t[0]])
        }
        Some((_, v)) => {
            return Err(EvalError::type_err(format!("copy_{name}: expected a thread layout, got {} `{v}`", v.kind()))
                .at_arg(rc.at()))
        }
        None => default_copy(major, tile_mn, bk, threads),
    };
    let copy_tile = check_copy(name, &copy, major, tile_mn, bk, threads).map_err(|e| e.at_arg(rc.at()))?;
    let contiguous = if major == Major::K { k } else { extent_mn };
    let vec = [8, 4, 2, 1].into_iter().find(|v| contiguous % v == 0).unwrap_or(1);
    let gmem =
        if major == Major::K { dy_lay(&[extent_mn, k], &[k, 1]) } else { dy_lay(&[extent_mn, k], &[1, extent_mn]) };
    Ok(Operand {
        name,
        major,
        tile_mn,
        extent_mn,
        gmem,
        smem_given: given,
        smem,
        stage_stride,
        smem_elems,
        copy,
        copy_tile,
        vec,
    })
}

/// Parse and check all options, stage by stage (the order fixes which error a statement with
/// several bad options reports).
pub fn parse(m: i64, n: i64, k: i64, opts: &[GemmOpt]) -> R<GemmConfig> {
    check_sizes(m, n, k)?;
    let o = Opts::new(opts)?;
    if let Some(a @ Arch::Sm90) = parse_arch(&o)? {
        return Err(EvalError::rule("gemm arch", format!("arch={} is the Hopper kernel (`kernel`)", a.name()))
            .at_arg(o.get("arch").at()));
    }
    for key in SM90_KEYS {
        let r = o.get(key);
        if r.opt.is_some() {
            return Err(EvalError::rule("gemm option", format!("`{key}` is an option of the sm90 kernel (arch=sm90)"))
                .at_arg(r.at()));
        }
    }
    let given = given_lines(opts);
    let (dtype, out) = parse_types(&o)?;
    let layout = parse_layout(&o)?;
    let (a_major, b_major) = majors(&layout);
    let (bm, bn, bk) = parse_tile(&o)?;
    let stages = o.int("stages")?;
    let MmaChoice { atom, dtype, warps, wm, wn, perm_m, perm_n, tiled_mma } = parse_mma(&o, dtype, bm, bn, bk)?;
    let out = if o.get("out").opt.is_none() { dtype } else { out };
    let threads = wm * wn * 32;
    let a = parse_operand(&o, 'a', a_major, bm, m, k, bk, stages, threads)?;
    let b = parse_operand(&o, 'b', b_major, bn, n, k, bk, stages, threads)?;
    let iters = o.int("iters")?;
    let warmup = o.int("warmup")?;
    let raster = o.int("raster")?;

    let cfg = GemmConfig {
        m,
        n,
        k,
        atom,
        dtype,
        out,
        layout,
        bm,
        bn,
        bk,
        stages,
        warps,
        wm,
        wn,
        perm_m,
        perm_n,
        tiled_mma,
        a,
        b,
        gmem_c: dy_lay(&[m, n], &[n, 1]),
        iters,
        warmup,
        raster,
        given,
    };
    if cfg.smem_bytes() > MAX_SMEM {
        let at = o.get("stages").at().max(o.get("tile").at());
        return Err(EvalError::rule(
            "gemm shared memory",
            format!(
                "tile <{bm},{bn},{bk}> with {stages} stages needs {} bytes of shared memory; the limit is {MAX_SMEM}",
                cfg.smem_bytes()
            ),
        )
        .at_arg(at));
    }
    Ok(cfg)
}

/// Tile the given shared-memory layout to `(tile_mn, bk, stages)` and check that the kernel can
/// use it: right shape, one-to-one, 16-byte vectors intact, stages one after another.
/// Returns the tiled layout, the stage stride and the cosize.
fn check_smem(name: char, given: &Value, major: Major, tile_mn: i64, bk: i64, stages: i64) -> R<(Value, i64, i64)> {
    let what = format!("smem_{name}");
    match given {
        Value::Layout(_) | Value::Composed(_) => {}
        other => {
            return Err(EvalError::type_err(format!(
                "{what}: expected a layout or a swizzled layout, got {} `{other}`",
                other.kind()
            )))
        }
    }
    let sizes = mode_sizes(given)?;
    if sizes.len() < 2 || sizes.len() > 3 {
        return Err(EvalError::rule(
            "smem layout",
            format!("{what} = {given} must have rank 2 (rows, k) or 3 (rows, k, stages), got rank {}", sizes.len()),
        ));
    }
    let tiled = if sizes.len() == 3 && sizes == [tile_mn, bk, stages] {
        given.clone()
    } else {
        lower::tile_to_shape(given, &[tile_mn, bk, stages]).map_err(|e| {
            EvalError::rule("smem layout", format!("{what} = {given} does not tile the {tile_mn}x{bk} tile: {e}"))
        })?
    };
    let ts = mode_sizes(&tiled)?;
    if ts != [tile_mn, bk, stages] {
        return Err(EvalError::rule(
            "smem layout",
            format!(
                "{what} = {given} does not cover the {tile_mn}x{bk} tile: tiled to the tile it has shape {:?} instead of [{tile_mn}, {bk}, {stages}]",
                ts
            ),
        ));
    }
    // evaluate every point once
    let total = tile_mn.checked_mul(bk).and_then(|x| x.checked_mul(stages)).unwrap_or(i64::MAX);
    if total > 1 << 21 {
        return Err(EvalError::limit(format!("{what}: {tile_mn} x {bk} x {stages} elements (more than {})", 1 << 21)));
    }
    let e = lower::value_at(
        &tiled,
        &[super::expr::var("m", 0, tile_mn), super::expr::var("k", 0, bk), super::expr::var("p", 0, stages)],
    )?;
    // one evaluation per point, into a table (compiled: this loop is most of an `emit gemm`)
    let compiled = e.compile(&["m", "k", "p"]);
    let mut stack = Vec::new();
    let mut table = Vec::with_capacity(total as usize);
    for p in 0..stages {
        for kk in 0..bk {
            for mm in 0..tile_mn {
                let off = match &compiled {
                    Some(c) => c.eval(&[mm, kk, p], &mut stack),
                    None => e.eval(&|v| match v {
                        "m" => mm,
                        "k" => kk,
                        _ => p,
                    }),
                }
                .ok_or_else(|| EvalError::runtime("gemm", "evaluation failed"))?;
                table.push(off);
            }
        }
    }
    let at = |mm: i64, kk: i64, p: i64| -> R<i64> {
        table
            .get(((p * bk + kk) * tile_mn + mm) as usize)
            .copied()
            .ok_or_else(|| EvalError::runtime("gemm", "evaluation outside the tile"))
    };
    // the first negative or repeated offset in this order is the one reported; where all are
    // small and non-negative, a table of first points replaces the hash map
    let (lo, hi) = table.iter().fold((i64::MAX, i64::MIN), |(lo, hi), &o| (lo.min(o), hi.max(o)));
    let mut first = Firsts::new(lo, hi, total);
    let mut max = 0i64;
    for p in 0..stages {
        for kk in 0..bk {
            for mm in 0..tile_mn {
                let off = at(mm, kk, p)?;
                if off < 0 {
                    return Err(EvalError::rule(
                        "smem layout",
                        format!("{what} maps ({mm},{kk},{p}) to the negative offset {off}"),
                    ));
                }
                if let Some(i) = first.insert(off, (p * bk + kk) * tile_mn + mm) {
                    let (m0, k0, p0) = (i % tile_mn, i / tile_mn % bk, i / (tile_mn * bk));
                    return Err(EvalError::rule(
                        "smem layout",
                        format!(
                            "{what} is not one-to-one: ({m0},{k0},{p0}) and ({mm},{kk},{p}) both map to offset {off}"
                        ),
                    ));
                }
                max = max.max(off);
            }
        }
    }
    // 16-byte vectors: 8 consecutive elements along the contiguous dimension must be
    // consecutive in shared memory, starting at a multiple of 8 (cp.async and ldmatrix rows).
    for p in 0..stages {
        for kk in 0..bk {
            for mm in 0..tile_mn {
                let (i, j) = if major == Major::K { (kk, mm) } else { (mm, kk) };
                if i % 8 != 0 {
                    continue;
                }
                let base = at(mm, kk, p)?;
                let mut offs = vec![base];
                for d in 1..8 {
                    let (m2, k2) = if major == Major::K { (mm, kk + d) } else { (mm + d, kk) };
                    offs.push(at(m2, k2, p)?);
                }
                let _ = j;
                if base % 8 != 0 || offs.iter().enumerate().any(|(d, &o)| Some(o) != base.checked_add(d as i64)) {
                    let (c0, c1) = if major == Major::K { ((mm, kk), (mm, kk + 7)) } else { ((mm, kk), (mm + 7, kk)) };
                    return Err(EvalError::rule(
                        "smem layout",
                        format!(
                            "{what} = {given} breaks 16-byte vectors: elements {:?}..{:?} (contiguous in global memory) land at offsets {:?}; they must be 8 consecutive offsets starting at a multiple of 8",
                            c0, c1, offs
                        ),
                    ));
                }
            }
        }
    }
    // stages one after another with one stride
    let stride = if stages > 1 {
        let (a1, a0) = (at(0, 0, 1)?, at(0, 0, 0)?);
        a1.checked_sub(a0).ok_or_else(|| EvalError::overflow("-", dy(a1), dy(a0)))?
    } else {
        0
    };
    for p in 0..stages {
        for kk in 0..bk {
            for mm in 0..tile_mn {
                // a shift past 64 bits is no shift of stage 0
                let base = at(mm, kk, 0)?;
                if Some(at(mm, kk, p)?) != p.checked_mul(stride).and_then(|d| base.checked_add(d)) {
                    return Err(EvalError::rule(
                        "smem layout",
                        format!("{what}: stage {p} is not stage 0 shifted by one stride ({stride}) at ({mm},{kk})"),
                    ));
                }
            }
        }
    }
    let _ = host_eval;
    Ok((tiled, stride, max.checked_add(1).ok_or_else(|| EvalError::overflow("+", dy(max), dy(1)))?))
}

/// The first point (its index in the tile's order) at each offset: a table where the offsets
/// are small and non-negative (the usual case; no hashing), else a hash map.
enum Firsts {
    /// `slot[off]` = 1 + the first point's index, 0 for none yet.
    Table(Vec<u32>),
    Map(std::collections::HashMap<i64, i64>),
}

impl Firsts {
    /// For offsets in `[lo, hi]` of a tile of `total` points.
    fn new(lo: i64, hi: i64, total: i64) -> Firsts {
        if lo >= 0 && hi < (4 * total).clamp(1 << 16, 1 << 23) {
            Firsts::Table(vec![0; hi as usize + 1])
        } else {
            Firsts::Map(std::collections::HashMap::new())
        }
    }

    /// Record point `i` at `off` (not negative); the earlier point there, if any.
    fn insert(&mut self, off: i64, i: i64) -> Option<i64> {
        match self {
            Firsts::Table(slot) => {
                let was = std::mem::replace(&mut slot[off as usize], 1 + i as u32);
                if was == 0 {
                    None
                } else {
                    slot[off as usize] = was;
                    Some(was as i64 - 1)
                }
            }
            Firsts::Map(m) => match m.entry(off) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(i);
                    None
                }
            },
        }
    }
}

/// Check a copy thread layout against the tile; returns the (mn, k) extent one step covers.
fn check_copy(name: char, copy: &Layout, major: Major, tile_mn: i64, bk: i64, threads: i64) -> R<(i64, i64)> {
    let sizes = mode_sizes(&Value::Layout(copy.clone()))?;
    let [t0, t1] = sizes.as_slice() else {
        return Err(EvalError::rule(
            "copy layout",
            format!("copy_{name} = {copy} must have rank 2 (threads in rows, threads in k)"),
        ));
    };
    let n = t0.checked_mul(*t1);
    if n != Some(threads) {
        let n = n.map_or(format!("{t0} x {t1}"), |n| n.to_string());
        return Err(EvalError::rule(
            "copy layout",
            format!("copy_{name} = {copy} has {n} threads; the block has {threads}"),
        ));
    }
    inverse_coords(copy, super::expr::var("tid", 0, threads))?;
    let (cm, ck) = if major == Major::K { (*t0, t1.saturating_mul(8)) } else { (t0.saturating_mul(8), *t1) };
    if tile_mn % cm != 0 || bk % ck != 0 {
        return Err(EvalError::rule(
            "copy layout",
            format!(
                "copy_{name} = {copy} with 16-byte vectors along {} covers {cm}x{ck}, which does not tile the {tile_mn}x{bk} tile",
                if major == Major::K { "K" } else { "M/N" }
            ),
        ));
    }
    Ok((cm, ck))
}

/// The MMA atoms the generator implements (mma.sync m16n8k16, fp32 accumulation).
pub const ATOMS: &[&str] = &["SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F32BF16BF16F32_TN"];

/// The atom's traits (TV layouts) from the atoms module, by name.
pub fn atom_traits(name: &str) -> R<MmaTraits> {
    match crate::eval::atoms::named_value(name, &[]) {
        Some(Ok(Value::Atom(a))) => match *a {
            AtomValue::MmaOp(t) | AtomValue::MmaAtom(t) => Ok(t),
            other => Err(EvalError::type_err(format!("{name} is not an MMA: {other}"))),
        },
        Some(Err(e)) => Err(e),
        _ => Err(EvalError::unknown(format!("no MMA atom named {name}"))),
    }
}

fn default_atom_traits(dtype: DType) -> R<MmaTraits> {
    atom_traits(if dtype == DType::BF16 { ATOMS[1] } else { ATOMS[0] })
}

/// A tiled MMA's warp layout and permutations.
type WarpsAndPerms = (Layout, [Tiler; 3]);

/// An MMA value: the atom (which must be one the kernel implements) and, for a TiledMMA, its
/// warp layout (the M and N modes of ThrLayoutVMNK, in warps) and permutations.
fn mma_from_atom(a: &AtomValue) -> R<(MmaTraits, Option<WarpsAndPerms>)> {
    let (traits, tiled) = match a {
        AtomValue::MmaOp(t) | AtomValue::MmaAtom(t) => (t.clone(), None),
        AtomValue::TiledMma(t) => (t.atom.clone(), Some(t)),
        other => return Err(EvalError::type_err(format!("mma: expected an MMA, got `{other}`"))),
    };
    if !ATOMS.contains(&traits.name.as_str()) {
        return Err(EvalError::rule(
            "gemm mma",
            format!(
                "the generator emits mma.sync m16n8k16 with fp32 accumulation: {} or {}, not {}",
                ATOMS[0], ATOMS[1], traits.name
            ),
        ));
    }
    let Some(t) = tiled else { return Ok((traits, None)) };
    let modes_s = t.thr_layout_vmnk.shape.modes();
    let modes_d = t.thr_layout_vmnk.stride.modes();
    if modes_s.len() != 4 || modes_d.len() != 4 {
        return Err(EvalError::rule("gemm mma", format!("unexpected thread layout {}", t.thr_layout_vmnk)));
    }
    if lower::product(&modes_s[3])? != 1 {
        return Err(EvalError::rule("gemm mma", format!("atoms along K ({}) are not supported", modes_s[3])));
    }
    let mut strides = Vec::new();
    for d in &modes_d[1..3] {
        strides.push(d.map_ints(&mut |i| {
            if i.v % 32 != 0 {
                Err(EvalError::rule(
                    "gemm mma",
                    format!("thread layout {} does not give whole warps", t.thr_layout_vmnk),
                ))
            } else {
                Ok(st(i.v / 32))
            }
        })?);
    }
    let warps = Layout::new(IntTuple::T(modes_s[1..3].to_vec()), IntTuple::T(strides));
    Ok((traits, Some((static_layout(&warps), t.perm.clone()))))
}

/// Without a tiled MMA, warp w computes rows [w * BM/W, (w+1) * BM/W): in the tiled MMA's
/// order `x = r + atom * (w + W * i)` that is the permutation `(atom, W, I):(1, BM/W, atom)`.
fn contiguous_blocks(atom: i64, w: i64, extent: i64) -> Layout {
    lay(&[atom, w, extent / (atom * w)], &[1, extent / w, atom])
}

/// A permutation mode of a tiled MMA as a layout over [0, its size): `_` is the identity of
/// the tile (extended below), an integer n the identity `n:_1`.
fn permutation_layout(p: &Tiler, what: &str) -> R<Option<Layout>> {
    match p {
        Tiler::Under => Ok(None),
        Tiler::Int(i) => Ok(Some(Layout::new(IntTuple::st(i.v), IntTuple::st(1)))),
        Tiler::Layout(l) => Ok(Some(static_layout(l))),
        Tiler::Tuple(_) => Err(EvalError::rule(
            "gemm mma",
            format!(
                "the {what} permutation {p} is a tuple of tilers; the generator takes a layout or an integer per mode"
            ),
        )),
    }
}

/// The M (or N) permutation extended over the block tile as `logical_divide` does:
/// `(P, complement(P, extent))`. The generator needs a bijection of [0, extent): P must
/// permute [0, size(P)) and size(P) must divide the tile.
fn extend_permutation(p: &Tiler, extent: i64, what: &str, tile: &str) -> R<Layout> {
    let Some(l) = permutation_layout(p, what)? else { return Ok(lay(&[extent], &[1])) };
    let n = lower::product(&l.shape)?;
    if n <= 0 || extent % n != 0 {
        return Err(EvalError::rule(
            "gemm mma",
            format!("the {what} permutation {l} has size {n}, which does not divide {tile} = {extent}"),
        ));
    }
    let mut seen = vec![false; n as usize];
    for x in 0..n {
        let y = lower::host_eval(&Value::Layout(l.clone()), &[x])?;
        if y < 0 || y >= n || std::mem::replace(&mut seen[y as usize], true) {
            return Err(EvalError::rule(
                "gemm mma",
                format!("the {what} permutation {l} is not a permutation of 0..{n} (at {x} it gives {y})"),
            ));
        }
    }
    Ok(Layout::new(
        IntTuple::T(vec![l.shape.clone(), IntTuple::st(extent / n)]),
        IntTuple::T(vec![l.stride.clone(), IntTuple::st(n)]),
    ))
}

/// CuTe must be able to partition the block tile with the tiled MMA (`thrfrg_A/B/C` of the
/// BMxBK, BNxBK and BMxBN tiles): otherwise refuse, with CuTe's condition.
fn check_partitions(t: &crate::eval::atoms::mma::TiledMma, bm: i64, bn: i64, bk: i64) -> R<()> {
    use crate::eval::atoms::mma::Operand as Op;
    for (op, r, c) in [(Op::A, bm, bk), (Op::B, bn, bk), (Op::C, bm, bn)] {
        t.thrfrg(op, &lay(&[r, c], &[1, r])).map_err(|e| {
            EvalError::rule(
                "gemm mma",
                format!("the tiled MMA cannot partition the {r}x{c} tile of {op:?} (thrfrg_{op:?}): {e}"),
            )
        })?;
    }
    Ok(())
}

/// ldmatrix reads 8 consecutive k of a row: K may not be permuted.
fn check_k_permutation(p: &Tiler) -> R<()> {
    let Some(l) = permutation_layout(p, "K")? else { return Ok(()) };
    let n = lower::product(&l.shape)?;
    for x in 0..n {
        if lower::host_eval(&Value::Layout(l.clone()), &[x])? != x {
            return Err(EvalError::rule(
                "gemm mma",
                format!("the K permutation {l} is not the identity: each ldmatrix row reads 8 consecutive k"),
            ));
        }
    }
    Ok(())
}

/// Which kernel: the sm80 `mma.sync` one or the Hopper `wgmma` + TMA one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    Sm80,
    Sm90,
}

impl Arch {
    pub fn name(self) -> &'static str {
        match self {
            Arch::Sm80 => "sm80",
            Arch::Sm90 => "sm90",
        }
    }
}

fn parse_arch(o: &Opts) -> R<Option<Arch>> {
    let r = o.get("arch");
    match r.opt {
        None => Ok(None),
        Some((_, v)) => match tag_name(v).as_deref() {
            Some("sm80") | Some("sm_80") => Ok(Some(Arch::Sm80)),
            Some("sm90") | Some("sm90a") | Some("sm_90a") | Some("sm_90") => Ok(Some(Arch::Sm90)),
            _ => Err(EvalError::rule("gemm arch", format!("expected sm80 or sm90, got `{v}`")).at_arg(r.at())),
        },
    }
}

/// A parsed kernel configuration of either architecture.
#[derive(Clone, Debug)]
pub enum Kernel {
    Sm80(GemmConfig),
    Sm90(super::sm90::Sm90Config),
}

/// Parse the options into the kernel to build. `arch=` picks it; without one, the sm90 kernel
/// when `device_cc` is compute capability 9.x and the problem suits it (the note says why not
/// otherwise), else sm80.
pub fn parse_kernel(
    m: i64,
    n: i64,
    k: i64,
    opts: &[GemmOpt],
    device_cc: Option<(i32, i32)>,
) -> R<(Kernel, Option<String>)> {
    check_sizes(m, n, k)?;
    let o = Opts::new(opts)?;
    match parse_arch(&o)? {
        Some(Arch::Sm90) => Ok((Kernel::Sm90(super::sm90::parse(m, n, k, opts, &o)?), None)),
        Some(Arch::Sm80) => Ok((Kernel::Sm80(parse(m, n, k, opts)?), None)),
        None if device_cc.is_some_and(|(major, _)| major == 9) => match super::sm90::parse(m, n, k, opts, &o) {
            Ok(c) => Ok((Kernel::Sm90(c), None)),
            Err(e) if e.rule == "gemm sm90" && SM90_KEYS.iter().all(|key| o.get(key).opt.is_none()) => {
                let note = format!("sm80 kernel: the sm90 one does not take this problem ({})", e.detail);
                Ok((Kernel::Sm80(parse(m, n, k, opts)?), Some(note)))
            }
            Err(e) => Err(e),
        },
        None => Ok((Kernel::Sm80(parse(m, n, k, opts)?), None)),
    }
}
