//! `print(x)`: CuTe's own `print`, the value as CuTe prints it (the `Display` of the value), so
//! that `print(L)` written as in C++ shows `L`. May import: `eval` (values), nothing else.

use crate::eval::builtins::{Args, Builtin};
use crate::eval::error::R;
use crate::eval::value::Value;

fn f_print(a: &Args) -> R<Value> {
    let v = a.arg(0)?;
    if let Value::Atom(atom) = v {
        // CuTe has no print for an operation type (`print(SM80_...{})` does not compile).
        atom.check_printable().map_err(|e| e.at_arg(0))?;
    }
    Ok(Value::Text(match v {
        Value::Text(t) => t.clone(),
        v => v.to_string(),
    }))
}

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[Builtin {
    name: "print",
    sig: "print(x)",
    doc: "CuTe's print: the value as CuTe prints it (what an expression statement shows)",
    example: "print((_2,_4):(_1,_2))",
    result: "(_2,_4):(_1,_2)",
    f: f_print,
    arity: crate::eval::builtins::Arity::Says(1, 1, 0, "print(x) takes one value"),
}];
