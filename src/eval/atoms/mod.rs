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

/// The value of a bare operation name such as `SM80_16x8x16_F16F16F16F16_TN` or
/// `SM90_64x64x16_F16F16F16_SS<K,K>` (with its template arguments), or `None` if `name`
/// is not an MMA/copy operation this module knows.
pub fn named_value(
    name: &str,
    targs: &[crate::eval::builtins::TArg],
) -> Option<crate::eval::error::R<crate::eval::value::Value>> {
    let _ = (name, targs);
    None
}
