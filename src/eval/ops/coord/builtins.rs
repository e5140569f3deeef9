//! Built-in registry entries for IntTuple arithmetic and structure.
use crate::eval::builtins::Builtin;

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[];
