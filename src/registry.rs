//! The crate's registry of built-in functions: `eval`'s table joined with `render`'s. The
//! interpreter calls through it; help, completion, the README's function table and the
//! registry tests read it.
//! May import: `eval`, `render`, `decode`. Never the parser, the interpreter, the session or a terminal.

use crate::eval::builtins;
pub use crate::eval::builtins::{Builtin, TArg};
use crate::eval::error::R;
use crate::eval::value::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

/// All entries: `eval`'s in module order, then `render`'s.
pub fn registry() -> &'static [Builtin] {
    static REG: OnceLock<Vec<Builtin>> = OnceLock::new();
    REG.get_or_init(|| {
        builtins::join(&[
            builtins::registry(),
            crate::render::BUILTINS,
            crate::render::print::BUILTINS,
            crate::decode::BUILTINS,
        ])
    })
}

fn index() -> &'static HashMap<&'static str, Vec<usize>> {
    static IDX: OnceLock<HashMap<&'static str, Vec<usize>>> = OnceLock::new();
    IDX.get_or_init(|| builtins::index_of(registry()))
}

/// True if `name` is a built-in function.
pub fn exists(name: &str) -> bool {
    index().contains_key(name)
}

/// The first (documented) entry for `name`.
pub fn lookup(name: &str) -> Option<&'static Builtin> {
    index().get(name).map(|v| &registry()[v[0]])
}

/// Distinct function names, sorted (for completion and help).
pub fn names() -> Vec<&'static str> {
    let mut v: Vec<_> = index().keys().copied().collect();
    v.sort();
    v
}

/// Call built-in `name`, trying its overloads in order.
pub fn call(name: &str, targs: &[TArg], args: &[Value]) -> R<Value> {
    builtins::dispatch(name, index().get(name).map(|v| v.as_slice()), registry(), targs, args)
}

/// What `explain` shows for a function without an explainer: its signature and meaning.
pub fn definition(name: &str) -> Vec<String> {
    match lookup(name) {
        Some(b) => {
            vec![format!("  {}: {}", b.sig, b.doc), "  (no step-by-step explanation for this function)".to_string()]
        }
        None => vec![format!("  `{name}`: no step-by-step explanation")],
    }
}
