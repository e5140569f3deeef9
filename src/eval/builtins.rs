//! The algebra's built-in functions: the entry type (`Builtin`, one per function name), the
//! other documented forms of an overloaded function (`Form`), the arguments of a call (`Args`,
//! `TArg`), and the table of every `eval` function. Each `ops` module (and `atoms`, ...)
//! declares its own `BUILTINS` table; this file concatenates them and calls the entry. The
//! crate's registry (`crate::registry`) joins this table with `render`'s for the interpreter,
//! help, completion and the README; inside `eval`, composed layouts call through `call` here.
//!
//! Overloads: CuTe overloads many functions on the argument kind (`size` of a tuple, of a
//! swizzled layout, of a tensor). Such a name still has one entry; its function matches on the
//! argument kinds and calls the implementation in the module that owns the kind
//! (`eval::overloads`). The other modules list the extra forms (signature, meaning, example) in
//! their `FORMS` tables, for help and the doctests. An implementation that does not take the
//! argument kinds refuses the call with `Args::refuse` (the final error, never "try another").
//! May import: everything under `eval`.

use super::error::{ErrorKind, EvalError, R};
use super::value::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

pub use super::value::TArg;

/// The arguments of one call, already evaluated.
pub struct Args<'a> {
    /// The function called and its signature (they word the refusal).
    pub name: &'a str,
    pub sig: &'a str,
    pub targs: &'a [TArg],
    pub args: &'a [&'a Value],
}

impl<'a> Args<'a> {
    /// The same call (name, signature, template arguments) on other arguments: for a function
    /// that derives its arguments and hands them to its own implementation.
    pub fn with_args<'b>(&self, args: &'b [&'b Value]) -> Args<'b>
    where
        'a: 'b,
    {
        Args { name: self.name, sig: self.sig, targs: self.targs, args }
    }

    /// The refusal of a call whose argument kinds the function does not take:
    /// `size does not accept (tag); usage: size(t)`.
    pub fn refuse(&self) -> EvalError {
        let kinds: Vec<&str> = self.args.iter().map(|v| v.kind()).collect();
        EvalError::type_err(format!("{} does not accept ({}); usage: {}", self.name, kinds.join(", "), self.sig))
    }
    /// The function whose [`Args::refuse`] `e` is, if it is one (read back from its wording).
    pub fn refused_by(e: &EvalError) -> Option<&str> {
        let (f, _) = e.detail.split_once(" does not accept (")?;
        (e.kind == ErrorKind::Type && !f.contains(' ')).then_some(f)
    }
    /// Argument `i`, or an arity error.
    pub fn arg(&self, i: usize) -> R<&'a Value> {
        self.args.get(i).copied().ok_or_else(|| EvalError::arity(format!("missing argument {}", i + 1)))
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

/// How many arguments an entry takes. `call_slot` checks it (after the template-argument rule)
/// before the entry's function runs, so the function does not count them again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// The function counts its own arguments: the count (or its wording) depends on the argument
    /// kinds, or a wrong count is refused by kind (`does not accept`); `tests/registry.rs` lists
    /// how many may stay.
    Own,
    /// Any number of arguments (a variadic function with no minimum).
    Any,
    /// `lo..=hi` arguments; otherwise the arity error `usage: USAGE` (the atoms' wording).
    Usage(usize, usize, &'static str),
    /// `lo..=hi` arguments; otherwise `NAME takes N arguments, got M` (`N` is `LO to HI` for a range).
    Takes(usize, usize),
    /// `lo..=hi` arguments (`hi` = `usize::MAX`: no maximum). With fewer than `missing`
    /// arguments the error is `missing argument K` (K the first one absent, as `Args::arg` words
    /// it); otherwise it is `MESSAGE`, with `{n}` replaced by the number of arguments given.
    Says(usize, usize, usize, &'static str),
}

/// `n arguments`, or `1 argument`.
fn arguments(n: usize) -> String {
    if n == 1 {
        "1 argument".to_string()
    } else {
        format!("{n} arguments")
    }
}

/// Any number from `lo` up: `Arity::Says(lo, MANY, ...)`.
pub const MANY: usize = usize::MAX;

impl Arity {
    /// The arity error of a call of `name` with `n` arguments, if any.
    #[inline]
    pub fn check(&self, name: &str, n: usize) -> R<()> {
        let ok = match *self {
            Arity::Own | Arity::Any => true,
            Arity::Usage(lo, hi, _) | Arity::Takes(lo, hi) => lo <= n && n <= hi,
            Arity::Says(lo, hi, missing, _) => missing <= n && lo <= n && n <= hi,
        };
        if ok {
            Ok(())
        } else {
            self.refuse(name, n)
        }
    }

    /// [`Arity::check`]'s error (apart: every call checks, few fail).
    #[cold]
    fn refuse(self, name: &str, n: usize) -> R<()> {
        match self {
            Arity::Usage(lo, hi, usage) if n < lo || n > hi => Err(EvalError::arity(format!("usage: {usage}"))),
            Arity::Takes(lo, hi) if n < lo || n > hi => {
                let want = if lo == hi { arguments(lo) } else { format!("{lo} to {hi} arguments") };
                Err(EvalError::arity(format!("{name} takes {want}, got {n}")))
            }
            Arity::Says(_, _, missing, _) if n < missing => {
                Err(EvalError::arity(format!("missing argument {}", n + 1)))
            }
            Arity::Says(lo, hi, _, msg) if n < lo || n > hi => {
                Err(EvalError::arity(msg.replace("{n} arguments", &arguments(n)).replace("{n}", &n.to_string())))
            }
            _ => Ok(()),
        }
    }
    /// The range of argument counts it takes (`None` for `Own`).
    pub fn range(self) -> Option<(usize, usize)> {
        match self {
            Arity::Own => None,
            Arity::Any => Some((0, MANY)),
            Arity::Usage(lo, hi, _) | Arity::Takes(lo, hi) | Arity::Says(lo, hi, _, _) => Some((lo, hi)),
        }
    }
}

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
    /// How many arguments it takes (checked centrally, in `call_slot`).
    pub arity: Arity,
}

/// One registry entry: `b!(name, sig, doc, example, result, f)` or, with its arity,
/// `b!(..., f; Arity::Usage(lo, hi, "usage"))` (the one macro every module's `BUILTINS` table is
/// written with; without an arity the function counts its own arguments, `Arity::Own`). `b!(quiet; ...)` runs `f` without the law warnings of the
/// algebra it calls inside (the atoms: those compositions are CuTe's construction, not the user's).
macro_rules! b {
    (quiet; $name:expr, $sig:expr, $doc:expr, $ex:expr, $res:expr, $f:expr; $ar:expr) => {
        $crate::eval::builtins::Builtin {
            name: $name,
            sig: $sig,
            doc: $doc,
            example: $ex,
            result: $res,
            f: |a| $crate::eval::atoms::quiet(|| ($f)(a)),
            arity: $ar,
        }
    };
    (quiet; $name:expr, $sig:expr, $doc:expr, $ex:expr, $res:expr, $f:expr $(,)?) => {
        b!(quiet; $name, $sig, $doc, $ex, $res, $f; $crate::eval::builtins::Arity::Own)
    };
    ($name:expr, $sig:expr, $doc:expr, $ex:expr, $res:expr, $f:expr; $ar:expr) => {
        $crate::eval::builtins::Builtin { name: $name, sig: $sig, doc: $doc, example: $ex, result: $res, f: $f, arity: $ar }
    };
    ($name:expr, $sig:expr, $doc:expr, $ex:expr, $res:expr, $f:expr $(,)?) => {
        b!($name, $sig, $doc, $ex, $res, $f; $crate::eval::builtins::Arity::Own)
    };
}
pub(crate) use b;

/// One `FORMS` line: `form!(name, sig, doc, example, result)`.
macro_rules! form {
    ($name:expr, $sig:expr, $doc:expr, $ex:expr, $res:expr $(,)?) => {
        $crate::eval::builtins::Form { name: $name, sig: $sig, doc: $doc, example: $ex, result: $res }
    };
}
pub(crate) use form;

/// Another form of an overloaded function, documented by the module that implements it: help
/// shows it and the doctests run its example. The function that answers it is its name's
/// (one) `Builtin`.
#[derive(Clone, Copy)]
pub struct Form {
    pub name: &'static str,
    pub sig: &'static str,
    pub doc: &'static str,
    pub example: &'static str,
    pub result: &'static str,
}

/// Every `eval` entry, one per name, in module order (`crate::registry` appends `render`'s).
/// (References to the modules' static tables: copying the entries, 120 bytes each, took eight
/// fresh pages at every start, a page fault each.)
pub fn registry() -> &'static [&'static Builtin] {
    static REG: OnceLock<Vec<&'static Builtin>> = OnceLock::new();
    REG.get_or_init(|| {
        join(&[
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
        ])
    })
}

/// The extra forms of `eval`'s overloaded functions, in module order.
pub fn forms() -> &'static [&'static [Form]] {
    &[super::ops::swizzle::FORMS, super::atoms::FORMS]
}

/// The entries of `tables`, in order, as one table.
pub fn join(tables: &[&'static [Builtin]]) -> Vec<&'static Builtin> {
    tables.iter().flat_map(|t| t.iter()).collect()
}

/// What the registry knows of one name: its entry and whether any of its forms takes template
/// arguments (CuTe's function templates without template parameters of their own refuse
/// explicit ones: `coalesce<1>(L)` has no matching function).
#[derive(Clone, Copy)]
pub struct Slot {
    pub entry: &'static Builtin,
    pub targs: bool,
}

/// FNV-1a, for maps keyed by short names or cells (bindings, a picture's cells): short keys and
/// no adversary; SipHash costs more than the look-up is worth.
#[derive(Default)]
pub struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// A hash map keyed by short names.
pub type FnvMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Fnv>>;

/// One slot per name of `table` (the name is unique: a second entry is a programming error that
/// `tests/registry.rs` reports; the first is kept), with the forms of `forms` counted for
/// template arguments.
pub fn index_of(table: &[&'static Builtin], forms: &[&'static [Form]]) -> NameIndex {
    let size = (table.len() * 4).next_power_of_two().max(8);
    let mut idx = NameIndex { cells: vec![EMPTY; size].into_boxed_slice(), slots: Vec::new(), mask: size - 1 };
    for &b in table {
        if let Err(empty) = idx.cell(b.name) {
            // (a few hundred names: a place always fits in two bytes)
            idx.cells[empty] = idx.slots.len() as u16;
            idx.slots.push((NameKey::of(b.name.as_bytes()), Slot { entry: b, targs: b.sig.contains('<') }));
        }
    }
    for f in forms.iter().flat_map(|t| t.iter()) {
        if let Ok(k) = idx.cell(f.name) {
            idx.slots[k].1.targs |= f.sig.contains('<');
        }
    }
    idx
}

fn index() -> &'static NameIndex {
    static IDX: OnceLock<NameIndex> = OnceLock::new();
    IDX.get_or_init(|| index_of(registry(), forms()))
}

/// A name as its length and two words, its first and last (up to) eight bytes: two names of at
/// most 16 bytes are equal exactly when these are; longer ones also compare their middles.
#[derive(Clone, Copy, PartialEq, Eq)]
struct NameKey {
    len: usize,
    first: u64,
    last: u64,
}

impl NameKey {
    #[inline(always)]
    fn of(s: &[u8]) -> NameKey {
        let n = s.len();
        let word = |b: &[u8]| -> u64 {
            match b.len() {
                8.. => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
                4..=7 => {
                    let k = b.len() - 4;
                    u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                        | u64::from(u32::from_le_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]])) << 32
                }
                1..=3 => u64::from(b[0]) | u64::from(b[b.len() / 2]) << 8 | u64::from(b[b.len() - 1]) << 16,
                0 => 0,
            }
        };
        NameKey { len: n, first: word(s), last: word(&s[n.saturating_sub(8)..]) }
    }

    /// Where the name's cell is looked for first, in a table of `mask + 1` cells.
    #[inline(always)]
    fn home(&self, mask: usize) -> usize {
        let h = (self.first ^ self.last.rotate_left(29) ^ self.len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> 40) as usize & mask
    }
}

/// The function names and their slots: an open-addressed table four times as large as the
/// names are many, each cell holding its name's [`NameKey`], so that a look-up is a hash of two
/// words and, nearly always, one cell's compare (the general map's byte-by-byte hash, probing and
/// `memcmp` were about 130 instructions of every call by name; this takes about 60).
pub struct NameIndex {
    /// Each name's place in `slots`, at its key's home or after it ([`EMPTY`]: none); four cells a
    /// name, two bytes each (a table of the slots themselves was 14 fresh pages at every start).
    cells: Box<[u16]>,
    slots: Vec<(NameKey, Slot)>,
    mask: usize,
}

/// A cell of [`NameIndex`] that holds no name.
const EMPTY: u16 = u16::MAX;

impl NameIndex {
    /// The place in `slots` of `name` (`Ok`), or the empty cell where it would go (`Err`). (The
    /// table is never full: four cells a name.)
    #[inline(always)]
    fn cell(&self, name: &str) -> Result<usize, usize> {
        let s = name.as_bytes();
        let key = NameKey::of(s);
        let mut i = key.home(self.mask);
        loop {
            let k = self.cells[i];
            if k == EMPTY {
                return Err(i);
            }
            let (kk, slot) = &self.slots[usize::from(k)];
            if *kk == key && (s.len() <= 16 || slot.entry.name.as_bytes()[8..s.len() - 8] == s[8..s.len() - 8]) {
                return Ok(usize::from(k));
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The slot of `name`.
    #[inline(always)]
    pub fn get(&self, name: &str) -> Option<Slot> {
        let k = self.cell(name).ok()?;
        Some(self.slots[k].1)
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Every name, in no order.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.slots.iter().map(|(_, s)| s.entry.name)
    }
}

/// True if `name` is an `eval` function.
pub fn exists(name: &str) -> bool {
    index().contains_key(name)
}

/// The entry for `name`.
pub fn lookup(name: &str) -> Option<&'static Builtin> {
    index().get(name).map(|s| s.entry)
}

/// Call `eval` function `name`.
pub fn call(name: &str, targs: &[TArg], args: &[Value]) -> R<Value> {
    // every call is a step of work of the statement's time limit
    super::budget::tick()?;
    match index().get(name) {
        Some(s) => call_slot_values(s, targs, args),
        None => Err(EvalError::unknown(format!("no function named `{name}`"))),
    }
}

/// References to `args`, as [`Args`] holds them (on the stack for up to 4).
pub fn refs(args: &[Value]) -> smallvec::SmallVec<[&Value; 4]> {
    args.iter().collect()
}

/// [`call_slot`] on values rather than references: their references on the stack (a list of
/// up to three made in place, not collected into a vector: that took a tenth of a `coalesce`
/// called by name).
#[inline(always)]
pub fn call_slot_values(slot: Slot, targs: &[TArg], args: &[Value]) -> R<Value> {
    match args {
        [] => call_slot(slot, targs, &[]),
        [a] => call_slot(slot, targs, &[a]),
        [a, b] => call_slot(slot, targs, &[a, b]),
        [a, b, c] => call_slot(slot, targs, &[a, b, c]),
        _ => call_slot(slot, targs, &refs(args)),
    }
}

/// Owned copies of `args`.
pub fn owned(args: &[&Value]) -> Vec<Value> {
    args.iter().map(|&v| v.clone()).collect()
}

/// Call the function of `slot`: the template-argument rule, the entry's arity, then its function.
#[inline(always)]
pub fn call_slot(slot: Slot, targs: &[TArg], args: &[&Value]) -> R<Value> {
    let b = slot.entry;
    if !targs.is_empty() && !slot.targs {
        return Err(EvalError::type_err(format!(
            "no matching function: {} takes no template arguments; usage: {}",
            b.name, b.sig
        )));
    }
    b.arity.check(b.name, args.len())?;
    let a = Args { name: b.name, sig: b.sig, targs, args };
    match (b.f)(&a) {
        Ok(v) => Ok(v),
        Err(e) => Err(own_refusal(e, &a)),
    }
}

/// An error of the function of `a`: where it is another function's refusal of its arguments
/// (`tiled_divide does not accept (a layout, a swizzle)`, from a call the implementation made
/// on values of its own), `a`'s refusal instead: the user called `a`, with these arguments.
#[cold]
fn own_refusal(e: EvalError, a: &Args) -> EvalError {
    if Args::refused_by(&e).is_some_and(|f| f != a.name) {
        a.refuse()
    } else {
        e
    }
}
