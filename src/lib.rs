//! `cute`: CuTe's layout algebra as a REPL and script interpreter.
//!
//! Dependencies point one way (`tests/deps.rs` reads every module's `crate::` paths and checks
//! them against this table; a module may also use what the modules it imports may use):
//!
//! ```text
//! main → repl → session → interp → registry → eval, render, decode
//! main → decode → eval
//! main → heap (the allocator it installs), source (a script's text)
//! main → bench → session, interp, registry (the benchmark: `cute bench`)
//!                 session → runtime → eval
//!                 session, interp → parser → eval (literal values)
//!                 render → eval
//!                 session, repl, diagnostic → parser::ast (spans)
//! ```
//!
//! - `eval` (the algebra) imports nothing of the crate outside itself; `parser` only `eval`'s
//!   value types: it folds literal tuples and layouts into the values they denote
//!   (`parser::lit`), which the interpreter lends to calls.
//! - `interp` walks the AST and calls the `registry`; it evaluates the arguments of
//!   `run gemm`/`emit gemm`, and the `session` runs them through `runtime`.
//! - `registry` joins `eval`'s, `render`'s and `decode`'s functions (help, completion, the README's table).
//! - `decode` reads CuTe's C++ types in any text back into the notation (`cute --decode`).
//! - `heap` (the binary's small-block allocator) imports nothing; nor does `source` (a script's
//!   text, read or mapped from its file).
//! - `jsonl` (reading the oracle's JSON Lines) is for tests and imports nothing.
// pest without `std` (no per-rule stack probe; nesting is bounded by the pre-scan) generates code
// that names the `alloc` crate.
extern crate alloc;

pub mod bench;
pub mod decode;
pub mod diagnostic;
pub mod eval;
pub mod heap;
pub mod interp;
pub mod jsonl;
pub mod parser;
pub mod registry;
pub mod render;
pub mod repl;
pub mod runtime;
pub mod session;
pub mod source;
