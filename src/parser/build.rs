//! pest pairs → AST. One function per rule family; every node gets its byte span.
//!
//! Recursion follows the bracket nesting only (bounded by the pre-scan): the precedence levels
//! with a single child are walked in a loop, and operator chains are folded iteratively. Each
//! built expression comes with its height, and no tree higher than `MAX_EXPR_DEPTH` is built,
//! so later passes (and `Drop`) cannot overflow the stack either.
use super::ast::{BinOp, Expr, ExprKind, GemmArg, Program, Span, Stmt, StmtKind, TArg};
use super::{ParseError, Rule, MAX_EXPR_DEPTH};
use pest::iterators::{Pair, Pairs};

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

pub(super) fn program(mut pairs: Pairs<Rule>) -> R<Program> {
    let mut stmts = Vec::new();
    let Some(prog) = pairs.next() else {
        return Ok(Program { stmts });
    };
    for p in prog.into_inner() {
        match p.as_rule() {
            Rule::bind | Rule::assert_stmt | Rule::gemm_stmt | Rule::explain_stmt | Rule::expr_stmt => {
                stmts.push(stmt(p)?)
            }
            _ => {} // separators, EOI
        }
    }
    Ok(Program { stmts })
}

fn stmt(p: Pair<Rule>) -> R<Stmt> {
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
                Some(q) => Some(expr(q)?.0),
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
            StmtKind::Gemm { emit, m, n, k, args }
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
    matches!(e.kind, ExprKind::Int { .. })
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
fn compose_chain(items: Vec<H>) -> R<H> {
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

/// Builds any expression-level pair. Levels with one child are passed through in a loop.
fn expr(mut p: Pair<Rule>) -> R<H> {
    while let Rule::expr | Rule::layout_expr | Rule::add_expr | Rule::mul_expr | Rule::postfix | Rule::primary =
        p.as_rule()
    {
        let mut it = p.clone().into_inner();
        match (it.next(), it.next()) {
            (Some(only), None) => p = only,
            _ => break,
        }
    }
    let span = span_of(&p);
    match p.as_rule() {
        Rule::expr => {
            let mut items = Vec::new();
            for q in p.into_inner() {
                if q.as_rule() != Rule::kw_o {
                    items.push(expr(q)?);
                }
            }
            compose_chain(items)
        }
        Rule::layout_expr => {
            let mut it = p.into_inner().filter(|q| q.as_rule() != Rule::colon);
            let (s, hs) = expr(it.next().ok_or_else(|| internal(span))?)?;
            let (d, hd) = expr(it.next().ok_or_else(|| internal(span))?)?;
            node(ExprKind::Layout(Box::new(s), Box::new(d)), span, hs.max(hd) + 1)
        }
        Rule::add_expr | Rule::mul_expr => {
            let mut it = p.into_inner();
            let mut acc = expr(it.next().ok_or_else(|| internal(span))?)?;
            while let Some(op) = it.next() {
                let op = match op.as_str() {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    "/" => BinOp::Div,
                    _ => return Err(internal(span_of(&op))),
                };
                let (rhs, hr) = expr(it.next().ok_or_else(|| internal(span))?)?;
                let s = acc.0.span.join(rhs.span);
                let h = acc.1.max(hr) + 1;
                acc = node(ExprKind::Binary(op, Box::new(acc.0), Box::new(rhs)), s, h)?;
            }
            Ok(acc)
        }
        Rule::postfix => {
            let mut it = p.into_inner();
            let head = it.next().ok_or_else(|| internal(span))?;
            // A bare name (not parenthesised) followed by `(...)` is a call.
            let head = first_leaf(head);
            let mut acc = match head.as_rule() {
                Rule::named => {
                    let (name, name_span, targs, full) = named_parts(head)?;
                    match swizzle(&name, name_span, &targs, full)? {
                        Some(sw) => (sw, 1),
                        None => {
                            let args_pair = it.next().ok_or_else(|| internal(span))?;
                            let (args, ha) = arg_list(args_pair.clone())?;
                            let s = name_span.join(span_of(&args_pair));
                            node(ExprKind::Call { name, name_span, targs, args }, s, ha + 1)?
                        }
                    }
                }
                _ => expr(head)?,
            };
            for args_pair in it {
                let (args, ha) = arg_list(args_pair.clone())?;
                let s = acc.0.span.join(span_of(&args_pair));
                let h = acc.1.max(ha) + 1;
                acc = node(ExprKind::Apply { callee: Box::new(acc.0), args }, s, h)?;
            }
            Ok(acc)
        }
        Rule::int_lit => node(int_lit(&p)?, span, 1),
        Rule::under => node(ExprKind::Under, span, 1),
        Rule::str_lit => node(ExprKind::Str(str_lit(&p)?), span, 1),
        Rule::paren => {
            let (mut items, h) = arg_list(p)?;
            if items.len() == 1 && !matches!(items[0].kind, ExprKind::Int { .. } | ExprKind::Tuple(_) | ExprKind::Under)
            {
                // Plain grouping: the inner expression, spanning the parentheses.
                let mut e = items.remove(0);
                e.span = span;
                return Ok((e, h));
            }
            node(ExprKind::Tuple(items), span, h + 1)
        }
        Rule::tiler => {
            let (items, h) = arg_list(p)?;
            node(ExprKind::Tiler(items), span, h + 1)
        }
        Rule::named => {
            let (name, name_span, targs, full) = named_parts(p)?;
            match swizzle(&name, name_span, &targs, full)? {
                Some(sw) => Ok((sw, 1)),
                None => node(ExprKind::Name { name, targs }, span, 1),
            }
        }
        _ => Err(internal(span)),
    }
}

/// Through `primary` to the leaf rule (int_lit, paren, named, ...).
fn first_leaf(mut p: Pair<Rule>) -> Pair<Rule> {
    while p.as_rule() == Rule::primary {
        match p.clone().into_inner().next() {
            Some(q) => p = q,
            None => break,
        }
    }
    p
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
