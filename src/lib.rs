//! `cute`: CuTe's layout algebra as a REPL and script interpreter.
//!
//! Dependencies point one way: `main/repl → session → parser, eval::interp, render, runtime → eval`.
// pest without `std` (no per-rule stack probe; nesting is bounded by the pre-scan) generates code
// that names the `alloc` crate.
extern crate alloc;

pub mod bench;
pub mod diagnostic;
pub mod eval;
pub mod jsonl;
pub mod parser;
pub mod render;
pub mod repl;
pub mod runtime;
pub mod session;
