//! Value: everything an expression can evaluate to. Its `Display` *is* CuTe's print format.
//! May import: the algebra types (`int`, `int_tuple`, `layout`, `atoms`).

use super::atoms::AtomValue;
use super::error::{EvalError, R};
use super::int::Int;
use super::int_tuple::IntTuple;
use super::layout::{Composed, Func, Layout, Swizzle};
use std::fmt;

/// The default for [`max_leaves`].
pub const DEFAULT_MAX_LEAVES: usize = 256;

/// The most integers (leaves) one value may hold: `CUTE_MAX_LEAVES` when set to a positive
/// integer, else [`DEFAULT_MAX_LEAVES`]. CuTe's layouts have tens of integers (the largest golden
/// answer has 41); the guard stops repeated doubling (`A = (A,A)`) and keeps the polynomial
/// corners of the algebra fast (composing two dynamic layouts of rank n costs about n^3).
/// (Here, below the parser and the interpreter, because both apply it.)
pub fn max_leaves() -> usize {
    static LIMIT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var("CUTE_MAX_LEAVES")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or(DEFAULT_MAX_LEAVES)
    })
}

/// A template argument (as written, and as the built-ins take it): `get<1,0>`, `upcast<2>`, `recast_layout<uint16_t,uint32_t>`, `<K,K>`.
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

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Integers, tuples of integers (shapes, strides, coordinates) and `_`.
    Tuple(IntTuple),
    Layout(Layout),
    Swizzle(Swizzle),
    Composed(Box<Composed>),
    /// A tuple holding at least one non-IntTuple element (a tiler `<3:3,(2,4):(1,8)>`, the
    /// result of `slice_and_offset`, ...). Prints like any CuTe tuple: `(_3:_3,(_2,_4):(_1,_8))`.
    Tile(Vec<Value>),
    /// A bare name CuTe uses as a tag or type: `LayoutLeft`, `LayoutRight`, `GenColMajor`,
    /// `GenRowMajor`, value types such as `half_t`.
    Tag(String),
    /// MMA/copy operations, atoms, tiled MMAs and copies, partitions (see `eval::atoms`).
    Atom(Box<AtomValue>),
    /// Text that is the answer itself (`print_layout`, `print_latex`, multi-line prints).
    /// Cannot be bound or passed on.
    Text(String),
    /// A string literal `"..."` (file names, titles).
    Str(String),
    /// A picture to be written to a file (`svg(L, "f.svg")`): the session writes it, this
    /// value only carries it there. Cannot be bound or passed on.
    File(Box<FileOut>),
}

/// A string as a literal that parses back to it: `"a\"b"`.
pub fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\t' => q.push_str("\\t"),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// Text and the path it is to be written to.
#[derive(Clone, Debug, PartialEq)]
pub struct FileOut {
    pub path: String,
    pub text: String,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Tuple(t) => fmt::Display::fmt(t, f),
            Value::Layout(l) => fmt::Display::fmt(l, f),
            Value::Swizzle(s) => write!(f, "{s}"),
            Value::Composed(c) => write!(f, "{c}"),
            Value::Tile(v) => super::int_tuple::write_seq(f, "(", v, ")"),
            Value::Tag(s) => write!(f, "{s}"),
            Value::Atom(a) => write!(f, "{a}"),
            Value::Text(s) => write!(f, "{s}"),
            Value::Str(s) => write!(f, "{}", quote(s)),
            Value::File(o) => write!(f, "<picture for {}>", quote(&o.path)),
        }
    }
}

impl Value {
    /// Drop the value. A tuple or layout of integers (nearly every value a script makes) frees
    /// its vectors directly: the drop glue calls a function for the value, each tuple and each
    /// tuple's items, which for a statement's arguments and its previous value was about 300
    /// of a coalesce statement's 2,400 instructions (this way, half as many).
    #[inline]
    pub fn dispose(mut self) {
        let freed = match &mut self {
            Value::Layout(l) => shed(&mut l.shape) && shed(&mut l.stride),
            Value::Tuple(t) => shed(t),
            _ => false,
        };
        if freed {
            // (it owns nothing any more)
            std::mem::forget(self);
        }
    }

    /// Append the text of `self` (as `Display`) to `out`: tuples and layouts without the
    /// formatting machinery (most of a script's values).
    pub fn write_bytes(&self, out: &mut Vec<u8>) {
        match self {
            Value::Tuple(t) => t.write_bytes(out),
            Value::Layout(l) => IntTuple::write_layout_bytes(&l.shape, &l.stride, out),
            v => {
                // (writing to a Vec cannot fail)
                let _ = std::io::Write::write_fmt(out, format_args!("{v}"));
            }
        }
    }
}

/// Free what `t` owns where it is a tree of integers (then true: it owns nothing any more);
/// false for anything else, with what was freed of it replaced by `_`. (Recursive as the drop
/// glue is: as deep as the value.)
#[inline(always)]
fn shed(t: &mut IntTuple) -> bool {
    // (a tuple with a block of elements: the block taken out, `_` left in its place)
    let Some(mut v) = t.take_block() else {
        // (integers, `_` and inline tuples own nothing)
        return !matches!(t, IntTuple::Basis(_));
    };
    // (an integer or inline item owns nothing; a tuple item frees its own, or keeps what it cannot)
    if !v.iter_mut().all(|x| matches!(x, IntTuple::I(_)) || x.flat().is_some() || shed_nested(x)) {
        // (the block goes back, what was freed of it `_`)
        *t = IntTuple::T(v);
        return false;
    }
    let mut v = std::mem::ManuallyDrop::new(v);
    // SAFETY: the vector's buffer, as a vector of no items of a type without a destructor (the
    // same size and alignment): dropping it frees the buffer and runs nothing else. Its items
    // own nothing (integers, inline tuples, and `_` where tuples' blocks were freed): not
    // running their destructors leaks nothing.
    drop(unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<std::mem::MaybeUninit<IntTuple>>(), 0, v.capacity()) });
    true
}

/// [`shed`] of a tuple's item, out of line (flat tuples, most, never call it).
#[inline(never)]
fn shed_nested(t: &mut IntTuple) -> bool {
    shed(t)
}

impl From<IntTuple> for Value {
    fn from(t: IntTuple) -> Self {
        Value::Tuple(t)
    }
}
impl From<Int> for Value {
    fn from(i: Int) -> Self {
        Value::Tuple(IntTuple::I(i))
    }
}
impl From<Layout> for Value {
    fn from(l: Layout) -> Self {
        Value::Layout(l)
    }
}
impl From<Swizzle> for Value {
    fn from(s: Swizzle) -> Self {
        Value::Swizzle(s)
    }
}
impl From<Composed> for Value {
    fn from(c: Composed) -> Self {
        Value::Composed(Box::new(c))
    }
}
impl From<Func> for Value {
    fn from(f: Func) -> Self {
        match f {
            Func::Swizzle(s) => Value::Swizzle(s),
            Func::Layout(l) => Value::Layout(l),
            Func::Composed(c) => Value::Composed(c),
        }
    }
}

impl Value {
    /// A CuTe tuple of values: an IntTuple when every element is one, else a `Tile`.
    pub fn tuple(elems: Vec<Value>) -> Value {
        if elems.iter().all(|e| matches!(e, Value::Tuple(_))) {
            Value::Tuple(IntTuple::T(
                elems
                    .into_iter()
                    .map(|e| match e {
                        Value::Tuple(t) => t,
                        _ => unreachable!("checked above"),
                    })
                    .collect(),
            ))
        } else {
            Value::Tile(elems)
        }
    }
    /// Short description of the kind of value, for error messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Tuple(IntTuple::I(_)) => "an integer",
            Value::Tuple(IntTuple::Under) => "`_`",
            Value::Tuple(_) => "a tuple",
            Value::Layout(_) => "a layout",
            Value::Swizzle(_) => "a swizzle",
            Value::Composed(_) => "a swizzled (composed) layout",
            Value::Tile(_) => "a tile",
            Value::Tag(_) => "a tag",
            Value::Atom(a) => a.kind(),
            Value::Text(_) => "printed text",
            Value::Str(_) => "a string",
            Value::File(_) => "a picture to be written",
        }
    }
    pub fn as_tuple(&self) -> R<&IntTuple> {
        match self {
            Value::Tuple(t) => Ok(t),
            v => Err(EvalError::type_err(format!("expected an integer or tuple, got {} `{v}`", v.kind()))),
        }
    }
    pub fn as_int(&self) -> R<Int> {
        match self {
            Value::Tuple(IntTuple::I(i)) => Ok(*i),
            v => Err(EvalError::type_err(format!("expected an integer, got {} `{v}`", v.kind()))),
        }
    }
    pub fn as_layout(&self) -> R<&Layout> {
        match self {
            Value::Layout(l) => Ok(l),
            v => Err(EvalError::type_err(format!("expected a layout, got {} `{v}`", v.kind()))),
        }
    }
    /// The modes of a tuple-like value (Tuple or Tile); a non-tuple is its own single mode.
    pub fn elems(&self) -> Vec<Value> {
        match self {
            Value::Tuple(t) => match t.kids() {
                Some(v) => v.iter().cloned().map(Value::Tuple).collect(),
                None => vec![self.clone()],
            },
            Value::Tile(v) => v.clone(),
            x => vec![x.clone()],
        }
    }
    pub fn is_tuple_like(&self) -> bool {
        match self {
            Value::Tuple(t) => t.is_tuple(),
            Value::Tile(_) => true,
            _ => false,
        }
    }
}
