//! pest pairs → AST. One function per rule family; every node gets its byte span.
//!
//! Recursion follows the bracket nesting only (bounded by the pre-scan): the precedence levels
//! with a single child are walked in a loop, and operator chains are folded iteratively. Each
//! built expression comes with its height, and no tree higher than `MAX_EXPR_DEPTH` is built,
//! so later passes (and `Drop`) cannot overflow the stack either.
use super::ast::{Apply, BinOp, Call, Expr, ExprKind, Gemm, GemmArg, Named, Span, Stmt, StmtKind, TArg};
use super::{ParseError, Rule, MAX_EXPR_DEPTH};
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};

type R<T> = Result<T, ParseError>;

/// An expression and the height of its tree (a leaf has height 1).
type H = (Expr, usize);

fn span_of(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.end())
}

fn node(kind: ExprKind, span: Span, height: usize) -> R<H> {
    if height > MAX_EXPR_DEPTH {
        return Err(ParseError::new(format!("expression nested too deeply (limit {MAX_EXPR_DEPTH} levels)"), span));
    }
    Ok((Expr { kind, span }, height))
}

fn internal(span: Span) -> ParseError {
    ParseError::new("internal parser error: unexpected syntax tree", span)
}

/// Moves every span of `s` (built from a statement parsed on its own) by `base` bytes, to its
/// place in the whole input.
pub(super) fn shift(s: &mut Stmt, base: usize) {
    fn sp(x: &mut Span, base: usize) {
        x.start += base;
        x.end += base;
    }
    fn ex(e: &mut Expr, base: usize) {
        sp(&mut e.span, base);
        match &mut e.kind {
            ExprKind::Int { .. }
            | ExprKind::Basis { .. }
            | ExprKind::Lit(_)
            | ExprKind::Under
            | ExprKind::Str(_)
            | ExprKind::Swizzle { .. }
            | ExprKind::SmemPtr { .. }
            | ExprKind::MixedBits { .. }
            | ExprKind::Name(_) => {}
            ExprKind::Not(a) => ex(a, base),
            ExprKind::Tuple(v) | ExprKind::Tiler(v) => v.iter_mut().for_each(|e| ex(e, base)),
            ExprKind::Layout(sd) => sd.iter_mut().for_each(|e| ex(e, base)),
            ExprKind::Compose(a, b) | ExprKind::Binary(_, a, b) => {
                ex(a, base);
                ex(b, base);
            }
            ExprKind::ComposedLit { outer, offset, inner } => {
                ex(outer, base);
                ex(offset, base);
                ex(inner, base);
            }
            ExprKind::Call(c) => {
                sp(&mut c.name_span, base);
                c.args.iter_mut().for_each(|e| ex(e, base));
            }
            ExprKind::Apply(a) => {
                ex(&mut a.callee, base);
                a.args.iter_mut().for_each(|e| ex(e, base));
            }
        }
    }
    sp(&mut s.span, base);
    match &mut s.kind {
        StmtKind::Expr(e) | StmtKind::Explain(e) => ex(e, base),
        StmtKind::Bind { name_span, value, .. } => {
            sp(name_span, base);
            ex(value, base);
        }
        StmtKind::Assert { lhs, rhs } => {
            ex(lhs, base);
            if let Some(r) = rhs {
                ex(r, base);
            }
        }
        StmtKind::Gemm(g) => {
            ex(&mut g.m, base);
            ex(&mut g.n, base);
            ex(&mut g.k, base);
            for a in &mut g.args {
                sp(&mut a.key_span, base);
                ex(&mut a.value, base);
            }
        }
    }
}

pub(super) fn stmt(p: Pair<Rule>) -> R<Stmt> {
    let span = span_of(&p);
    let rule = p.as_rule();
    let mut inner = p.into_inner().filter(|q| !matches!(q.as_rule(), Rule::assign | Rule::eq_eq));
    let kind = match rule {
        Rule::expr_stmt => StmtKind::Expr(next_expr(&mut inner, span)?),
        Rule::explain_stmt => {
            inner.next(); // `explain`
            StmtKind::Explain(next_expr(&mut inner, span)?)
        }
        Rule::bind => {
            let name = inner.next().ok_or_else(|| internal(span))?;
            let name_span = span_of(&name);
            let name = name.as_str().to_string();
            if name == "Sw" || name == "Swizzle" {
                return Err(ParseError::new(
                    format!("'{name}' is the swizzle Sw<B,M,S> and cannot be bound"),
                    name_span,
                ));
            }
            StmtKind::Bind { name, name_span, value: next_expr(&mut inner, span)? }
        }
        Rule::assert_stmt => {
            inner.next(); // `assert`
            let lhs = next_expr(&mut inner, span)?;
            let rhs = match inner.next() {
                Some(q) => Some(Box::new(expr(q)?.0)),
                None => None,
            };
            StmtKind::Assert { lhs, rhs }
        }
        Rule::gemm_stmt => {
            let kw = inner.next().ok_or_else(|| internal(span))?;
            let emit = kw.as_rule() == Rule::kw_emit;
            inner.next(); // `gemm`
            let m = next_expr(&mut inner, span)?;
            let n = next_expr(&mut inner, span)?;
            let k = next_expr(&mut inner, span)?;
            let mut args = Vec::new();
            for a in inner {
                let aspan = span_of(&a);
                let mut ai = a.into_inner().filter(|q| q.as_rule() != Rule::assign);
                let key = ai.next().ok_or_else(|| internal(aspan))?;
                let key_span = span_of(&key);
                let key = key.as_str().to_string();
                let value = next_expr(&mut ai, aspan)?;
                args.push(GemmArg { key, key_span, value });
            }
            StmtKind::Gemm(Box::new(Gemm { emit, m, n, k, args }))
        }
        _ => return Err(internal(span)),
    };
    Ok(Stmt { kind, span })
}

fn next_expr<'a>(it: &mut impl Iterator<Item = Pair<'a, Rule>>, span: Span) -> R<Expr> {
    let p = it.next().ok_or_else(|| internal(span))?;
    Ok(expr(p)?.0)
}

fn is_int_lit(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Int { .. } | ExprKind::SmemPtr { .. } | ExprKind::MixedBits { .. })
}

/// Left-associative fold of `A o B o C` → Compose(Compose(A,B),C).
fn fold_compose(items: Vec<H>) -> R<H> {
    let mut it = items.into_iter();
    let Some(mut acc) = it.next() else {
        return Err(internal(Span::default()));
    };
    for (rhs, hr) in it {
        let span = acc.0.span.join(rhs.span);
        let h = acc.1.max(hr) + 1;
        acc = node(ExprKind::Compose(Box::new(acc.0), Box::new(rhs)), span, h)?;
    }
    Ok(acc)
}

/// `X o n o REST` (n an integer literal, not the first operand of its chain) is a ComposedLayout
/// literal, right-nested: `Sw o _0 o Sw o _0 o L` = ComposedLit(Sw, _0, ComposedLit(Sw, _0, L));
/// otherwise `o` is a left-associative composition.
pub(super) fn compose_chain(items: Vec<H>) -> R<H> {
    let n = items.len();
    let mut segments: Vec<(Vec<H>, H)> = Vec::new();
    let mut cur: Vec<H> = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        if !cur.is_empty() && is_int_lit(&item.0) && i + 1 < n {
            segments.push((std::mem::take(&mut cur), item));
        } else {
            cur.push(item);
        }
    }
    let mut acc = fold_compose(cur)?;
    while let Some((seg, offset)) = segments.pop() {
        let outer = fold_compose(seg)?;
        let span = outer.0.span.join(acc.0.span);
        let h = outer.1.max(offset.1).max(acc.1) + 1;
        acc = node(
            ExprKind::ComposedLit { outer: Box::new(outer.0), offset: Box::new(offset.0), inner: Box::new(acc.0) },
            span,
            h,
        )?;
    }
    Ok(acc)
}

/// Builds any expression-level pair.
fn expr(p: Pair<Rule>) -> R<H> {
    let span = span_of(&p);
    match p.as_rule() {
        Rule::expr => chain(p),
        Rule::operand => operand(p),
        Rule::int_lit => node(int_lit(&p)?, span, 1),
        Rule::basis => node(basis(&p)?, span, 1),
        Rule::under => node(ExprKind::Under, span, 1),
        Rule::str_lit => node(ExprKind::Str(str_lit(&p)?), span, 1),
        Rule::smem_ptr => {
            let digits = p.as_str().trim_start_matches("smem_ptr[").trim_end_matches("b](unset)");
            let bits = digits.parse::<u32>().map_err(|_| {
                ParseError::new(format!("the element width {digits} of smem_ptr is out of range"), span)
            })?;
            node(ExprKind::SmemPtr { bits }, span, 1)
        }
        Rule::mixed_bits => node(mixed_bits(p.as_str(), span)?, span, 1),
        Rule::paren => {
            let (mut items, h) = arg_list(p)?;
            if items.len() == 1
                && !matches!(
                    items[0].kind,
                    ExprKind::Int { .. } | ExprKind::Basis { .. } | ExprKind::Tuple(_) | ExprKind::Under
                )
                && !super::lit::is_tuple(&items[0])
            {
                // Plain grouping: the inner expression, spanning the parentheses.
                let mut e = items.remove(0);
                e.span = span;
                return Ok((e, h));
            }
            node(super::lit::tuple(items), span, h + 1)
        }
        Rule::tiler => {
            let (items, h) = arg_list(p)?;
            node(ExprKind::Tiler(items), span, h + 1)
        }
        Rule::named => {
            let (name, name_span, targs, full) = named_parts(p)?;
            match swizzle(&name, name_span, &targs, full)? {
                Some(sw) => Ok((sw, 1)),
                None => node(ExprKind::Name(Box::new(Named { name, targs })), span, 1),
            }
        }
        _ => Err(internal(span)),
    }
}

/// `M_S|(D&F)=V` (the grammar has checked the punctuation and the digits).
fn mixed_bits(text: &str, span: Span) -> R<ExprKind> {
    let nums: Vec<&str> = text[2..].split(|c: char| !c.is_ascii_digit()).filter(|t| !t.is_empty()).collect();
    let n = |i: usize| {
        nums.get(i).and_then(|t| t.parse::<u32>().ok()).ok_or_else(|| {
            ParseError::new(format!("{text}: the bits of a MixedBits are 32-bit unsigned integers"), span)
        })
    };
    Ok(ExprKind::MixedBits { s: n(0)?, d: n(1)?, f: n(2)?, v: n(3)? })
}

/// `| ^ & + - * /` by C++ precedence (all left-associative, loosest first), then prefix `~`.
fn pratt() -> &'static PrattParser<Rule> {
    static P: std::sync::OnceLock<PrattParser<Rule>> = std::sync::OnceLock::new();
    P.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or_op, Assoc::Left))
            .op(Op::infix(Rule::xor_op, Assoc::Left))
            .op(Op::infix(Rule::and_op, Assoc::Left))
            .op(Op::infix(Rule::add_op, Assoc::Left))
            .op(Op::infix(Rule::mul_op, Assoc::Left))
            .op(Op::prefix(Rule::not_op))
    })
}

/// One side of a layout part: operands joined by `+ - * /` (`first`, then `rest` when there are
/// operators).
fn side<'i>(first: Option<Pair<'i, Rule>>, rest: Vec<Pair<'i, Rule>>) -> R<H> {
    let first = first.ok_or_else(|| internal(Span::default()))?;
    if rest.is_empty() {
        return expr(first);
    }
    pratt()
        .map_primary(expr)
        .map_infix(|lhs, op, rhs| {
            let (lhs, hl) = lhs?;
            let (rhs, hr) = rhs?;
            let op = match op.as_str() {
                "+" => BinOp::Add,
                "-" => BinOp::Sub,
                "*" => BinOp::Mul,
                "/" => BinOp::Div,
                "&" => BinOp::And,
                "|" => BinOp::Or,
                "^" => BinOp::Xor,
                _ => return Err(internal(span_of(&op))),
            };
            let s = lhs.span.join(rhs.span);
            node(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), s, hl.max(hr) + 1)
        })
        .map_prefix(|op, rhs| {
            let (rhs, h) = rhs?;
            let s = span_of(&op).join(rhs.span);
            node(ExprKind::Not(Box::new(rhs)), s, h + 1)
        })
        .parse(std::iter::once(first).chain(rest))
}

/// A whole expression: `o`-separated parts, each `side` or `side:side`.
fn chain(p: Pair<Rule>) -> R<H> {
    let input = p.as_span().get_input();
    let mut parts: Vec<H> = Vec::new();
    // The current part's shape side (once a `:` was seen), and the current side's pairs.
    let mut shape: Option<H> = None;
    let mut first: Option<Pair<Rule>> = None;
    let mut rest: Vec<Pair<Rule>> = Vec::new();
    let close_part = |shape: Option<H>, last: H| -> R<H> {
        match shape {
            None => Ok(last),
            Some((s, hs)) => {
                let (d, hd) = last;
                // A layout's span runs on over the blanks after its stride (as it always has:
                // carets and error spans stay where they were).
                let blanks =
                    input.get(d.span.end..).unwrap_or("").bytes().take_while(|b| matches!(b, b' ' | b'\t' | b'\r'));
                let span = Span::new(s.span.start, d.span.end + blanks.count());
                node(super::lit::layout(s, d), span, hs.max(hd) + 1)
            }
        }
    };
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::colon => shape = Some(side(first.take(), std::mem::take(&mut rest))?),
            Rule::kw_o => {
                let last = side(first.take(), std::mem::take(&mut rest))?;
                parts.push(close_part(shape.take(), last)?);
            }
            _ if first.is_none() => first = Some(q),
            _ => rest.push(q),
        }
    }
    let last = side(first.take(), rest)?;
    let part = close_part(shape.take(), last)?;
    if parts.is_empty() {
        return Ok(part);
    }
    parts.push(part);
    compose_chain(parts)
}

/// A primary and the call/apply parentheses directly after it.
fn operand(p: Pair<Rule>) -> R<H> {
    let span = span_of(&p);
    let mut it = p.into_inner();
    let head = it.next().ok_or_else(|| internal(span))?;
    let Some(first_args) = it.next() else {
        return expr(head);
    };
    // A bare name (not parenthesised) followed by `(...)` is a call.
    let mut acc = match head.as_rule() {
        Rule::named => {
            let (name, name_span, targs, full) = named_parts(head)?;
            match swizzle(&name, name_span, &targs, full)? {
                Some(sw) => apply((sw, 1), first_args)?,
                None => {
                    let (args, ha) = arg_list(first_args.clone())?;
                    let s = name_span.join(span_of(&first_args));
                    node(
                        ExprKind::Call(Box::new(Call { name: name.into(), name_span, targs, args: args.into() })),
                        s,
                        ha + 1,
                    )?
                }
            }
        }
        _ => apply(expr(head)?, first_args)?,
    };
    for args_pair in it {
        acc = apply(acc, args_pair)?;
    }
    Ok(acc)
}

/// `callee(args)` for a callee that is not a bare name.
fn apply(callee: H, args_pair: Pair<Rule>) -> R<H> {
    let (args, ha) = arg_list(args_pair.clone())?;
    let s = callee.0.span.join(span_of(&args_pair));
    let h = callee.1.max(ha) + 1;
    node(ExprKind::Apply(Box::new(Apply { callee: callee.0, args: args.into() })), s, h)
}

/// The expressions between brackets (skipping the brackets and commas), and their greatest height
/// (0 when there are none).
fn arg_list(p: Pair<Rule>) -> R<(Vec<Expr>, usize)> {
    let mut items = Vec::new();
    let mut h = 0;
    for q in p.into_inner() {
        if matches!(q.as_rule(), Rule::lparen | Rule::rparen | Rule::langle | Rule::rangle | Rule::comma) {
            continue;
        }
        let (e, he) = expr(q)?;
        h = h.max(he);
        items.push(e);
    }
    Ok((items, h))
}

/// (name, span of the name, template arguments, span of name and template arguments).
fn named_parts(p: Pair<Rule>) -> R<(String, Span, Vec<TArg>, Span)> {
    let span = span_of(&p);
    let mut it = p.into_inner();
    let name = it.next().ok_or_else(|| internal(span))?;
    let name_span = span_of(&name);
    let name = name.as_str().to_string();
    let mut targs = Vec::new();
    if let Some(t) = it.next() {
        for q in t.into_inner() {
            match q.as_rule() {
                Rule::int_lit => match int_lit(&q)? {
                    ExprKind::Int { value, .. } => targs.push(TArg::Int(value)),
                    _ => return Err(internal(span_of(&q))),
                },
                Rule::ident => targs.push(TArg::Name(q.as_str().to_string())),
                _ => {}
            }
        }
    }
    Ok((name, name_span, targs, span))
}

/// `Sw<B,M,S>` / `Swizzle<B,M,S>`: Some(swizzle); any other name: None.
fn swizzle(name: &str, name_span: Span, targs: &[TArg], span: Span) -> R<Option<Expr>> {
    if name != "Sw" && name != "Swizzle" {
        return Ok(None);
    }
    let _ = name_span;
    match targs {
        [TArg::Int(b), TArg::Int(m), TArg::Int(s)] => {
            Ok(Some(Expr { kind: ExprKind::Swizzle { b: *b, m: *m, s: *s }, span }))
        }
        _ => Err(ParseError::new(format!("a swizzle needs three integers: {name}<B,M,S>, e.g. Sw<3,3,3>"), span)),
    }
}

/// `12`, `-3`, `_12`, `_-3` → Int, or an error at the literal when it does not fit in 64 bits.
fn int_lit(p: &Pair<Rule>) -> R<ExprKind> {
    let text = p.as_str();
    let (is_static, digits) = match text.strip_prefix('_') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    match digits.parse::<i64>() {
        Ok(value) => Ok(ExprKind::Int { value, is_static }),
        Err(_) => Err(ParseError::new(
            format!(
                "integer literal {text} does not fit in 64 bits (range -9223372036854775808 to 9223372036854775807)"
            ),
            span_of(p),
        )),
    }
}

/// `_1@0@1` → the scaled basis: the integer (as `int_lit` reads it) and the modes.
fn basis(p: &Pair<Rule>) -> R<ExprKind> {
    let text = p.as_str();
    let mut parts = text.split('@');
    let head = parts.next().unwrap_or("");
    let (is_static, digits) = match head.strip_prefix('_') {
        Some(rest) => (true, rest),
        None => (false, head),
    };
    let value = digits.parse::<i64>().map_err(|_| {
        ParseError::new(
            format!(
                "integer literal {head} does not fit in 64 bits (range -9223372036854775808 to 9223372036854775807)"
            ),
            span_of(p),
        )
    })?;
    let modes = parts
        .map(|m| m.parse::<usize>().ok().filter(|&m| m < 64))
        .collect::<Option<Box<[_]>>>()
        .ok_or_else(|| ParseError::new(format!("the basis modes of {text} must be below 64"), span_of(p)))?;
    Ok(ExprKind::Basis { value, is_static, modes })
}

/// `"..."` → its text: `\"` `\\` `\n` `\t` decoded, any other escape an error at the escape.
fn str_lit(p: &Pair<Rule>) -> R<String> {
    let text = p.as_str();
    let start = p.as_span().start();
    let body = text.get(1..text.len().saturating_sub(1)).unwrap_or("");
    let mut out = String::with_capacity(body.len());
    let mut it = body.char_indices();
    while let Some((i, c)) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some((_, '"')) => out.push('"'),
            Some((_, '\\')) => out.push('\\'),
            Some((_, 'n')) => out.push('\n'),
            Some((_, 't')) => out.push('\t'),
            other => {
                let len = 1 + other.map_or(0, |(_, e)| e.len_utf8());
                let at = start + 1 + i;
                return Err(ParseError::new(
                    "unknown escape in a string: write \\\" \\\\ \\n or \\t",
                    Span::new(at, at + len),
                ));
            }
        }
    }
    Ok(out)
}
