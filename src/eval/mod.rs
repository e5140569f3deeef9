//! The layout algebra and the interpreter that walks the AST over it.
//!
//! Dependencies point one way: `interp` → `builtins` → `ops`, `atoms` → `value`, `layout`,
//! `int_tuple`, `int`, `error`. Nothing here prints to a terminal or knows about spans except
//! `interp`, which stamps source spans on errors.
pub mod atoms;
pub mod builtins;
pub mod error;
pub mod explain;
pub mod gmma;
pub mod int;
pub mod int_tuple;
pub mod interp;
pub mod layout;
pub mod ops;
pub mod value;
