//! MMA and copy atoms, tiled MMAs and tiled copies, their partitions (issue: thread-value layouts).
//! Atom tables are data; the machinery reuses the layout algebra in `eval::ops`.
//! May import: `eval::*` algebra modules; never the parser, interpreter, render or runtime.

use std::fmt;

/// Values of the atoms world. Filled in by the atoms work.
#[derive(Clone, Debug, PartialEq)]
pub enum AtomValue {
    /// Placeholder so the enum is inhabited; replaced by real variants.
    Placeholder,
}

impl fmt::Display for AtomValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AtomValue::Placeholder => write!(f, "?"),
        }
    }
}

/// Built-in functions of this module.
pub const BUILTINS: &[crate::eval::builtins::Builtin] = &[];
