//! GEMM code generation (pure, testable without a GPU) and the cudarc device layer.
//! May import: `eval` (algebra). Never the parser or the REPL.
//!
//! - `config`: the `key=value` options, checked (layouts the kernel cannot use are refused here)
//! - `expr`, `lower`: layouts lowered to integer expressions (what the kernel computes)
//! - `kernel`: the CUDA source of the multistage mma.sync kernel, built from the lowered layouts
//! - `device`: NVRTC, cudarc launch, cuBLAS check, CUDA-event timing

pub mod config;
pub mod device;
pub mod expr;
pub mod kernel;
pub mod lower;

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
pub fn gemm_statement(emit: bool, m: i64, n: i64, k: i64, opts: &[GemmOpt]) -> R<String> {
    let cfg = config::parse(m, n, k, opts)?;
    let src = kernel::generate(&cfg)?;
    if emit {
        return Ok(src.trim_end().to_string());
    }
    let r = device::run(&cfg, &src)?;
    Ok(table(&cfg, &r))
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
