//! The fast path of the parser: a hand-written recursive-descent parser for statements that
//! parse. It accepts a subset of what the grammar accepts (expressions, bindings, asserts) and
//! builds exactly the AST that pest + [`super::build`] build, spans included; on anything else
//! (any error, `run gemm`, `explain`, an integer out of range, a tree too deep ...) it gives up
//! (`None`) and the statement goes through pest, whose error is the one reported.
//! The differential test in `tests.rs` holds it to that on every statement of the repository
//! and on random mutations of them.
use super::ast::{Apply, Args, BinOp, Call, Expr, ExprKind, Named, Span, Stmt, StmtKind, TArg};
use super::build::compose_chain;
use super::lit;
use super::MAX_EXPR_DEPTH;
use crate::eval::int::Int;
use crate::eval::int_tuple::{IntTuple, TupleBuilder};
use crate::eval::value::Value;

/// An expression and the height of its tree (as in `build`).
type H = (Expr, usize);

fn node(kind: ExprKind, span: Span, height: usize) -> Option<H> {
    (height <= MAX_EXPR_DEPTH).then_some((Expr { kind, span }, height))
}

/// `b` can start a literal integer, `_`, tuple or layout (what [`P::lit_layout`] reads).
fn starts_literal(b: u8) -> bool {
    b == b'(' || b == b'_' || b == b'-' || b.is_ascii_digit()
}

fn is_ident_char(b: u8) -> bool {
    super::is_name_byte(b)
}

/// The statement `chunk` (one statement, no new line), with spans relative to it, or `None`.
pub(super) fn stmt(chunk: &str) -> Option<Stmt> {
    stmt_at(chunk, 0)
}

/// The statement `text[start..]` (one statement, no new line), with spans in `text`, or `None`
/// (nothing before `start` is looked at: the same as [`stmt`] on `&text[start..]` with its spans
/// moved by `start`).
pub(super) fn stmt_at(text: &str, start: usize) -> Option<Stmt> {
    stmt_limited(text, start, usize::MAX)
}

/// [`stmt_at`] on text the pre-pass has not seen (see `parser::statements_lazy`): `None` also
/// for brackets nested deeper than `depth` and for any operator, `o` or `f(..)(..)`, which the
/// pre-pass limits (nesting, operator chains) before the parser runs. Where it gives a
/// statement, the pre-pass would have left the text as it is and cut the statement there.
pub(super) fn stmt_guarded(text: &str, start: usize, depth: usize) -> Option<Stmt> {
    stmt_limited(text, start, depth)
}

fn stmt_limited(text: &str, start: usize, limit: usize) -> Option<Stmt> {
    let mut p = P { s: text.as_bytes(), src: text, i: start, last_ident: (usize::MAX, 0), depth: 0, limit };
    p.ws();
    let start = p.i;
    let kind = if p.keyword(b"assert") {
        p.ws();
        let lhs = p.expr()?.0;
        p.ws();
        let mut end = p.i;
        let rhs = if p.s[p.i..].starts_with(b"==") {
            p.i += 2;
            p.ws();
            let r = p.expr()?.0;
            end = p.i;
            Some(Box::new(r))
        } else {
            None
        };
        p.i = end;
        StmtKind::Assert { lhs, rhs }
    } else if let Some((name, name_span)) = p.bind_name() {
        if name == "Sw" || name == "Swizzle" {
            return None;
        }
        let value = p.expr()?.0;
        StmtKind::Bind { name: name.to_string(), name_span, value }
    } else {
        // (`bind_name` has read the first name, if there is one: `last_ident` holds it)
        let first = if p.last_ident.0 == p.i { &p.s[p.i..p.i + p.last_ident.1] } else { &[][..] };
        if matches!(first, b"run" | b"emit" | b"explain") {
            return None;
        }
        match p.call_alone() {
            Some(e) => StmtKind::Expr(e),
            None => StmtKind::Expr(p.expr()?.0),
        }
    };
    let end = p.i;
    p.ws();
    if p.i != p.s.len() {
        return None;
    }
    // pest ends such a statement before the blanks that its last layout's span runs over when
    // that layout's stride is an operator chain (`A o 4:K*2  `): leave those to pest
    let last = match &kind {
        StmtKind::Assert { lhs, rhs } => rhs.as_deref().unwrap_or(lhs),
        StmtKind::Bind { value, .. } => value,
        StmtKind::Expr(e) => e,
        _ => return None,
    };
    if end > start && matches!(p.s[end - 1], b' ' | b'\t' | b'\r') && ends_in_operator(last) {
        return None;
    }
    Some(Stmt { kind, span: Span::new(start, end) })
}

/// What [`stmt_guarded`] gives for a statement that is one call `f(...)` whose arguments are
/// all literals (integers, `_`, tuple and layout literals), read without a tree: the argument
/// values and spans pushed onto `c` (empty). `None` (with `c` holding anything) where
/// [`stmt_guarded`] gives another statement or none. (Most lines of a script are such calls;
/// the session runs them from the values, with no tree built, moved and dropped.)
pub(super) fn literal_call(text: &str, start: usize, depth: usize, c: &mut super::LiteralCall) -> Option<()> {
    let mut p = P { s: text.as_bytes(), src: text, i: start, last_ident: (usize::MAX, 0), depth: 0, limit: depth };
    p.ws();
    let start = p.i;
    // (as `call_alone` reads it, and not what `stmt_limited` leaves to pest: `run`, `emit`,
    // `explain`; `assert` and `o` are not names)
    if !p.peek().is_ascii_alphabetic() {
        return None;
    }
    let name_span = p.ident()?;
    if p.peek() != b'(' {
        return None;
    }
    if matches!(&p.s[name_span.start..name_span.end], b"Sw" | b"Swizzle" | b"run" | b"emit" | b"explain") {
        return None;
    }
    p.enter()?;
    let r = p.literal_args(c);
    let height = p.leave(r)?;
    let call_end = p.i;
    p.ws();
    if p.i != p.s.len() || height + 1 > MAX_EXPR_DEPTH {
        return None;
    }
    c.name = name_span;
    c.call = Span::new(start, call_end);
    // (`stmt_limited`'s statement ends after the blanks `call_alone` read)
    c.stmt = Span::new(start, p.i);
    Some(())
}

/// The rightmost operand of `e` is an operator chain (`a * b`, `~a`).
fn ends_in_operator(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(..) | ExprKind::Not(_) => true,
        ExprKind::Layout(sd) => ends_in_operator(&sd[1]),
        ExprKind::Compose(_, b) => ends_in_operator(b),
        ExprKind::ComposedLit { inner, .. } => ends_in_operator(inner),
        _ => false,
    }
}

struct P<'a> {
    s: &'a [u8],
    src: &'a str,
    i: usize,
    /// The last name read: its start and length (a statement's first name is read twice, as a
    /// binding's name and then as the expression's).
    last_ident: (usize, usize),
    /// Brackets open now, and how many may be (`usize::MAX`: no limit, and operators allowed:
    /// the pre-pass has bounded both).
    depth: usize,
    limit: usize,
}

impl<'a> P<'a> {
    /// Parsing text the pre-pass has not seen: no operators, brackets at most `limit` deep.
    fn guarded(&self) -> bool {
        self.limit != usize::MAX
    }

    /// One bracket level more (`None` past the limit); [`P::leave`] ends it.
    #[inline]
    fn enter(&mut self) -> Option<()> {
        if self.depth == self.limit {
            return None;
        }
        self.depth += 1;
        Some(())
    }

    #[inline]
    fn leave<T>(&mut self, r: Option<T>) -> Option<T> {
        self.depth -= 1;
        r
    }

    fn peek(&self) -> u8 {
        self.s.get(self.i).copied().unwrap_or(0)
    }

    fn ws(&mut self) {
        while matches!(self.peek(), b' ' | b'\t' | b'\r') {
            self.i += 1;
        }
    }

    /// The word at `i` is `w` (not followed by a name character).
    fn word_is(&self, w: &[u8]) -> bool {
        self.s[self.i..].starts_with(w) && !self.s.get(self.i + w.len()).is_some_and(|&b| is_ident_char(b))
    }

    fn keyword(&mut self, w: &[u8]) -> bool {
        let yes = self.word_is(w);
        if yes {
            self.i += w.len();
        }
        yes
    }

    /// `name =` (not `==`): the name and its span, `i` after the `=` and the blanks after it.
    fn bind_name(&mut self) -> Option<(&'a str, Span)> {
        let save = self.i;
        let r = self.ident().and_then(|sp| {
            self.ws();
            if self.peek() == b'=' && self.s.get(self.i + 1) != Some(&b'=') {
                self.i += 1;
                self.ws();
                Some((&self.src[sp.start..sp.end], sp))
            } else {
                None
            }
        });
        if r.is_none() {
            self.i = save;
        }
        r
    }

    /// A name (not the words `o` and `assert`): its span.
    fn ident(&mut self) -> Option<Span> {
        let start = self.i;
        if self.last_ident.0 == start {
            self.i += self.last_ident.1;
            return Some(Span::new(start, self.i));
        }
        let rest = &self.s[start..];
        if !rest.first().is_some_and(u8::is_ascii_alphabetic) {
            return None;
        }
        let n = rest.iter().position(|&b| !is_ident_char(b)).unwrap_or(rest.len());
        if matches!(&rest[..n], b"o" | b"assert") {
            return None;
        }
        self.last_ident = (start, n);
        self.i += n;
        Some(Span::new(start, self.i))
    }

    /// A statement that is one call `name(...)` (no template arguments) and the blanks after
    /// it up to the statement's end: the node `expr` builds for it, read without the descent
    /// through every level of the grammar (most statements of a script are one call). `None`,
    /// with `i` where it was, for anything else.
    fn call_alone(&mut self) -> Option<Expr> {
        self.attempt(Self::call_alone_at)
    }

    /// `f` from `i` (given as its start); `None` puts `i` back where it was.
    #[inline(always)]
    fn attempt<T>(&mut self, f: impl FnOnce(&mut Self, usize) -> Option<T>) -> Option<T> {
        let start = self.i;
        let r = f(self, start);
        if r.is_none() {
            self.i = start;
        }
        r
    }

    fn call_alone_at(&mut self, start: usize) -> Option<Expr> {
        let c = self.peek();
        // (what `operand` reads some other way: literals, strings, brackets, `smem_ptr[`, `M_0|(`)
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let name_span = self.ident()?;
        if self.peek() != b'(' {
            return None;
        }
        let name = &self.src[name_span.start..name_span.end];
        if name == "Sw" || name == "Swizzle" {
            return None;
        }
        let mut call = Box::new(Call { name: name.into(), name_span, targs: Vec::new(), args: Args::new() });
        let (ha, aspan) = self.list_into(b'(', b')', &mut call.args)?;
        // (as `part` leaves it: after the blanks; nothing may follow but the statement's end)
        self.ws();
        if self.i != self.s.len() {
            return None;
        }
        let (e, _) = node(ExprKind::Call(call), name_span.join(aspan), ha + 1)?;
        debug_assert_eq!(e.span.start, start);
        Some(e)
    }

    /// `o` as the composition operator.
    fn at_o(&self) -> bool {
        self.word_is(b"o")
    }

    /// `side (: side)? (o side (: side)?)*` and the blanks after it (as pest's `expr`).
    fn expr(&mut self) -> Option<H> {
        let first = self.part()?;
        if !self.at_o() {
            return Some(first);
        }
        if self.guarded() {
            return None;
        }
        let mut parts = vec![first];
        while self.at_o() {
            self.i += 1; // `o`
            self.ws();
            parts.push(self.part()?);
        }
        compose_chain(parts).ok()
    }

    /// `side (: side)?` and the blanks after it.
    fn part(&mut self) -> Option<H> {
        if starts_literal(self.peek()) {
            if let Some(h) = self.lit_layout() {
                return Some(h);
            }
        }
        let (s, hs) = self.side()?;
        self.ws();
        if self.peek() != b':' {
            return Some((s, hs));
        }
        self.i += 1;
        self.ws();
        let (d, hd) = self.side()?;
        // A layout's span runs on over the blanks after its stride.
        self.ws();
        let span = Span::new(s.span.start, self.i);
        node(lit::layout(s, d), span, hs.max(hd) + 1)
    }

    /// Operands joined by `| ^ & + - * /`, each after any number of prefix `~`.
    // (`side`, `operand` and `int_or_under` are inlined into their callers: each returns a
    // 56-byte node that would otherwise be copied once more per grammar level)
    #[inline(always)]
    fn side(&mut self) -> Option<H> {
        let mut toks: Vec<Tok> = Vec::new();
        loop {
            if self.guarded() && self.peek() == b'~' {
                return None;
            }
            while self.peek() == b'~' {
                toks.push(Tok::Not(Span::new(self.i, self.i + 1)));
                self.i += 1;
                self.ws();
            }
            let h = self.operand()?;
            let save = self.i;
            self.ws();
            let op = match self.peek() {
                b'|' => BinOp::Or,
                b'^' => BinOp::Xor,
                b'&' => BinOp::And,
                b'+' => BinOp::Add,
                b'-' => BinOp::Sub,
                b'*' => BinOp::Mul,
                b'/' => BinOp::Div,
                _ => {
                    self.i = save;
                    // The usual side: one operand (no token list).
                    if toks.is_empty() {
                        return Some(h);
                    }
                    toks.push(Tok::Operand(h));
                    break;
                }
            };
            if self.guarded() {
                return None;
            }
            toks.push(Tok::Operand(h));
            self.i += 1;
            self.ws();
            toks.push(Tok::Op(op));
        }
        let mut it = toks.into_iter().peekable();
        let r = climb(&mut it, 0)?;
        it.next().is_none().then_some(r)
    }

    /// A primary and the call/apply parentheses directly after it.
    #[inline(always)]
    fn operand(&mut self) -> Option<H> {
        let start = self.i;
        let c = self.peek();
        let mut acc: H = if c == b'_' || c == b'-' || c.is_ascii_digit() {
            self.int_or_under()?
        } else if c == b'"' {
            self.str_lit()?
        } else if c == b'(' {
            self.paren()?
        } else if c == b'<' {
            let (items, h, span) = self.list(b'<', b'>')?;
            node(ExprKind::Tiler(items.into_vec()), span, h + 1)?
        } else if self.s[self.i..].starts_with(b"smem_ptr[") || self.mixed_bits_ahead() {
            return None;
        } else {
            let name_span = self.ident()?;
            let name = &self.src[name_span.start..name_span.end];
            let targs = if self.peek() == b'<' { self.targs()? } else { Vec::new() };
            let full = Span::new(start, self.i);
            if name == "Sw" || name == "Swizzle" {
                match targs[..] {
                    [TArg::Int(b), TArg::Int(m), TArg::Int(s)] => {
                        (Expr { kind: ExprKind::Swizzle { b, m, s }, span: full }, 1)
                    }
                    _ => return None,
                }
            } else if self.peek() == b'(' {
                let mut call = Box::new(Call { name: name.into(), name_span, targs, args: Args::new() });
                let (ha, aspan) = self.list_into(b'(', b')', &mut call.args)?;
                let s = name_span.join(aspan);
                node(ExprKind::Call(call), s, ha + 1)?
            } else {
                node(ExprKind::Name(Box::new(Named { name: name.to_string(), targs })), full, 1)?
            }
        };
        while self.peek() == b'(' {
            if self.guarded() {
                return None;
            }
            let (args, ha, aspan) = self.list(b'(', b')')?;
            let s = acc.0.span.join(aspan);
            let h = acc.1.max(ha) + 1;
            acc = node(ExprKind::Apply(Box::new(Apply { callee: acc.0, args })), s, h)?;
        }
        Some(acc)
    }

    /// `M_0|(...`: maybe the grammar's one-token MixedBits `M_0|(144&400)=144` (left to pest).
    fn mixed_bits_ahead(&self) -> bool {
        let rest = &self.s[self.i..];
        let Some(after) = rest.strip_prefix(b"M_") else { return false };
        let digits = after.iter().take_while(|b| b.is_ascii_digit()).count();
        digits > 0 && after[digits..].starts_with(b"|(")
    }

    /// `12`, `-3`, `_12`, `_-3` (not followed by a name character), or `_` alone.
    #[inline(always)]
    fn int_or_under(&mut self) -> Option<H> {
        let start = self.i;
        let kind = match self.int_leaf()? {
            IntTuple::I(i) => ExprKind::Int { value: i.v, is_static: i.s },
            _ => ExprKind::Under,
        };
        node(kind, Span::new(start, self.i), 1)
    }

    /// `"..."` with the escapes `\" \\ \n \t` (an unknown one: `None`).
    fn str_lit(&mut self) -> Option<H> {
        let start = self.i;
        let mut out = String::new();
        let mut j = start + 1;
        loop {
            match *self.s.get(j)? {
                b'"' => break,
                b'\n' => return None,
                b'\\' => {
                    out.push(match self.s.get(j + 1)? {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'n' => '\n',
                        b't' => '\t',
                        _ => return None,
                    });
                    j += 2;
                }
                _ => {
                    // Copy one whole UTF-8 character.
                    let c = self.src[j..].chars().next()?;
                    out.push(c);
                    j += c.len_utf8();
                }
            }
        }
        self.i = j + 1;
        node(ExprKind::Str(out), Span::new(start, j + 1), 1)
    }

    /// `(...)`: a tuple, or the grouping of one expression that is not an integer, a tuple or `_`.
    fn paren(&mut self) -> Option<H> {
        self.enter()?;
        let r = self.paren_in();
        self.leave(r)
    }

    fn paren_in(&mut self) -> Option<H> {
        let start = self.i;
        let (mut leaves, mut levels) = (0, 0);
        if let Some((t, h)) = self.lit_tuple(&mut leaves, &mut levels) {
            if lit::within(leaves, levels) {
                let kind = ExprKind::Lit(Value::Tuple(t));
                return node(kind, Span::new(start, self.i), h);
            }
        }
        self.i = start;
        let (mut items, h, span) = self.list(b'(', b')')?;
        if items.len() == 1
            && !matches!(items[0].kind, ExprKind::Int { .. } | ExprKind::Tuple(_) | ExprKind::Under)
            && !lit::is_tuple(&items[0])
        {
            let mut e = items.pop()?;
            e.span = span;
            return Some((e, h));
        }
        node(lit::tuple(items.into_vec()), span, h + 1)
    }

    /// A literal layout `S:D` at `i` (each side an integer, `_` or a tuple literal, as
    /// [`lit::layout`] folds them), or a tuple literal alone, and the blanks after it, read
    /// straight into its value: the node `part` builds for it. `None`, with `i` where it was, for
    /// anything else (an operand of an operator or a call, an integer alone, a literal the guard
    /// does not pass).
    fn lit_layout(&mut self) -> Option<H> {
        self.attempt(Self::lit_layout_at)
    }

    fn lit_layout_at(&mut self, start: usize) -> Option<H> {
        let mut leaves = 0;
        let (shape, hs) = self.lit_side(&mut leaves)?;
        self.lit_layout_after(start, shape, hs, leaves)
    }

    /// The rest of [`P::lit_layout_at`] after its shape (`shape` of height `hs`, holding
    /// `leaves` leaves, read from `start`; `i` after it).
    #[inline(always)]
    fn lit_layout_after(&mut self, start: usize, shape: IntTuple, hs: usize, mut leaves: usize) -> Option<H> {
        let shape_end = self.i;
        self.ws();
        if self.peek() != b':' {
            // A tuple literal alone (`f(L, (2,2))`): the node `paren` would build, read once.
            // (levels: `lit_side` took no deeper tuple)
            let alone = self.s[start] == b'(' && self.ends_operand() && lit::within(leaves, 0);
            return alone
                .then(|| ExprKind::Lit(Value::Tuple(shape)))
                .and_then(|kind| node(kind, Span::new(start, shape_end), hs));
        }
        self.i += 1;
        self.ws();
        let (stride, hd) = self.lit_side(&mut leaves)?;
        self.ws();
        if !self.ends_operand() || !lit::within(leaves, 0) {
            return None;
        }
        let kind = ExprKind::Lit(Value::Layout(crate::eval::layout::Layout::new(shape, stride)));
        node(kind, Span::new(start, self.i), hs.max(hd) + 1)
    }

    /// Nothing at `i` makes the literal before it an operand: an operator or a call after it
    /// (`S:(1,2)*2`, `(1,2)(0)`) is left to the general path.
    fn ends_operand(&self) -> bool {
        !matches!(self.peek(), b'|' | b'^' | b'&' | b'+' | b'-' | b'*' | b'/' | b'(')
    }

    /// One side of a literal layout: an integer, `_` or a tuple literal within the guard's depth.
    fn lit_side(&mut self, leaves: &mut usize) -> Option<(IntTuple, usize)> {
        if self.peek() == b'(' {
            let mut levels = 0;
            let r = self.lit_tuple(leaves, &mut levels)?;
            (levels <= lit::LITERAL_DEPTH).then_some(r)
        } else {
            *leaves += 1;
            Some((self.int_leaf()?, 1))
        }
    }

    /// A tuple literal of integers, `_` and tuple literals at `i` (`(` included), read straight
    /// into its value, with its height as an expression; its leaves and tuple levels are added
    /// to `leaves` and folded into `levels`. `None` (with `i` anywhere) on anything else: the
    /// general path then reads it.
    fn lit_tuple(&mut self, leaves: &mut usize, levels: &mut usize) -> Option<(IntTuple, usize)> {
        // (most literal tuples: read in one pass, with what the general path gives for them)
        if self.depth < self.limit {
            if let Some((t, n)) = self.flat_int_tuple() {
                *leaves += n;
                *levels = (*levels).max(1);
                return Some((t, 2));
            }
        }
        self.enter()?;
        let r = self.lit_tuple_in(leaves, levels);
        self.leave(r)
    }

    fn lit_tuple_in(&mut self, leaves: &mut usize, levels: &mut usize) -> Option<(IntTuple, usize)> {
        self.i += 1; // `(`
        self.ws();
        let (mut h, mut inner) = (0, 0);
        if self.peek() == b')' {
            self.i += 1;
            *levels = (*levels).max(1);
            return Some((IntTuple::T(Vec::new()), 1));
        }
        // (a tuple of a few integers is held inline: no list for it)
        let mut items = TupleBuilder::new();
        loop {
            let (t, he) = if self.peek() == b'(' {
                let mut lv = 0;
                let r = self.lit_tuple(leaves, &mut lv)?;
                inner = inner.max(lv);
                if inner >= lit::LITERAL_DEPTH {
                    return None;
                }
                r
            } else {
                *leaves += 1;
                // (`int_leaf` starts with `short_int` too, but as a call: taken here inline, the
                // eight bench files parse in 3.4% fewer instructions than through `int_leaf`
                // alone, and 1.3% fewer than with `int_leaf` always inlined)
                match self.short_int() {
                    Some(t) => (t, 1),
                    None => (self.int_leaf()?, 1),
                }
            };
            h = h.max(he);
            items.push(t);
            if !self.next_item() {
                break;
            }
        }
        if self.peek() != b')' {
            return None;
        }
        self.i += 1;
        *levels = (*levels).max(inner + 1);
        Some((items.finish(), h + 1))
    }

    /// `(i0,i1,...)` at `i`: one to eight integers without a sign, each of up to 18 digits and
    /// `_`-marked or not, with no blanks (most literal tuples), read in one pass, and how many;
    /// `None`, with `i` unchanged, for anything else (which [`P::lit_tuple_in`] reads). The
    /// vector is allocated once, at its size, and each integer built in it from its value.
    #[inline(always)]
    fn flat_int_tuple(&mut self) -> Option<(IntTuple, usize)> {
        let s = self.s;
        let mut j = self.i + 1;
        let mut ints = [(0i64, false); 8];
        let mut n = 0;
        loop {
            let is_static = s.get(j) == Some(&b'_');
            j += usize::from(is_static);
            let first = j;
            let mut v: i64 = 0;
            while let Some(d) = s.get(j).map(|b| b.wrapping_sub(b'0')).filter(|&d| d < 10) {
                // (18 digits at most: no overflow)
                if j - first == 18 {
                    return None;
                }
                v = v * 10 + i64::from(d);
                j += 1;
            }
            if j == first || n == ints.len() {
                return None;
            }
            ints[n] = (v, is_static);
            n += 1;
            match s.get(j) {
                Some(b',') => j += 1,
                Some(b')') => break,
                _ => return None,
            }
        }
        // (a tuple of a few integers is held inline: built from them, with no list)
        let it = |k: usize| Int::new(ints[k].0, ints[k].1);
        let t = match n {
            2 => IntTuple::pair(it(0), it(1)),
            _ => IntTuple::of_int_iter((0..n).map(it)),
        };
        self.i = j + 1;
        Some((t, n))
    }

    /// The most common literal argument, `(i0,...):(j0,...)` or `(i0,...)` of
    /// [`P::flat_int_tuple`]'s tuples with no blanks, followed by `,` or `)`: the value and
    /// height [`P::literal_item`] gives for it, read in one function (the tuples are not handed
    /// back through three levels of calls, each of which stored them and read them back at once);
    /// `None`, with `i` unchanged, for anything else.
    #[inline(always)]
    fn flat_layout_item(&mut self) -> Option<(Value, usize)> {
        let start = self.i;
        if self.depth == self.limit {
            return None;
        }
        let (shape, n) = self.flat_int_tuple()?;
        let ends = |p: &Self| matches!(p.peek(), b',' | b')');
        match self.peek() {
            b':' if self.s.get(self.i + 1) == Some(&b'(') => {
                self.i += 1;
                if let Some((stride, m)) = self.flat_int_tuple() {
                    if ends(self) && lit::within(n + m, 0) {
                        return Some((Value::Layout(crate::eval::layout::Layout::new(shape, stride)), 3));
                    }
                }
            }
            _ if ends(self) && lit::within(n, 0) => return Some((Value::Tuple(shape), 2)),
            _ => {}
        }
        self.i = start;
        None
    }

    /// An integer of one or two digits, static or not, without a sign (`_8`, `16`: most
    /// literal integers), as [`P::int_leaf`] reads it; `None` for anything else (which
    /// `int_leaf` reads the long way).
    #[inline(always)]
    fn short_int(&mut self) -> Option<IntTuple> {
        let s = self.s;
        let is_static = s.get(self.i) == Some(&b'_');
        let at = self.i + usize::from(is_static);
        let digit = |k: usize| s.get(k).map_or(10, |b| b.wrapping_sub(b'0'));
        let d0 = digit(at);
        if d0 > 9 {
            return None;
        }
        let (value, end) = match digit(at + 1) {
            d1 @ 0..=9 => (d0 * 10 + d1, at + 2),
            _ => (d0, at + 1),
        };
        if s.get(end).is_some_and(|&b| is_ident_char(b)) {
            return None;
        }
        self.i = end;
        Some(IntTuple::I(Int::new(i64::from(value), is_static)))
    }

    /// `12`, `-3`, `_12`, `_-3` (not followed by a name character) or `_` alone, at `i`, as a
    /// tuple leaf (`int_or_under` makes it a node). (As `str::parse::<i64>` of the digits with
    /// their sign: `None` outside i64.)
    #[inline(always)]
    fn int_leaf(&mut self) -> Option<IntTuple> {
        if let Some(t) = self.short_int() {
            return Some(t);
        }
        let s = self.s;
        let mut j = self.i;
        let is_static = s.get(j) == Some(&b'_');
        j += usize::from(is_static);
        let negative = s.get(j) == Some(&b'-');
        j += usize::from(negative);
        let d0 = j;
        let mut value: i64 = 0;
        while let Some(&b) = s.get(j) {
            if !b.is_ascii_digit() {
                break;
            }
            let d = i64::from(b - b'0');
            value = value.checked_mul(10)?;
            value = if negative { value.checked_sub(d)? } else { value.checked_add(d)? };
            j += 1;
        }
        if s.get(j).is_some_and(|&b| is_ident_char(b)) {
            return None;
        }
        if j > d0 {
            self.i = j;
            return Some(IntTuple::I(Int::new(value, is_static)));
        }
        // `_` alone: not followed by a name character or `-`.
        (is_static && !negative).then(|| {
            self.i = j;
            IntTuple::Under
        })
    }

    /// After a list's item: the blanks, then `,` and the blanks after it (true: another item
    /// follows) or anything else, left for the caller to close the list (false).
    fn next_item(&mut self) -> bool {
        self.ws();
        let more = self.peek() == b',';
        if more {
            self.i += 1;
            self.ws();
        }
        more
    }

    /// `open (expr (, expr)*)? close`: the expressions, their greatest height, the span.
    fn list(&mut self, open: u8, close: u8) -> Option<(Args, usize, Span)> {
        let mut items = Args::new();
        let (h, span) = self.list_into(open, close, &mut items)?;
        Some((items, h, span))
    }

    /// [`P::list`], the expressions pushed onto `items` (a call's own list, in its box: the list
    /// is not moved afterwards).
    fn list_into(&mut self, open: u8, close: u8, items: &mut Args) -> Option<(usize, Span)> {
        self.enter()?;
        let r = self.list_into_in(open, close, items);
        self.leave(r)
    }

    fn list_into_in(&mut self, open: u8, close: u8, items: &mut Args) -> Option<(usize, Span)> {
        let start = self.i;
        if self.peek() != open {
            return None;
        }
        self.i += 1;
        self.ws();
        let mut h = 0;
        if self.peek() != close {
            loop {
                let (e, he) = self.item(close)?;
                h = h.max(he);
                items.push(e);
                if !self.next_item() {
                    break;
                }
            }
        }
        if self.peek() != close {
            return None;
        }
        self.i += 1;
        Some((h, Span::new(start, self.i)))
    }

    /// One item of a list closed by `close`: `expr`, taken directly when it is an integer, `_`
    /// or a literal tuple or layout followed by `,` or `close` (most items: the same node, without
    /// the descent through every level of the grammar).
    fn item(&mut self, close: u8) -> Option<H> {
        let c = self.peek();
        if starts_literal(c) {
            let save = self.i;
            if c != b'(' {
                if let Some(h) = self.int_or_under() {
                    self.ws();
                    if self.peek() == b',' || self.peek() == close {
                        return Some(h);
                    }
                }
                self.i = save;
            }
            // (as `expr` takes it: `part` reads the literal, and no `o` follows)
            if let Some(h) = self.lit_layout() {
                if self.peek() == b',' || self.peek() == close {
                    return Some(h);
                }
                self.i = save;
            }
        }
        self.expr()
    }

    /// A call's `(args)` at `i` for [`literal_call`], each argument a literal as [`P::item`]
    /// takes it: the values and spans pushed onto `c`, the greatest height.
    fn literal_args(&mut self, c: &mut super::LiteralCall) -> Option<usize> {
        self.i += 1; // `(`
        self.ws();
        let mut h = 0;
        if self.peek() != b')' {
            loop {
                let start = self.i;
                let (v, he) = self.literal_item()?;
                h = h.max(he);
                c.args.push(v);
                c.spans.push(Span::new(start, self.i));
                if !self.next_item() {
                    break;
                }
            }
        }
        if self.peek() != b')' {
            return None;
        }
        self.i += 1;
        Some(h)
    }

    /// What [`P::item`] takes directly from `i` (an integer, `_`, a literal tuple or layout,
    /// before `,` or `)`) as the value the interpreter makes of it, with its height, `i` at the
    /// end of its span; `None` for anything else.
    fn literal_item(&mut self) -> Option<(Value, usize)> {
        let c = self.peek();
        if !starts_literal(c) {
            return None;
        }
        let save = self.i;
        if c == b'(' {
            if let Some(v) = self.flat_layout_item() {
                return Some(v);
            }
        }
        let (e, h) = if c == b'(' {
            self.lit_layout()?
        } else {
            // (an integer, or the shape of a layout `_8:_4`, read once, as `lit_side` reads it)
            let t = self.int_leaf()?;
            let end = self.i;
            self.ws();
            if self.peek() == b',' || self.peek() == b')' {
                self.i = end;
                return Some((Value::Tuple(t), 1));
            }
            self.i = end;
            // `_8:_4` followed by `,` or `)`: its value built here, as `lit_layout_after` gives it
            // (not handed back through memory in a node and read again, a stall)
            if self.peek() == b':' && self.s.get(end + 1).is_some_and(|&b| b != b'(' && starts_literal(b)) {
                self.i += 1;
                if let Some(d) = self.int_leaf() {
                    if matches!(self.peek(), b',' | b')') && lit::within(2, 0) {
                        return Some((Value::Layout(crate::eval::layout::Layout::new(t, d)), 2));
                    }
                }
                self.i = end;
            }
            self.lit_layout_after(save, t, 1, 1)?
        };
        if self.peek() != b',' && self.peek() != b')' {
            return None;
        }
        match e.kind {
            ExprKind::Lit(v) => {
                self.i = e.span.end;
                Some((v, h))
            }
            _ => None,
        }
    }

    /// `<targ, ...>` right after a name: integers and names.
    fn targs(&mut self) -> Option<Vec<TArg>> {
        self.i += 1; // `<`
        let mut out = Vec::new();
        loop {
            self.ws();
            let c = self.peek();
            if c == b'_' || c == b'-' || c.is_ascii_digit() {
                match self.int_or_under()?.0.kind {
                    ExprKind::Int { value, .. } => out.push(TArg::Int(value)),
                    _ => return None,
                }
            } else {
                let sp = self.ident()?;
                out.push(TArg::Name(self.src[sp.start..sp.end].to_string()));
            }
            self.ws();
            match self.peek() {
                b',' => self.i += 1,
                b'>' => {
                    self.i += 1;
                    return Some(out);
                }
                _ => return None,
            }
        }
    }
}

enum Tok {
    Not(Span),
    Operand(H),
    Op(BinOp),
}

fn prec(op: BinOp) -> usize {
    match op {
        BinOp::Or => 1,
        BinOp::Xor => 2,
        BinOp::And => 3,
        BinOp::Add | BinOp::Sub => 4,
        BinOp::Mul | BinOp::Div => 5,
    }
}

/// Precedence climbing, as pest's Pratt parser with these operators (all left-associative,
/// prefix `~` tightest).
fn climb(it: &mut std::iter::Peekable<std::vec::IntoIter<Tok>>, min: usize) -> Option<H> {
    let mut lhs = unary(it)?;
    while let Some(Tok::Op(op)) = it.peek() {
        let op = *op;
        let p = prec(op);
        if p < min {
            break;
        }
        it.next();
        let rhs = climb(it, p + 1)?;
        let s = lhs.0.span.join(rhs.0.span);
        let h = lhs.1.max(rhs.1) + 1;
        lhs = node(ExprKind::Binary(op, Box::new(lhs.0), Box::new(rhs.0)), s, h)?;
    }
    Some(lhs)
}

fn unary(it: &mut std::iter::Peekable<std::vec::IntoIter<Tok>>) -> Option<H> {
    match it.next()? {
        Tok::Operand(h) => Some(h),
        Tok::Not(sp) => {
            let (rhs, h) = unary(it)?;
            let s = sp.join(rhs.span);
            node(ExprKind::Not(Box::new(rhs)), s, h + 1)
        }
        Tok::Op(_) => None,
    }
}
