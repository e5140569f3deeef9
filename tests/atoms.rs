//! Atoms (issue 4): every MMA/copy golden record, and the laws of thread-value layouts.
//!
//! Expressions are parsed by the real parser and evaluated by a small walker over the AST that
//! calls the built-in registry (the same calls the interpreter makes), so these tests depend
//! only on the parser and the registry.

use cute::eval::builtins;
use cute::eval::int::Int;
use cute::eval::int_tuple::IntTuple;
use cute::eval::layout::{Composed, Func, Layout, Swizzle};
use cute::eval::value::Value;
use cute::parser::ast::{Expr, ExprKind, StmtKind};
use std::collections::HashMap;

// ------------------------------------------------------------------------------------------
// A minimal evaluator
// ------------------------------------------------------------------------------------------

struct Env(HashMap<String, Value>);

fn to_func(v: Value) -> Result<Func, String> {
    match v {
        Value::Layout(l) => Ok(Func::Layout(l)),
        Value::Swizzle(s) => Ok(Func::Swizzle(s)),
        Value::Composed(c) => Ok(Func::Composed(c)),
        other => Err(format!("not a function: {other}")),
    }
}

impl Env {
    fn eval(&mut self, e: &Expr) -> Result<Value, String> {
        Ok(match &e.kind {
            ExprKind::Int { value, is_static } => Value::Tuple(IntTuple::I(Int::new(*value, *is_static))),
            ExprKind::Tuple(items) => {
                let vs = items.iter().map(|x| self.eval(x)).collect::<Result<Vec<_>, _>>()?;
                Value::tuple(vs)
            }
            ExprKind::Under => Value::Tuple(IntTuple::Under),
            ExprKind::Layout(s, d) => match (self.eval(s)?, self.eval(d)?) {
                (Value::Tuple(s), Value::Tuple(d)) => Value::Layout(Layout::new(s, d)),
                _ => return Err("bad layout".into()),
            },
            ExprKind::Tiler(items) => Value::Tile(items.iter().map(|x| self.eval(x)).collect::<Result<Vec<_>, _>>()?),
            ExprKind::Swizzle { b, m, s } => Value::Swizzle(Swizzle { b: *b as i32, m: *m as i32, s: *s as i32 }),
            ExprKind::Compose(a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                if let Value::Swizzle(_) = a {
                    Value::Composed(Box::new(Composed { outer: to_func(a)?, offset: Int::new(0, true), inner: to_func(b)? }))
                } else {
                    builtins::call("composition", &[], &[a, b]).map_err(|e| e.to_string())?
                }
            }
            ExprKind::ComposedLit { outer, offset, inner } => {
                let off = match self.eval(offset)? {
                    Value::Tuple(IntTuple::I(i)) => i,
                    _ => return Err("bad offset".into()),
                };
                Value::Composed(Box::new(Composed { outer: to_func(self.eval(outer)?)?, offset: off, inner: to_func(self.eval(inner)?)? }))
            }
            ExprKind::Name { name, targs } => {
                if let Some(v) = self.0.get(name) {
                    v.clone()
                } else if let Some(r) = cute::eval::atoms::named_value(name, targs) {
                    r.map_err(|e| e.to_string())?
                } else {
                    Value::Tag(name.clone())
                }
            }
            ExprKind::Call { name, targs, args, .. } => {
                let vs = args.iter().map(|x| self.eval(x)).collect::<Result<Vec<_>, _>>()?;
                builtins::call(name, targs, &vs).map_err(|e| e.to_string())?
            }
            other => return Err(format!("unsupported in the test evaluator: {other:?}")),
        })
    }

    fn run(src: &str) -> Result<String, String> {
        let prog = cute::parser::parse(src).map_err(|e| format!("parse: {e:?}"))?;
        let mut env = Env(HashMap::new());
        let mut last = None;
        for s in &prog.stmts {
            match &s.kind {
                StmtKind::Expr(e) => last = Some(env.eval(e)?),
                StmtKind::Bind { name, value, .. } => {
                    let v = env.eval(value)?;
                    env.0.insert(name.clone(), v);
                }
                _ => return Err("unsupported statement".into()),
            }
        }
        last.map(|v| v.to_string()).ok_or_else(|| "no value".into())
    }
}

#[allow(dead_code)]
fn value(src: &str) -> Value {
    let prog = cute::parser::parse(src).expect("parse");
    let mut env = Env(HashMap::new());
    let mut last = None;
    for s in &prog.stmts {
        match &s.kind {
            StmtKind::Expr(e) => last = Some(env.eval(e).expect(src)),
            StmtKind::Bind { name, value, .. } => {
                let v = env.eval(value).expect(src);
                env.0.insert(name.clone(), v);
            }
            _ => panic!("unsupported statement"),
        }
    }
    last.expect("a value")
}

// ------------------------------------------------------------------------------------------
// Golden records
// ------------------------------------------------------------------------------------------

struct Record {
    expr: String,
    cute: Option<String>,
}

/// Minimal JSONL reader for the golden files (string fields only).
fn read_golden(file: &str) -> Vec<Record> {
    let path = format!("{}/tests/conformance/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("golden file");
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| Record { expr: field(l, "expr").unwrap_or_default(), cute: field(l, "cute") }).collect()
}

fn field(line: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\": \"");
    let start = line.find(&pat)? + pat.len();
    let mut out = String::new();
    let mut chars = line[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
    None
}

/// Records of the general golden files that exercise this module.
fn is_atoms_record(expr: &str) -> bool {
    const KEYS: &[&str] = &[
        "mma_", "SM", "UniversalFMA", "make_tiled", "partition_", "thrfrg_", "_TV", "tile_shape", "tile_size", "copy", "retile",
        "tidfrg", "tiler_mn", "tiled_layout", "val_layout", "get_thr_layout",
    ];
    KEYS.iter().any(|k| expr.contains(k))
}

fn check(records: &[Record]) -> (usize, Vec<String>) {
    let mut ok = 0;
    let mut bad = Vec::new();
    for r in records {
        let got = Env::run(&r.expr);
        match (&r.cute, &got) {
            (Some(want), Ok(g)) if want == g => ok += 1,
            (None, Err(_)) => ok += 1,
            (want, got) => bad.push(format!("{}\n   want: {:?}\n   got:  {:?}", r.expr, want, got)),
        }
    }
    (ok, bad)
}

#[test]
fn golden_atoms_all_records() {
    let recs = read_golden("golden_atoms.jsonl");
    let (ok, bad) = check(&recs);
    println!("golden_atoms: {ok}/{} records identical", recs.len());
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn golden_mma_records_of_other_files() {
    let mut recs = read_golden("golden.jsonl");
    recs.extend(read_golden("golden_extra.jsonl"));
    let recs: Vec<Record> = recs.into_iter().filter(|r| is_atoms_record(&r.expr)).collect();
    let (ok, bad) = check(&recs);
    println!("golden/golden_extra atoms records: {ok}/{} identical", recs.len());
    assert!(bad.is_empty(), "{} mismatches:\n{}", bad.len(), bad.join("\n"));
}
