//! Test-only: a tiny evaluator for the golden notation (until the real parser and interpreter
//! land), and the check of every golden record that uses only this engineer's functions.

use crate::eval::builtins::{self, TArg};
use crate::eval::error::{EvalError, R};
use crate::eval::int::Int;
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::Layout;
use crate::eval::value::Value;
use std::collections::HashMap;

struct P<'a> {
    s: &'a [u8],
    i: usize,
    env: &'a mut HashMap<String, Value>,
}

fn perr<T>(m: &str) -> R<T> {
    Err(EvalError::type_err(format!("test parser: {m}")))
}

impl<'a> P<'a> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i] == b' ' {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> u8 {
        self.ws();
        *self.s.get(self.i).unwrap_or(&0)
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == c {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn ident(&mut self) -> String {
        self.ws();
        let st = self.i;
        while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_') {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.s[st..self.i]).into_owned()
    }
    fn num(&mut self) -> R<i64> {
        self.ws();
        let st = self.i;
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[st..self.i]).ok().and_then(|x| x.parse().ok()).map_or_else(|| perr("number"), Ok)
    }
    fn stmt(&mut self) -> R<Option<Value>> {
        let save = self.i;
        let id = self.ident();
        if !id.is_empty() && self.peek() == b'=' {
            self.i += 1;
            let v = self.expr()?;
            self.env.insert(id, v);
            return Ok(None);
        }
        self.i = save;
        Ok(Some(self.expr()?))
    }
    fn expr(&mut self) -> R<Value> {
        let a = self.postfix()?;
        if self.eat(b':') {
            let b = self.postfix()?;
            return match (a, b) {
                (Value::Tuple(s), Value::Tuple(d)) => Ok(Value::Layout(Layout::new(s, d))),
                _ => perr("layout parts"),
            };
        }
        Ok(a)
    }
    fn args(&mut self, close: u8) -> R<Vec<Value>> {
        let mut v = Vec::new();
        if self.eat(close) {
            return Ok(v);
        }
        loop {
            v.push(self.expr()?);
            if self.eat(close) {
                return Ok(v);
            }
            if !self.eat(b',') {
                return perr("expected ,");
            }
        }
    }
    fn postfix(&mut self) -> R<Value> {
        let (mut v, callable) = self.primary()?;
        while callable && self.peek() == b'(' {
            self.i += 1;
            let mut args = vec![v];
            args.extend(self.args(b')')?);
            v = builtins::call("__apply", &[], &args)?;
        }
        Ok(v)
    }
    fn primary(&mut self) -> R<(Value, bool)> {
        match self.peek() {
            b'(' => {
                self.i += 1;
                let v = self.args(b')')?;
                if v.len() == 1 {
                    let single = matches!(&v[0], Value::Tuple(_));
                    if !single {
                        return Ok((v.into_iter().next().unwrap_or(Value::Text(String::new())), true));
                    }
                }
                Ok((Value::tuple(v), false))
            }
            b'<' => {
                self.i += 1;
                Ok((Value::Tile(self.args(b'>')?), false))
            }
            b'_' => {
                self.i += 1;
                let c = *self.s.get(self.i).unwrap_or(&0);
                if c.is_ascii_digit() || c == b'-' {
                    Ok((Value::Tuple(IntTuple::I(Int::new(self.num()?, true))), false))
                } else {
                    Ok((Value::Tuple(IntTuple::Under), false))
                }
            }
            c if c.is_ascii_digit() || c == b'-' => {
                Ok((Value::Tuple(IntTuple::I(Int::new(self.num()?, false))), false))
            }
            _ => {
                let id = self.ident();
                if id.is_empty() {
                    return perr("unexpected character");
                }
                if let Some(v) = self.env.get(&id) {
                    return Ok((v.clone(), true));
                }
                let mut targs = Vec::new();
                if self.peek() == b'<' {
                    self.i += 1;
                    loop {
                        let c = self.peek();
                        if c.is_ascii_digit() || c == b'-' {
                            targs.push(TArg::Int(self.num()?));
                        } else {
                            targs.push(TArg::Name(self.ident()));
                        }
                        if self.eat(b'>') {
                            break;
                        }
                        if !self.eat(b',') {
                            return perr("targs");
                        }
                    }
                }
                if self.eat(b'(') {
                    let args = self.args(b')')?;
                    return Ok((builtins::call(&id, &targs, &args)?, true));
                }
                Ok((Value::Tag(id), false))
            }
        }
    }
}

/// Evaluate `s1; s2; ...` and return the last statement's value as CuTe would print it.
pub(crate) fn eval(src: &str) -> R<String> {
    let mut env = HashMap::new();
    let mut last = None;
    for part in src.split(';') {
        let mut p = P { s: part.as_bytes(), i: 0, env: &mut env };
        let v = p.stmt()?;
        if p.peek() != 0 {
            return perr("trailing input");
        }
        if v.is_some() {
            last = v;
        }
    }
    match last {
        Some(v) => Ok(v.to_string()),
        None => perr("no value"),
    }
}

pub(crate) use crate::jsonl::field;

/// Check every record of a JSONL file whose functions are all registered here and that has no
/// `o`/swizzle/print; returns (matched, failures).
pub(crate) fn check_file(path: &str, only_mine: bool) -> (usize, Vec<String>) {
    let Ok(text) = std::fs::read_to_string(path) else { return (0, vec![format!("cannot read {path}")]) };
    let mine: Vec<&str> = [super::BUILTINS, crate::eval::ops::structure::BUILTINS, crate::eval::ops::tuple::BUILTINS]
        .iter()
        .flat_map(|t| t.iter().map(|b| b.name))
        .collect();
    let (mut ok, mut bad) = (0, Vec::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Some(expr) = field(line, "expr") else { continue };
        if only_mine {
            if expr.contains(" o ") || expr.contains("Sw<") || expr.contains("print_") {
                continue;
            }
            // every called name must be ours or a bound name
            let b = expr.as_bytes();
            let mut k = 0;
            let mut foreign = false;
            while k < b.len() {
                if b[k].is_ascii_alphabetic() && (k == 0 || !(b[k - 1].is_ascii_alphanumeric() || b[k - 1] == b'_')) {
                    let st = k;
                    while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_') {
                        k += 1;
                    }
                    let name = &expr[st..k];
                    let next = expr[k..].trim_start().bytes().next();
                    let bound = expr.contains(&format!("{name} =")) || expr.contains(&format!("{name}="));
                    if (next == Some(b'(') || next == Some(b'<')) && !bound && !mine.contains(&name) {
                        foreign = true;
                    }
                } else {
                    k += 1;
                }
            }
            if foreign {
                continue;
            }
        }
        let want = if line.contains("\"error\": ") { None } else { field(line, "cute") };
        let got = eval(&expr);
        match (&want, &got) {
            (Some(w), Ok(g)) if w == g => ok += 1,
            (None, Err(e)) if !e.is_no_match() && !e.rule.contains("test parser") => ok += 1,
            _ => bad.push(format!("{expr}\n    want {want:?}\n    got  {:?}", got.map_err(|e| e.to_string()))),
        }
    }
    (ok, bad)
}

#[test]
fn golden_records_of_coord_structure_tuple() {
    let mut total = 0;
    let mut all_bad = Vec::new();
    for f in ["golden.jsonl", "golden_extra.jsonl"] {
        let path = format!("{}/tests/conformance/{f}", env!("CARGO_MANIFEST_DIR"));
        let (ok, bad) = check_file(&path, true);
        total += ok;
        all_bad.extend(bad);
    }
    if !all_bad.is_empty() {
        panic!("{} matched, {} failed:\n{}", total, all_bad.len(), all_bad.join("\n"));
    }
    eprintln!("golden records matched: {total}");
}

#[test]
fn builtin_examples_of_coord_structure_tuple() {
    let mut bad = Vec::new();
    for t in [super::BUILTINS, crate::eval::ops::structure::BUILTINS, crate::eval::ops::tuple::BUILTINS] {
        for b in t.iter() {
            match eval(b.example) {
                Ok(g) if g == b.result => {}
                r => bad.push(format!(
                    "{}: {} -> {:?}, want {}",
                    b.name,
                    b.example,
                    r.map_err(|e| e.to_string()),
                    b.result
                )),
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Differential-testing helper: `CUTE_CASES=file cargo test --lib eval_cases_file -- --ignored`
/// writes `file.mine` (one JSON line per case, like the oracle's output).
#[test]
#[ignore]
fn eval_cases_file() {
    let Ok(path) = std::env::var("CUTE_CASES") else { return };
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let mut out = String::new();
    for line in text.lines() {
        let e = line.trim();
        if e.is_empty() || e.starts_with('#') {
            continue;
        }
        let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
        match eval(e) {
            Ok(v) => out.push_str(&format!("{{\"expr\": \"{}\", \"cute\": \"{}\"}}\n", esc(e), esc(&v))),
            Err(err) => out.push_str(&format!(
                "{{\"expr\": \"{}\", \"error\": \"mine\", \"detail\": \"{}\"}}\n",
                esc(e),
                esc(&err.to_string())
            )),
        }
    }
    let _ = std::fs::write(format!("{path}.mine"), out);
}

/// Regression: cases answered by the real CuTe through the oracle during differential testing
/// (random expressions over the tuple/structure/coordinate functions, and edge cases).
#[test]
fn oracle_cases_of_coord_structure_tuple() {
    let path = format!("{}/src/eval/ops/coord/oracle_cases.jsonl", env!("CARGO_MANIFEST_DIR"));
    let (ok, bad) = check_file(&path, false);
    assert!(bad.is_empty(), "{ok} matched, {} failed:\n{}", bad.len(), bad.join("\n"));
    assert!(ok > 1000);
}
