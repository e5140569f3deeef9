//! (stub: to be filled)

use crate::eval::builtins::Builtin;

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[];
