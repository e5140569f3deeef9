//! `cute`: CuTe's layout algebra as a REPL and script interpreter.
//!
//! Dependencies point one way (`tests/deps.rs` reads every module's `crate::` paths and checks
//! them against this table; a module may also use what the modules it imports may use):
//!
//! ```text
//! main → repl → session → interp → registry → eval, render
//!                 session → runtime → eval
//!                 session, interp → parser
//!                 render → eval
//!                 session, repl, diagnostic → parser::ast (spans)
//! ```
//!
//! - `eval` (the algebra) imports nothing of the crate outside itself; `parser` neither.
//! - `interp` walks the AST and calls the `registry`; it evaluates the arguments of
//!   `run gemm`/`emit gemm`, and the `session` runs them through `runtime`.
//! - `registry` joins `eval`'s and `render`'s functions (help, completion, the README's table).
//! - `jsonl` (reading the oracle's JSON Lines) is for tests and imports nothing.
pub mod diagnostic;
pub mod eval;
pub mod interp;
pub mod jsonl;
pub mod parser;
pub mod registry;
pub mod render;
pub mod repl;
pub mod runtime;
pub mod session;
