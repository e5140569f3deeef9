//! The layout algebra, free of spans, terminals, files and GPUs.
//!
//! Inside, dependencies point one way: `builtins` → `explain`, `ops`, `atoms`, `analysis` →
//! `value`, `layout`, `int_tuple`, `int`, `error` (and `budget`, the time limit). `eval` imports nothing of the crate outside
//! itself (`tests/deps.rs` checks it).
pub mod analysis;
pub mod atoms;
pub mod budget;
pub mod builtins;
pub mod error;
pub mod explain;
pub mod gmma;
pub mod int;
pub mod int_tuple;
pub mod layout;
pub mod ops;
pub mod overloads;
pub mod printed;
pub mod value;
