//! GEMM code generation (pure, testable without a GPU) and the cudarc device layer.
//! May import: `eval` (algebra). Never the parser or the REPL.
//!
//! - `config`: the `key=value` options, checked (layouts the kernel cannot use are refused here)
//! - `expr`, `lower`: layouts lowered to integer expressions (what the kernel computes)
//! - `kernel`: the CUDA source of the multistage mma.sync kernel, built from the lowered layouts
//! - `sm90`: the Hopper kernel (TMA, mbarrier ring, warp-specialized wgmma), its layouts,
//!   TMA boxes and descriptors read off GMMA layout atoms
//! - `device`: NVRTC, cudarc launch (tensor maps for sm90), cuBLAS check, CUDA-event timing
//!
//! Options (`key=value`; values are `.cute` expressions, bare names are tags):
//! - `dtype=f16|bf16` inputs (default f16, or the MMA atom's), `out=f16|bf16|f32` (default dtype)
//! - `layout=TN|NN|NT|TT` (BLAS convention, A is MxK: T = K-major; default TN); C is MxN row-major
//! - `tile=<BM,BN,BK>` (multiples of 16; default <128,256,64>), `stages=2..8` (default 3)
//! - `mma=` a warp layout `(2,4,1)` / `(2,4):(4,1)` of SM80 16x8x16 atoms or an atom
//!   (`SM80_16x8x16_F32F16F16F32_TN`, `..._F32BF16BF16F32_TN`; default 2x4 warps): each warp
//!   computes one contiguous block; or a tiled MMA `make_tiled_mma(atom, layout [, <PM,PN,PK>])`:
//!   the kernel partitions the tile exactly as CuTe's `partition_A/B/C` of that tiled MMA
//!   (warps interleaved atom by atom, rows and columns through the permutations)
//! - `smem_a=`, `smem_b=` a layout or swizzled layout, tiled to (BM|BN, BK, stages) with
//!   tile_to_shape (default `Sw<3,3,3> o (_8,_64):(_64,_1)`, narrower for BK 32/16; M/N-major
//!   operands the transposed atom); refused when not one-to-one, not covering the tile, or
//!   breaking 16-byte vectors
//! - `copy_a=`, `copy_b=` the cp.async thread layout (thread coordinates -> thread index), in
//!   16-byte vectors along the contiguous dimension (default coalesced, e.g. `(_32,_8):(_8,_1)`)
//! - `iters` (timed runs, median; default 30), `warmup` (default 5), `raster` (block rows per
//!   rasterisation group, default 8)

pub mod config;
pub mod device;
pub mod expr;
pub mod kernel;
pub mod lower;
pub mod sm90;

use crate::eval::error::R;
use crate::eval::value::Value;

/// One `key=value` option of `run gemm` / `emit gemm`, already evaluated. `arg` is its index,
/// so errors can point at it (`EvalError::at_arg(arg + 3)`: M, N, K come first).
pub struct GemmOpt {
    pub key: String,
    pub value: Value,
}

/// `emit gemm M N K opts...` (emit = true: returns the CUDA source) or `run gemm ...`
/// (returns the result table). Errors are values, never panics.
/// Without `arch=`, `run gemm` builds the sm90 kernel on a compute capability 9.0 GPU and
/// `emit gemm` the sm80 one (no device is asked).
pub fn gemm_statement(emit: bool, m: i64, n: i64, k: i64, opts: &[GemmOpt]) -> R<String> {
    let cc = if emit { None } else { device::compute_capability() };
    let (kern, note) = config::parse_kernel(m, n, k, opts, cc)?;
    match kern {
        config::Kernel::Sm80(cfg) => {
            let src = kernel::generate(&cfg)?;
            if emit {
                return Ok(src.trim_end().to_string());
            }
            let r = device::run(&device::Job::sm80(&cfg, &src))?;
            let t = table(&cfg, &r);
            Ok(match note {
                Some(n) => format!("{t}\n  ({n})"),
                None => t,
            })
        }
        config::Kernel::Sm90(cfg) => {
            let src = sm90::generate(&cfg)?;
            if emit {
                return Ok(src.trim_end().to_string());
            }
            let r = device::run(&device::Job::sm90(&cfg, &src))?;
            Ok(table90(&cfg, &r))
        }
    }
}

fn row(m: i64, n: i64, k: i64, types: &str, layout: &str, r: &device::Measured) -> String {
    let head = format!(
        "{:>6} {:>6} {:>6}  {:<13} {:<6} {:>9} {:>8} {:>14} {:>6} {:>9}",
        "M", "N", "K", "types", "layout", "time_ms", "TFLOP/s", "cuBLAS_TFLOP/s", "ratio", "rel_err"
    );
    let row = format!(
        "{:>6} {:>6} {:>6}  {:<13} {:<6} {:>9.4} {:>8.1} {:>14.1} {:>6.3} {:>9.2e}",
        m,
        n,
        k,
        types,
        layout,
        r.ms,
        r.tflops,
        r.cublas_tflops,
        r.tflops / r.cublas_tflops,
        r.rel_err
    );
    format!("{head}\n{row}")
}

/// The result table of one sm90 `run gemm`.
pub fn table90(cfg: &sm90::Sm90Config, r: &device::Measured) -> String {
    let types = format!("{}->{}", cfg.dtype.name(), cfg.out.name());
    format!(
        "{}\n  (sm90: tile <{},{},{}>, {} stages, {} consumer warpgroup(s){}, TMA + wgmma m64n{}k16; {}; median of {} runs after {} warm-up; cuBLAS: same shape, same process; rel_err vs cuBLAS, {:.2e} vs float64 on {} samples)",
        row(cfg.m, cfg.n, cfg.k, &types, &cfg.layout, r),
        cfg.bm,
        cfg.bn,
        cfg.bk,
        cfg.stages,
        cfg.consumers,
        if cfg.persistent { ", persistent" } else { "" },
        cfg.bn,
        r.resources.as_deref().unwrap_or("ptxas report not read"),
        cfg.iters,
        cfg.warmup,
        r.ref64_err,
        r.ref64_samples
    )
}

/// The result table of one `run gemm`.
pub fn table(cfg: &config::GemmConfig, r: &device::Measured) -> String {
    let head = format!(
        "{:>6} {:>6} {:>6}  {:<13} {:<6} {:>9} {:>8} {:>14} {:>6} {:>9}",
        "M", "N", "K", "types", "layout", "time_ms", "TFLOP/s", "cuBLAS_TFLOP/s", "ratio", "rel_err"
    );
    let types = format!("{}->{}", cfg.dtype.name(), cfg.out.name());
    let row = format!(
        "{:>6} {:>6} {:>6}  {:<13} {:<6} {:>9.4} {:>8.1} {:>14.1} {:>6.3} {:>9.2e}",
        cfg.m,
        cfg.n,
        cfg.k,
        types,
        cfg.layout,
        r.ms,
        r.tflops,
        r.cublas_tflops,
        r.tflops / r.cublas_tflops,
        r.rel_err
    );
    format!(
        "{head}\n{row}\n  (tile <{},{},{}>, {} stages, warps {}; median of {} runs after {} warm-up; cuBLAS: same shape, same process; rel_err vs cuBLAS, {:.2e} vs float64 on {} samples)",
        cfg.bm, cfg.bn, cfg.bk, cfg.stages, cfg.warps, cfg.iters, cfg.warmup, r.ref64_err, r.ref64_samples
    )
}
