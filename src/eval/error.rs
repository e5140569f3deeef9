//! Evaluation errors: one value per failed rule, carrying the values involved but no source span.
//! The interpreter stamps the span of the call (or of the offending argument) on them.
//! May import: `eval::int` only (for formatting values).

use super::int::Int;
use std::fmt;

/// Result of every algebra function.
pub type R<T> = Result<T, EvalError>;

/// What kind of failure: decides the wording and, for the CLI, nothing else (all are exit 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A condition CuTe checks with `static_assert` (or that makes its C++ fail to compile).
    Rule,
    /// 64-bit overflow (CuTe wraps; we refuse).
    Overflow,
    /// Division or modulo by zero (CuTe dies with SIGFPE).
    DivZero,
    /// An argument of the wrong kind (a layout where an integer is needed, ...).
    Type,
    /// Wrong number of arguments or template arguments.
    Arity,
    /// An unknown function or unbound name.
    Unknown,
    /// An output or input too large to compute or show.
    Limit,
    /// Anything the GPU runtime reports (no driver, NVRTC log, failed check).
    Runtime,
    /// A file that could not be written (the OS reason in the detail).
    Io,
}

/// An error from the algebra. `rule` is the short name shown first (`stride divisibility`),
/// `detail` the values (`6 does not divide 4`). `arg` optionally says which argument of the
/// call is at fault, so the caret can point at it.
///
/// The fields live behind one `Box` (read and written through `Deref`), so an `R<Int>` is 16
/// bytes, not 72: results are returned on every arithmetic step, errors are rare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError(Box<ErrorData>);

/// The fields of an `EvalError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorData {
    pub kind: ErrorKind,
    pub rule: String,
    pub detail: String,
    pub arg: Option<usize>,
}

impl std::ops::Deref for EvalError {
    type Target = ErrorData;
    fn deref(&self) -> &ErrorData {
        &self.0
    }
}

impl std::ops::DerefMut for EvalError {
    fn deref_mut(&mut self) -> &mut ErrorData {
        &mut self.0
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.detail.is_empty() {
            write!(f, "{}", self.rule)
        } else {
            write!(f, "{}: {}", self.rule, self.detail)
        }
    }
}

impl std::error::Error for EvalError {}

impl EvalError {
    #[cold]
    pub fn new(kind: ErrorKind, rule: impl Into<String>, detail: impl Into<String>) -> Self {
        EvalError(Box::new(ErrorData { kind, rule: rule.into(), detail: detail.into(), arg: None }))
    }
    /// A violated CuTe condition, e.g. `rule("stride divisibility", "6 does not divide 4")`.
    #[cold]
    pub fn rule(rule: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(ErrorKind::Rule, rule, detail)
    }
    #[cold]
    pub fn type_err(detail: impl Into<String>) -> Self {
        Self::new(ErrorKind::Type, "type mismatch", detail)
    }
    #[cold]
    pub fn arity(detail: impl Into<String>) -> Self {
        Self::new(ErrorKind::Arity, "wrong number of arguments", detail)
    }
    #[cold]
    pub fn unknown(detail: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unknown, "unknown name", detail)
    }
    #[cold]
    pub fn limit(detail: impl Into<String>) -> Self {
        Self::new(ErrorKind::Limit, "too large", detail)
    }
    #[cold]
    pub fn runtime(rule: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(ErrorKind::Runtime, rule, detail)
    }
    #[cold]
    pub fn overflow(op: &str, a: Int, b: Int) -> Self {
        Self::new(ErrorKind::Overflow, "integer overflow", format!("{a} {op} {b} does not fit in 64 bits"))
    }
    #[cold]
    pub fn div_zero(a: Int, b: Int) -> Self {
        Self::new(ErrorKind::DivZero, "division by zero", format!("{a} / {b}"))
    }
    /// An error of an inner call on a value built from this call's arguments, as this call's:
    /// at argument `i` (the value is that argument) or at the whole call (`None`: built from
    /// several), whatever argument of the inner call it named.
    pub fn as_arg(mut self, i: Option<usize>) -> Self {
        self.arg = i;
        self
    }
    /// Mark which argument (0-based) of the call is at fault, unless already set.
    pub fn at_arg(mut self, i: usize) -> Self {
        if self.arg.is_none() {
            self.arg = Some(i);
        }
        self
    }
}

thread_local! {
    static WARNINGS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Record a warning: CuTe printed an answer that is not the mathematical result (e.g. a
/// composition that is not `A(B(i))` at some index). The interpreter prints it on stderr as
/// `warning: ...` after the statement.
pub fn warn(msg: impl Into<String>) {
    WARNINGS.with(|w| w.borrow_mut().push(msg.into()));
}

/// Take (and clear) the warnings recorded since the last call.
#[inline]
pub fn take_warnings() -> Vec<String> {
    // (nearly always none: then nothing is swapped, and the empty vector's drop is no work)
    WARNINGS.with(|w| {
        let mut w = w.borrow_mut();
        if w.is_empty() {
            Vec::new()
        } else {
            std::mem::take(&mut *w)
        }
    })
}

/// True when no warning is waiting to be taken.
#[inline]
pub fn no_warnings() -> bool {
    WARNINGS.with(|w| w.borrow().is_empty())
}

#[cfg(test)]
mod tests {
    /// Results are passed back on every arithmetic step: the error payload stays boxed.
    #[test]
    fn results_are_small() {
        assert!(std::mem::size_of::<super::R<super::Int>>() <= 24);
        assert_eq!(std::mem::size_of::<super::EvalError>(), 8);
    }
}
