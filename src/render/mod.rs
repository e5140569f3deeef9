//! Printing that is more than `Display`: print_layout tables, print_latex (TikZ), pictures.
//! Reads the algebra, never the reverse. May import: `eval` (algebra), never parser/runtime.

use crate::eval::builtins::Builtin;

/// Built-in functions of this module (print_layout, print_latex, ...).
pub const BUILTINS: &[Builtin] = &[];
