//! The crate's registry of built-in functions, built here and only here: `eval`'s table joined
//! with `render`'s and `decode`'s, one entry per name (`tests/registry.rs` checks it), plus the
//! extra forms of the overloaded functions for help and the doctests. The interpreter calls
//! through it; help, completion, the README's function table and the registry tests read it.
//! May import: `eval`, `render`, `decode`. Never the parser, the interpreter, the session or a terminal.

use crate::eval::builtins::{self, NameIndex};
pub use crate::eval::builtins::{Args, Builtin, Form, Slot, TArg};
use crate::eval::error::R;
use crate::eval::value::Value;
use std::sync::OnceLock;

/// `print_latex` of an MMA atom, TiledMMA or TiledCopy is the atoms module's picture, of
/// anything else the layout printer's (the one name overloaded across `eval` and `render`).
fn print_latex(a: &Args) -> R<Value> {
    if a.args.len() == 1 && a.targs.is_empty() && matches!(a.args[0], Value::Atom(_)) {
        crate::eval::atoms::quiet(|| crate::eval::atoms::f_print_latex(a))
    } else {
        crate::render::f_print_latex(a)
    }
}

/// The entry of a name whose first (documented) form is `form`, whose function is `f` and whose
/// arity is `arity`.
fn entry(form: &Form, f: builtins::BuiltinFn, arity: builtins::Arity) -> Builtin {
    Builtin { name: form.name, sig: form.sig, doc: form.doc, example: form.example, result: form.result, f, arity }
}

/// All entries, one per name: `eval`'s in module order, then `render`'s and `decode`'s.
pub fn registry() -> &'static [&'static Builtin] {
    static REG: OnceLock<Vec<&'static Builtin>> = OnceLock::new();
    REG.get_or_init(|| {
        let mut v = builtins::registry().to_vec();
        v.extend(builtins::join(&[crate::render::BUILTINS, crate::render::print::BUILTINS, crate::decode::BUILTINS]));
        // (made once, here: the one entry that is not a module's static)
        let latex = crate::eval::atoms::FORMS.iter().find(|f| f.name == "print_latex");
        v.extend(latex.map(|f| {
            &*Box::leak(Box::new(entry(
                f,
                print_latex,
                builtins::Arity::Says(1, 1, 0, "print_latex(L) takes one layout"),
            )))
        }));
        v
    })
}

/// The extra forms of the overloaded functions, in module order.
fn all_forms() -> Vec<&'static [Form]> {
    let mut v = builtins::forms().to_vec();
    v.push(crate::render::FORMS);
    v
}

fn index() -> &'static NameIndex {
    static IDX: OnceLock<NameIndex> = OnceLock::new();
    IDX.get_or_init(|| builtins::index_of(registry(), &all_forms()))
}

/// What the registry knows of `name` (`None`: no such function): pass it to `call_slot`, so a
/// call looks the name up once.
#[inline]
pub fn get(name: &str) -> Option<Slot> {
    index().get(name)
}

/// True if `name` is a built-in function.
pub fn exists(name: &str) -> bool {
    index().contains_key(name)
}

/// The entry for `name`.
pub fn lookup(name: &str) -> Option<&'static Builtin> {
    index().get(name).map(|s| s.entry)
}

/// Every documented form of `name`, its entry first: what `:help name` shows.
pub fn forms(name: &str) -> Vec<Form> {
    let Some(b) = lookup(name) else { return Vec::new() };
    let mut v = vec![Form { name: b.name, sig: b.sig, doc: b.doc, example: b.example, result: b.result }];
    for f in all_forms().iter().flat_map(|t| t.iter()).filter(|f| f.name == name) {
        if f.sig != b.sig {
            v.push(Form { ..*f });
        }
    }
    v
}

/// Every documented form of every function (entries and extra forms): the doctests run each
/// example.
pub fn documented() -> Vec<Form> {
    let mut v: Vec<Form> = registry()
        .iter()
        .map(|b| Form { name: b.name, sig: b.sig, doc: b.doc, example: b.example, result: b.result })
        .collect();
    v.extend(all_forms().iter().flat_map(|t| t.iter()).map(|f| Form { ..*f }));
    v
}

/// Distinct function names, sorted (for completion and help).
pub fn names() -> Vec<&'static str> {
    let mut v: Vec<_> = index().keys().collect();
    v.sort();
    v
}

/// Call built-in `name`. (Inlined: `cute bench` times it, and out of line its result makes
/// one more trip through memory.)
#[inline(always)]
pub fn call(name: &str, targs: &[TArg], args: &[Value]) -> R<Value> {
    match get(name) {
        Some(s) => builtins::call_slot_values(s, targs, args),
        None => Err(crate::eval::error::EvalError::unknown(format!("no function named `{name}`"))),
    }
}

pub use crate::eval::builtins::{call_slot, call_slot_values};

/// What `explain` shows for a function without an explainer: its signature and meaning.
pub fn definition(name: &str) -> Vec<String> {
    match lookup(name) {
        Some(b) => {
            vec![format!("  {}: {}", b.sig, b.doc), "  (no step-by-step explanation for this function)".to_string()]
        }
        None => vec![format!("  `{name}`: no step-by-step explanation")],
    }
}
