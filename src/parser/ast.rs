//! The AST. Every node carries the byte span of its source text, so any error can point at it.
use crate::eval::value::Value;

/// A template argument as written: `get<1,0>`, `upcast<2>` (the value the built-ins take).
pub use crate::eval::value::TArg;

/// Byte range `[start, end)` in the source text of one input (file, `-e` string, REPL entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn join(self, o: Span) -> Span {
        Span { start: self.start.min(o.start), end: self.end.max(o.end) }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    /// `&`, `|`, `^`: bitwise, on integers only.
    And,
    Or,
    Xor,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// `12`, `-3` (dynamic) or `_12`, `_-3` (static). Literals outside i64 are rejected by the
    /// parser with an error at the literal.
    Int { value: i64, is_static: bool },
    /// `_1@0`, `_1@1@0`, `3@1`: CuTe's ScaledBasis, the integer scaling basis element
    /// `E<modes...>` (modes in print order).
    Basis { value: i64, is_static: bool, modes: Box<[usize]> },
    /// `(a,b,...)`, `()`, and `(x)` when x is an integer, tuple or `_` (a 1-tuple).
    Tuple(Vec<Expr>),
    /// A tuple or layout literal of integers and `_` (`(_2,_4):(_1,_2)`), folded by the parser
    /// into the value it denotes (see `parser::lit`: only literals the size guard passes whole).
    /// Always a `Value::Tuple` of a tuple or a `Value::Layout`. (Held inline, not boxed: most
    /// statements are calls on literals, and the box cost more than the larger node.)
    Lit(Value),
    /// `_`
    Under,
    /// `"f.svg"`: a string literal (escapes decoded), for file names and titles.
    Str(String),
    /// `S:D` (shape and stride in one box)
    Layout(Box<[Expr; 2]>),
    /// `<t0,t1,...>`
    Tiler(Vec<Expr>),
    /// `Sw<B,M,S>` / `Swizzle<B,M,S>`
    Swizzle { b: i64, m: i64, s: i64 },
    /// `A o B` (left-associative)
    Compose(Box<Expr>, Box<Expr>),
    /// `A o n o B` with `n` an integer literal: a ComposedLayout with offset `n`
    /// (`Sw<3,3,3> o _0 o L`), exactly as CuTe prints one; right-nested when chained.
    ComposedLit { outer: Box<Expr>, offset: Box<Expr>, inner: Box<Expr> },
    /// `smem_ptr[16b](unset)`: CuTe's unset shared-memory pointer flag of B-bit elements; only
    /// the offset of a ComposedLayout literal (`Sw<3,4,3> o smem_ptr[16b](unset) o L`).
    SmemPtr { bits: u32 },
    /// `M_0|(144&400)=144`: CuTe's `MixedBits<S,F>{D}` (V = S|D, as printed); only the offset of
    /// a ComposedLayout literal (`Sw<3,3,3> o M_0|(144&400)=144 o L`).
    MixedBits { s: u32, d: u32, f: u32, v: u32 },
    /// `a + b`, `a - b`, `a * b`, `a / b`, `a & b`, `a | b`, `a ^ b` on integers (CuTe's rules).
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `~x`: bitwise not of an integer.
    Not(Box<Expr>),
    /// A bare name, possibly with template arguments: `A`, `LayoutRight`, `half_t`,
    /// `SM90_64x64x16_F16F16F16_SS<K,K>`.
    Name(Box<Named>),
    /// `f(args)` / `f<i,j>(args)` where `f` is a name (function or bound value).
    Call(Box<Call>),
    /// `expr(args)` where `expr` is not a bare name (e.g. `(A o B)(3)`, `Sw<3,3,3>(k)`).
    Apply(Box<Apply>),
}

// The larger variants are boxed so that an `Expr` stays small (a literal value and the span;
// the parser's test `expr_is_small` holds it to 64 bytes): the parser moves expressions by
// value, and a statement holds a dozen of them.

/// `ExprKind::Name`: a name and its template arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Named {
    pub name: String,
    pub targs: Vec<TArg>,
}

/// A call's arguments: most calls take one or two, held in the call's own box.
pub type Args = smallvec::SmallVec<[Expr; 2]>;

/// `ExprKind::Call`: `name<targs>(args)`. (The name is inline up to 24 bytes and the first two
/// arguments are inline: a call is one allocation, not three.)
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    pub name: compact_str::CompactString,
    pub name_span: Span,
    pub targs: Vec<TArg>,
    pub args: Args,
}

/// `ExprKind::Apply`: `callee(args)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Apply {
    pub callee: Expr,
    pub args: Args,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// Options of `run gemm` / `emit gemm`: `key=value`, where value is an expression.
#[derive(Clone, Debug, PartialEq)]
pub struct GemmArg {
    pub key: String,
    pub key_span: Span,
    pub value: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// An expression: its value is printed.
    Expr(Expr),
    /// `name = expr`
    Bind { name: String, name_span: Span, value: Expr },
    /// `assert expr` or `assert a == b` (`rhs` is Some for the latter).
    /// (`rhs` boxed: a statement is moved whole, and the box keeps it within the size that is
    /// copied without a call to `memcpy`.)
    Assert { lhs: Expr, rhs: Option<Box<Expr>> },
    /// `run gemm M N K key=value ...` (`emit` = true for `emit gemm`, which prints CUDA source).
    Gemm(Box<Gemm>),
    /// `explain expr`: how the value of a call, `A o B` or `L(c)` comes about.
    Explain(Expr),
}

/// `StmtKind::Gemm`: `run gemm M N K key=value ...` or `emit gemm ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct Gemm {
    pub emit: bool,
    pub m: Expr,
    pub n: Expr,
    pub k: Expr,
    pub args: Vec<GemmArg>,
}

/// One parsed input: a sequence of statements.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub stmts: Vec<Stmt>,
}
