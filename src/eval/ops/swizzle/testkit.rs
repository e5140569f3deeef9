//! Test-only: evaluate a statement line with the real parser and the registry (until the
//! interpreter lands), and read golden JSONL records. Used by the swizzle and render tests.

use crate::eval::builtins;
use crate::eval::error::{EvalError, R};
use crate::eval::int::Int;
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::Layout;
use crate::eval::value::Value;
use crate::parser::ast::{Expr, ExprKind, StmtKind};
use std::collections::HashMap;

fn ev(e: &Expr, env: &HashMap<String, Value>) -> R<Value> {
    let all = |v: &[Expr]| v.iter().map(|x| ev(x, env)).collect::<R<Vec<_>>>();
    match &e.kind {
        ExprKind::Int { value, is_static } => Ok(Value::from(Int::new(*value, *is_static))),
        ExprKind::Tuple(v) => Ok(Value::tuple(all(v)?)),
        ExprKind::Under => Ok(Value::Tuple(IntTuple::Under)),
        ExprKind::Str(t) => Ok(Value::Str(t.clone())),
        ExprKind::Layout(s, d) => match (ev(s, env)?, ev(d, env)?) {
            (Value::Tuple(s), Value::Tuple(d)) => Ok(Value::Layout(Layout::new(s, d))),
            (s, d) => Err(EvalError::type_err(format!("layout of {s} and {d}"))),
        },
        ExprKind::Tiler(v) => Ok(Value::Tile(all(v)?)),
        ExprKind::Swizzle { b, m, s } => super::bits::make(*b, *m, *s).map(Value::Swizzle),
        ExprKind::Compose(a, b) => builtins::call("composition", &[], &[ev(a, env)?, ev(b, env)?]),
        ExprKind::ComposedLit { outer, offset, inner } => {
            builtins::call("make_composed_layout", &[], &[ev(outer, env)?, ev(offset, env)?, ev(inner, env)?])
        }
        ExprKind::Binary(..) => Err(EvalError::type_err("test evaluator: no arithmetic")),
        ExprKind::Name { name, .. } => Ok(env.get(name).cloned().unwrap_or_else(|| Value::Tag(name.clone()))),
        ExprKind::Call { name, targs, args, .. } => {
            let args = all(args)?;
            if let Some(v) = env.get(name) {
                let mut a = vec![v.clone()];
                a.extend(args);
                return builtins::call("__apply", &[], &a);
            }
            builtins::call(name, targs, &args)
        }
        ExprKind::Apply { callee, args } => {
            let mut a = vec![ev(callee, env)?];
            a.extend(all(args)?);
            builtins::call("__apply", &[], &a)
        }
    }
}

/// Evaluate `s1; s2; ...` and return what CuTe prints for the last value.
pub(crate) fn eval(src: &str) -> R<String> {
    eval_value(src).map(|v| v.to_string())
}

/// Evaluate `s1; s2; ...` and return the last value.
pub(crate) fn eval_value(src: &str) -> R<Value> {
    let prog = crate::parser::parse(src).map_err(|e| EvalError::type_err(format!("parse: {}", e.message)))?;
    let mut env = HashMap::new();
    let mut last = None;
    for s in &prog.stmts {
        match &s.kind {
            StmtKind::Expr(e) => last = Some(ev(e, &env)?),
            StmtKind::Bind { name, value, .. } => {
                let v = ev(value, &env)?;
                env.insert(name.clone(), v);
            }
            _ => return Err(EvalError::type_err("test evaluator: unsupported statement")),
        }
    }
    last.ok_or_else(|| EvalError::type_err("no value"))
}

pub(crate) use crate::jsonl::field;

/// Check the golden records selected by `pick`: (matched, failures).
pub(crate) fn check_golden(pick: &dyn Fn(&str) -> bool) -> (usize, Vec<String>) {
    let root = env!("CARGO_MANIFEST_DIR");
    let (mut ok, mut bad) = (0, Vec::new());
    for f in ["tests/conformance/golden.jsonl", "tests/conformance/golden_extra.jsonl"] {
        let Ok(text) = std::fs::read_to_string(format!("{root}/{f}")) else {
            bad.push(format!("cannot read {f}"));
            continue;
        };
        for line in text.lines() {
            let Some(expr) = field(line, "expr") else { continue };
            if !pick(&expr) {
                continue;
            }
            let want = field(line, "cute");
            match (eval(&expr), want) {
                (Ok(got), Some(w)) if got == w => ok += 1,
                (Err(_), None) => ok += 1,
                (got, want) => bad.push(format!("{expr}\n   got:  {got:?}\n   want: {want:?}")),
            }
        }
    }
    (ok, bad)
}

/// The golden records about swizzles, composed layouts and the printers.
pub(crate) fn is_swizzle_record(e: &str) -> bool {
    (e.contains("Sw<") || e.contains(" o _0 o") || e.contains("print_layout") || e.contains("print_latex"))
        && !["SM", "partition_", "copy_atom", "make_tiled"].iter().any(|k| e.contains(k))
}
