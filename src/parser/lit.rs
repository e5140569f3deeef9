//! Literal tuples and layouts of integers and `_` (`(_2,_4):(_1,_2)`), folded into the value they
//! denote as they are parsed ([`ExprKind::Lit`]): the interpreter lends that value to a call
//! instead of building it from the AST at every evaluation, and no AST node is built per element.
//!
//! A literal is folded exactly when the evaluator's size guard would pass it whole: at most
//! [`max_leaves`] integers (shape and stride counted together) and at most [`LITERAL_DEPTH`]
//! levels of tuples. Any other stays a `Tuple`/`Layout` node over its (folded) parts and is
//! evaluated part by part, so that the guard's error names the part that exceeds it.
use super::ast::{Expr, ExprKind};
use crate::eval::int::Int;
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::layout::Layout;
use crate::eval::value::{max_leaves, Value};

/// The deepest tuple literal folded (levels of parentheses).
pub const LITERAL_DEPTH: usize = 32;

/// Leaves and tuple levels of a folded tuple (a leaf has 0 levels).
fn measure(t: &IntTuple) -> (usize, usize) {
    match t.view() {
        V::T(xs) => {
            let (mut leaves, mut levels) = (0, 0);
            for x in xs.iter() {
                let (l, v) = measure(x);
                leaves += l;
                levels = levels.max(v);
            }
            (leaves, levels + 1)
        }
        _ => (1, 0),
    }
}

/// Leaves and levels of a literal element: an integer, `_` or a folded tuple.
fn element(e: &Expr) -> Option<(usize, usize)> {
    match &e.kind {
        ExprKind::Int { .. } | ExprKind::Under => Some((1, 0)),
        ExprKind::Lit(Value::Tuple(t)) if t.is_tuple() => Some(measure(t)),
        _ => None,
    }
}

/// The value of a literal element (see [`element`]).
fn value_of(e: Expr) -> IntTuple {
    match e.kind {
        ExprKind::Int { value, is_static } => IntTuple::I(Int::new(value, is_static)),
        ExprKind::Lit(Value::Tuple(t)) => t,
        _ => IntTuple::Under,
    }
}

/// `(items)`: a folded literal when every item is an integer, `_` or a folded tuple and the
/// whole is within the guard, else the tuple node.
pub fn tuple(items: Vec<Expr>) -> ExprKind {
    let (mut leaves, mut levels) = (0, 0);
    for e in &items {
        let Some((l, v)) = element(e) else { return ExprKind::Tuple(items) };
        leaves += l;
        levels = levels.max(v);
    }
    // (the items' levels, and this tuple's own)
    if within(leaves, levels + 1) {
        ExprKind::Lit(Value::Tuple(IntTuple::T(items.into_iter().map(value_of).collect())))
    } else {
        ExprKind::Tuple(items)
    }
}

/// `s:d`: a folded layout when both sides are literal elements and their leaves together are
/// within the guard, else the layout node.
pub fn layout(s: Expr, d: Expr) -> ExprKind {
    if let (Some((ls, lv)), Some((ld, dv))) = (element(&s), element(&d)) {
        if within(ls + ld, lv.max(dv)) {
            let stride = value_of(d);
            return ExprKind::Lit(Value::Layout(Layout::new(value_of(s), stride)));
        }
    }
    ExprKind::Layout(Box::new([s, d]))
}

/// `e` is a folded tuple (which, alone in parentheses, makes a 1-tuple as a tuple node does).
pub fn is_tuple(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Lit(Value::Tuple(_)))
}

/// A literal of `leaves` leaves and `levels` levels of tuples is within the guard: the one rule
/// of folding, for [`tuple`], [`layout`] and the fast parser's direct path (which counts as it
/// reads).
pub(super) fn within(leaves: usize, levels: usize) -> bool {
    leaves <= max_leaves() && levels <= LITERAL_DEPTH
}
