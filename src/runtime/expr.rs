//! Integer index expressions: the form in which layouts reach the generated kernel.
//!
//! A layout lowered for the kernel is an `Expr` over named variables with known ranges (`tid` in
//! `[0,256)`, `lane` in `[0,32)`, ...). Constructors fold constants and use the ranges to drop
//! `% n` and `/ n` that cannot change the value, so the emitted C is short and what the REPL
//! shows is what the kernel computes. `eval` interprets the tree on the host with C semantics
//! (truncating division, 64-bit), which is how the tests check every emitted expression against
//! the layout algebra. May import: nothing outside this module's std.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Xor,
    And,
    Shr,
    Shl,
}

impl Op {
    fn sym(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::Rem => "%",
            Op::Xor => "^",
            Op::And => "&",
            Op::Shr => ">>",
            Op::Shl => "<<",
        }
    }
    /// C precedence (higher binds tighter).
    fn prec(self) -> u8 {
        match self {
            Op::Mul | Op::Div | Op::Rem => 5,
            Op::Add | Op::Sub => 4,
            Op::Shr | Op::Shl => 3,
            Op::And => 2,
            Op::Xor => 1,
        }
    }
    fn assoc(self) -> bool {
        matches!(self, Op::Add | Op::Mul | Op::Xor | Op::And)
    }
    /// C semantics on i64 (wrapping is impossible for the ranges we generate; checked anyway).
    pub fn apply(self, a: i64, b: i64) -> Option<i64> {
        match self {
            Op::Add => a.checked_add(b),
            Op::Sub => a.checked_sub(b),
            Op::Mul => a.checked_mul(b),
            Op::Div => a.checked_div(b),
            Op::Rem => a.checked_rem(b),
            Op::Xor => Some(a ^ b),
            Op::And => Some(a & b),
            Op::Shr => (0..64).contains(&b).then(|| a >> b),
            Op::Shl => (0..64).contains(&b).then(|| a.checked_shl(b as u32)).flatten(),
        }
    }
}

/// An integer expression. Variables carry their range `[lo, hi)` (hi exclusive).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    Lit(i64),
    Var { name: String, lo: i64, hi: i64 },
    Bin(Op, Box<Expr>, Box<Expr>),
}

/// A variable `name` with values in `[lo, hi)`.
pub fn var(name: &str, lo: i64, hi: i64) -> Expr {
    if hi - lo == 1 {
        return Expr::Lit(lo);
    }
    Expr::Var { name: name.to_string(), lo, hi }
}

pub fn lit(v: i64) -> Expr {
    Expr::Lit(v)
}

impl Expr {
    pub fn as_lit(&self) -> Option<i64> {
        match self {
            Expr::Lit(v) => Some(*v),
            _ => None,
        }
    }

    /// Inclusive value range `[lo, hi]`, or None when unknown (e.g. could overflow).
    pub fn range(&self) -> Option<(i64, i64)> {
        match self {
            Expr::Lit(v) => Some((*v, *v)),
            Expr::Var { lo, hi, .. } => Some((*lo, hi - 1)),
            Expr::Bin(op, a, b) => {
                let (al, ah) = a.range()?;
                let (bl, bh) = b.range()?;
                match op {
                    Op::Add => Some((al.checked_add(bl)?, ah.checked_add(bh)?)),
                    Op::Sub => Some((al.checked_sub(bh)?, ah.checked_sub(bl)?)),
                    Op::Mul => {
                        let c = [al.checked_mul(bl)?, al.checked_mul(bh)?, ah.checked_mul(bl)?, ah.checked_mul(bh)?];
                        Some((*c.iter().min()?, *c.iter().max()?))
                    }
                    Op::Div if bl > 0 && al >= 0 => Some((al / bh, ah / bl)),
                    Op::Rem if bl > 0 && al >= 0 => Some((0, ah.min(bh - 1))),
                    Op::Shr if al >= 0 && bl >= 0 && bh < 63 => Some((al >> bh, ah >> bl)),
                    Op::Shl if al >= 0 && bl >= 0 && bh < 62 => Some((al << bl, ah.checked_shl(bh as u32)?)),
                    Op::And if al >= 0 && bl >= 0 => Some((0, ah.min(bh))),
                    Op::Xor if al >= 0 && bl >= 0 => {
                        let m = ah.max(bh);
                        let p = if m == 0 { 0 } else { (1i64 << (64 - m.leading_zeros())) - 1 };
                        Some((0, p))
                    }
                    _ => None,
                }
            }
        }
    }

    fn nonneg_below(&self, n: i64) -> bool {
        matches!(self.range(), Some((lo, hi)) if lo >= 0 && hi < n)
    }

    /// This sum with one term equal to `t` removed (`0` if it was the only term); None when no
    /// term of its `+` chain equals `t`.
    fn without_term(&self, t: &Expr) -> Option<Expr> {
        if self == t {
            return Some(Expr::Lit(0));
        }
        match self {
            Expr::Bin(Op::Add, l, r) => {
                if **r == *t {
                    Some((**l).clone())
                } else {
                    l.without_term(t).map(|l2| bin(Op::Add, l2, (**r).clone()))
                }
            }
            _ => None,
        }
    }

    /// Evaluate with C semantics; `env` gives each variable's value.
    pub fn eval(&self, env: &dyn Fn(&str) -> i64) -> Option<i64> {
        match self {
            Expr::Lit(v) => Some(*v),
            Expr::Var { name, .. } => Some(env(name)),
            Expr::Bin(op, a, b) => op.apply(a.eval(env)?, b.eval(env)?),
        }
    }

    /// This expression in postfix over the variables `names` (by position), for evaluating it at
    /// many points: the shared-memory check evaluates it at every element of a tile, and a walk
    /// over boxes comparing names cost most of an `emit gemm`. None if it uses another variable.
    pub fn compile(&self, names: &[&str]) -> Option<Compiled> {
        fn go(e: &Expr, names: &[&str], code: &mut Vec<Step>) -> Option<()> {
            match e {
                Expr::Lit(v) => code.push(Step::Lit(*v)),
                Expr::Var { name, .. } => code.push(Step::Var(names.iter().position(|n| n == name)?)),
                Expr::Bin(op, a, b) => {
                    go(a, names, code)?;
                    go(b, names, code)?;
                    code.push(Step::Op(*op));
                }
            }
            Some(())
        }
        let mut code = Vec::new();
        go(self, names, &mut code)?;
        Some(Compiled { code })
    }

    /// Names of the variables used, in first-use order.
    pub fn vars(&self) -> Vec<(String, i64, i64)> {
        let mut out: Vec<(String, i64, i64)> = Vec::new();
        fn go(e: &Expr, out: &mut Vec<(String, i64, i64)>) {
            match e {
                Expr::Lit(_) => {}
                Expr::Var { name, lo, hi } => {
                    if !out.iter().any(|(n, _, _)| n == name) {
                        out.push((name.clone(), *lo, *hi));
                    }
                }
                Expr::Bin(_, a, b) => {
                    go(a, out);
                    go(b, out);
                }
            }
        }
        go(self, &mut out);
        out
    }

    /// Replace variable `name` by `by` (re-folding on the way up).
    pub fn subst(&self, name: &str, by: &Expr) -> Expr {
        match self {
            Expr::Var { name: n, .. } if n == name => by.clone(),
            Expr::Lit(_) | Expr::Var { .. } => self.clone(),
            Expr::Bin(op, a, b) => bin(*op, a.subst(name, by), b.subst(name, by)),
        }
    }

    /// C source; `wide` casts every variable to `long long` (64-bit arithmetic throughout).
    pub fn to_c(&self, wide: bool) -> String {
        let mut s = String::new();
        self.write_c(&mut s, wide);
        s
    }

    fn write_c(&self, s: &mut String, wide: bool) {
        match self {
            Expr::Lit(v) => {
                if *v < 0 {
                    s.push_str(&format!("({v})"));
                } else {
                    s.push_str(&v.to_string());
                }
            }
            Expr::Var { name, .. } => {
                if wide {
                    s.push_str(&format!("(long long){name}"));
                } else {
                    s.push_str(name)
                }
            }
            Expr::Bin(op, a, b) => {
                let p = op.prec();
                // Bitwise operands are parenthesised unless they use the same operator, for the reader.
                let wrap = |e: &Expr, right: bool| match e {
                    Expr::Bin(o2, _, _) => {
                        o2.prec() < p
                            || (right && o2.prec() == p && !(op.assoc() && *o2 == *op))
                            || (p <= 3 && *o2 != *op)
                    }
                    _ => false,
                };
                let (wa, wb) = (wrap(a, false), wrap(b, true));
                if wa {
                    s.push('(');
                }
                a.write_c(s, wide);
                if wa {
                    s.push(')');
                }
                s.push_str(&format!(" {} ", op.sym()));
                if wb {
                    s.push('(');
                }
                b.write_c(s, wide);
                if wb {
                    s.push(')');
                }
            }
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_c(false))
    }
}

/// Build `a op b`, folding what is certain (constants, identities, range facts).
pub fn bin(op: Op, a: Expr, b: Expr) -> Expr {
    if let (Some(x), Some(y)) = (a.as_lit(), b.as_lit()) {
        if let Some(v) = op.apply(x, y) {
            return Expr::Lit(v);
        }
    }
    let al = a.as_lit();
    let bl = b.as_lit();
    match op {
        Op::Add => {
            if al == Some(0) {
                return b;
            }
            if bl == Some(0) {
                return a;
            }
            // (x + c1) + c2 -> x + (c1 + c2)
            if let (Some(c2), Expr::Bin(Op::Add, x, c1)) = (bl, &a) {
                if let Some(c1) = c1.as_lit() {
                    if let Some(c) = c1.checked_add(c2) {
                        return bin(Op::Add, (**x).clone(), Expr::Lit(c));
                    }
                }
            }
            // c + x -> x + c (constants last)
            if al.is_some() {
                return bin(Op::Add, b, a);
            }
            // (... + x % c + ...) + x / c * c -> (... + ...) + x for x >= 0
            if let Expr::Bin(Op::Mul, q, c) = &b {
                if let (Expr::Bin(Op::Div, x, c2), Some(cv)) = (&**q, c.as_lit()) {
                    if c2.as_lit() == Some(cv) && cv > 0 && x.range().is_some_and(|(lo, _)| lo >= 0) {
                        let rem_term = Expr::Bin(Op::Rem, x.clone(), c.clone());
                        if let Some(rest) = a.without_term(&rem_term) {
                            return bin(Op::Add, rest, (**x).clone());
                        }
                    }
                }
            }
        }
        Op::Sub => {
            if bl == Some(0) {
                return a;
            }
        }
        Op::Mul => {
            if al == Some(0) || bl == Some(0) {
                return Expr::Lit(0);
            }
            if al == Some(1) {
                return b;
            }
            if bl == Some(1) {
                return a;
            }
            if al.is_some() {
                return bin(Op::Mul, b, a);
            }
            // (x * c1) * c2 -> x * (c1*c2)
            if let (Some(c2), Expr::Bin(Op::Mul, x, c1)) = (bl, &a) {
                if let Some(c1) = c1.as_lit() {
                    if let Some(c) = c1.checked_mul(c2) {
                        return bin(Op::Mul, (**x).clone(), Expr::Lit(c));
                    }
                }
            }
        }
        Op::Div => {
            if bl == Some(1) {
                return a;
            }
            if let Some(d) = bl {
                if d > 0 {
                    if a.nonneg_below(d) {
                        return Expr::Lit(0);
                    }
                    // (x * c) / d with d | c -> x * (c/d)
                    if let Expr::Bin(Op::Mul, x, c) = &a {
                        if let Some(c) = c.as_lit() {
                            if c % d == 0 {
                                return bin(Op::Mul, (**x).clone(), Expr::Lit(c / d));
                            }
                        }
                    }
                    // (x / c) / d -> x / (c*d) for x >= 0
                    if let Expr::Bin(Op::Div, x, c) = &a {
                        if let (Some(c), Some((lo, _))) = (c.as_lit(), x.range()) {
                            if c > 0 && lo >= 0 {
                                if let Some(cd) = c.checked_mul(d) {
                                    return bin(Op::Div, (**x).clone(), Expr::Lit(cd));
                                }
                            }
                        }
                    }
                }
            }
        }
        Op::Rem => {
            if bl == Some(1) {
                return Expr::Lit(0);
            }
            if let Some(d) = bl {
                if d > 0 {
                    if a.nonneg_below(d) {
                        return a;
                    }
                    // (x * c) % d with d | c -> 0
                    if let Expr::Bin(Op::Mul, _, c) = &a {
                        if let Some(c) = c.as_lit() {
                            if c % d == 0 {
                                return Expr::Lit(0);
                            }
                        }
                    }
                    // (x % c) % d with d | c -> x % d
                    if let Expr::Bin(Op::Rem, x, c) = &a {
                        if let (Some(c), Some((lo, _))) = (c.as_lit(), x.range()) {
                            if c > 0 && c % d == 0 && lo >= 0 {
                                return bin(Op::Rem, (**x).clone(), Expr::Lit(d));
                            }
                        }
                    }
                }
            }
        }
        Op::Xor => {
            if al == Some(0) {
                return b;
            }
            if bl == Some(0) {
                return a;
            }
        }
        Op::And => {
            if al == Some(0) || bl == Some(0) {
                return Expr::Lit(0);
            }
            // x & m where x in [0, m] and m = 2^k - 1
            if let (Some(m), Some((lo, hi))) = (bl, a.range()) {
                if m >= 0 && (m & (m + 1)) == 0 && lo >= 0 && hi <= m {
                    return a;
                }
            }
        }
        Op::Shr | Op::Shl => {
            if bl == Some(0) {
                return a;
            }
            if op == Op::Shr {
                if let (Some(s), Some((lo, hi))) = (bl, a.range()) {
                    if (0..63).contains(&s) && lo >= 0 && hi < (1i64 << s) {
                        return Expr::Lit(0);
                    }
                }
            }
        }
    }
    Expr::Bin(op, Box::new(a), Box::new(b))
}

pub fn add(a: Expr, b: Expr) -> Expr {
    bin(Op::Add, a, b)
}
pub fn mul(a: Expr, b: Expr) -> Expr {
    bin(Op::Mul, a, b)
}
pub fn div(a: Expr, b: Expr) -> Expr {
    bin(Op::Div, a, b)
}
pub fn rem(a: Expr, b: Expr) -> Expr {
    bin(Op::Rem, a, b)
}
pub fn xor(a: Expr, b: Expr) -> Expr {
    bin(Op::Xor, a, b)
}

/// An `Expr` compiled by `Expr::compile`: postfix steps over numbered variables.
#[derive(Clone, Debug)]
pub struct Compiled {
    code: Vec<Step>,
}

#[derive(Clone, Copy, Debug)]
enum Step {
    Lit(i64),
    Var(usize),
    Op(Op),
}

impl Compiled {
    /// The value at `vals` (in the order of the names given to `compile`), as `Expr::eval`
    /// gives it; `stack` is scratch space kept between calls.
    pub fn eval(&self, vals: &[i64], stack: &mut Vec<i64>) -> Option<i64> {
        stack.clear();
        for step in &self.code {
            let v = match *step {
                Step::Lit(v) => v,
                Step::Var(i) => *vals.get(i)?,
                Step::Op(op) => {
                    let b = stack.pop()?;
                    let a = stack.pop()?;
                    op.apply(a, b)?
                }
            };
            stack.push(v);
        }
        match stack.as_slice() {
            [v] => Some(*v),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiled_evaluates_as_the_tree_does() {
        let (t, u) = (var("t", 0, 64), var("u", 0, 8));
        let sw = xor(add(mul(t.clone(), lit(8)), u.clone()), bin(Op::Shr, bin(Op::And, t.clone(), lit(56)), lit(3)));
        let e = add(sw, div(bin(Op::Sub, u.clone(), lit(9)), rem(t.clone(), lit(5))));
        let c = e.compile(&["t", "u"]).expect("both variables named");
        let mut stack = Vec::new();
        for tv in 0..64 {
            for uv in 0..8 {
                // t % 5 == 0 divides by zero: None from both
                let want = e.eval(&|n| if n == "t" { tv } else { uv });
                assert_eq!(c.eval(&[tv, uv], &mut stack), want, "t={tv} u={uv}");
            }
        }
        assert!(e.compile(&["t"]).is_none(), "u is not named");
        assert_eq!(lit(7).compile(&[]).and_then(|c| c.eval(&[], &mut stack)), Some(7));
    }

    #[test]
    fn folds_and_prints() {
        let t = var("tid", 0, 256);
        assert_eq!(rem(t.clone(), lit(256)).to_c(false), "tid");
        assert_eq!(div(t.clone(), lit(256)).to_c(false), "0");
        let e = add(mul(rem(t.clone(), lit(4)), lit(8)), mul(div(t.clone(), lit(4)), lit(32)));
        assert_eq!(e.to_c(false), "tid % 4 * 8 + tid / 4 * 32");
        let x = xor(e.clone(), lit(16));
        assert_eq!(x.to_c(false), "(tid % 4 * 8 + tid / 4 * 32) ^ 16");
        assert_eq!(x.eval(&|_| 5), Some((8 + 32) ^ 16));
        assert_eq!(div(div(t.clone(), lit(4)), lit(8)).to_c(false), "tid / 32");
        assert_eq!(mul(add(t.clone(), lit(3)), lit(2)).to_c(false), "(tid + 3) * 2");
        // x % c + y + x / c * c = y + x
        let w = var("w", 0, 4);
        let e = add(add(rem(t.clone(), lit(8)), mul(w, lit(64))), mul(div(t.clone(), lit(8)), lit(8)));
        assert_eq!(e.to_c(false), "w * 64 + tid");
        for v in [0, 7, 8, 100, 255] {
            assert_eq!(e.eval(&|n| if n == "tid" { v } else { 3 }), Some(v % 8 + 192 + v / 8 * 8));
        }
    }
}
