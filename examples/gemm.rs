//! Driver for the GEMM runtime without the interpreter (early GPU runs, benchmarks).
//!
//! Usage: `gemm 'run 8192 8192 8192 dtype=bf16 tile=<128,256,32>' 'emit 257 129 65' ...`
//! Each argument is one statement: `run|emit M N K key=value ...`. Values use the `.cute`
//! notation for integers, tuples, layouts `S:D`, tilers `<a,b,c>`, `Sw<B,M,S> o L` and bare
//! names (tags). Prints each result; exits 1 if any statement failed.

use cute::eval::int::Int;
use cute::eval::int_tuple::IntTuple;
use cute::eval::layout::{Composed, Func, Layout, Swizzle};
use cute::eval::value::Value;
use cute::runtime::{gemm_statement, GemmOpt};

struct P<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn ws(&mut self) {
        while self.peek() == Some(b' ') {
            self.i += 1;
        }
    }
    fn int(&mut self) -> Result<Int, String> {
        self.ws();
        let st = self.eat(b'_');
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let t = std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?;
        t.parse::<i64>().map(|v| Int::new(v, st)).map_err(|_| format!("bad integer at {}", start))
    }
    fn tuple(&mut self) -> Result<IntTuple, String> {
        if self.eat(b'(') {
            let mut v = Vec::new();
            if !self.eat(b')') {
                loop {
                    v.push(self.tuple()?);
                    if self.eat(b')') {
                        break;
                    }
                    if !self.eat(b',') {
                        return Err("expected , or )".into());
                    }
                }
            }
            Ok(IntTuple::T(v))
        } else {
            Ok(IntTuple::I(self.int()?))
        }
    }
    fn layout_or_tuple(&mut self) -> Result<Value, String> {
        let t = self.tuple()?;
        if self.eat(b':') {
            let d = self.tuple()?;
            Ok(Value::Layout(Layout::new(t, d)))
        } else {
            Ok(Value::Tuple(t))
        }
    }
    fn value(&mut self) -> Result<Value, String> {
        self.ws();
        let rest = &self.s[self.i..];
        if rest.starts_with(b"Sw<") {
            self.i += 3;
            let b = self.int()?.v as i32;
            self.eat(b',');
            let m = self.int()?.v as i32;
            self.eat(b',');
            let s = self.int()?.v as i32;
            if !self.eat(b'>') {
                return Err("expected >".into());
            }
            let sw = Swizzle { b, m, s };
            self.ws();
            if self.s[self.i..].starts_with(b"o ") {
                self.i += 2;
                let mut inner = self.layout_or_tuple()?;
                let mut offset = Int::new(0, true);
                // optional offset: `Sw o _0 o L`
                if let Value::Tuple(IntTuple::I(off)) = &inner {
                    self.ws();
                    if self.s[self.i..].starts_with(b"o ") {
                        self.i += 2;
                        offset = *off;
                        inner = self.layout_or_tuple()?;
                    }
                }
                let Value::Layout(l) = inner else { return Err("expected a layout after `o`".into()) };
                return Ok(Value::Composed(Box::new(Composed {
                    outer: Func::Swizzle(sw),
                    offset,
                    inner: Func::Layout(l),
                    mixed: None,
                })));
            }
            return Ok(Value::Swizzle(sw));
        }
        if self.eat(b'<') {
            let mut v = Vec::new();
            loop {
                v.push(self.layout_or_tuple()?);
                if self.eat(b'>') {
                    break;
                }
                if !self.eat(b',') {
                    return Err("expected , or >".into());
                }
            }
            return Ok(Value::tuple(v));
        }
        if self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            let start = self.i;
            while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
                self.i += 1;
            }
            return Ok(Value::Tag(String::from_utf8_lossy(&self.s[start..self.i]).into_owned()));
        }
        self.layout_or_tuple()
    }
}

fn parse_value(s: &str) -> Result<Value, String> {
    let mut p = P { s: s.as_bytes(), i: 0 };
    let v = p.value()?;
    p.ws();
    if p.i != s.len() {
        return Err(format!("unexpected text `{}`", &s[p.i..]));
    }
    Ok(v)
}

fn statement(line: &str) -> Result<String, String> {
    let mut words = Vec::new();
    // split on spaces outside brackets and after `o`
    let mut depth = 0i32;
    let mut cur = String::new();
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '(' | '<' => depth += 1,
            ')' | '>' => depth -= 1,
            _ => {}
        }
        if c == ' ' && depth == 0 {
            // keep `A o B` together
            let next_o = chars.get(i + 1) == Some(&'o') && chars.get(i + 2) == Some(&' ');
            let prev_o = cur.ends_with(" o");
            if next_o || prev_o {
                cur.push(c);
            } else if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(c);
        }
        i += 1;
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    if words.len() < 4 {
        return Err("expected `run|emit M N K key=value ...`".into());
    }
    let emit = match words[0].as_str() {
        "run" => false,
        "emit" => true,
        w => return Err(format!("expected run or emit, got {w}")),
    };
    let dims: Vec<i64> =
        words[1..4].iter().map(|w| w.parse::<i64>().map_err(|_| format!("bad size {w}"))).collect::<Result<_, _>>()?;
    let mut opts = Vec::new();
    for w in &words[4..] {
        let (k, v) = w.split_once('=').ok_or_else(|| format!("expected key=value, got {w}"))?;
        opts.push(GemmOpt { key: k.to_string(), value: parse_value(v)? });
    }
    gemm_statement(emit, dims[0], dims[1], dims[2], &opts).map_err(|e| e.to_string())
}

fn main() {
    let mut failed = false;
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("usage: gemm 'run|emit M N K key=value ...' ...");
        std::process::exit(2);
    }
    for a in args {
        eprintln!("> {a}");
        match statement(&a) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                println!("error: {e}");
                failed = true;
            }
        }
    }
    std::process::exit(if failed { 1 } else { 0 });
}
