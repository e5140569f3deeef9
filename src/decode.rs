//! `cute --decode` and `decode("...")`: find the CuTe types in any text (g++, clang or nvcc
//! messages, `static_assert` text, `print(type)` output) and rewrite each into the notation:
//! `cute::Layout<cute::tuple<cute::tuple<cute::C<8>, cute::C<8>>, int>, ...>` becomes
//! `((_8,_8),?):((_1,_64),_512)`, `?` standing for a run-time integer (`int`, `long`, ...) whose
//! value the type does not carry. Everything else in the text is left as it was; a type that is
//! unknown, truncated or does not fit the notation is left untouched, never mangled.
//!
//! Two stages: `parse` reads C++ template syntax into a `Node` tree (names and arguments, nothing
//! CuTe-specific); `ty` gives the CuTe meaning (`Ty`) of a node, or `None`; `Ty`'s `Display` is
//! the notation. The default stride of `Layout<Shape>` is computed by the algebra.
//! May import: `eval` (integers, tuples, compact strides); nothing above it.

use crate::eval::builtins::{Args, Builtin};
use crate::eval::error::{EvalError, R};
use crate::eval::int::Int;
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::ops::tuple::compact_col_major;
use crate::eval::value::Value;
use std::fmt;

fn f_decode(a: &Args) -> R<Value> {
    match a.arg(0)? {
        Value::Str(s) => Ok(Value::Text(decode(s))),
        v => Err(EvalError::type_err(format!("decode takes a string \"...\", got {} `{v}`", v.kind())).at_arg(0)),
    }
}

/// Built-in functions of this module (joined into the registry by `eval::builtins`).
pub const BUILTINS: &[Builtin] = &[Builtin {
    name: "decode",
    sig: "decode(\"text\")",
    doc: "the text with every CuTe C++ type in it written in the notation, ? for a run-time integer \
          (as `cute --decode`; not a CuTe function)",
    example:
        "decode(\"error: [with L = cute::Layout<cute::tuple<cute::C<8>, int>, cute::tuple<cute::C<1>, cute::C<8>>>]\")",
    result: "error: [with L = (_8,?):(_1,_8)]",
    f: f_decode,
    arity: crate::eval::builtins::Arity::Says(1, 1, 0, "decode(\"text\") takes one string"),
}];

/// Rewrite every CuTe type of `text` into the notation.
pub fn decode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (r, t) in find(text) {
        out.push_str(&text[at..r.start]);
        out.push_str(&t.to_string());
        at = r.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The CuTe types of `text`, outermost ones, in order: where each stands and what it is.
pub fn find(text: &str) -> Vec<(std::ops::Range<usize>, Ty)> {
    let b = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts_name = is_ident_start(b[i]) && (i == 0 || !(is_ident(b[i - 1]) || b[i - 1] == b':'));
        if !starts_name {
            i += 1;
            continue;
        }
        if let Some((node, end)) = Parser::new(text, i).node() {
            if let Some(t) = top_level(&node) {
                found.push((i..end, t));
                i = end;
                continue;
            }
        }
        // not a CuTe type: skip the name, look inside its arguments
        while i < b.len() && (is_ident(b[i]) || b[i] == b':') {
            i += 1;
        }
    }
    found
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}
fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

// ------------------------------------------------------------------------------------------
// C++ template syntax
// ------------------------------------------------------------------------------------------

/// A C++ template argument or type: a qualified name with optional arguments, or a value.
#[derive(Clone, Debug, PartialEq)]
enum Node {
    Name { path: Vec<String>, args: Option<Vec<Node>> },
    Num(i64),
}

impl Node {
    /// The last component of a name, and its namespace.
    fn name(&self) -> Option<(&str, &[String])> {
        match self {
            Node::Name { path, .. } => path.split_last().map(|(l, ns)| (l.as_str(), ns)),
            Node::Num(_) => None,
        }
    }
    fn args(&self) -> &[Node] {
        match self {
            Node::Name { args: Some(a), .. } => a,
            _ => &[],
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    depth: usize,
}

/// Words of C++'s built-in integer types (`unsigned long int`, ...).
const BUILTIN_WORDS: &[&str] = &["unsigned", "signed", "long", "short", "int", "char", "bool"];

impl<'a> Parser<'a> {
    fn new(text: &'a str, i: usize) -> Parser<'a> {
        Parser { s: text.as_bytes(), text, i, depth: 0 }
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i] == b' ' {
            self.i += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn ident(&mut self) -> Option<&'a str> {
        let start = self.i;
        if !self.peek().is_some_and(is_ident_start) {
            return None;
        }
        while self.peek().is_some_and(is_ident) {
            self.i += 1;
        }
        Some(&self.text[start..self.i])
    }
    /// A node and the index just after it.
    fn node(mut self) -> Option<(Node, usize)> {
        let n = self.arg()?;
        Some((n, self.i))
    }
    fn arg(&mut self) -> Option<Node> {
        self.depth += 1;
        if self.depth > 200 {
            return None;
        }
        self.ws();
        let r = match self.peek()? {
            b'-' | b'0'..=b'9' => self.num(),
            // EDG (nvcc) writes casts: `(int)8`
            b'(' => {
                self.i += 1;
                self.ident()?;
                if self.peek()? != b')' {
                    return None;
                }
                self.i += 1;
                self.num()
            }
            _ => self.name(),
        };
        self.depth -= 1;
        r
    }
    fn num(&mut self) -> Option<Node> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let v: i64 = self.text[start..self.i].parse().ok()?;
        while self.peek().is_some_and(|c| matches!(c, b'u' | b'U' | b'l' | b'L')) {
            self.i += 1;
        }
        Some(Node::Num(v))
    }
    fn name(&mut self) -> Option<Node> {
        let mut path = Vec::new();
        if self.text[self.i..].starts_with("::") {
            self.i += 2;
        }
        loop {
            let id = self.ident()?;
            path.push(id.to_string());
            if self.text[self.i..].starts_with("::") {
                self.i += 2;
                continue;
            }
            break;
        }
        if path.len() == 1 && BUILTIN_WORDS.contains(&path[0].as_str()) {
            // `unsigned long int`: absorb the following words
            loop {
                let save = self.i;
                self.ws();
                match self.ident() {
                    Some(w) if BUILTIN_WORDS.contains(&w) => path[0] = format!("{} {w}", path[0]),
                    _ => {
                        self.i = save;
                        break;
                    }
                }
            }
            return Some(Node::Name { path, args: None });
        }
        match path[0].as_str() {
            "true" => return Some(Node::Num(1)),
            "false" => return Some(Node::Num(0)),
            _ => {}
        }
        let save = self.i;
        self.ws();
        if self.peek() != Some(b'<') {
            self.i = save;
            return Some(Node::Name { path, args: None });
        }
        self.i += 1;
        let mut args = Vec::new();
        self.ws();
        if self.peek() == Some(b'>') {
            self.i += 1;
            return Some(Node::Name { path, args: Some(args) });
        }
        loop {
            args.push(self.arg()?);
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b'>' => {
                    self.i += 1;
                    break;
                }
                _ => return None,
            }
        }
        Some(Node::Name { path, args: Some(args) })
    }
}

// ------------------------------------------------------------------------------------------
// CuTe meaning
// ------------------------------------------------------------------------------------------

/// A CuTe type, printed in the notation.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// `C<8>` (`Some(8)`), or a run-time integer type (`None`, printed `?`).
    Int(Option<i64>),
    Under,
    Tuple(Vec<Ty>),
    /// `ScaledBasis<T, Ns...>`: the value and the modes in print order (`Ns` reversed).
    Basis(Option<i64>, Vec<i64>),
    Layout(Box<Ty>, Box<Ty>),
    Swizzle(i64, i64, i64),
    /// `MixedBits<S, F>`: `S | (? & F)`.
    Mixed(i64, i64),
    Composed(Box<Ty>, Box<Ty>, Box<Ty>),
    /// An MMA or copy operation as the notation names it (`SM90_64x64x16_F16F16F16_SS<K,K>`).
    Op(String),
    MmaAtom(String),
    CopyAtom(String, String),
    TiledMma(String, Box<Ty>, Box<Ty>),
    TiledCopy(Box<Ty>, Box<Ty>, Box<Ty>),
    /// `ArithmeticTupleIterator<T>` (what CuTe prints: `ArithTuple` then the coordinate).
    Iter(Box<Ty>),
    /// `Tensor<ViewEngine<Iter>, Layout>` (what CuTe prints: `iterator o layout`).
    Tensor(Box<Ty>, Box<Ty>),
}

fn int_or_q(v: &Option<i64>) -> String {
    match v {
        Some(v) => format!("_{v}"),
        None => "?".to_string(),
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Int(v) => write!(f, "{}", int_or_q(v)),
            Ty::Under => write!(f, "_"),
            Ty::Tuple(v) => {
                // a tuple holding layouts is a tiler
                let tiler = v.iter().any(|e| !e.is_int_tuple());
                let (open, close) = if tiler { ("<", ">") } else { ("(", ")") };
                crate::eval::int_tuple::write_seq(f, open, v, close)
            }
            Ty::Basis(v, modes) => {
                write!(f, "{}", int_or_q(v))?;
                for m in modes {
                    write!(f, "@{m}")?;
                }
                Ok(())
            }
            Ty::Layout(s, d) => write!(f, "{s}:{d}"),
            Ty::Swizzle(b, m, s) => write!(f, "Sw<{b},{m},{s}>"),
            // CuTe prints `M_S|(D&F)=V`; the type does not carry D (nor V = S|D)
            Ty::Mixed(s, m) => write!(f, "M_{s}|(?&{m})=?"),
            Ty::Composed(a, o, b) => write!(f, "{a} o {o} o {b}"),
            Ty::Op(n) => write!(f, "{n}"),
            Ty::MmaAtom(op) => write!(f, "mma_atom({op})"),
            Ty::CopyAtom(op, t) => write!(f, "copy_atom({op}, {t})"),
            Ty::TiledMma(op, l, p) => {
                write!(f, "make_tiled_mma({op}, {l}")?;
                match &**p {
                    Ty::Tuple(v) if v.iter().all(|e| *e == Ty::Under) => write!(f, ")"),
                    Ty::Tuple(v) => {
                        write!(f, ", <")?;
                        for (k, e) in v.iter().enumerate() {
                            write!(f, "{}{e}", if k > 0 { "," } else { "" })?;
                        }
                        write!(f, ">)")
                    }
                    p => write!(f, ", {p})"),
                }
            }
            Ty::TiledCopy(a, l, t) => {
                write!(f, "make_tiled_copy_impl({a}, {l}, ")?;
                match &**t {
                    Ty::Tuple(v) => {
                        write!(f, "<")?;
                        for (k, e) in v.iter().enumerate() {
                            write!(f, "{}{e}", if k > 0 { "," } else { "" })?;
                        }
                        write!(f, ">)")
                    }
                    t => write!(f, "{t})"),
                }
            }
            Ty::Iter(c) => write!(f, "ArithTuple{c}"),
            Ty::Tensor(it, l) => write!(f, "{it} o {l}"),
        }
    }
}

impl Ty {
    fn is_int_tuple(&self) -> bool {
        match self {
            Ty::Int(_) | Ty::Under | Ty::Basis(..) => true,
            Ty::Tuple(v) => v.iter().all(|e| e.is_int_tuple()),
            _ => false,
        }
    }
    /// The algebra's tuple, dynamic integers given the placeholder 2.
    fn to_int_tuple(&self) -> Option<IntTuple> {
        Some(match self {
            Ty::Int(Some(v)) => IntTuple::I(Int::new(*v, true)),
            Ty::Int(None) => IntTuple::I(Int::new(2, false)),
            Ty::Under => IntTuple::Under,
            Ty::Tuple(v) => IntTuple::T(v.iter().map(|e| e.to_int_tuple()).collect::<Option<_>>()?),
            _ => return None,
        })
    }
    fn from_int_tuple(t: &IntTuple) -> Option<Ty> {
        Some(match t.view() {
            V::I(i) => Ty::Int(if i.s { Some(i.v) } else { None }),
            V::Under => Ty::Under,
            V::T(v) => Ty::Tuple(v.iter().map(Ty::from_int_tuple).collect::<Option<_>>()?),
            V::Basis(..) => return None,
        })
    }
}

/// Names a CuTe type may be written with: none, or `cute::`.
fn cute_ns(ns: &[String]) -> bool {
    ns.is_empty() || (ns.len() == 1 && ns[0] == "cute")
}

/// The meaning of a whole type found in the text: only CuTe's own kinds (never a bare `int`).
fn top_level(n: &Node) -> Option<Ty> {
    let (name, ns) = n.name()?;
    if !cute_ns(ns) && !is_op_path(n) {
        return None;
    }
    // bare aliases (`_8`) and operation names are the notation already; a bare `Layout` is a word
    if matches!(n, Node::Name { args: None, .. }) && name != "Underscore" {
        return None;
    }
    ty(n)
}

fn is_op_path(n: &Node) -> bool {
    matches!(n, Node::Name { path, .. } if path.iter().any(|p| p == "GMMA"))
}

/// A static integer alias `_8`, `_m1`.
fn alias_value(name: &str) -> Option<i64> {
    let rest = name.strip_prefix('_')?;
    let (neg, digits) = match rest.strip_prefix('m') {
        Some(d) => (true, d),
        None => (false, rest),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let v: i64 = digits.parse().ok()?;
    Some(if neg { -v } else { v })
}

const DYNAMIC_INTS: &[&str] = &[
    "int",
    "long",
    "long int",
    "long long",
    "long long int",
    "unsigned",
    "unsigned int",
    "unsigned long",
    "unsigned long int",
    "unsigned long long",
    "unsigned long long int",
    "short",
    "int32_t",
    "int64_t",
    "uint32_t",
    "uint64_t",
    "size_t",
];

fn num(n: &Node) -> Option<i64> {
    match n {
        Node::Num(v) => Some(*v),
        _ => None,
    }
}

fn ty(n: &Node) -> Option<Ty> {
    let (name, ns) = n.name()?;
    let args = n.args();
    if DYNAMIC_INTS.contains(&name) && (ns.is_empty() || ns == ["std"]) {
        return Some(Ty::Int(None));
    }
    if !cute_ns(ns) {
        return None;
    }
    if let Some(v) = alias_value(name) {
        return args.is_empty().then_some(Ty::Int(Some(v)));
    }
    match (name, args.len()) {
        ("C" | "Int" | "constant", 1) => Some(Ty::Int(Some(num(&args[0])?))),
        ("integral_constant", 2) => Some(Ty::Int(Some(num(&args[1])?))),
        ("Underscore", 0) => Some(Ty::Under),
        // a bare `Shape` is a template parameter, not a tuple
        ("tuple" | "Shape" | "Stride" | "Coord" | "Step" | "Tile" | "ArithmeticTuple", _)
            if matches!(n, Node::Name { args: Some(_), .. }) =>
        {
            Some(Ty::Tuple(args.iter().map(ty).collect::<Option<_>>()?))
        }
        ("Layout", 1) => {
            let s = ty(&args[0])?;
            let d = compact_col_major(&s.to_int_tuple()?, &IntTuple::I(Int::new(1, true))).ok()?;
            Some(Ty::Layout(Box::new(s), Box::new(Ty::from_int_tuple(&d)?)))
        }
        ("Layout", 2) => Some(Ty::Layout(Box::new(ty(&args[0])?), Box::new(ty(&args[1])?))),
        ("Swizzle", 3) => Some(Ty::Swizzle(num(&args[0])?, num(&args[1])?, num(&args[2])?)),
        // `template <int BBits, int MBase, int SShift = BBits>`: clang leaves a default out
        ("Swizzle", 2) => Some(Ty::Swizzle(num(&args[0])?, num(&args[1])?, num(&args[0])?)),
        ("MixedBits", 2) => Some(Ty::Mixed(num(&args[0])?, num(&args[1])?)),
        ("ComposedLayout", 3) => {
            Some(Ty::Composed(Box::new(ty(&args[0])?), Box::new(ty(&args[1])?), Box::new(ty(&args[2])?)))
        }
        ("ScaledBasis", k) if k >= 1 => {
            let v = match ty(&args[0])? {
                Ty::Int(v) => v,
                _ => return None,
            };
            let mut modes = args[1..].iter().map(num).collect::<Option<Vec<_>>>()?;
            modes.reverse();
            Some(Ty::Basis(v, modes))
        }
        ("E", _) if matches!(n, Node::Name { args: Some(_), .. }) => {
            let mut modes = args.iter().map(num).collect::<Option<Vec<_>>>()?;
            modes.reverse();
            Some(Ty::Basis(Some(1), modes))
        }
        ("MMA_Atom", 1) => Some(Ty::MmaAtom(mma_op(&args[0])?)),
        ("Copy_Atom", 2) => Some(Ty::CopyAtom(copy_op(&args[0])?, value_type(&args[1])?)),
        ("TiledMMA", 3) => {
            let op = match ty(&args[0])? {
                Ty::MmaAtom(op) => op,
                _ => return None,
            };
            Some(Ty::TiledMma(op, Box::new(ty(&args[1])?), Box::new(ty(&args[2])?)))
        }
        ("TiledCopy", 3) => {
            let atom = ty(&args[0])?;
            matches!(atom, Ty::CopyAtom(..)).then_some(())?;
            Some(Ty::TiledCopy(Box::new(atom), Box::new(ty(&args[1])?), Box::new(ty(&args[2])?)))
        }
        ("ArithmeticTupleIterator", 1) => Some(Ty::Iter(Box::new(ty(&args[0])?))),
        ("Tensor", 2) => {
            let engine = &args[0];
            let (en, _) = engine.name()?;
            if en != "ViewEngine" || engine.args().len() != 1 {
                return None;
            }
            let it = ty(&engine.args()[0])?;
            matches!(it, Ty::Iter(_)).then_some(())?;
            Some(Ty::Tensor(Box::new(it), Box::new(ty(&args[1])?)))
        }
        _ => None,
    }
}

/// The value types the notation names (`cutlass::half_t` is `half_t`).
fn value_type(n: &Node) -> Option<String> {
    let (name, ns) = n.name()?;
    let ok_ns = ns.is_empty() || ns == ["cute"] || ns == ["cutlass"] || ns == ["std"];
    (ok_ns && n.args().is_empty() && crate::eval::atoms::types::value_type_bits(name).is_some())
        .then(|| name.to_string())
}

/// An MMA operation: `SM80_16x8x16_F32F16F16F32_TN`, `UniversalFMA<float, ...>`, or a GMMA
/// `SM90::GMMA::MMA_64x64x16_F16F16F16_SS<Major::K, Major::K, ScaleIn::One, ScaleIn::One>`
/// (written `SM90_64x64x16_F16F16F16_SS<K,K>`; other scales are not in the notation).
fn mma_op(n: &Node) -> Option<String> {
    let (name, ns) = n.name()?;
    if name == "MMA_Traits" && cute_ns(ns) {
        return mma_op(n.args().first()?);
    }
    if let Some(rest) = name.strip_prefix("MMA_64x") {
        if ns.last().map(String::as_str) != Some("GMMA") {
            return None;
        }
        let mut targs = Vec::new();
        for a in n.args() {
            let (an, ans) = a.name()?;
            match (ans.last().map(String::as_str), an) {
                (Some("Major"), "K" | "MN") => targs.push(an.to_string()),
                (Some("ScaleIn"), "One") => {}
                _ => return None,
            }
        }
        let base = format!("SM90_64x{rest}");
        return Some(if targs.is_empty() { base } else { format!("{base}<{}>", targs.join(",")) });
    }
    if !cute_ns(ns) {
        return None;
    }
    op_name(name, n.args())
}

/// A copy operation (`SM75_U32x4_LDSM_N`, `UniversalCopy<uint128_t>`: a second value type equal
/// to the first is CuTe's default and left out).
fn copy_op(n: &Node) -> Option<String> {
    let (name, ns) = n.name()?;
    if name == "Copy_Traits" && cute_ns(ns) {
        return copy_op(n.args().first()?);
    }
    if !cute_ns(ns) {
        return None;
    }
    let args = n.args();
    if args.len() == 2 && args[0] == args[1] {
        return op_name(name, &args[..1]);
    }
    op_name(name, args)
}

fn op_name(name: &str, args: &[Node]) -> Option<String> {
    let is_op = name.starts_with("SM") && name[2..].starts_with(|c: char| c.is_ascii_digit())
        || name.starts_with("Universal")
        || name.starts_with("AutoVectorizingCopy")
        || name == "DefaultCopy";
    if !is_op {
        return None;
    }
    if args.is_empty() {
        return Some(name.to_string());
    }
    let targs = args
        .iter()
        .map(|a| match a {
            Node::Num(v) => Some(v.to_string()),
            _ => value_type(a),
        })
        .collect::<Option<Vec<_>>>()?;
    Some(format!("{name}<{}>", targs.join(",")))
}

#[cfg(test)]
mod tests {
    use super::decode;

    macro_rules! decodes {
        ($name:ident, $text:expr, $want:expr) => {
            #[test]
            fn $name() {
                assert_eq!(decode($text), $want);
            }
        };
    }

    decodes!(
        issue_example,
        "cute::Layout<cute::tuple<cute::tuple<cute::C<8>, cute::C<8>>, int>, cute::tuple<cute::tuple<cute::C<1>, cute::C<64>>, cute::C<512>>>",
        "((_8,_8),?):((_1,_64),_512)"
    );
    decodes!(
        no_namespace,
        "[with LShape = tuple<C<4>, C<8> >; LStride = tuple<C<1>, C<4> >]",
        "[with LShape = (_4,_8); LStride = (_1,_4)]"
    );
    decodes!(default_stride, "Layout<Shape<_2,_2,_1>>{}", "(_2,_2,_1):(_1,_2,_0){}");
    decodes!(dynamic_default_stride, "cute::Layout<cute::tuple<int, int>>", "(?,?):(_1,?)");
    decodes!(
        composed,
        "cute::ComposedLayout<cute::Swizzle<3, 3, 3>, cute::C<0>, cute::Layout<cute::tuple<cute::C<8>, cute::C<64>>, cute::tuple<cute::C<64>, cute::C<1>>>>",
        "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"
    );
    decodes!(
        scaled_basis,
        "cute::Layout<cute::tuple<int, cute::C<8>>, cute::tuple<cute::ScaledBasis<cute::C<1>, 0>, cute::E<1, 0>>>",
        "(?,_8):(_1@0,_1@0@1)"
    );
    decodes!(
        text_kept,
        "error: no match for 'int' in std::vector<int> foo()",
        "error: no match for 'int' in std::vector<int> foo()"
    );
    // the truncated or unknown type is kept; the whole types inside it are still decoded
    decodes!(
        truncated_kept,
        "note: cute::Layout<cute::tuple<cute::C<8>, cute::C<8",
        "note: cute::Layout<cute::tuple<_8, cute::C<8"
    );
    decodes!(unknown_kept, "cute::Layout<foo::Bar<1>, cute::C<1>>", "cute::Layout<foo::Bar<1>, _1>");
    decodes!(std_tuple_kept, "std::tuple<cute::C<1>, int>", "std::tuple<_1, int>");
    decodes!(
        edg_casts,
        "cute::Layout<cute::tuple<cute::C<(int)4>, cute::C<8>>, cute::tuple<cute::C<1>, cute::C<4>>>",
        "(_4,_8):(_1,_4)"
    );
    // clang leaves out a template argument equal to its default (SShift = BBits)
    decodes!(clang_default_shift, "cute::Swizzle<1, 1>", "Sw<1,1,1>");
    decodes!(mma_atom, "cute::MMA_Atom<cute::SM80_16x8x16_F32F16F16F32_TN>", "mma_atom(SM80_16x8x16_F32F16F16F32_TN)");
    decodes!(
        copy_atom,
        "cute::Copy_Atom<cute::SM80_CP_ASYNC_CACHEGLOBAL<cute::uint128_t, cute::uint128_t>, cutlass::half_t>",
        "copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, half_t)"
    );
}
