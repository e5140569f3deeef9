//! Shared by the integration tests: evaluate a line of statements with the real parser and
//! interpreter (what the session runs) and read back the last value.
#![allow(dead_code)]

use cute::eval::error::EvalError;
use cute::eval::value::Value;
use cute::interp::Interp;
use cute::parser::ast::StmtKind;

/// Evaluate `s1; s2; ...` and return the last expression's value (printed text included).
pub fn eval_value(src: &str) -> Result<Value, EvalError> {
    let prog = cute::parser::parse(src).map_err(|e| EvalError::type_err(format!("parse: {}", e.message)))?;
    let mut it = Interp::new();
    let mut last = None;
    for s in &prog.stmts {
        match &s.kind {
            StmtKind::Expr(e) => last = Some(it.eval(e).map_err(|l| l.error)?),
            StmtKind::Bind { .. } => {
                it.exec(s).map_err(|f| match f {
                    cute::interp::Failure::Error(l) => l.error,
                    cute::interp::Failure::Assert(_) => EvalError::type_err("assert failed"),
                })?;
            }
            _ => return Err(EvalError::type_err("test evaluator: unsupported statement")),
        }
    }
    last.ok_or_else(|| EvalError::type_err("no value"))
}

/// Evaluate `s1; s2; ...` and return what CuTe prints for the last value.
pub fn eval(src: &str) -> Result<String, EvalError> {
    eval_value(src).map(|v| v.to_string())
}
