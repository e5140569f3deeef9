//! The algebra's built-in functions: the entry type (`Builtin`), the arguments of a call
//! (`Args`, `TArg`), and the table of every `eval` function. Each `ops` module (and `atoms`)
//! declares its own `BUILTINS` table; this file concatenates them and dispatches. The crate's
//! registry (`crate::registry`) joins this table with `render`'s for the interpreter, help,
//! completion and the README; inside `eval`, composed layouts delegate through `call` here.
//!
//! Overloads: several entries may share a name (e.g. `size` of a tuple and of a swizzled
//! layout, in different modules). `call` tries them in registry order; an entry that does not
//! accept the argument kinds returns `EvalError::no_match` and the next one is tried.
//! May import: everything under `eval`.

use super::error::{ErrorKind, EvalError, R};
use super::value::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A template argument: `get<1,0>`, `upcast<2>`, `recast_layout<uint16_t,uint32_t>`, `<K,K>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TArg {
    Int(i64),
    Name(String),
}

impl std::fmt::Display for TArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TArg::Int(i) => write!(f, "{i}"),
            TArg::Name(n) => write!(f, "{n}"),
        }
    }
}

/// The arguments of one call, already evaluated.
pub struct Args<'a> {
    pub targs: &'a [TArg],
    pub args: &'a [Value],
}

impl<'a> Args<'a> {
    /// Argument `i`, or an arity error.
    pub fn arg(&self, i: usize) -> R<&'a Value> {
        self.args.get(i).ok_or_else(|| EvalError::arity(format!("missing argument {}", i + 1)))
    }
    /// Integer template argument `i`, or an arity/type error.
    pub fn tint(&self, i: usize) -> R<i64> {
        match self.targs.get(i) {
            Some(TArg::Int(v)) => Ok(*v),
            Some(TArg::Name(n)) => {
                Err(EvalError::type_err(format!("template argument {} must be an integer, got {n}", i + 1)))
            }
            None => Err(EvalError::arity(format!("missing template argument {}", i + 1))),
        }
    }
    pub fn nargs(&self) -> usize {
        self.args.len()
    }
}

pub type BuiltinFn = fn(&Args) -> R<Value>;

/// One line of the registry.
pub struct Builtin {
    pub name: &'static str,
    /// Signature as users write it, e.g. `complement(L [, cotarget])`.
    pub sig: &'static str,
    /// One-line meaning.
    pub doc: &'static str,
    /// A complete example statement (may bind names with `;`) ...
    pub example: &'static str,
    /// ... and what CuTe prints for it (taken from the oracle, never from our output).
    pub result: &'static str,
    pub f: BuiltinFn,
}

impl EvalError {
    /// "This overload does not take these argument kinds": the dispatcher tries the next one.
    pub fn no_match() -> EvalError {
        EvalError::new(ErrorKind::Type, "no match", "")
    }
    pub fn is_no_match(&self) -> bool {
        self.kind == ErrorKind::Type && self.rule == "no match"
    }
}

/// Every `eval` entry, in module order (`crate::registry` appends `render`'s).
pub fn registry() -> &'static [Builtin] {
    static REG: OnceLock<Vec<Builtin>> = OnceLock::new();
    REG.get_or_init(|| {
        let tables: &[&[Builtin]] = &[
            super::ops::tuple::BUILTINS,
            super::ops::structure::BUILTINS,
            super::ops::coord::BUILTINS,
            super::ops::algebra::BUILTINS,
            super::ops::divide::BUILTINS,
            super::ops::swizzle::BUILTINS,
            super::ops::compare::BUILTINS,
            super::atoms::BUILTINS,
            super::analysis::BUILTINS,
            super::gmma::BUILTINS,
        ];
        join(tables)
    })
}

/// The entries of `tables`, in order, as one table.
pub fn join(tables: &[&[Builtin]]) -> Vec<Builtin> {
    let mut v = Vec::new();
    for t in tables {
        for b in t.iter() {
            v.push(Builtin { name: b.name, sig: b.sig, doc: b.doc, example: b.example, result: b.result, f: b.f });
        }
    }
    v
}

/// Entry indices by name, in table order.
pub fn index_of(table: &[Builtin]) -> HashMap<&'static str, Vec<usize>> {
    let mut m: HashMap<&'static str, Vec<usize>> = HashMap::new();
    for (i, b) in table.iter().enumerate() {
        m.entry(b.name).or_default().push(i);
    }
    m
}

fn index() -> &'static HashMap<&'static str, Vec<usize>> {
    static IDX: OnceLock<HashMap<&'static str, Vec<usize>>> = OnceLock::new();
    IDX.get_or_init(|| index_of(registry()))
}

/// True if `name` is an `eval` function.
pub fn exists(name: &str) -> bool {
    index().contains_key(name)
}

/// The first (documented) entry for `name`.
pub fn lookup(name: &str) -> Option<&'static Builtin> {
    index().get(name).map(|v| &registry()[v[0]])
}

/// Call `eval` function `name`, trying its overloads in order.
pub fn call(name: &str, targs: &[TArg], args: &[Value]) -> R<Value> {
    // every call is a step of work of the statement's time limit
    super::budget::tick()?;
    dispatch(name, index().get(name).map(|v| v.as_slice()), registry(), targs, args)
}

/// Call `name` whose overloads are `table[i]` for `i` in `entries` (`None`: no such function).
pub fn dispatch(name: &str, entries: Option<&[usize]>, table: &[Builtin], targs: &[TArg], args: &[Value]) -> R<Value> {
    let Some(entries) = entries else {
        return Err(EvalError::unknown(format!("no function named `{name}`")));
    };
    // CuTe's function templates without template parameters of their own refuse explicit
    // template arguments (`coalesce<1>(L)`: no matching function)
    if !targs.is_empty() && entries.iter().all(|&i| !table[i].sig.contains('<')) {
        return Err(EvalError::type_err(format!(
            "no matching function: {name} takes no template arguments; usage: {}",
            table[entries[0]].sig
        )));
    }
    let a = Args { targs, args };
    // A core overload that meets an MMA/copy object (a tensor, a TiledMMA, ...) refuses it with a
    // type error; the atoms overloads registered after it may take it, so keep trying and report
    // the first refusal only if none does.
    let has_atom = args.iter().any(|v| matches!(v, Value::Atom(_)));
    let mut refused: Option<EvalError> = None;
    for &i in entries {
        match (table[i].f)(&a) {
            Err(e) if e.is_no_match() => continue,
            Err(e) if has_atom && e.kind == ErrorKind::Type => {
                refused.get_or_insert(e);
                continue;
            }
            r => return r,
        }
    }
    if let Some(e) = refused {
        return Err(e);
    }
    let kinds: Vec<&str> = args.iter().map(|v| v.kind()).collect();
    Err(EvalError::type_err(format!("{name} does not accept ({}); usage: {}", kinds.join(", "), table[entries[0]].sig)))
}
