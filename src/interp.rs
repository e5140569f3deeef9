//! The interpreter: walks a parsed `Program` over an environment (name → value), calls the
//! built-ins of the registry, and stamps source spans on the algebra's span-free errors.
//!
//! It never prints: each statement returns what it produced (`Produced`) or why it failed
//! (`Failure`); `session` writes values and diagnostics.
//! `run gemm`/`emit gemm` it only evaluates (their arguments); the session runs them.
//! May import: `registry`, `eval` (values, errors, atoms' names), `parser` (the AST and its
//! nesting limit). Never `runtime`, `render`, the session, the REPL or a terminal.
// A failure carries both values of a failed assert: large, and rare.
#![allow(clippy::result_large_err)]

use crate::eval::builtins::{FnvMap, TArg};
use crate::eval::error::{ErrorKind, EvalError};
use crate::eval::explain;
use crate::eval::int::Int;
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::layout::{Composed, Func, Layout};
use crate::eval::ops::compare::equal_ignoring_static;
use crate::eval::printed;
use crate::eval::value::Value;
use crate::parser::ast::{BinOp, Call, Expr, ExprKind, GemmArg, Span, Stmt, StmtKind};
use crate::registry as builtins;
use smallvec::SmallVec;
use std::borrow::Cow;

/// An evaluation error located in the source: the algebra's error plus the span to underline.
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    pub error: EvalError,
    pub span: Span,
    /// A hint shown under the error (`did you mean 'size'?`); boxed, as the note.
    pub help: Option<Box<str>>,
    /// A note shown under the error (`note: with static integers CuTe gives ...`); boxed to
    /// keep the error small (it travels in every `Result`).
    pub note: Option<Box<str>>,
}

impl Located {
    pub fn new(error: EvalError, span: Span) -> Located {
        Located { error, span, help: None, note: None }
    }
}

/// A failed `assert`: the whole condition's span and each side's span and value.
#[derive(Clone, Debug, PartialEq)]
pub struct AssertFailure {
    /// Span of the condition (`a == b`, or `cond`).
    pub span: Span,
    pub lhs: (Span, Value),
    /// `Some` for `assert a == b` (and for `assert identical(a, b)`, `equivalent(a, b)`: the
    /// two arguments).
    pub rhs: Option<(Span, Value)>,
    /// Why, when more can be said (static-ness, the first index where two layouts differ).
    pub note: Option<String>,
}

/// Why a statement failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    Error(Located),
    /// (boxed, as a gemm call below: a statement's result is moved a few times, and without the
    /// two large variants it is copied without a call to `memcpy`)
    Assert(Box<AssertFailure>),
}

impl From<Located> for Failure {
    fn from(l: Located) -> Self {
        Failure::Error(l)
    }
}

/// What a statement produced.
#[derive(Clone, Debug, PartialEq)]
pub enum Produced {
    /// A binding: nothing to print.
    Nothing,
    /// An expression statement's value (printed with CuTe's format).
    Value(Value),
    /// An expression statement's value, left in [`Interp::last`] (from [`Interp::run`]: no copy).
    Last,
    /// Text that is the answer itself (`print_layout`, `emit gemm`): printed as is.
    Text(String),
    /// Text to be written to the file `path` (`svg(L, "f.svg")`); `span` is where the path was
    /// given (for an error when the file cannot be written).
    File { path: String, text: String, span: Span },
    /// An assert that held.
    AssertPassed,
    /// `run gemm`/`emit gemm` with its arguments evaluated: the session runs it.
    Gemm(Box<GemmCall>),
}

/// The evaluated arguments of a `run gemm`/`emit gemm` statement.
#[derive(Clone, Debug, PartialEq)]
pub struct GemmCall {
    /// `emit gemm` (print the CUDA source) rather than `run gemm`.
    pub emit: bool,
    /// M, N, K.
    pub dims: [i64; 3],
    /// `key=value` options in order.
    pub opts: Vec<(String, Value)>,
    /// The span of each argument (M, N, K, then each option) ...
    pub spans: Vec<Span>,
    /// ... and of the whole argument list, for errors about no argument in particular.
    pub whole: Span,
}

impl GemmCall {
    /// Where an error about argument `arg` (if any) points.
    pub fn span_of(&self, arg: Option<usize>) -> Span {
        arg.and_then(|i| self.spans.get(i).copied()).unwrap_or(self.whole)
    }
}

/// Bare names that stand for CuTe tags and types (`Value::Tag`) unless bound.
pub const TAG_NAMES: &[&str] = &[
    "LayoutLeft",
    "LayoutRight",
    "GenColMajor",
    "GenRowMajor",
    "K",
    "MN",
    "int8_t",
    "uint8_t",
    "int16_t",
    "uint16_t",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
    "float",
    "double",
    "bool",
    "half_t",
    "bfloat16_t",
    "tfloat32_t",
    "float_e4m3_t",
    "float_e5m2_t",
    "int4b_t",
    "uint4b_t",
    "uint1b_t",
    "uint128_t",
];

/// The name under which the last printed value is available (besides a lone `_` in the REPL).
pub const LAST_NAME: &str = "last";

/// The environment and the evaluation rules.
#[derive(Default)]
pub struct Interp {
    /// Bindings in the order they were first made (for `:vars`).
    vars: Vec<(String, Value)>,
    index: FnvMap<String, usize>,
    /// The value of the last expression statement (not text).
    last: Option<Value>,
    /// REPL mode: a statement that is exactly `_` shows the last value.
    pub repl: bool,
    /// Some stored value nests deeper than `SHALLOW_VALUE` (see `has_deep_values`).
    deep_values: bool,
    /// While statements run on trial: how to undo them (see [`Interp::begin_trial`]).
    trial: Option<Trial>,
    /// The registry's answer for the last function called: a script calls the same function
    /// line after line, and one comparison of names is cheaper than a look-up.
    last_fn: std::cell::Cell<Option<crate::eval::builtins::Slot>>,
}

/// What a trial changed, to restore it: the values of the bindings older than the trial that
/// it rebound (the first old value of each), the last value before it, the deep-values flag.
#[derive(Default)]
struct Trial {
    /// Bindings made before the trial.
    base_len: usize,
    /// Which of those bindings `old` holds (allocated at the first rebinding).
    saved: Vec<bool>,
    old: Vec<(usize, Value)>,
    last: Option<Option<Value>>,
    deep_values: bool,
}

/// Values nested at most this deep are processed comfortably on a default 8 MiB stack.
pub const SHALLOW_VALUE: usize = 32;

type E<T> = Result<T, Located>;

impl Interp {
    pub fn new() -> Interp {
        Interp::default()
    }

    /// The value bound to `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.index.get(name).and_then(|&i| self.vars.get(i)).map(|(_, v)| v)
    }

    /// Bind (or rebind) `name`.
    pub fn bind(&mut self, name: &str, v: Value) {
        match self.index.get(name) {
            Some(&i) if i < self.vars.len() => {
                let old = std::mem::replace(&mut self.vars[i].1, v);
                if let Some(t) = &mut self.trial {
                    if i < t.base_len {
                        if t.saved.is_empty() {
                            t.saved = vec![false; t.base_len];
                        }
                        if !t.saved[i] {
                            t.saved[i] = true;
                            t.old.push((i, old));
                        }
                    }
                }
            }
            _ => {
                self.index.insert(name.to_string(), self.vars.len());
                self.vars.push((name.to_string(), v));
            }
        }
    }

    /// All bindings, in the order they were first made.
    pub fn bindings(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.vars.iter().map(|(n, v)| (n.as_str(), v))
    }

    /// The value of the last expression statement.
    pub fn last(&self) -> Option<&Value> {
        self.last.as_ref()
    }

    /// Forget every binding and the last value.
    pub fn reset(&mut self) {
        self.vars.clear();
        self.index.clear();
        self.last = None;
        self.deep_values = false;
        self.trial = None;
    }

    /// Run the next statements on trial: [`Interp::rollback`] undoes them (bindings, the last
    /// value), [`Interp::commit`] keeps them. The session runs an input's statements as they are
    /// parsed, before it knows that the whole input parses.
    pub fn begin_trial(&mut self) {
        self.trial = Some(Trial { base_len: self.vars.len(), deep_values: self.deep_values, ..Trial::default() });
    }

    /// Keep what the statements since [`Interp::begin_trial`] did.
    pub fn commit(&mut self) {
        self.trial = None;
    }

    /// Undo what the statements since [`Interp::begin_trial`] did.
    pub fn rollback(&mut self) {
        let Some(t) = self.trial.take() else {
            return;
        };
        for (name, _) in self.vars.drain(t.base_len.min(self.vars.len())..) {
            self.index.remove(&name);
        }
        for (i, v) in t.old {
            self.vars[i].1 = v;
        }
        if let Some(last) = t.last {
            self.last = last;
        }
        self.deep_values = t.deep_values;
    }

    fn set_last(&mut self, v: Value) {
        let old = self.last.replace(v);
        match &mut self.trial {
            Some(t) if t.last.is_none() => t.last = Some(old),
            _ => {
                if let Some(old) = old {
                    old.dispose();
                }
            }
        }
    }

    /// True once a bound (or last) value nests deeper than [`SHALLOW_VALUE`] levels: the
    /// algebra recurses on the nesting, so statements should then run on a large stack.
    pub fn has_deep_values(&self) -> bool {
        self.deep_values
    }

    fn note_depth(&mut self, v: &Value) {
        if !self.deep_values && !within_depth(v, SHALLOW_VALUE) {
            self.deep_values = true;
        }
    }

    /// Execute one statement.
    pub fn exec(&mut self, stmt: &Stmt) -> Result<Produced, Failure> {
        match self.run(stmt)? {
            Produced::Last => Ok(self.last.clone().map_or(Produced::Nothing, Produced::Value)),
            p => Ok(p),
        }
    }

    /// Execute one statement, as [`Interp::exec`], but an expression's value stays in
    /// [`Interp::last`] ([`Produced::Last`]) instead of being copied out.
    pub fn run(&mut self, stmt: &Stmt) -> Result<Produced, Failure> {
        match &stmt.kind {
            StmtKind::Expr(e) => {
                // REPL: a statement that is exactly `_` is the last value.
                if self.repl && matches!(e.kind, ExprKind::Under) && self.last.is_some() {
                    return Ok(Produced::Last);
                }
                let (v, depth) = self.eval_measured(e)?;
                match v {
                    Value::Text(t) => Ok(Produced::Text(t)),
                    Value::File(o) => {
                        // The path is the call's last argument.
                        let span = match &e.kind {
                            ExprKind::Call(c) => c.args.last().map_or(e.span, |a| a.span),
                            _ => e.span,
                        };
                        let crate::eval::value::FileOut { path, text } = *o;
                        Ok(Produced::File { path, text, span })
                    }
                    // CuTe has no print for a bare MMA/copy operation type.
                    Value::Atom(a) if a.check_printable().is_err() => {
                        Err(Failure::Error(Located::new(a.check_printable().unwrap_err(), e.span)))
                    }
                    v => {
                        self.keep_last(v, depth);
                        Ok(Produced::Last)
                    }
                }
            }
            StmtKind::Bind { name, name_span, value } => {
                let v = self.eval(value)?;
                if let Value::Text(_) | Value::File(_) = v {
                    return Err(Located::new(
                        EvalError::type_err(format!(
                            "`{name}` cannot be bound to printed text: the result of print_layout/print_latex is its printout"
                        )),
                        value.span,
                    )
                    .into());
                }
                if name == "o" {
                    return Err(Located::new(
                        EvalError::rule("reserved name", "`o` is the composition operator"),
                        *name_span,
                    )
                    .into());
                }
                // NOTATION.md: a name is not a function name (calls would become ambiguous).
                if builtins::exists(name) {
                    return Err(Located::new(
                        EvalError::rule(
                            "reserved name",
                            format!("`{name}` is a function; bind the value to another name"),
                        ),
                        *name_span,
                    )
                    .into());
                }
                self.note_depth(&v);
                self.bind(name, v);
                Ok(Produced::Nothing)
            }
            StmtKind::Assert { lhs, rhs } => self.exec_assert(lhs, rhs.as_deref()),
            StmtKind::Gemm(g) => self.exec_gemm(g.emit, &g.m, &g.n, &g.k, &g.args).map_err(Failure::Error),
            StmtKind::Explain(e) => self.exec_explain(e).map_err(Failure::Error),
        }
    }

    /// A statement's value becomes the last value (`depth`: how deep it nests, when measured).
    fn keep_last(&mut self, v: Value, depth: Option<usize>) {
        match depth {
            Some(d) => self.deep_values |= d > SHALLOW_VALUE,
            None => self.note_depth(&v),
        }
        self.set_last(v);
    }

    /// [`Interp::run`] of a statement that is one call of literal arguments only, from its
    /// argument values (`parser::LiteralCall`) instead of a tree: the same steps of work, value,
    /// errors and spans. `None`, with nothing changed, where `run` would do more than call a
    /// built-in and keep a plain value (a name bound to a value or unknown, an iterator, a
    /// printout, a file or an MMA/copy object): the statement's tree is to be run then.
    pub fn run_literal_call(
        &mut self,
        name: &str,
        c: &crate::parser::LiteralCall,
    ) -> Option<Result<Produced, Failure>> {
        if self.get(name).is_some() || name == printed::ITER_PREFIX {
            return None;
        }
        let slot = self.slot(name)?;
        let ran = (|| {
            let tick = |span: Span| crate::eval::budget::tick().map_err(|err| Located::new(err, span));
            tick(c.call)?;
            let mut vals: SmallVec<[&Value; 4]> = SmallVec::new();
            for (v, &span) in c.args.iter().zip(&c.spans) {
                tick(span)?;
                vals.push(v);
            }
            let v = builtins::call_slot(slot, &[], &vals)
                .map_err(|err| call_failed(name, &[], &vals, err, |i| c.spans.get(i).copied(), c.call))?;
            let depth = checked_depth(&v).map_err(|err| Located::new(err, c.call))?;
            Ok((v, depth))
        })();
        Some(match ran {
            Err(e) => Err(Failure::Error(e)),
            Ok((Value::Text(_) | Value::File(_) | Value::Atom(_), _)) => return None,
            Ok((v, depth)) => {
                self.keep_last(v, depth);
                Ok(Produced::Last)
            }
        })
    }

    /// The registry's entry of built-in `name` (`None`: no such function).
    #[inline]
    fn slot(&self, name: &str) -> Option<crate::eval::builtins::Slot> {
        match self.last_fn.get() {
            Some(s) if s.entry.name == name => Some(s),
            _ => self.slot_looked_up(name),
        }
    }

    /// [`Interp::slot`] of a name other than the last one's (apart: a script mostly calls one
    /// function after another of the same name).
    #[inline(never)]
    fn slot_looked_up(&self, name: &str) -> Option<crate::eval::builtins::Slot> {
        match builtins::get(name) {
            Some(s) if !name.starts_with("__") => {
                self.last_fn.set(Some(s));
                Some(s)
            }
            _ => None,
        }
    }

    /// `explain e`: the call (or `A o B`, `L(c)`) with its argument values, the steps, `= value`.
    fn exec_explain(&self, e: &Expr) -> E<Produced> {
        // A refused make_gmma_desc is explained (which rule broke, what would be accepted)
        // rather than reported as an error.
        let value = match (self.eval(e), &e.kind) {
            (Err(err), ExprKind::Call(c)) if c.name == "make_gmma_desc" && self.get(&c.name).is_none() => {
                Value::Text(format!("error: {}", err.error))
            }
            (v, _) => v?,
        };
        // (a value that prints on several lines, a TiledMMA say, by its first line)
        let list = |vs: &[Value]| {
            vs.iter()
                .map(|v| match v.to_string() {
                    s if s.contains('\n') => format!("{} ...", s.lines().next().unwrap_or_default()),
                    s => s,
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let at = |err: EvalError| Located::new(err, e.span);
        let (head, steps) = match &e.kind {
            ExprKind::Call(c) if self.get(&c.name).is_none() => {
                let (name, targs, args) = (&c.name, &c.targs, &c.args);
                let vals = self.eval_args(args)?;
                let t = if targs.is_empty() {
                    String::new()
                } else {
                    format!("<{}>", targs.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(","))
                };
                let steps = explain::explain(name, targs, &vals).map_err(at)?;
                (format!("{name}{t}({})", list(&vals)), steps.unwrap_or_else(|| builtins::definition(name)))
            }
            ExprKind::Call(c) => {
                let (name, args) = (&c.name, &c.args);
                let callee = self.get(name).cloned().unwrap_or(Value::Tuple(IntTuple::Under));
                let vals = self.eval_args(args)?;
                (format!("{name}({})", list(&vals)), explain::explain_apply(&callee, &vals).map_err(at)?)
            }
            ExprKind::Apply(a) => {
                let c = self.eval_arg(&a.callee)?;
                let vals = self.eval_args(&a.args)?;
                (format!("({c})({})", list(&vals)), explain::explain_apply(&c, &vals).map_err(at)?)
            }
            ExprKind::Compose(a, b) => {
                let vals = vec![self.eval_arg(a)?, self.eval_arg(b)?];
                let steps = explain::explain("composition", &[], &vals).map_err(at)?;
                (format!("{} o {}", vals[0], vals[1]), steps.unwrap_or_else(|| builtins::definition("composition")))
            }
            _ => (
                value.to_string(),
                vec!["  a value: nothing to explain (explain a call, `A o B` or `L(c)`)".to_string()],
            ),
        };
        let mut out = head;
        for l in steps {
            out.push('\n');
            out.push_str(&l);
        }
        out.push_str(&format!("\n= {value}\n"));
        Ok(Produced::Text(out))
    }

    fn exec_assert(&self, lhs: &Expr, rhs: Option<&Expr>) -> Result<Produced, Failure> {
        let a = self.eval_arg(lhs)?;
        match rhs {
            None => {
                let ok = match &a {
                    Value::Tuple(IntTuple::I(i)) => i.v != 0,
                    v => {
                        return Err(Located::new(
                            EvalError::type_err(format!(
                                "an assert condition must be an integer (non-zero passes), got {} `{v}`; use `assert a == b` to compare values",
                                v.kind()
                            )),
                            lhs.span,
                        )
                        .into())
                    }
                };
                if ok {
                    return Ok(Produced::AssertPassed);
                }
                // `assert identical(a, b)`, `assert equivalent(A, B)`: show both arguments.
                if let ExprKind::Call(c) = &lhs.kind {
                    let (name, targs, args) = (&c.name, &c.targs, &c.args);
                    let two = args.len() == 2 && targs.is_empty() && self.get(name).is_none();
                    if two && (name == "identical" || name == "equivalent") {
                        let (x, y) = (self.eval_arg(&args[0])?, self.eval_arg(&args[1])?);
                        let note = if name == "equivalent" {
                            crate::eval::ops::compare::first_difference(&x, &y)
                        } else {
                            static_note(&x, &y)
                        };
                        return Err(Failure::Assert(Box::new(AssertFailure {
                            span: lhs.span,
                            lhs: (args[0].span, x),
                            rhs: Some((args[1].span, y)),
                            note,
                        })));
                    }
                }
                Err(Failure::Assert(Box::new(AssertFailure {
                    span: lhs.span,
                    lhs: (lhs.span, a),
                    rhs: None,
                    note: None,
                })))
            }
            Some(r) => {
                let b = self.eval_arg(r)?;
                if equal_ignoring_static(&a, &b) {
                    Ok(Produced::AssertPassed)
                } else {
                    Err(Failure::Assert(Box::new(AssertFailure {
                        span: lhs.span.join(r.span),
                        note: None,
                        lhs: (lhs.span, a),
                        rhs: Some((r.span, b)),
                    })))
                }
            }
        }
    }

    fn exec_gemm(&self, emit: bool, m: &Expr, n: &Expr, k: &Expr, args: &[GemmArg]) -> E<Produced> {
        let mut dims = [0i64; 3];
        for (d, e) in dims.iter_mut().zip([m, n, k]) {
            let v = self.eval_arg(e)?;
            *d = v.as_int().map_err(|err| Located::new(err, e.span))?.v;
        }
        let mut opts = Vec::with_capacity(args.len());
        for a in args {
            let v = match &a.value.kind {
                // A bare unbound name (`dtype=f16`, `layout=TN`) is a tag.
                ExprKind::Name(nm) if self.get(&nm.name).is_none() => {
                    match self.eval_name(&nm.name, &nm.targs, a.value.span) {
                        Ok(v) => v,
                        Err(l) if l.error.kind == ErrorKind::Unknown => Value::Tag(nm.name.clone()),
                        Err(l) => return Err(l),
                    }
                }
                _ => self.eval_arg(&a.value)?,
            };
            opts.push((a.key.clone(), v));
        }
        let spans: Vec<Span> =
            [m.span, n.span, k.span].into_iter().chain(args.iter().map(|a| a.key_span.join(a.value.span))).collect();
        let whole = m.span.join(spans.last().copied().unwrap_or(k.span));
        Ok(Produced::Gemm(Box::new(GemmCall { emit, dims, opts, spans, whole })))
    }

    /// Evaluate an expression to a value that may be passed on (not printed text).
    fn eval_arg(&self, e: &Expr) -> E<Value> {
        let v = self.eval(e)?;
        if let Value::Text(_) = v {
            return Err(Located::new(
                EvalError::type_err(
                    "print_layout/print_latex print their answer; the printout cannot be used as a value",
                ),
                e.span,
            ));
        }
        if let Value::File(_) = v {
            return Err(Located::new(
                EvalError::type_err("svg/latex write a file; a statement of its own, not a value"),
                e.span,
            ));
        }
        Ok(v)
    }

    fn eval_args(&self, es: &[Expr]) -> E<Vec<Value>> {
        // (one allocation of the right size: `collect` through `Result` cannot know it)
        let mut vals = Vec::with_capacity(es.len());
        for e in es {
            vals.push(self.eval_arg(e)?);
        }
        Ok(vals)
    }

    /// Evaluate an expression. Every value it produces is checked against the size guard
    /// ([`check_size`]), so no statement can build a value that later operations take
    /// seconds (or the whole memory) to process.
    pub fn eval(&self, e: &Expr) -> E<Value> {
        // A literal folded by the parser is within the guard by construction (`parser::lit`).
        if let ExprKind::Lit(v) = &e.kind {
            crate::eval::budget::tick().map_err(|err| Located::new(err, e.span))?;
            return Ok(v.clone());
        }
        let v = self.eval_unchecked(e)?;
        check_size(&v).map_err(|err| Located::new(err, e.span))?;
        Ok(v)
    }

    /// [`Interp::eval`], and how deep the value nests when the size guard measured it on the
    /// way (`None`: not measured).
    fn eval_measured(&self, e: &Expr) -> E<(Value, Option<usize>)> {
        if let ExprKind::Lit(_) = &e.kind {
            return Ok((self.eval(e)?, None));
        }
        let v = self.eval_unchecked(e)?;
        let depth = checked_depth(&v).map_err(|err| Located::new(err, e.span))?;
        Ok((v, depth))
    }

    fn eval_unchecked(&self, e: &Expr) -> E<Value> {
        let at = |err: EvalError| Located::new(err, e.span);
        crate::eval::budget::tick().map_err(at)?;
        match &e.kind {
            ExprKind::Int { value, is_static } => Ok(Value::Tuple(IntTuple::I(Int::new(*value, *is_static)))),
            ExprKind::Basis { value, is_static, modes } => {
                Ok(Value::Tuple(IntTuple::basis(Int::new(*value, *is_static), modes.clone())))
            }
            ExprKind::Tuple(es) => Ok(Value::tuple(self.eval_args(es)?)),
            ExprKind::Lit(v) => Ok(v.clone()),
            ExprKind::Under => Ok(Value::Tuple(IntTuple::Under)),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::Tiler(es) => Ok(Value::tuple(self.eval_args(es)?)),
            ExprKind::Layout(sd) => {
                let [s, d] = &**sd;
                if let (Some(st), Some(dt)) = (literal_side(s), literal_side(d)) {
                    return Ok(Value::Layout(Layout::new(st, dt)));
                }
                let sv = self.eval_arg(s)?;
                let dv = self.eval_arg(d)?;
                let side = |v: Value, x: &Expr, what: &str| match v {
                    Value::Tuple(t) => Ok(t),
                    v => Err(Located::new(
                        EvalError::type_err(format!(
                            "the {what} of `S:D` must be an integer or a tuple, got {} `{v}`",
                            v.kind()
                        )),
                        x.span,
                    )),
                };
                let st = side(sv, s, "shape")?;
                let dt = side(dv, d, "stride")?;
                Ok(Value::Layout(Layout::new(st, dt)))
            }
            ExprKind::Swizzle { b, m, s } => {
                // `Sw<B,M,S>` is `Swizzle<B,M,S>{}` (CuTe has no `make_swizzle<B,M,S>()`)
                crate::eval::ops::swizzle::bits::make(*b, *m, *s).map(Value::Swizzle).map_err(at)
            }
            ExprKind::Compose(a, b) => {
                let args = [self.eval_arg(a)?, self.eval_arg(b)?];
                // `ArithTuple(_0,_0) o L`: CuTe's print of a tensor, make_tensor(iterator, L)
                let f = if printed::is_iter(&args[0]) { "make_tensor" } else { "composition" };
                self.call_builtin(f, &[], &args, e.span, &[a.span, b.span])
            }
            ExprKind::MixedBits { .. } => Err(Located::new(
                EvalError::type_err(
                    "a MixedBits M_S|(D&F)=V is only the offset of a composed layout: `Sw<3,3,3> o M_0|(144&400)=144 o L`",
                ),
                e.span,
            )),
            ExprKind::ComposedLit { outer, offset, inner } if self.iter_first(outer)? => {
                // `ArithTuple_0 o Sw<3,3,3> o _0 o L` reads `ArithTuple_0 o (Sw<3,3,3> o _0 o L)`:
                // the iterator of a tensor laid out by the composed layout after it
                let (it, rest) = split_first(outer);
                let it = self.eval_arg(it)?;
                let lit = Expr {
                    kind: ExprKind::ComposedLit { outer: Box::new(rest), offset: offset.clone(), inner: inner.clone() },
                    span: outer.span.join(inner.span),
                };
                let l = self.eval_arg(&lit)?;
                self.call_builtin("make_tensor", &[], &[it, l], e.span, &[outer.span, lit.span])
            }
            ExprKind::ComposedLit { outer, offset, inner } if matches!(offset.kind, ExprKind::MixedBits { .. }) => {
                let ExprKind::MixedBits { s, d, f, v } = offset.kind else { unreachable!() };
                let m = printed::mixed_bits(s, d, f, v).map_err(|err| Located::new(err, offset.span))?;
                let (a, l) = (self.eval_arg(outer)?, self.eval_arg(inner)?);
                printed::mixed_composed(a, m, l).map_err(|err| {
                    let span = match err.arg {
                        Some(0) => outer.span,
                        Some(2) => inner.span,
                        _ => e.span,
                    };
                    Located::new(err, span)
                })
            }
            ExprKind::SmemPtr { .. } => Err(Located::new(
                EvalError::type_err(
                    "smem_ptr[Nb](unset) is only the offset of a composed layout: `Sw<3,4,3> o smem_ptr[16b](unset) o L`",
                ),
                e.span,
            )),
            ExprKind::ComposedLit { outer, offset, inner } if matches!(offset.kind, ExprKind::SmemPtr { .. }) => {
                // CuTe's `ComposedLayout<A, smem_ptr_flag_bits<B>, L>` (a GMMA layout atom)
                let bits = match offset.kind {
                    ExprKind::SmemPtr { bits } => bits,
                    _ => 0,
                };
                let (a, l) = (self.eval_arg(outer)?, self.eval_arg(inner)?);
                crate::eval::gmma::smem_flagged(a, bits, l).map_err(at)
            }
            ExprKind::ComposedLit { outer, offset, inner } => {
                let args = [self.eval_arg(outer)?, self.eval_arg(offset)?, self.eval_arg(inner)?];
                let spans = [outer.span, offset.span, inner.span];
                if builtins::exists("make_composed_layout") {
                    self.call_builtin("make_composed_layout", &[], &args, e.span, &spans)
                } else {
                    let [o, off, i] = args;
                    let f = |v: Value, sp: Span| match v {
                        Value::Layout(l) => Ok(Func::Layout(l)),
                        Value::Swizzle(s) => Ok(Func::Swizzle(s)),
                        Value::Composed(c) => Ok(Func::Composed(c)),
                        v => Err(Located::new(
                            EvalError::type_err(format!("expected a layout or swizzle, got {} `{v}`", v.kind())),
                            sp,
                        )),
                    };
                    let outer = f(o, spans[0])?;
                    let offset = off.as_int().map_err(|err| Located::new(err, spans[1]))?;
                    let inner = f(i, spans[2])?;
                    Ok(Value::Composed(Box::new(Composed { outer, offset, inner, mixed: None })))
                }
            }
            ExprKind::Binary(op, a, b) => {
                if let Some(v) = self.negative_iter(*op, a, b) {
                    return Ok(v);
                }
                let x = self.eval_arg(a)?;
                let y = self.eval_arg(b)?;
                let int = |v: &Value, sp: Span| match v {
                    Value::Tuple(IntTuple::I(i)) => Ok(*i),
                    v => Err(Located::new(
                        EvalError::type_err(format!("`{}` works on integers, got {} `{v}`", op.symbol(), v.kind())),
                        sp,
                    )),
                };
                let (x, y) = (int(&x, a.span)?, int(&y, b.span)?);
                let r = match op {
                    BinOp::Add => x.add(y),
                    BinOp::Sub => x.sub(y),
                    BinOp::Mul => x.mul(y),
                    BinOp::Div => x.div(y),
                    BinOp::And => Ok(x.and(y)),
                    BinOp::Or => Ok(x.or(y)),
                    BinOp::Xor => Ok(x.xor(y)),
                };
                r.map(Value::from).map_err(|err| match err.kind {
                    ErrorKind::DivZero => Located::new(err, b.span),
                    _ => at(err),
                })
            }
            ExprKind::Not(a) => match self.eval_arg(a)? {
                Value::Tuple(IntTuple::I(i)) => Ok(Value::from(i.not())),
                v => Err(Located::new(
                    EvalError::type_err(format!("`~` works on integers, got {} `{v}`", v.kind())),
                    a.span,
                )),
            },
            ExprKind::Name(nm) => self.eval_name(&nm.name, &nm.targs, e.span),
            ExprKind::Call(c) => {
                let Call { name, name_span, targs, args } = &**c;
                if let Some(callee) = self.get(name) {
                    if targs.is_empty() {
                        let callee = callee.clone();
                        return self.apply(callee, *name_span, args, e.span);
                    }
                }
                if name == printed::ITER_PREFIX && targs.is_empty() {
                    // `ArithTuple(_0,_0)`: an iterator as CuTe prints it
                    let vals = self.eval_args(args)?;
                    return printed::iter_call(&vals).map_err(|err| {
                        let span = err.arg.and_then(|i| args.get(i)).map_or(e.span, |a| a.span);
                        Located::new(err, span)
                    });
                }
                let Some(slot) = self.slot(name) else {
                    return Err(self.unknown(name, *name_span, true));
                };
                // A literal argument folded by the parser is lent as it is; the others are
                // evaluated (in order, as the literals' steps of work are counted).
                // (all literals, the usual call: lent in one pass, with no list of owned values)
                let literal = |a: &Expr| matches!(a.kind, ExprKind::Lit(_));
                let tick = |a: &Expr| crate::eval::budget::tick().map_err(|err| Located::new(err, a.span));
                let owned: Option<SmallVec<[Value; 4]>> = if args.iter().all(literal) {
                    None
                } else {
                    let mut owned = SmallVec::new();
                    for a in args {
                        match &a.kind {
                            ExprKind::Lit(_) => tick(a)?,
                            // (an integer argument, as `eval_arg` makes it: one step, its value)
                            ExprKind::Int { value, is_static } => {
                                tick(a)?;
                                owned.push(Value::Tuple(IntTuple::I(Int::new(*value, *is_static))));
                            }
                            _ => owned.push(self.eval_arg(a)?),
                        }
                    }
                    Some(owned)
                };
                let mut vals: SmallVec<[&Value; 4]> = SmallVec::new();
                match &owned {
                    None => {
                        for a in args {
                            if let ExprKind::Lit(v) = &a.kind {
                                tick(a)?;
                                vals.push(v);
                            }
                        }
                    }
                    Some(owned) => {
                        let mut rest = owned.iter();
                        vals.extend(args.iter().filter_map(|a| match &a.kind {
                            ExprKind::Lit(v) => Some(v),
                            _ => rest.next(),
                        }));
                    }
                }
                builtins::call_slot(slot, targs, &vals)
                    .map_err(|err| call_failed(name, targs, &vals, err, |i| args.get(i).map(|a| a.span), e.span))
            }
            ExprKind::Apply(a) => {
                let c = self.eval_arg(&a.callee)?;
                self.apply(c, a.callee.span, &a.args, e.span)
            }
        }
    }

    /// Call built-in `name`, stamping the offending argument's span (or the whole call's).
    fn call_builtin(&self, name: &str, targs: &[TArg], args: &[Value], whole: Span, spans: &[Span]) -> E<Value> {
        builtins::call(name, targs, args).map_err(|err| {
            let span = err.arg.and_then(|i| spans.get(i).copied()).unwrap_or(whole);
            let note = crate::eval::analysis::static_note(name, targs, &crate::eval::builtins::refs(args), &err)
                .map(String::into_boxed_str);
            Located { note, ..Located::new(err, span) }
        })
    }

    /// `callee(args)`: evaluation at a coordinate or slicing, by the `__apply` built-in.
    fn apply(&self, callee: Value, callee_span: Span, args: &[Expr], whole: Span) -> E<Value> {
        if !matches!(callee, Value::Layout(_) | Value::Swizzle(_) | Value::Composed(_) | Value::Atom(_)) {
            return Err(Located::new(
                EvalError::type_err(format!(
                    "{} `{callee}` cannot be called: only layouts, swizzles and composed layouts are evaluated at a coordinate",
                    callee.kind()
                )),
                callee_span,
            ));
        }
        let mut vals = Vec::with_capacity(args.len() + 1);
        vals.push(callee);
        vals.extend(self.eval_args(args)?);
        let mut spans = vec![callee_span];
        spans.extend(args.iter().map(|a| a.span));
        if !builtins::exists("__apply") {
            return Err(Located::new(
                EvalError::type_err(format!(
                    "evaluating {} at a coordinate is not available in this build",
                    vals[0].kind()
                )),
                whole,
            ));
        }
        self.call_builtin("__apply", &[], &vals, whole, &spans).map_err(|mut l| {
            if crate::eval::builtins::Args::refused_by(&l.error) == Some("__apply") {
                let kinds: Vec<&str> = vals[1..].iter().map(|v| v.kind()).collect();
                l.error.detail = format!("{} cannot be applied to ({})", vals[0].kind(), kinds.join(", "));
            }
            l
        })
    }

    /// A bare name: a binding, a tag or type name, an MMA/copy operation, else an error.
    fn eval_name(&self, name: &str, targs: &[TArg], span: Span) -> E<Value> {
        if let Some(v) = self.get(name) {
            if !targs.is_empty() {
                return Err(Located::new(
                    EvalError::type_err(format!("`{name}` is a bound value; it takes no template arguments")),
                    span,
                ));
            }
            return Ok(v.clone());
        }
        if targs.is_empty() && TAG_NAMES.contains(&name) {
            return Ok(Value::Tag(name.to_string()));
        }
        if let Some(r) = crate::eval::atoms::named_value(name, targs) {
            return r.map_err(|err| {
                let mut l = Located::new(err, span);
                // an operation name that is not in the tables: the nearest one that is
                let ops = crate::eval::atoms::op_names();
                if !ops.iter().any(|n| n == name) {
                    let ops: Vec<&str> = ops.iter().map(String::as_str).collect();
                    l.help = suggest(name, &ops).map(|s| format!("did you mean '{s}'?").into());
                }
                l
            });
        }
        if name == LAST_NAME && targs.is_empty() {
            if let Some(v) = &self.last {
                return Ok(v.clone());
            }
        }
        if targs.is_empty() {
            // `ArithTuple145`, `ArithTuple_0`: an iterator as CuTe prints it
            if let Some(r) = printed::iter_name(name) {
                return r.map_err(|err| Located::new(err, span));
            }
        }
        if builtins::exists(name) && !name.starts_with("__") {
            let sig = builtins::lookup(name).map(|b| b.sig).unwrap_or("");
            let mut l = Located::new(
                EvalError::new(
                    ErrorKind::Type,
                    "not a value",
                    format!("`{name}` is a function; call it with arguments"),
                ),
                span,
            );
            if !sig.is_empty() {
                l.help = Some(format!("usage: {sig}").into());
            }
            return Err(l);
        }
        Err(self.unknown(name, span, false))
    }

    /// `ArithTuple-128` (`ArithTuple_-128`): CuTe's print of an iterator at a negative integer,
    /// which parses as an unbound name minus a literal written right after it.
    fn negative_iter(&self, op: BinOp, a: &Expr, b: &Expr) -> Option<Value> {
        match (op, &a.kind, &b.kind) {
            (BinOp::Sub, ExprKind::Name(nm), ExprKind::Int { value, is_static: false })
                if nm.targs.is_empty() && b.span.start == a.span.end + 1 && self.get(&nm.name).is_none() =>
            {
                printed::negative_iter(&nm.name, *value)
            }
            _ => None,
        }
    }

    /// True if the first operand of the chain `outer` (`It o A o B`) is an iterator.
    fn iter_first(&self, outer: &Expr) -> E<bool> {
        match &outer.kind {
            ExprKind::Compose(..) => {
                let (first, _) = split_first(outer);
                Ok(printed::is_iter(&self.eval_arg(first)?))
            }
            _ => Ok(false),
        }
    }

    /// "unknown name 'x'", with a close name suggested when there is one.
    fn unknown(&self, name: &str, span: Span, called: bool) -> Located {
        let what = if called { "unknown function" } else { "unknown name" };
        let mut l = Located::new(EvalError::new(ErrorKind::Unknown, what, format!("'{name}'")), span);
        let mut candidates: Vec<&str> = self.vars.iter().map(|(n, _)| n.as_str()).collect();
        candidates.extend(builtins::names().into_iter().filter(|n| !n.starts_with("__")));
        if !called {
            candidates.extend(TAG_NAMES.iter().copied());
            candidates.extend(crate::eval::atoms::op_names().iter().map(String::as_str));
        }
        // `print` → print_latex, print_layout, print_svg: names the word begins.
        let mut longer: Vec<&str> = candidates
            .iter()
            .copied()
            .filter(|c| {
                name.len() >= 3 && c.len() > name.len() && c.starts_with(name) && c.as_bytes()[name.len()] == b'_'
            })
            .collect();
        longer.sort_unstable();
        longer.dedup();
        if name == "help" {
            l.help = Some("`help` is the REPL's: run `cute` with no file and type `help` or `:help NAME`".into());
        } else if name == "Step" {
            // (CuTe's projection type, `Step<_1,X,_1>{}`, is a plain tuple of `_1` and `_`)
            l.help = Some("CuTe's `Step<_1,X,_1>{}` is written as the tuple `(_1,_,_1)` (`X` is CuTe's `_`)".into());
        } else if name == "X" && !called {
            l.help = Some("`X` is CuTe's name for `_`: write `_` (a projection `Step<_1,X,_1>` is `(_1,_,_1)`)".into());
        } else if name == "explain" && called {
            // (a statement, not a function: `explain f(x)`, `explain A o B`, `explain L(c)`)
            l.help = Some("`explain` goes before what it explains, without parentheses: `explain coalesce(L)`".into());
        } else if (1..=3).contains(&longer.len()) {
            let quoted: Vec<String> = longer.iter().map(|c| format!("'{c}'")).collect();
            let list = match quoted.as_slice() {
                [one] => one.clone(),
                [init @ .., last] => format!("{} or {last}", init.join(", ")),
                [] => String::new(),
            };
            l.help = Some(format!("did you mean {list}?").into());
        } else if let Some(s) = suggest(name, &candidates) {
            l.help = Some(format!("did you mean '{s}'?").into());
        }
        l
    }
}

/// The deepest nesting a value may have (as deep as the parser lets a literal be).
pub const MAX_VALUE_DEPTH: usize = crate::parser::MAX_NESTING;

pub use crate::eval::value::{max_leaves, DEFAULT_MAX_LEAVES};

/// `value_depth(v) <= limit`, without allocating: the walk goes no deeper than `limit + 1`
/// levels (every result is checked, and nearly all are shallow).
fn within_depth(v: &Value, limit: usize) -> bool {
    fn tuple(t: &IntTuple, d: usize, limit: usize) -> bool {
        d <= limit
            && match t.view() {
                V::T(xs) => xs.iter().all(|x| tuple(x, d + 1, limit)),
                _ => true,
            }
    }
    fn func(f: &Func, d: usize, limit: usize) -> bool {
        d <= limit
            && match f {
                Func::Layout(l) => tuple(&l.shape, d + 1, limit) && tuple(&l.stride, d + 1, limit),
                Func::Swizzle(_) => true,
                Func::Composed(c) => func(&c.outer, d + 1, limit) && func(&c.inner, d + 1, limit),
            }
    }
    fn value(v: &Value, d: usize, limit: usize) -> bool {
        d <= limit
            && match v {
                Value::Tuple(t) => tuple(t, d, limit),
                Value::Layout(l) => tuple(&l.shape, d + 1, limit) && tuple(&l.stride, d + 1, limit),
                Value::Composed(c) => func(&c.outer, d + 1, limit) && func(&c.inner, d + 1, limit),
                Value::Tile(vs) => vs.iter().all(|x| value(x, d + 1, limit)),
                Value::Swizzle(_)
                | Value::Tag(_)
                | Value::Atom(_)
                | Value::Text(_)
                | Value::Str(_)
                | Value::File(_) => true,
            }
    }
    value(v, 0, limit)
}

/// How deeply a value nests (an integer: 0; a layout counts one level for itself). Iterative.
pub fn value_depth(v: &Value) -> usize {
    let mut deepest = 0;
    let mut values: Vec<(&Value, usize)> = vec![(v, 0)];
    let mut funcs: Vec<(&Func, usize)> = Vec::new();
    let mut tuples: Vec<(&IntTuple, usize)> = Vec::new();
    loop {
        if let Some((t, d)) = tuples.pop() {
            deepest = deepest.max(d);
            if let Some(xs) = t.kids() {
                for k in 0..xs.len() {
                    match xs.at(k) {
                        Some(Cow::Borrowed(x)) => tuples.push((x, d + 1)),
                        // (an inline tuple's element, copied out: an integer, one level down)
                        _ => deepest = deepest.max(d + 1),
                    }
                }
            }
        } else if let Some((f, d)) = funcs.pop() {
            deepest = deepest.max(d);
            match f {
                Func::Layout(l) => tuples.extend([(&l.shape, d + 1), (&l.stride, d + 1)]),
                Func::Swizzle(_) => {}
                Func::Composed(c) => funcs.extend([(&c.outer, d + 1), (&c.inner, d + 1)]),
            }
        } else if let Some((v, d)) = values.pop() {
            deepest = deepest.max(d);
            match v {
                Value::Tuple(t) => tuples.push((t, d)),
                Value::Layout(l) => tuples.extend([(&l.shape, d + 1), (&l.stride, d + 1)]),
                Value::Composed(c) => funcs.extend([(&c.outer, d + 1), (&c.inner, d + 1)]),
                Value::Tile(vs) => values.extend(vs.iter().map(|x| (x, d + 1))),
                Value::Swizzle(_)
                | Value::Tag(_)
                | Value::Atom(_)
                | Value::Text(_)
                | Value::Str(_)
                | Value::File(_) => {}
            }
        } else {
            return deepest;
        }
    }
}

/// The size guard: a value may hold at most [`max_leaves`] integers and nest at most
/// [`MAX_VALUE_DEPTH`] levels. Iterative (an explicit stack), stops at the first excess.
pub fn check_size(v: &Value) -> Result<(), EvalError> {
    checked_depth(v).map(|_| ())
}

/// A built-in's error as the call's: at the span of the argument it names (`arg_span`), or the
/// whole call's, with what the static analysis notes of it.
fn call_failed(
    name: &str,
    targs: &[TArg],
    vals: &[&Value],
    err: EvalError,
    arg_span: impl Fn(usize) -> Option<Span>,
    whole: Span,
) -> Located {
    let span = err.arg.and_then(arg_span).unwrap_or(whole);
    let note = crate::eval::analysis::static_note(name, targs, vals, &err).map(String::into_boxed_str);
    Located { note, ..Located::new(err, span) }
}

/// [`check_size`], and how deep `v` nests when that came out of the check for free (`None`:
/// not measured; [`within_depth`] tells).
#[inline]
fn checked_depth(v: &Value) -> Result<Option<usize>, EvalError> {
    if let Value::Tuple(IntTuple::I(_)) | Value::Swizzle(_) | Value::Tag(_) | Value::Atom(_) | Value::Text(_) = v {
        return Ok(Some(0));
    }
    // A layout of integers or flat tuples of them (most results): counted without a walk.
    if let Value::Layout(l) = v {
        if let (Some((a, da)), Some((b, db))) = (flat_ints(&l.shape), flat_ints(&l.stride)) {
            if a + b <= max_leaves() {
                return Ok(Some(1 + da.max(db)));
            }
        }
    }
    checked_depth_walked(v)
}

/// [`checked_depth`] of the values it does not count at once (apart: its lists and errors make
/// a large function, which the common case should not enter).
#[inline(never)]
fn checked_depth_walked(v: &Value) -> Result<Option<usize>, EvalError> {
    let limit = max_leaves();
    // Most values are far inside both limits: count them without allocating, and take the
    // walk below (which names the first excess exactly) only when they are not.
    let mut walked = Walked::default();
    if small_value(v, 0, &mut walked, limit) {
        return Ok(Some(walked.deepest));
    }
    let mut leaves = 0usize;
    // What is left to visit, with its depth.
    let mut values: Vec<(&Value, usize)> = vec![(v, 0)];
    let mut funcs: Vec<(&Func, usize)> = Vec::new();
    let mut tuples: Vec<(&IntTuple, usize)> = Vec::new();
    let too_many = |n: usize| {
        EvalError::limit(format!(
            "a value with more than {limit} integers (this one has at least {n}); \
             set the environment variable CUTE_MAX_LEAVES to a larger number to allow it"
        ))
    };
    let too_deep = || EvalError::limit(format!("a value nested more than {MAX_VALUE_DEPTH} levels deep"));
    loop {
        if let Some((t, d)) = tuples.pop() {
            if d > MAX_VALUE_DEPTH {
                return Err(too_deep());
            }
            match t.view() {
                V::I(_) | V::Under => leaves += 1,
                V::Basis(b) => leaves += 1 + b.modes.len(),
                V::T(xs) => {
                    for k in 0..xs.len() {
                        match xs.at(k) {
                            Some(Cow::Borrowed(x)) => tuples.push((x, d + 1)),
                            // (an inline tuple's element, copied out: an integer one level down,
                            // counted here as it would be popped next)
                            _ => {
                                if d + 1 > MAX_VALUE_DEPTH {
                                    return Err(too_deep());
                                }
                                leaves += 1;
                                if leaves > limit {
                                    return Err(too_many(leaves));
                                }
                            }
                        }
                    }
                }
            }
            if leaves > limit {
                return Err(too_many(leaves));
            }
        } else if let Some((f, d)) = funcs.pop() {
            if d > MAX_VALUE_DEPTH {
                return Err(too_deep());
            }
            match f {
                Func::Layout(l) => {
                    tuples.push((&l.shape, d + 1));
                    tuples.push((&l.stride, d + 1));
                }
                Func::Swizzle(_) => leaves += 1,
                Func::Composed(c) => {
                    leaves += 1;
                    funcs.push((&c.outer, d + 1));
                    funcs.push((&c.inner, d + 1));
                }
            }
        } else if let Some((v, d)) = values.pop() {
            if d > MAX_VALUE_DEPTH {
                return Err(too_deep());
            }
            match v {
                Value::Tuple(t) => tuples.push((t, d)),
                Value::Layout(l) => {
                    tuples.push((&l.shape, d + 1));
                    tuples.push((&l.stride, d + 1));
                }
                Value::Composed(c) => {
                    leaves += 1;
                    funcs.push((&c.outer, d + 1));
                    funcs.push((&c.inner, d + 1));
                }
                Value::Tile(vs) => values.extend(vs.iter().map(|x| (x, d + 1))),
                Value::Swizzle(_)
                | Value::Tag(_)
                | Value::Atom(_)
                | Value::Text(_)
                | Value::Str(_)
                | Value::File(_) => leaves += 1,
            }
            if leaves > limit {
                return Err(too_many(leaves));
            }
        } else {
            return Ok(None);
        }
    }
}

// (`LITERAL_DEPTH` levels of literal tuple within a value's depth limit)
const _: () = assert!(crate::parser::lit::LITERAL_DEPTH < MAX_VALUE_DEPTH);

/// `It o A o B` (left-nested `Compose`s) split into its first operand and the rest `A o B`.
fn split_first(e: &Expr) -> (&Expr, Expr) {
    match &e.kind {
        ExprKind::Compose(a, b) if matches!(a.kind, ExprKind::Compose(..)) => {
            let (first, rest) = split_first(a);
            let span = rest.span.join(b.span);
            (first, Expr { kind: ExprKind::Compose(Box::new(rest), b.clone()), span })
        }
        ExprKind::Compose(a, b) => (a, (**b).clone()),
        _ => (e, e.clone()),
    }
}

/// A side of a layout node that is a literal: an integer, `_` or a folded tuple. (The parser
/// folds every literal layout the size guard passes whole, so such a layout exceeds it.)
fn literal_side(e: &Expr) -> Option<IntTuple> {
    match &e.kind {
        ExprKind::Int { value, is_static } => Some(IntTuple::I(Int::new(*value, *is_static))),
        ExprKind::Under => Some(IntTuple::Under),
        ExprKind::Lit(Value::Tuple(t)) => Some(t.clone()),
        _ => None,
    }
}

/// An integer (one leaf, depth 0) or a tuple of integers (its leaves; depth 1, or 0 when
/// empty), as [`small_tuple`] counts them; `None` for anything else.
#[inline]
fn flat_ints(t: &IntTuple) -> Option<(usize, usize)> {
    // (an inline tuple: integers only)
    if let Some(f) = t.flat() {
        return Some((f.n, usize::from(f.n != 0)));
    }
    match t.view() {
        V::I(_) => Some((1, 0)),
        V::T(xs) if xs.iter().all(|x| matches!(x, IntTuple::I(_))) => Some((xs.len(), usize::from(!xs.is_empty()))),
        _ => None,
    }
}

/// What [`small_value`] counted: the integers, and the deepest level it reached.
#[derive(Default)]
struct Walked {
    n: usize,
    deepest: usize,
}

/// True when `v` (at depth `d`, after the leaves `n` has counted) stays within `limit` leaves
/// and [`MAX_VALUE_DEPTH`] levels, counted as [`check_size`] counts them.
fn small_value(v: &Value, d: usize, n: &mut Walked, limit: usize) -> bool {
    if d > MAX_VALUE_DEPTH {
        return false;
    }
    n.deepest = n.deepest.max(d);
    let ok = match v {
        Value::Tuple(t) => small_tuple(t, d, n, limit),
        Value::Layout(l) => small_tuple(&l.shape, d + 1, n, limit) && small_tuple(&l.stride, d + 1, n, limit),
        Value::Composed(c) => {
            n.n += 1;
            small_func(&c.outer, d + 1, n, limit) && small_func(&c.inner, d + 1, n, limit)
        }
        Value::Tile(vs) => vs.iter().all(|x| small_value(x, d + 1, n, limit)),
        Value::Swizzle(_) | Value::Tag(_) | Value::Atom(_) | Value::Text(_) | Value::Str(_) | Value::File(_) => {
            n.n += 1;
            true
        }
    };
    ok && n.n <= limit
}

fn small_func(f: &Func, d: usize, n: &mut Walked, limit: usize) -> bool {
    if d > MAX_VALUE_DEPTH {
        return false;
    }
    n.deepest = n.deepest.max(d);
    let ok = match f {
        Func::Layout(l) => small_tuple(&l.shape, d + 1, n, limit) && small_tuple(&l.stride, d + 1, n, limit),
        Func::Swizzle(_) => {
            n.n += 1;
            true
        }
        Func::Composed(c) => {
            n.n += 1;
            small_func(&c.outer, d + 1, n, limit) && small_func(&c.inner, d + 1, n, limit)
        }
    };
    ok && n.n <= limit
}

fn small_tuple(t: &IntTuple, d: usize, n: &mut Walked, limit: usize) -> bool {
    if d > MAX_VALUE_DEPTH {
        return false;
    }
    n.deepest = n.deepest.max(d);
    match t.view() {
        V::I(_) | V::Under => n.n += 1,
        V::Basis(b) => n.n += 1 + b.modes.len(),
        V::T(xs) => {
            for x in xs.iter() {
                // (an integer child is counted here, without a call: most children are)
                if let IntTuple::I(_) = x {
                    if d + 1 > MAX_VALUE_DEPTH {
                        return false;
                    }
                    n.deepest = n.deepest.max(d + 1);
                    n.n += 1;
                } else if !small_tuple(x, d + 1, n, limit) {
                    return false;
                }
            }
        }
    }
    n.n <= limit
}

/// For a failed `identical(a, b)`: say when the two differ only in static-ness.
fn static_note(a: &Value, b: &Value) -> Option<String> {
    if !equal_ignoring_static(a, b) {
        return None;
    }
    Some(match (a, b) {
        (Value::Tuple(IntTuple::I(x)), Value::Tuple(IntTuple::I(y))) => format!(
            "equal values, but {} is {} and {} is {} (identical compares static-ness too; `==` does not)",
            a,
            if x.s { "static" } else { "dynamic" },
            b,
            if y.s { "static" } else { "dynamic" }
        ),
        _ => "equal but for static-ness (`_8` is static, `8` dynamic); `==` ignores it".to_string(),
    })
}

/// The closest candidate within edit distance 2 (1 for names of ≤ 3 characters; none for
/// one-character names).
pub fn suggest<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let n = name.chars().count();
    let limit = match n {
        0 | 1 => return None,
        2 | 3 => 1,
        _ => 2,
    };
    let mut best: Option<(usize, &'a str)> = None;
    for &c in candidates {
        if c == name || c.chars().count().abs_diff(n) > limit {
            continue;
        }
        let d = edit_distance(name, c);
        if d <= limit && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// For the fuzzers and tests: every statement of `src` that [`crate::parser::Statements::next_literal_call`]
/// takes is the call [`crate::parser::Statements::next_stmt`] gives there (its name, spans and
/// argument values), given back it is that statement again, and [`Interp::run_literal_call`]
/// runs it as [`Interp::run`] runs the tree: the same outcome and last value, or `None` (the
/// session then runs the tree). The other statements are read and run alike by both sides.
/// `Err` describes the first difference; `Ok` counts the calls run from their values. Stops
/// at the first statement that fails to parse and where the values nest deeply (the session
/// runs those on a large stack).
pub fn literal_calls_agree(src: &str) -> Result<usize, String> {
    use crate::parser::{statements_lazy, LiteralCall};
    let (Ok(mut a), Ok(mut b)) = (statements_lazy(src, 32), statements_lazy(src, 32)) else { return Ok(0) };
    let (mut x, mut y) = (Interp::new(), Interp::new());
    let mut c = LiteralCall::default();
    let mut by_values = 0;
    for n in 0.. {
        if x.has_deep_values() || y.has_deep_values() {
            return Ok(by_values);
        }
        crate::eval::budget::start(None);
        if !a.next_literal_call(&mut c) {
            let (p, q) = (a.next_stmt(), b.next_stmt());
            if p != q {
                return Err(format!("statement {n}: {p:?} beside the literal calls, {q:?} without"));
            }
            let Some(Ok(s)) = p else { return Ok(by_values) };
            if x.run(&s) != y.run(&s) {
                return Err(format!("statement {n}: {s:?} ran differently on the two sides"));
            }
            continue;
        }
        let Some(Ok(tree)) = b.next_stmt() else {
            return Err(format!("statement {n}: a literal call {c:?} where next_stmt gives none"));
        };
        let StmtKind::Expr(Expr { kind: ExprKind::Call(call), span }) = &tree.kind else {
            return Err(format!("statement {n}: a literal call {c:?} where next_stmt gives {tree:?}"));
        };
        let args: Option<Vec<(Value, Span)>> = call
            .args
            .iter()
            .map(|e| match &e.kind {
                ExprKind::Lit(v) => Some((v.clone(), e.span)),
                ExprKind::Int { value, is_static } => Some((Value::from(Int::new(*value, *is_static)), e.span)),
                ExprKind::Under => Some((Value::Tuple(IntTuple::Under), e.span)),
                _ => None,
            })
            .collect();
        let read: Vec<(Value, Span)> = c.args.iter().cloned().zip(c.spans.iter().copied()).collect();
        let name = src.get(c.name.start..c.name.end).unwrap_or("");
        if call.name != name
            || call.name_span != c.name
            || !call.targs.is_empty()
            || *span != c.call
            || tree.span != c.stmt
            || args.as_ref() != Some(&read)
        {
            return Err(format!("statement {n}: the literal call {c:?} is not the tree {tree:?}"));
        }
        match x.run_literal_call(name, &c) {
            None => {
                // given back, it is read as the tree, and run so on both sides
                a.put_back(&c);
                match a.next_stmt() {
                    Some(Ok(s)) if s == tree => {}
                    other => return Err(format!("statement {n}: given back, {c:?} was read as {other:?}")),
                }
                crate::eval::budget::start(None);
                if x.run(&tree) != y.run(&tree) {
                    return Err(format!("statement {n}: {tree:?} ran differently on the two sides"));
                }
            }
            Some(r) => {
                by_values += 1;
                crate::eval::budget::start(None);
                let t = y.run(&tree);
                if r != t || x.last() != y.last() {
                    return Err(format!("statement {n}: {name}(..) gave {r:?} from its values, {t:?} as a tree"));
                }
            }
        }
    }
    Ok(by_values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::int::{dy, st};

    fn sp(a: usize, b: usize) -> Span {
        Span::new(a, b)
    }
    fn ex(kind: ExprKind, a: usize, b: usize) -> Expr {
        Expr { kind, span: sp(a, b) }
    }
    fn int(v: i64, s: bool, a: usize) -> Expr {
        ex(ExprKind::Int { value: v, is_static: s }, a, a + 1)
    }
    fn tup(es: Vec<Expr>) -> Expr {
        ex(ExprKind::Tuple(es), 0, 10)
    }
    fn name(n: &str, a: usize) -> Expr {
        ex(ExprKind::Name(Box::new(crate::parser::ast::Named { name: n.into(), targs: vec![] })), a, a + n.len())
    }
    fn stmt(kind: StmtKind) -> Stmt {
        Stmt { kind, span: sp(0, 20) }
    }

    #[test]
    fn literals() {
        let i = Interp::new();
        assert_eq!(i.eval(&int(4, true, 0)).unwrap(), Value::from(st(4)));
        let l = ex(
            ExprKind::Layout(Box::new([
                tup(vec![int(2, true, 1), int(4, false, 3)]),
                tup(vec![int(1, true, 7), int(2, false, 9)]),
            ])),
            0,
            11,
        );
        assert_eq!(i.eval(&l).unwrap().to_string(), "(_2,4):(_1,2)");
        let t = ex(ExprKind::Tiler(vec![ex(ExprKind::Under, 1, 2), int(3, false, 3)]), 0, 5);
        assert_eq!(i.eval(&t).unwrap().to_string(), "(_,3)");
    }

    #[test]
    fn layout_side_type_error_points_at_side() {
        let i = Interp::new();
        let l = ex(ExprKind::Layout(Box::new([int(2, true, 0), name("LayoutLeft", 3)])), 0, 13);
        let e = i.eval(&l).unwrap_err();
        assert_eq!(e.span, sp(3, 13));
        assert_eq!(e.error.kind, ErrorKind::Type);
    }

    #[test]
    fn arithmetic() {
        let i = Interp::new();
        let b = |op, x, y| ex(ExprKind::Binary(op, Box::new(x), Box::new(y)), 0, 5);
        assert_eq!(i.eval(&b(BinOp::Add, int(2, true, 0), int(3, true, 4))).unwrap(), Value::from(st(5)));
        assert_eq!(i.eval(&b(BinOp::Mul, int(2, false, 0), int(3, true, 4))).unwrap(), Value::from(dy(6)));
        let e = i.eval(&b(BinOp::Div, int(2, false, 0), int(0, true, 4))).unwrap_err();
        assert_eq!((e.error.kind, e.span), (ErrorKind::DivZero, sp(4, 5)));
        let e = i.eval(&b(BinOp::Add, int(i64::MAX, false, 0), int(1, true, 4))).unwrap_err();
        assert_eq!((e.error.kind, e.span), (ErrorKind::Overflow, sp(0, 5)));
        let e = i.eval(&b(BinOp::Add, tup(vec![int(1, false, 1)]), int(1, true, 4))).unwrap_err();
        assert_eq!(e.error.kind, ErrorKind::Type);
    }

    #[test]
    fn names_and_bindings() {
        let mut i = Interp::new();
        assert_eq!(i.eval(&name("LayoutRight", 0)).unwrap(), Value::Tag("LayoutRight".into()));
        assert_eq!(i.eval(&name("half_t", 0)).unwrap(), Value::Tag("half_t".into()));
        let e = i.eval(&name("foo", 0)).unwrap_err();
        assert_eq!((e.error.kind, e.span), (ErrorKind::Unknown, sp(0, 3)));
        let r = i
            .exec(&stmt(StmtKind::Bind { name: "Apple".into(), name_span: sp(0, 1), value: int(8, true, 4) }))
            .unwrap();
        assert_eq!(r, Produced::Nothing);
        assert_eq!(i.eval(&name("Apple", 0)).unwrap(), Value::from(st(8)));
        let e = i.eval(&name("Appel", 0)).unwrap_err();
        assert_eq!(e.help.as_deref(), Some("did you mean 'Apple'?"));
        // A bound name shadows a tag.
        i.bind("K", Value::from(dy(3)));
        assert_eq!(i.eval(&name("K", 0)).unwrap(), Value::from(dy(3)));
        assert_eq!(i.bindings().count(), 2);
        i.reset();
        assert_eq!(i.bindings().count(), 0);
    }

    #[test]
    fn last_value_and_lone_underscore() {
        let mut i = Interp::new();
        i.repl = true;
        let under = stmt(StmtKind::Expr(ex(ExprKind::Under, 0, 1)));
        assert_eq!(i.exec(&under).unwrap(), Produced::Value(Value::Tuple(IntTuple::Under)));
        i.exec(&stmt(StmtKind::Expr(int(7, true, 0)))).unwrap();
        assert_eq!(i.exec(&under).unwrap(), Produced::Value(Value::from(st(7))));
        assert_eq!(i.eval(&name("last", 0)).unwrap(), Value::from(st(7)));
        // Inside an expression `_` stays Underscore.
        assert_eq!(i.eval(&tup(vec![ex(ExprKind::Under, 1, 2)])).unwrap().to_string(), "(_)");
        i.repl = false;
        assert_eq!(i.exec(&under).unwrap(), Produced::Value(Value::Tuple(IntTuple::Under)));
    }

    #[test]
    fn asserts() {
        let mut i = Interp::new();
        let a = |l, r: Option<Expr>| stmt(StmtKind::Assert { lhs: l, rhs: r.map(Box::new) });
        assert_eq!(i.exec(&a(int(1, true, 7), None)).unwrap(), Produced::AssertPassed);
        assert!(matches!(i.exec(&a(int(0, false, 7), None)), Err(Failure::Assert(_))));
        // `==` ignores static-ness.
        assert_eq!(i.exec(&a(int(8, true, 7), Some(int(8, false, 12)))).unwrap(), Produced::AssertPassed);
        match i.exec(&a(int(8, true, 7), Some(int(9, false, 12)))) {
            Err(Failure::Assert(f)) => {
                assert_eq!(f.lhs, (sp(7, 8), Value::from(st(8))));
                assert_eq!(f.rhs, Some((sp(12, 13), Value::from(dy(9)))));
                assert_eq!(f.span, sp(7, 13));
            }
            r => panic!("{r:?}"),
        }
        let t1 = tup(vec![int(2, true, 1), int(3, false, 3)]);
        let t2 = tup(vec![int(2, false, 1), int(3, true, 3)]);
        assert_eq!(i.exec(&a(t1, Some(t2))).unwrap(), Produced::AssertPassed);
        // A non-integer condition is a type error.
        assert!(matches!(i.exec(&a(tup(vec![]), None)), Err(Failure::Error(_))));
    }

    #[test]
    fn function_names_cannot_be_bound() {
        let mut i = Interp::new();
        let r =
            i.exec(&stmt(StmtKind::Bind { name: "identical".into(), name_span: sp(0, 9), value: int(1, false, 12) }));
        match r {
            Err(Failure::Error(l)) => assert_eq!((l.error.rule.as_str(), l.span), ("reserved name", sp(0, 9))),
            r => panic!("{r:?}"),
        }
    }

    #[test]
    fn calling_a_non_function_value() {
        let mut i = Interp::new();
        i.bind("x", Value::from(dy(3)));
        let call = ex(
            ExprKind::Call(Box::new(Call {
                name: "x".into(),
                name_span: sp(0, 1),
                targs: vec![],
                args: smallvec::smallvec![int(1, false, 2)],
            })),
            0,
            4,
        );
        let e = i.eval(&call).unwrap_err();
        assert_eq!((e.error.kind, e.span), (ErrorKind::Type, sp(0, 1)));
        let call = ex(
            ExprKind::Call(Box::new(Call {
                name: "nosuchfn".into(),
                name_span: sp(0, 8),
                targs: vec![],
                args: Default::default(),
            })),
            0,
            10,
        );
        let e = i.eval(&call).unwrap_err();
        assert_eq!((e.error.kind, e.span), (ErrorKind::Unknown, sp(0, 8)));
    }

    #[test]
    fn depth_bound_agrees_with_the_depth() {
        let mut t = IntTuple::I(Int::new(1, true));
        for d in 0..40 {
            let l = Value::Layout(Layout::new(t.clone(), t.clone()));
            for v in [Value::Tuple(t.clone()), l] {
                let depth = value_depth(&v);
                for limit in [0, 1, d, d + 1, 32] {
                    assert_eq!(within_depth(&v, limit), depth <= limit, "{v} {limit}");
                }
            }
            t = IntTuple::T(vec![t.clone(), IntTuple::Under]);
        }
    }

    #[test]
    fn size_guard() {
        let flat = |n: usize| Value::Tuple(IntTuple::T(vec![IntTuple::I(st(1)); n]));
        assert!(check_size(&flat(DEFAULT_MAX_LEAVES)).is_ok());
        let e = check_size(&flat(DEFAULT_MAX_LEAVES + 1)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert!(e.detail.contains("CUTE_MAX_LEAVES"), "{e}");
        let l = Value::Layout(Layout::new(
            IntTuple::T(vec![IntTuple::I(st(1)); 3000]),
            IntTuple::T(vec![IntTuple::I(st(1)); 3000]),
        ));
        assert!(check_size(&l).is_err());
        let mut deep = IntTuple::I(st(1));
        for _ in 0..MAX_VALUE_DEPTH {
            deep = IntTuple::T(vec![deep]);
        }
        assert!(check_size(&Value::Tuple(deep.clone())).is_ok());
        let deeper = Value::Tuple(IntTuple::T(vec![deep]));
        assert!(check_size(&deeper).unwrap_err().detail.contains("nested more than"));
        let mut tile = Value::from(st(1));
        for _ in 0..=MAX_VALUE_DEPTH {
            tile = Value::Tile(vec![tile, Value::Tag("K".into())]);
        }
        assert!(check_size(&tile).is_err());
        // The interpreter applies it to every value it builds.
        let mut i = Interp::new();
        i.bind("A", flat(200));
        let both = ex(ExprKind::Tuple(vec![name("A", 1), name("A", 3)]), 0, 5);
        let e = i.eval(&both).unwrap_err();
        assert_eq!((e.error.kind, e.span), (ErrorKind::Limit, sp(0, 5)));
    }

    #[test]
    fn suggestions_by_prefix() {
        let i = Interp::new();
        let call = |n: &str| {
            let e = ex(
                ExprKind::Call(Box::new(Call {
                    name: n.into(),
                    name_span: sp(0, n.len()),
                    targs: vec![],
                    args: Default::default(),
                })),
                0,
                n.len() + 2,
            );
            i.eval(&e).unwrap_err().help
        };
        // (issue 10 made `print` CuTe's own print, so the prefix case is shown with another word)
        assert_eq!(
            call("mma_layout").as_deref(),
            Some("did you mean 'mma_layout_A', 'mma_layout_B' or 'mma_layout_C'?")
        );
        assert_eq!(call("coalece").as_deref(), Some("did you mean 'coalesce'?"));
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("coalece", &["coalesce", "complement"]), Some("coalesce"));
        assert_eq!(suggest("A", &["B"]), None);
        assert_eq!(suggest("sze", &["size"]), Some("size"));
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
