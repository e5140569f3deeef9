//! The Hopper GEMM (`arch=sm90`, NVRTC `sm_90a`): TMA loads into GMMA-atom shared-memory
//! layouts, an mbarrier full/empty ring, one producer warpgroup (one thread issues the TMA
//! copies) and one or two consumer warpgroups issuing `wgmma.mma_async` m64nNk16 from
//! shared-memory descriptors, registers moved to the consumers with `setmaxnreg`; optionally
//! persistent CTAs walking the tiles in rasterised order.
//!
//! Every number the kernel uses comes from a layout value: the shared-memory layout of each
//! operand is CuTe's GMMA layout atom (`Layout_K_SW128_Atom<half_t>` =
//! `Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)`: the swizzle acts on byte addresses,
//! which for 16-bit elements is `Sw<3,3,3>` on element offsets) tiled to (rows, BK, stages) by
//! `tile_to_shape`; the TMA boxes and their places in a stage, the TMA swizzle mode, and the
//! wgmma descriptors (start address, leading/stride byte offsets, layout type) are read off that
//! layout and checked against it at every coordinate before anything is emitted: a layout the
//! TMA or wgmma cannot produce is refused with the reason. The accumulators go to C through the
//! wgmma atom's C layout (`SM90_64xNx16_F32F16F16_SS<K,K>`'s `CLayout_64xN`), lowered like the
//! sm80 path's.
//! May import: `eval` (values, atoms, gmma), `runtime::{config, expr, lower, kernel}`.

use super::config::{self, DType, Major, Opts};
use super::expr::{var, Expr};
use super::lower::{self, host_eval, layout_at_crd};
use crate::eval::atoms::mma_table::MmaTraits;
use crate::eval::error::{EvalError, R};
use crate::eval::int::st;
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::{Composed, Func, Layout, Swizzle};
use crate::eval::value::Value;
use std::fmt::Write;

use crate::eval::gmma;
pub use crate::eval::gmma::{GmmaDesc, LayoutType};

fn gmma_major(major: Major) -> gmma::Major {
    match major {
        Major::K => gmma::Major::K,
        Major::MN => gmma::Major::MN,
    }
}

fn swizzle_b(swizzle_bytes: i64) -> i32 {
    match swizzle_bytes {
        128 => 3,
        64 => 2,
        _ => 1,
    }
}

/// `make_gmma_desc<K|MN>` (crate::eval::gmma, CuTe's checks and refusals) of an operand slice
/// behind the `Sw<B,4,3>` byte swizzle of `swizzle_bytes`-byte rows.
fn make_desc(slice: &Layout, swizzle_bytes: i64, major: Major) -> R<GmmaDesc> {
    let b = swizzle_b(swizzle_bytes);
    let v = gmma::smem_flagged(Value::Swizzle(Swizzle { b, m: 4, s: 3 }), 16, Value::Layout(slice.clone()))?;
    gmma::make_gmma_desc(gmma_major(major), &v, 16)
}

/// One operand of the Hopper kernel, K-major or MN-major.
#[derive(Clone, Debug)]
pub struct Operand90 {
    /// 'a' or 'b'
    pub name: char,
    /// Which mode is contiguous in global memory, in the smem atom and for the wgmma.
    pub major: Major,
    pub tile_mn: i64,
    pub extent_mn: i64,
    /// Width of a swizzled row in bytes (128, 64 or 32): the GMMA atom and the TMA swizzle mode.
    pub swizzle_bytes: i64,
    /// The GMMA layout atom as CuTe prints it.
    pub atom_cute: String,
    /// The same atom on element offsets (what this REPL evaluates): `Sw<B,3,3> o (8,W):(W,1)`.
    pub atom: Value,
    /// `tile_to_shape(atom, (rows, BK, stages))`: element offset of every (row, k, stage).
    pub smem: Value,
    /// Its layout before the swizzle (what the descriptors and TMA boxes are read from).
    pub plain: Layout,
    pub stage_elems: i64,
    /// TMA box: `box_k` elements along K by `box_rows` rows (M or N). The swizzled (inner)
    /// dimension is K for a K-major operand (`box_k` = one swizzled row), rows for MN-major.
    pub box_k: i64,
    pub box_rows: i64,
    /// Boxes of one stage: (first row, first k, byte offset in the stage), offsets from the layout.
    pub boxes: Vec<(i64, i64, i64)>,
    /// Rows of one wgmma operand slice (64 for A, BN for B).
    pub slice_rows: i64,
    /// The slice's layout `(slice_rows, 16)` and its descriptor (start address 0).
    pub slice: Layout,
    pub desc: GmmaDesc,
}

impl Operand90 {
    /// Element offset (before the swizzle) of (row, k, stage).
    pub fn at(&self, r: i64, k: i64, s: i64) -> R<i64> {
        host_eval(&Value::Layout(self.plain.clone()), &[r, k, s])
    }
    /// The descriptor's start-address delta (16-byte units) of the slice at (row0, k0) of stage 0.
    pub fn desc_delta(&self, row0: i64, k0: i64) -> R<i64> {
        Ok(self.at(row0, k0, 0)? * 2 / 16)
    }
    pub fn stage_bytes(&self) -> i64 {
        self.stage_elems * 2
    }
    /// The TMA box as the tensor map takes it: (inner, outer) elements.
    pub fn tma_box(&self) -> (i64, i64) {
        match self.major {
            Major::K => (self.box_k, self.box_rows),
            Major::MN => (self.box_rows, self.box_k),
        }
    }
    /// The wgmma's transpose immediate (`tnspA`/`tnspB`): 1 for an MN-major operand.
    pub fn transpose(&self) -> i32 {
        i32::from(self.major == Major::MN)
    }
}

#[derive(Clone, Debug)]
pub struct Sm90Config {
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub dtype: DType,
    pub out: DType,
    pub layout: String,
    pub bm: i64,
    pub bn: i64,
    pub bk: i64,
    pub stages: i64,
    /// Consumer warpgroups; each owns BM / consumers rows, in `mt` 64-row wgmma atoms.
    pub consumers: i64,
    pub mt: i64,
    pub persistent: bool,
    /// The TMA-store epilogue, when it applies (else 4- or 2-byte stores straight to C).
    pub epi: Option<Epi90>,
    /// CTAs per cluster along M (1 or 2): a pair works on two M tiles of one N tile, each CTA
    /// loads half of B's boxes and multicasts them to both.
    pub cluster: i64,
    pub raster: i64,
    pub iters: i64,
    pub warmup: i64,
    /// `SM90_64xBNx16_F32F16F16_SS<K,K>` (or BF16): its C layout places the accumulators.
    pub atom: MmaTraits,
    pub a: Operand90,
    pub b: Operand90,
    pub gmem_c: Layout,
    pub given: Vec<String>,
}

/// The TMA-store epilogue: each consumer writes its accumulators `cols` columns at a time
/// (128 bytes of C) into one of its two shared-memory boxes of 64 rows x 128 bytes, 128-byte
/// swizzled (conflict-free: the 8 rows a warp's store touches land in 8 different 16-byte
/// chunks), and one thread stores the box with `cp.async.bulk.tensor` (TMA clips the edges).
#[derive(Clone, Debug)]
pub struct Epi90 {
    pub cols: i64,
    pub out_bytes: i64,
}

impl Epi90 {
    pub const BOX_BYTES: i64 = 64 * 128;
    /// Byte offset in a box of element (m, n), m < 64, n < cols: as TMA reads a 128B-swizzled
    /// box (`Sw<3,4,3>` on the byte address).
    pub fn smem_byte(&self, m: i64, n: i64) -> i64 {
        let lin = m * 128 + n * self.out_bytes;
        lin ^ ((lin >> 3) & 0x70)
    }
}

impl Sm90Config {
    pub fn threads(&self) -> i64 {
        128 * (1 + self.consumers)
    }
    /// Operand stages, the mbarriers (full and empty, 8 bytes each per stage), and 1024 bytes
    /// to align the base for the 128-byte swizzle.
    pub fn smem_bytes(&self) -> i64 {
        (self.a.stage_bytes() + self.b.stage_bytes()) * self.stages + self.epi_bytes() + 16 * self.stages + 1024
    }
    /// Two epilogue boxes per consumer.
    pub fn epi_bytes(&self) -> i64 {
        if self.epi.is_some() {
            2 * Epi90::BOX_BYTES * self.consumers
        } else {
            0
        }
    }
    pub fn tiles(&self) -> i64 {
        ((self.m + self.bm - 1) / self.bm) * ((self.n + self.bn - 1) / self.bn)
    }
    /// M tiles, rounded up to whole clusters (a phantom tile past M loads zeros, stores nothing).
    pub fn m_tiles(&self) -> i64 {
        let gm = (self.m + self.bm - 1) / self.bm;
        (gm + self.cluster - 1) / self.cluster * self.cluster
    }
    /// Work items of the tile loop: one per cluster of `cluster` M tiles of one N tile.
    pub fn work(&self) -> i64 {
        self.m_tiles() / self.cluster * ((self.n + self.bn - 1) / self.bn)
    }
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }
    /// A's wgmma slice (consumer c, atom i, k-step kk, stage s): its start in 16-byte units
    /// from `sa >> 4`, as the kernel composes it (consumer, stage and k-step terms).
    pub fn a_slice_start(&self, c: i64, i: i64, kk: i64, s: i64) -> R<i64> {
        Ok(c * self.a.desc_delta(64 * self.mt, 0)?
            + s * self.a.stage_bytes() / 16
            + self.a.desc_delta(64 * i, 16 * kk)?)
    }
    /// B's wgmma slice (k-step kk, stage s) from `sb >> 4`.
    pub fn b_slice_start(&self, kk: i64, s: i64) -> R<i64> {
        Ok(s * self.b.stage_bytes() / 16 + self.b.desc_delta(0, 16 * kk)?)
    }
    pub fn describe(&self) -> String {
        format!(
            "{}x{}x{} {}*{}->{} {} sm90 tile <{},{},{}> stages {} consumers {}{}{}{}",
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
            self.consumers,
            if self.persistent { " persistent" } else { "" },
            if self.epi.is_some() { " tma_store" } else { "" },
            if self.cluster > 1 { format!(" cluster {}", self.cluster) } else { String::new() }
        )
    }
}

/// The wgmma N values CuTe defines (`GMMA_N`), the ones the tile's BN may take.
const WGMMA_N: &[i64] = &[64, 96, 128, 192, 256];

fn lay(shape: &[i64], stride: &[i64]) -> Layout {
    Layout::new(
        IntTuple::T(shape.iter().map(|&x| IntTuple::st(x)).collect()),
        IntTuple::T(stride.iter().map(|&x| IntTuple::st(x)).collect()),
    )
}

/// CuTe's GMMA atom for 16-bit elements (`gmma_atom`), with its name.
pub fn atom_cute(swizzle_bytes: i64, major: Major) -> String {
    let name = match swizzle_bytes {
        128 => "SW128",
        64 => "SW64",
        _ => "SW32",
    };
    let m = gmma_major(major);
    format!("Layout_{m}_{name}_Atom<half_t> = {}", gmma::gmma_atom(m, swizzle_bytes as u32, 16))
}

/// The GMMA atom on element offsets (16-bit elements): K-major `Sw<B,3,3> o (_8,_W):(_W,_1)`,
/// MN-major `Sw<B,3,3> o (_W,_8):(_1,_W)` (W elements = one swizzled row).
pub fn atom_elems(swizzle_bytes: i64, major: Major) -> Value {
    let w = swizzle_bytes / 2;
    let inner = match major {
        Major::K => lay(&[8, w], &[w, 1]),
        Major::MN => lay(&[w, 8], &[1, w]),
    };
    Value::Composed(Box::new(Composed {
        outer: Func::Swizzle(Swizzle { b: swizzle_b(swizzle_bytes), m: 3, s: 3 }),
        offset: st(0),
        inner: Func::Layout(inner),
        mixed: None,
    }))
}

/// The swizzle bytes of a user's atom: one of the GMMA atoms of `major` on element offsets.
fn swizzle_of_atom(v: &Value, major: Major) -> Option<i64> {
    [128, 64, 32].into_iter().find(|&b| atom_elems(b, major).to_string() == config::staticize(v).to_string())
}

fn refuse(msg: impl Into<String>) -> EvalError {
    EvalError::rule("gemm sm90", msg)
}

/// Tile the atom over (rows, BK, stages) and read the TMA boxes and the wgmma descriptor off
/// the result, checking both against the layout at every coordinate.
#[allow(clippy::too_many_arguments)]
pub fn operand(
    name: char,
    major: Major,
    tile_mn: i64,
    extent_mn: i64,
    bk: i64,
    stages: i64,
    swizzle_bytes: i64,
    slice_rows: i64,
    max_box_rows: i64,
) -> R<Operand90> {
    let atom = atom_elems(swizzle_bytes, major);
    let w = swizzle_bytes / 2;
    match major {
        Major::K if bk % w != 0 => {
            return Err(refuse(format!(
                "BK = {bk} is not a multiple of the {swizzle_bytes}-byte swizzle atom's {w} elements"
            )))
        }
        Major::MN if tile_mn % w != 0 => {
            return Err(refuse(format!(
                "{tile_mn} rows of {name} are not a multiple of the MN-major {swizzle_bytes}-byte swizzle atom's {w} elements"
            )))
        }
        _ => {}
    }
    // CUTLASS's order: atoms along M/N first for K-major operands, along K first for MN-major
    // ones (`Step<_2,_1,_3>`), so that one TMA box of whole swizzled rows is contiguous
    let smem = match major {
        Major::K => lower::tile_to_shape(&atom, &[tile_mn, bk, stages])?,
        Major::MN => lower::tile_to_shape_ordered(&atom, &[tile_mn, bk, stages], &[2, 1, 3])?,
    };
    let plain = match &smem {
        Value::Composed(c) => match &c.inner {
            Func::Layout(l) => l.clone(),
            _ => return Err(refuse("tile_to_shape gave no plain inner layout")),
        },
        _ => return Err(refuse("tile_to_shape gave no swizzled layout")),
    };
    let pv = Value::Layout(plain.clone());
    let at = |r: i64, k: i64, s: i64| host_eval(&pv, &[r, k, s]);
    let stage_elems = tile_mn * bk;
    // stages one after another
    for s in 0..stages {
        if at(0, 0, s)? != s * stage_elems {
            return Err(refuse(format!("{smem}: stage {s} does not start at {}", s * stage_elems)));
        }
    }
    // TMA boxes: one swizzled row of the contiguous dimension (K or M/N) by up to 256 of the
    // other; each box must land as TMA writes it (rows of `swizzle_bytes` bytes one after
    // another, the swizzle on the address).
    let (box_k, box_rows) = match major {
        Major::K => (w, tile_mn.min(max_box_rows)),
        Major::MN => (bk.min(256), w),
    };
    if tile_mn % box_rows != 0 || bk % box_k != 0 {
        return Err(refuse(format!("a ({tile_mn},{bk}) tile is not whole TMA boxes of ({box_rows},{box_k})")));
    }
    let mut boxes = Vec::new();
    for j in 0..bk / box_k {
        for i in 0..tile_mn / box_rows {
            let (r0, k0) = (i * box_rows, j * box_k);
            let base = at(r0, k0, 0)?;
            for r in 0..box_rows {
                for c in 0..box_k {
                    let got = at(r0 + r, k0 + c, 0)?;
                    // offset of (r, c) in the box as TMA writes it: the inner dimension first
                    let want = base + if major == Major::K { r * w + c } else { c * w + r };
                    if got != want {
                        return Err(refuse(format!(
                            "smem_{name} = {smem}: TMA box ({r0},{k0}) writes element ({},{}) at {want} but the layout puts it at {got}",
                            r0 + r,
                            k0 + c,
                        )));
                    }
                }
            }
            if (base * 2) % 1024 != 0 {
                return Err(refuse(format!("TMA box ({r0},{k0}) starts at byte {} (not 1024-aligned)", base * 2)));
            }
            boxes.push((r0, k0, base * 2));
        }
    }
    // the wgmma operand slice (slice_rows, 16) at the stage's origin, and its descriptor
    let slice = crate::eval::ops::algebra::composition_raw(
        &Layout::new(IntTuple::T(plain.shape.modes()[..2].to_vec()), IntTuple::T(plain.stride.modes()[..2].to_vec())),
        &lay(&[slice_rows, 16], &[1, tile_mn]),
    )?;
    let desc = make_desc(&slice, swizzle_bytes, major).map_err(|e| {
        EvalError::rule(
            "gemm sm90",
            format!("smem_{name} = {smem}: no wgmma descriptor for its {slice_rows}x16 slices: {e}"),
        )
    })?;
    Ok(Operand90 {
        name,
        major,
        tile_mn,
        extent_mn,
        swizzle_bytes,
        atom_cute: atom_cute(swizzle_bytes, major),
        atom,
        smem,
        plain,
        stage_elems,
        box_k,
        box_rows,
        boxes,
        slice_rows,
        slice,
        desc,
    })
}

/// The GMMA atom for the tile: `SM90_64x{BN}x16_F32{T}{T}_SS<K,K>` from the atoms table.
pub fn wgmma_atom(dtype: DType, bn: i64) -> R<MmaTraits> {
    let t = if dtype == DType::BF16 { "F32BF16BF16" } else { "F32F16F16" };
    let name = format!("SM90_64x{bn}x16_{t}_SS");
    let targs = [crate::eval::builtins::TArg::Name("K".into()), crate::eval::builtins::TArg::Name("K".into())];
    crate::eval::atoms::mma_table::lookup(&name, &targs)
        .unwrap_or_else(|| Err(EvalError::unknown(format!("no MMA atom {name}"))))
}

/// Parse the sm90 options (the keys common with sm80 mean the same).
pub(crate) fn parse(m: i64, n: i64, k: i64, opts: &[super::GemmOpt], o: &Opts) -> R<Sm90Config> {
    let given = config::given_lines(opts);
    let (dtype, out) = config::parse_types(o)?;
    let layout = config::parse_layout(o)?;
    let (a_major, b_major) = config::majors(&layout);
    for key in ["mma", "copy_a", "copy_b"] {
        if o.get(key).opt.is_some() {
            return Err(refuse(format!(
                "`{key}` configures the sm80 kernel; on sm90 the wgmma atom follows the tile and TMA copies whole boxes"
            ))
            .at_arg(o.get(key).at()));
        }
    }
    // the contiguous rows must be 16-byte aligned for the TMA (its global strides are multiples
    // of 16 bytes)
    for (op, major, mn, mn_name) in [('A', a_major, m, 'M'), ('B', b_major, n, 'N')] {
        let (what, x) = if major == Major::K { ('K', k) } else { (mn_name, mn) };
        if x % 8 != 0 {
            return Err(refuse(format!(
                "{what} = {x}: TMA needs 16-byte aligned rows of {op} ({layout}: {op} is {}-major, so {what} a multiple of 8); use arch=sm80",
                if major == Major::K { "K" } else { "MN" }
            )));
        }
    }
    let tile_given = o.get("tile").opt.is_some();
    let (bm, bn, bk) = if tile_given { config::parse_tile(o)? } else { (128, 256, 64) };
    let tile_at = o.get("tile").at();
    let consumers = o.int("consumers")?;
    let stages = if o.get("stages").opt.is_some() { o.int("stages")? } else { 4 };
    if bm % (64 * consumers) != 0 || !(1..=2).contains(&(bm / (64 * consumers))) {
        return Err(refuse(format!("BM = {bm} must be 64 or 128 rows per consumer warpgroup ({consumers} consumers)"))
            .at_arg(tile_at));
    }
    let mt = bm / (64 * consumers);
    if !WGMMA_N.contains(&bn) {
        return Err(refuse(format!("BN = {bn} is not a wgmma N (one of {WGMMA_N:?})")).at_arg(tile_at));
    }
    if mt * bn / 2 > 128 {
        return Err(refuse(format!(
            "{mt} wgmma atoms of 64x{bn} need {} accumulator registers per thread (at most 128)",
            mt * bn / 2
        ))
        .at_arg(tile_at));
    }
    let sw_of = |key: &str, major: Major, tile_mn: i64| -> R<i64> {
        let r = o.get(key);
        // the widest swizzle whose row (64, 32 or 16 elements) divides the contiguous extent
        let contiguous = if major == Major::K { bk } else { tile_mn };
        match r.opt {
            None => Ok(if contiguous % 64 == 0 {
                128
            } else if contiguous % 32 == 0 {
                64
            } else {
                32
            }),
            Some((_, v)) => swizzle_of_atom(v, major).ok_or_else(|| {
                let mj = if major == Major::K { "K" } else { "MN" };
                refuse(format!(
                    "{key} = {v}: the sm90 kernel takes a {mj}-major GMMA atom ({layout}): {}, {} or {}",
                    atom_elems(128, major),
                    atom_elems(64, major),
                    atom_elems(32, major)
                ))
                .at_arg(r.at())
            }),
        }
    };
    let (swa, swb) = (sw_of("smem_a", a_major, bm)?, sw_of("smem_b", b_major, bn)?);
    let cluster = o.int("cluster")?;
    // with a cluster, B's boxes are split between the CTAs: at least two per stage
    let b_box_rows = if cluster > 1 { (bn / cluster).min(256) } else { 256 };
    let a = operand('a', a_major, bm, m, bk, stages, swa, 64, 256)
        .map_err(|e| e.at_arg(o.get("smem_a").at().max(tile_at)))?;
    let b = operand('b', b_major, bn, n, bk, stages, swb, bn, b_box_rows)
        .map_err(|e| e.at_arg(o.get("smem_b").at().max(tile_at)))?;
    let atom = wgmma_atom(dtype, bn)?;
    let persistent = o.int("persistent")? == 1;
    // the TMA-store epilogue: C's rows 16-byte aligned, BN whole 128-byte boxes, and room for
    // its boxes; without `tma_store=1` given, a tile it does not suit stores straight to C
    let out_bytes = if out == DType::F32 { 4 } else { 2 };
    let cols = 128 / out_bytes;
    let stage_bytes = (a.stage_bytes() + b.stage_bytes()) * stages + 16 * stages + 1024;
    let epi_why = if (n * out_bytes) % 16 != 0 {
        Some(format!("rows of C ({n} x {out_bytes} bytes) are not 16-byte aligned"))
    } else if bn % cols != 0 {
        Some(format!("BN = {bn} is not whole boxes of {cols} columns (128 bytes)"))
    } else if stage_bytes + 2 * Epi90::BOX_BYTES * consumers > config::MAX_SMEM {
        Some(format!(
            "{stages} stages leave no room for its {} bytes of boxes (the limit is {})",
            2 * Epi90::BOX_BYTES * consumers,
            config::MAX_SMEM
        ))
    } else {
        None
    };
    if cluster > 1 && b_major == Major::MN {
        // measured on the H200 (BENCHMARKS.md): a 2048³ NT run left a box of C unwritten
        return Err(refuse(format!(
            "cluster={cluster} multicasts a K-major B only (layout={layout} has an MN-major B: its multicast run left C unwritten on the H200, not yet understood)"
        ))
        .at_arg(o.get("cluster").at()));
    }
    if cluster > 1 && b.boxes.len() as i64 % cluster != 0 {
        return Err(refuse(format!(
            "cluster={cluster}: B's {} TMA box(es) per stage do not split between {cluster} CTAs",
            b.boxes.len()
        ))
        .at_arg(o.get("cluster").at()));
    }
    let epi = match (o.int("tma_store")?, &epi_why, o.get("tma_store").opt.is_some()) {
        (1, None, _) => Some(Epi90 { cols, out_bytes }),
        (1, Some(why), true) => {
            return Err(refuse(format!("tma_store=1: the TMA-store epilogue does not fit: {why}"))
                .at_arg(o.get("tma_store").at()))
        }
        _ => None,
    };
    if cluster > 1 && epi.is_none() {
        // a phantom M tile's rows are past M: TMA stores clip them, the direct stores would not
        return Err(refuse(format!(
            "cluster={cluster} needs the TMA-store epilogue ({})",
            epi_why.as_deref().unwrap_or("tma_store=0")
        ))
        .at_arg(o.get("cluster").at()));
    }
    let iters = o.int("iters")?;
    let warmup = o.int("warmup")?;
    let raster = o.int("raster")?;
    let cfg = Sm90Config {
        m,
        n,
        k,
        dtype,
        out,
        layout,
        bm,
        bn,
        bk,
        stages,
        consumers,
        mt,
        persistent,
        epi,
        cluster,
        raster,
        iters,
        warmup,
        atom,
        a,
        b,
        gmem_c: Layout::new(
            IntTuple::T(vec![IntTuple::dy(m), IntTuple::dy(n)]),
            IntTuple::T(vec![IntTuple::dy(n), IntTuple::dy(1)]),
        ),
        given,
    };
    if cfg.smem_bytes() > config::MAX_SMEM {
        return Err(refuse(format!(
            "tile <{bm},{bn},{bk}> with {stages} stages needs {} bytes of shared memory; the limit is {}",
            cfg.smem_bytes(),
            config::MAX_SMEM
        ))
        .at_arg(o.get("stages").at().max(tile_at)));
    }
    Ok(cfg)
}

/// The lowered accumulator map: thread `t` of a consumer warpgroup, value v of one 64xBN atom
/// -> (m, n) in the atom, from the atom's C layout `(thread, value) -> m + 64 n`.
#[derive(Clone, Debug)]
pub struct Plan90 {
    /// (m, n) of value 0, over `t` (0..128).
    pub c_m: Expr,
    pub c_n: Expr,
    /// Value v: (dm, dn) from value 0, the same for every thread (checked).
    pub c_vals: Vec<(i64, i64)>,
}

pub fn plan(cfg: &Sm90Config) -> R<Plan90> {
    let cl = &cfg.atom.c;
    let modes_s = cl.shape.modes();
    let modes_d = cl.stride.modes();
    let thr = Layout::new(IntTuple::T(vec![modes_s[0].clone()]), IntTuple::T(vec![modes_d[0].clone()]));
    let (c_m, c_n) = super::kernel::split_coords(&thr, 64, var("t", 0, 128))?;
    let full = layout_at_crd(cl, &[var("t", 0, 128), var("v", 0, cfg.bn / 2)])?;
    let mut c_vals = Vec::new();
    for v in 0..cfg.bn / 2 {
        let mut d: Option<(i64, i64)> = None;
        for t in 0..128i64 {
            let at = |vv: i64| full.eval(&|x| if x == "t" { t } else { vv });
            let (Some(i0), Some(iv)) = (at(0), at(v)) else { return Err(refuse("C layout evaluation")) };
            let dd = (iv % 64 - i0 % 64, iv / 64 - i0 / 64);
            if d.is_some_and(|x| x != dd) {
                return Err(refuse("the accumulator layout is not a constant shift per value"));
            }
            d = Some(dd);
        }
        c_vals.push(d.unwrap_or((0, 0)));
    }
    Ok(Plan90 { c_m, c_n, c_vals })
}

pub fn generate(cfg: &Sm90Config) -> R<String> {
    let p = plan(cfg)?;
    let mut s = String::new();
    emit(&mut s, cfg, &p).map_err(|_| EvalError::runtime("gemm", "formatting"))?;
    Ok(s)
}

fn emit(s: &mut String, cfg: &Sm90Config, p: &Plan90) -> std::fmt::Result {
    emit_header(s, cfg)?;
    emit_prelude(s, cfg)?;
    emit_prologue(s, cfg)?;
    emit_producer(s, cfg)?;
    emit_mainloop(s, cfg)?;
    emit_epilogue(s, cfg, p)?;
    Ok(())
}

fn desc_line(d: &GmmaDesc) -> String {
    format!(
        "layout_type {} ({}), leading_off {}, stride_off {} (x16 bytes), base_offset {}: 0x{:016x} | start",
        d.layout_type.name(),
        d.layout_type.code(),
        d.leading_off,
        d.stride_off,
        d.base_offset,
        d.bits()
    )
}

fn emit_header(s: &mut String, cfg: &Sm90Config) -> std::fmt::Result {
    let (bm, bn, bk, st) = (cfg.bm, cfg.bn, cfg.bk, cfg.stages);
    writeln!(s, "// cute: generated GEMM kernel (header-free CUDA C++ for NVRTC, sm_90a: TMA + wgmma)")?;
    writeln!(s, "// {}", cfg.describe())?;
    if !cfg.given.is_empty() {
        writeln!(s, "// options: {}", cfg.given.join(" "))?;
    }
    let mj = |o: &Operand90| if o.major == Major::K { "K" } else { "MN" };
    writeln!(
        s,
        "// C ({}x{}, row-major) = A ({}x{}, {}-major) * B ({}x{}, {}-major), fp32 accumulation",
        cfg.m,
        cfg.n,
        cfg.m,
        cfg.k,
        mj(&cfg.a),
        cfg.k,
        cfg.n,
        mj(&cfg.b)
    )?;
    writeln!(s, "// Layouts (every number below is read off these and checked at every coordinate):")?;
    writeln!(s, "//   gC = {}", cfg.gmem_c)?;
    for (o, rows) in [(&cfg.a, bm), (&cfg.b, bn)] {
        let n = o.name;
        writeln!(s, "//   smem_{n}: atom {}", o.atom_cute)?;
        writeln!(
            s,
            "//     on element offsets {} tiled: tile_to_shape(atom, (_{rows},_{bk},_{st})) = {}",
            o.atom, o.smem
        )?;
        let (b0, b1) = if o.major == Major::K {
            (format!("{} (K)", o.box_k), format!("{} (rows)", o.box_rows))
        } else {
            (format!("{} (rows)", o.box_rows), format!("{} (K)", o.box_k))
        };
        writeln!(
            s,
            "//     TMA box {{{b0}, {b1}}}, swizzle {}B, {} box(es) per stage at bytes {:?}",
            o.swizzle_bytes,
            o.boxes.len(),
            o.boxes.iter().map(|b| b.2).collect::<Vec<_>>()
        )?;
        writeln!(s, "//     wgmma operand slice ({},16) = {}", o.slice_rows, o.slice)?;
        writeln!(s, "//     descriptor: {}", desc_line(&o.desc))?;
    }
    writeln!(s, "//   MMA {}: C layout (thread, value) -> m + 64n: {}", cfg.atom.name, cfg.atom.c)?;
    writeln!(
        s,
        "// {} threads: warpgroup 0 produces (TMA), {} consumer warpgroup(s) of {}x{} ({} wgmma m64n{}k16 atom(s) each); {} stages; {} bytes of dynamic shared memory; {}",
        cfg.threads(),
        cfg.consumers,
        bm / cfg.consumers,
        bn,
        cfg.mt,
        bn,
        st,
        cfg.smem_bytes(),
        if cfg.persistent { "persistent CTAs" } else { "one CTA per tile" }
    )?;
    match &cfg.epi {
        Some(e) => writeln!(
            s,
            "// epilogue: per consumer, boxes of 64 rows x {} columns (128 bytes, Sw<3,4,3> on bytes) in 2 shared-memory buffers, stored by TMA",
            e.cols
        )?,
        None => writeln!(s, "// epilogue: stores straight to C through the C layout")?,
    }
    Ok(())
}

const PRELUDE90: &str = r#"
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
struct __align__(64) TmaMap { u64 v[16]; };

__device__ __forceinline__ u32 smem_u32(const void* p) {
  u32 r;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(r) : "l"(p));
  return r;
}
__device__ __forceinline__ void mbar_init(u32 bar, u32 count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(u32 bar, u32 bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" :: "r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(u32 bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(u32 bar, u32 parity) {
  u32 done;
  do {
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
  } while (!done);
}
__device__ __forceinline__ void tma_load(u32 dst, const TmaMap* map, u32 bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
               :: "r"(dst), "l"((u64)map), "r"(c0), "r"(c1), "r"(bar) : "memory");
}
__device__ __forceinline__ void tma_load_mc(u32 dst, const TmaMap* map, u32 bar, int c0, int c1, u16 mask) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n"
               :: "r"(dst), "l"((u64)map), "r"(c0), "r"(c1), "r"(bar), "h"(mask) : "memory");
}
__device__ __forceinline__ u32 cluster_rank() {
  u32 r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
// arrive on the mbarrier at the same offset in CTA `cta` of the cluster
__device__ __forceinline__ void mbar_arrive_cta(u32 bar, u32 cta) {
  asm volatile("{\n .reg .b32 r;\n mapa.shared::cluster.u32 r, %0, %1;\n mbarrier.arrive.release.cluster.shared::cluster.b64 _, [r];\n}\n"
               :: "r"(bar), "r"(cta) : "memory");
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}
__device__ __forceinline__ void tma_store(const TmaMap* map, u32 src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n"
               :: "l"((u64)map), "r"(src), "r"(c0), "r"(c1) : "memory");
}
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void bulk_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" :: "n"(N) : "memory");
}
template <int N> __device__ __forceinline__ void bulk_wait() {
  asm volatile("cp.async.bulk.wait_group %0;\n" :: "n"(N) : "memory");
}
__device__ __forceinline__ void fence_async_smem() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
__device__ __forceinline__ void bar_named(int id, int n) { asm volatile("bar.sync %0, %1;\n" :: "r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ u32 swz128(u32 x) { return x ^ ((x >> 3) & 0x70u); }
__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wg_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(N) : "memory");
}
__device__ __forceinline__ void fence_reg(float& r) { asm volatile("" : "+f"(r) :: "memory"); }
"#;

fn emit_prelude(s: &mut String, cfg: &Sm90Config) -> std::fmt::Result {
    s.push_str(PRELUDE90);
    let ab = if cfg.dtype == DType::BF16 { "bf16" } else { "f16" };
    let nv = cfg.bn / 2;
    // wgmma m64nBNk16 from two descriptors, accumulating into nv registers
    writeln!(s, "__device__ __forceinline__ void wgmma(float (&d)[{nv}], u64 da, u64 db) {{")?;
    let regs: Vec<String> = (0..nv).map(|i| format!("%{i}")).collect();
    writeln!(s, "  asm volatile(\"{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{}, 0;\\n\"", nv + 2)?;
    writeln!(
        s,
        "    \"wgmma.mma_async.sync.aligned.m64n{}k16.f32.{ab}.{ab} {{{}}}, %{}, %{}, p, 1, 1, {}, {};\\n}}\\n\"",
        cfg.bn,
        regs.join(", "),
        nv,
        nv + 1,
        cfg.a.transpose(),
        cfg.b.transpose()
    )?;
    let outs: Vec<String> = (0..nv).map(|i| format!("\"+f\"(d[{i}])")).collect();
    writeln!(s, "    : {}", outs.join(", "))?;
    writeln!(s, "    : \"l\"(da), \"l\"(db), \"r\"(1) : \"memory\");")?;
    writeln!(s, "}}")?;
    // output conversion (global stores, and shared-memory stores for the TMA-store epilogue)
    match cfg.out {
        DType::F32 => {
            s.push_str("__device__ __forceinline__ void sts_pair(u32 p, float a, float b) {\n  asm volatile(\"st.shared.v2.f32 [%0], {%1, %2};\\n\" :: \"r\"(p), \"f\"(a), \"f\"(b));\n}\n__device__ __forceinline__ void sts_one(u32 p, float a) {\n  asm volatile(\"st.shared.f32 [%0], %1;\\n\" :: \"r\"(p), \"f\"(a));\n}\n");
            s.push_str("__device__ __forceinline__ void st_pair(float* p, float a, float b) {\n  asm volatile(\"st.global.v2.f32 [%0], {%1, %2};\\n\" :: \"l\"(p), \"f\"(a), \"f\"(b));\n}\n__device__ __forceinline__ void st_one(float* p, float a) {\n  asm volatile(\"st.global.f32 [%0], %1;\\n\" :: \"l\"(p), \"f\"(a));\n}\n");
        }
        d => {
            let t = if d == DType::BF16 { "bf16" } else { "f16" };
            write!(s, "__device__ __forceinline__ void sts_pair(u32 p, float a, float b) {{\n  u32 v;\n  asm(\"cvt.rn.{t}x2.f32 %0, %1, %2;\\n\" : \"=r\"(v) : \"f\"(b), \"f\"(a));\n  asm volatile(\"st.shared.b32 [%0], %1;\\n\" :: \"r\"(p), \"r\"(v));\n}}\n__device__ __forceinline__ void sts_one(u32 p, float a) {{\n  u16 v;\n  asm(\"cvt.rn.{t}.f32 %0, %1;\\n\" : \"=h\"(v) : \"f\"(a));\n  asm volatile(\"st.shared.b16 [%0], %1;\\n\" :: \"r\"(p), \"h\"(v));\n}}\n")?;
            write!(s, "__device__ __forceinline__ void st_pair(u16* p, float a, float b) {{\n  u32 v;\n  asm(\"cvt.rn.{t}x2.f32 %0, %1, %2;\\n\" : \"=r\"(v) : \"f\"(b), \"f\"(a));\n  asm volatile(\"st.global.b32 [%0], %1;\\n\" :: \"l\"(p), \"r\"(v));\n}}\n__device__ __forceinline__ void st_one(u16* p, float a) {{\n  u16 v;\n  asm(\"cvt.rn.{t}.f32 %0, %1;\\n\" : \"=h\"(v) : \"f\"(a));\n  asm volatile(\"st.global.b16 [%0], %1;\\n\" :: \"l\"(p), \"h\"(v));\n}}\n")?;
        }
    }
    Ok(())
}

fn ctype(d: DType) -> &'static str {
    if d == DType::F32 {
        "float"
    } else {
        "u16"
    }
}

fn emit_prologue(s: &mut String, cfg: &Sm90Config) -> std::fmt::Result {
    let st = cfg.stages;
    let gm = (cfg.m + cfg.bm - 1) / cfg.bm;
    let gn = (cfg.n + cfg.bn - 1) / cfg.bn;
    let a_bytes = cfg.a.stage_bytes() * st;
    let b_bytes = cfg.b.stage_bytes() * st;
    let dims = if cfg.cluster > 1 { format!(" __cluster_dims__({}, 1, 1)", cfg.cluster) } else { String::new() };
    writeln!(s, "\nextern \"C\" __global__ void __launch_bounds__({}, 1){dims}", cfg.threads())?;
    writeln!(
        s,
        "{}(const __grid_constant__ TmaMap tma_a, const __grid_constant__ TmaMap tma_b, {}{}* __restrict__ C) {{",
        super::kernel::KERNEL_NAME,
        if cfg.epi.is_some() { "const __grid_constant__ TmaMap tma_c, " } else { "" },
        ctype(cfg.out)
    )?;
    writeln!(s, "  extern __shared__ __align__(1024) unsigned char smem[];")?;
    writeln!(
        s,
        "  const u32 sa = (smem_u32(smem) + 1023u) & ~1023u;  // the 128-byte swizzle repeats every 1024 bytes"
    )?;
    writeln!(s, "  const u32 sb = sa + {a_bytes};")?;
    writeln!(s, "  const u32 sc = sb + {b_bytes};  // the epilogue's boxes ({} bytes)", cfg.epi_bytes())?;
    writeln!(s, "  const u32 full = sc + {};  // {st} mbarriers: stage filled (TMA bytes arrived)", cfg.epi_bytes())?;
    writeln!(
        s,
        "  const u32 empty = full + {};  // {st} mbarriers: stage consumed (one arrival per consumer)",
        8 * st
    )?;
    writeln!(s, "  const int wg = threadIdx.x / 128;")?;
    writeln!(s, "  const int t = threadIdx.x % 128;")?;
    writeln!(s, "  if (threadIdx.x == 0) {{")?;
    writeln!(
        s,
        "    for (int i = 0; i < {st}; ++i) {{ mbar_init(full + 8 * i, 1); mbar_init(empty + 8 * i, {}); }}",
        cfg.consumers * cfg.cluster
    )?;
    writeln!(s, "    asm volatile(\"fence.mbarrier_init.release.cluster;\\n\" ::: \"memory\");")?;
    writeln!(s, "  }}")?;
    if cfg.cluster > 1 {
        // the peer's barriers are initialised before anything is multicast into its stages
        writeln!(s, "  cluster_sync();")?;
        writeln!(s, "  const int rank = cluster_rank();  // this CTA's M tile in its cluster's pair")?;
    } else {
        writeln!(s, "  __syncthreads();")?;
    }
    writeln!(s, "  // tiles (bm, bn) in groups of {} block rows; {} tiles", cfg.raster, gm * gn)?;
    // with a cluster, the tile loop walks clusters' tiles: `cluster` M tiles of one N tile
    let gm = cfg.m_tiles() / cfg.cluster;
    let r = cfg.raster.min(gm);
    writeln!(s, "#define TILE_COORDS(pid) \\")?;
    writeln!(s, "    const int first = (pid) / {} * {r}; \\", r * gn)?;
    writeln!(s, "    const int rows = {gm} - first < {r} ? {gm} - first : {r}; \\")?;
    if cfg.cluster > 1 {
        writeln!(s, "    const int bm = (first + (pid) % {} % rows) * {} + rank; \\", r * gn, cfg.cluster)?;
    } else {
        writeln!(s, "    const int bm = first + (pid) % {} % rows; \\", r * gn)?;
    }
    writeln!(s, "    const int bn = (pid) % {} / rows;", r * gn)?;
    Ok(())
}

fn tile_loop(cfg: &Sm90Config) -> String {
    if cfg.cluster > 1 {
        let c = cfg.cluster;
        return format!("for (int tile = blockIdx.x / {c}; tile < {}; tile += gridDim.x / {c})", cfg.work());
    }
    format!("for (int tile = blockIdx.x; tile < {}; tile += gridDim.x)", cfg.work())
}

fn emit_producer(s: &mut String, cfg: &Sm90Config) -> std::fmt::Result {
    let st = cfg.stages;
    let kt_n = (cfg.k + cfg.bk - 1) / cfg.bk;
    let tx = cfg.a.stage_bytes() + cfg.b.stage_bytes();
    writeln!(s, "  if (wg == 0) {{")?;
    writeln!(s, "    // producer: registers go to the consumers")?;
    if cfg.consumers > 1 {
        writeln!(s, "    asm volatile(\"setmaxnreg.dec.sync.aligned.u32 40;\\n\" ::: \"memory\");")?;
    }
    writeln!(s, "    if (t == 0) {{")?;
    writeln!(s, "      int s = 0;")?;
    writeln!(s, "      u32 ph = 0;")?;
    writeln!(s, "      {} {{", tile_loop(cfg))?;
    writeln!(s, "        TILE_COORDS(tile)")?;
    writeln!(s, "        for (int kt = 0; kt < {kt_n}; ++kt) {{")?;
    writeln!(s, "          mbar_wait(empty + 8 * s, ph ^ 1);")?;
    writeln!(
        s,
        "          mbar_expect_tx(full + 8 * s, {tx});  // both operands' boxes, out-of-bounds parts zero-filled"
    )?;
    for (o, map, base, tile) in [(&cfg.a, "tma_a", "sa", cfg.bm), (&cfg.b, "tma_b", "sb", cfg.bn)] {
        let coord = if o.name == 'a' { "bm" } else { "bn" };
        // with a cluster, CTA r loads B's boxes r, r + cluster, ... and multicasts them to all
        let multicast = o.name == 'b' && cfg.cluster > 1;
        for r in 0..if multicast { cfg.cluster } else { 1 } {
            if multicast {
                writeln!(s, "          {}if (rank == {r}) {{", if r > 0 { "else " } else { "" })?;
            }
            for (i, &(r0, k0, off)) in o.boxes.iter().enumerate() {
                if multicast && i as i64 % cfg.cluster != r {
                    continue;
                }
                // the tensor map's coordinates: the contiguous dimension first
                let (kc, rc) = (format!("kt * {} + {k0}", cfg.bk), format!("{coord} * {tile} + {r0}"));
                let (c0, c1) = if o.major == Major::K { (kc, rc) } else { (rc, kc) };
                let dst = format!("{base} + s * {} + {off}", o.stage_bytes());
                if multicast {
                    let mask = (1 << cfg.cluster) - 1;
                    writeln!(s, "            tma_load_mc({dst}, &{map}, full + 8 * s, {c0}, {c1}, {mask});")?;
                } else {
                    writeln!(s, "          tma_load({dst}, &{map}, full + 8 * s, {c0}, {c1});")?;
                }
            }
            if multicast {
                writeln!(s, "          }}")?;
            }
        }
    }
    writeln!(s, "          if (++s == {st}) {{ s = 0; ph ^= 1; }}")?;
    writeln!(s, "        }}")?;
    writeln!(s, "      }}")?;
    writeln!(s, "    }}")?;
    Ok(())
}

/// A consumer gives a stage back: to its producer, and with a cluster to every CTA's producer
/// (each multicasts into this CTA's stage).
fn release(cfg: &Sm90Config) -> String {
    if cfg.cluster > 1 {
        let v: Vec<String> = (0..cfg.cluster).map(|r| format!("mbar_arrive_cta(empty + 8 * prev, {r})")).collect();
        format!("{{ {}; }}", v.join("; "))
    } else {
        "mbar_arrive(empty + 8 * prev)".to_string()
    }
}

fn emit_mainloop(s: &mut String, cfg: &Sm90Config) -> std::fmt::Result {
    let st = cfg.stages;
    let kt_n = (cfg.k + cfg.bk - 1) / cfg.bk;
    let nv = cfg.bn / 2;
    let mt = cfg.mt;
    writeln!(s, "  }} else {{")?;
    writeln!(s, "    // consumer warpgroup c: rows [{} c, {} (c + 1)) of the tile", 64 * mt, 64 * mt)?;
    if cfg.consumers > 1 {
        // 128 x 40 + 256 x 232 registers fit the 64K of the SM
        writeln!(s, "    asm volatile(\"setmaxnreg.inc.sync.aligned.u32 232;\\n\" ::: \"memory\");")?;
    }
    writeln!(s, "    const int c = wg - 1;")?;
    // descriptors: the constant fields | (address >> 4); stage and k-step offsets from the layouts
    let (da, db) = (cfg.a.desc.bits(), cfg.b.desc.bits());
    writeln!(
        s,
        "    const u64 da0 = 0x{da:016x}ull | (u64)((sa >> 4) + c * {});",
        cfg.a.desc_delta(64 * mt, 0).unwrap_or(0)
    )?;
    writeln!(s, "    const u64 db0 = 0x{db:016x}ull | (u64)(sb >> 4);")?;
    writeln!(s, "    float acc[{mt}][{nv}];")?;
    if cfg.epi.is_some() {
        writeln!(s, "    int eq = 0;  // epilogue boxes filled so far: box eq % 2 is next")?;
    }
    writeln!(s, "    int s = 0;")?;
    writeln!(s, "    u32 ph = 0;")?;
    writeln!(s, "    {} {{", tile_loop(cfg))?;
    writeln!(s, "      TILE_COORDS(tile)")?;
    writeln!(s, "      #pragma unroll")?;
    writeln!(s, "      for (int i = 0; i < {mt}; ++i)")?;
    writeln!(s, "        #pragma unroll")?;
    writeln!(s, "        for (int j = 0; j < {nv}; ++j) acc[i][j] = 0.f;")?;
    writeln!(s, "      int prev = 0;")?;
    writeln!(s, "      #pragma unroll 1")?;
    writeln!(s, "      for (int kt = 0; kt < {kt_n}; ++kt) {{")?;
    writeln!(s, "        mbar_wait(full + 8 * s, ph);")?;
    writeln!(s, "        const u64 da = da0 + (u64)(s * {});", cfg.a.stage_bytes() / 16)?;
    writeln!(s, "        const u64 db = db0 + (u64)(s * {});", cfg.b.stage_bytes() / 16)?;
    writeln!(s, "        #pragma unroll")?;
    writeln!(s, "        for (int i = 0; i < {mt}; ++i)")?;
    writeln!(s, "          #pragma unroll")?;
    writeln!(s, "          for (int j = 0; j < {nv}; ++j) fence_reg(acc[i][j]);")?;
    writeln!(s, "        wg_fence();")?;
    for kk in 0..cfg.bk / 16 {
        let dbk = cfg.b.desc_delta(0, 16 * kk).unwrap_or(0);
        for i in 0..mt {
            let dak = cfg.a.desc_delta(64 * i, 16 * kk).unwrap_or(0);
            writeln!(s, "        wgmma(acc[{i}], da + {dak}, db + {dbk});  // k-step {kk}")?;
        }
    }
    writeln!(s, "        wg_commit();")?;
    writeln!(s, "        #pragma unroll")?;
    writeln!(s, "        for (int i = 0; i < {mt}; ++i)")?;
    writeln!(s, "          #pragma unroll")?;
    writeln!(s, "          for (int j = 0; j < {nv}; ++j) fence_reg(acc[i][j]);")?;
    writeln!(s, "        // the previous k-tile's wgmmas are done: its stage goes back to the producer")?;
    writeln!(s, "        wg_wait<1>();")?;
    writeln!(s, "        if (kt > 0 && t == 0) {};", release(cfg))?;
    writeln!(s, "        prev = s;")?;
    writeln!(s, "        if (++s == {st}) {{ s = 0; ph ^= 1; }}")?;
    writeln!(s, "      }}")?;
    writeln!(s, "      wg_wait<0>();")?;
    writeln!(s, "      #pragma unroll")?;
    writeln!(s, "      for (int i = 0; i < {mt}; ++i)")?;
    writeln!(s, "        #pragma unroll")?;
    writeln!(s, "        for (int j = 0; j < {nv}; ++j) fence_reg(acc[i][j]);")?;
    writeln!(s, "      if (t == 0) {};", release(cfg))?;
    Ok(())
}

fn emit_epilogue(s: &mut String, cfg: &Sm90Config, p: &Plan90) -> std::fmt::Result {
    if let Some(e) = &cfg.epi {
        return emit_epilogue_tma(s, cfg, p, e);
    }
    let mt = cfg.mt;
    writeln!(s, "      // epilogue: accumulator (t, v) -> (m, n) by the C layout; C = gC")?;
    writeln!(s, "      const int row0 = bm * {} + c * {} + ({});", cfg.bm, 64 * mt, p.c_m)?;
    writeln!(s, "      const int col0 = bn * {} + ({});", cfg.bn, p.c_n)?;
    writeln!(s, "      {}* const cp = C + (long long)row0 * {} + col0;", ctype(cfg.out), cfg.n)?;
    let mpred = cfg.m % cfg.bm != 0;
    let npred = cfg.n % cfg.bn != 0;
    let pair_ok = cfg.n % 2 == 0
        && (0..cfg.bn / 4).all(|h| {
            let (a, b) = (p.c_vals[2 * h as usize], p.c_vals[2 * h as usize + 1]);
            a.0 == b.0 && b.1 == a.1 + 1 && a.1 % 2 == 0
        })
        && (0..128).all(|t| p.c_n.eval(&|_| t).is_some_and(|n| n % 2 == 0));
    for i in 0..mt {
        for h in 0..cfg.bn / 4 {
            let members: Vec<usize> =
                if pair_ok { vec![2 * h as usize] } else { vec![2 * h as usize, 2 * h as usize + 1] };
            for v in members {
                let (dm, dn) = p.c_vals[v];
                let dm = dm + 64 * i;
                let off = dm * cfg.n + dn;
                let mut conds = Vec::new();
                if mpred {
                    conds.push(format!("row0 + {dm} < {}", cfg.m));
                }
                if npred || (!pair_ok && cfg.n % 2 != 0) {
                    conds.push(format!("col0 + {dn} < {}", cfg.n));
                }
                let guard = if conds.is_empty() { String::new() } else { format!("if ({}) ", conds.join(" && ")) };
                if pair_ok {
                    writeln!(s, "      {guard}st_pair(cp + {off}, acc[{i}][{v}], acc[{i}][{}]);", v + 1)?;
                } else {
                    writeln!(s, "      {guard}st_one(cp + {off}, acc[{i}][{v}]);")?;
                }
            }
        }
    }
    writeln!(s, "    }}")?;
    writeln!(s, "  }}")?;
    writeln!(s, "}}")?;
    Ok(())
}

/// Whether values (2h, 2h+1) of every thread are adjacent columns of one row (then they go out
/// as one pair).
fn pairs_adjacent(cfg: &Sm90Config, p: &Plan90) -> bool {
    (0..cfg.bn / 4).all(|h| {
        let (a, b) = (p.c_vals[2 * h as usize], p.c_vals[2 * h as usize + 1]);
        a.0 == b.0 && b.1 == a.1 + 1 && a.1 % 2 == 0
    }) && (0..128).all(|t| p.c_n.eval(&|_| t).is_some_and(|n| n % 2 == 0))
}

/// The TMA-store epilogue (`Epi90`): per 64-row atom and box of `cols` columns, wait until the
/// box written two boxes ago has been read by its TMA store, write the accumulators into it at
/// `Epi90::smem_byte`, make the writes visible to the async proxy, and let one thread store it.
fn emit_epilogue_tma(s: &mut String, cfg: &Sm90Config, p: &Plan90, e: &Epi90) -> std::fmt::Result {
    let mt = cfg.mt;
    let pair = pairs_adjacent(cfg, p);
    let (ob, cols) = (e.out_bytes, e.cols);
    writeln!(s, "      // epilogue: accumulator (t, v) -> (m, n) by the C layout, through shared-memory boxes")?;
    writeln!(s, "      const int r0 = {};", p.c_m)?;
    writeln!(s, "      const int n0 = {};", p.c_n)?;
    writeln!(s, "      const u32 cbox = sc + c * {};", 2 * Epi90::BOX_BYTES)?;
    for i in 0..mt {
        for j in 0..cfg.bn / cols {
            writeln!(s, "      {{  // rows 64*{i}.., columns {}..{}", j * cols, (j + 1) * cols)?;
            writeln!(s, "        const u32 box = cbox + (eq & 1) * {};", Epi90::BOX_BYTES)?;
            writeln!(s, "        if (t == 0) bulk_wait_read<1>();  // this box's previous store has read it")?;
            writeln!(s, "        bar_named(1 + c, 128);")?;
            let step = if pair { 2 } else { 1 };
            for v in (0..cfg.bn / 2).step_by(step) {
                let (dm, dn) = p.c_vals[v as usize];
                if dn < j * cols || dn >= (j + 1) * cols {
                    continue;
                }
                let at = format!("box + swz128((r0 + {dm}) * 128 + (n0 + {}) * {ob})", dn - j * cols);
                if pair {
                    writeln!(s, "        sts_pair({at}, acc[{i}][{v}], acc[{i}][{}]);", v + 1)?;
                } else {
                    writeln!(s, "        sts_one({at}, acc[{i}][{v}]);")?;
                }
            }
            writeln!(s, "        fence_async_smem();")?;
            writeln!(s, "        bar_named(1 + c, 128);")?;
            writeln!(
                s,
                "        if (t == 0) {{ tma_store(&tma_c, box, bn * {} + {}, bm * {} + c * {} + {}); bulk_commit(); }}",
                cfg.bn,
                j * cols,
                cfg.bm,
                64 * mt,
                64 * i
            )?;
            writeln!(s, "        ++eq;")?;
            writeln!(s, "      }}")?;
        }
    }
    writeln!(s, "    }}")?;
    writeln!(s, "    if (t == 0) bulk_wait<0>();  // the last stores are done before the CTA exits")?;
    writeln!(s, "  }}")?;
    if cfg.cluster > 1 {
        // no CTA leaves while its peer may still multicast into it or arrive on its barriers
        writeln!(s, "  cluster_sync();")?;
    }
    writeln!(s, "}}")?;
    Ok(())
}
