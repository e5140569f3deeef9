//! (stub: identical, equivalent and other comparisons used by asserts)

use crate::eval::builtins::Builtin;

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[];
