//! GEMM code generation (pure, testable without a GPU) and the cudarc device layer.
//! May import: `eval` (algebra). Never the parser or the REPL.

use crate::eval::error::{EvalError, R};
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
    let _ = (emit, m, n, k, opts);
    Err(EvalError::runtime("gemm", "not implemented yet"))
}
