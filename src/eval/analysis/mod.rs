//! Analysis of layouts: questions a kernel author asks about a layout beyond what it *is* —
//! shared-memory bank conflicts, global-memory coalescing, when a swizzle folds into a slice,
//! injectivity — plus CuTe's integer `shiftl`/`shiftr` that the swizzle-bit questions use.
//! Every answer is a value usable in `assert`; `explain` shows how it was counted.
//! Free of rendering: produces numbers and text lines only.
//! May import: `eval::{builtins, error, int, int_tuple, layout, value}` and `eval::ops`.

use crate::eval::builtins::{Args, Builtin};
use crate::eval::error::{EvalError, R};
use crate::eval::int::Int;
use crate::eval::int_tuple::IntTuple;
use crate::eval::value::Value;

/// Argument `i` as an integer, or a type error naming the function.
fn int_at(a: &Args, i: usize, f: &str) -> R<Int> {
    match a.arg(i)? {
        Value::Tuple(IntTuple::I(x)) => Ok(*x),
        v => Err(EvalError::type_err(format!("{f}: argument {} must be an integer, got {} `{v}`", i + 1, v.kind()))
            .at_arg(i)),
    }
}

fn two_ints(a: &Args, f: &str) -> R<(Int, Int)> {
    if a.nargs() != 2 {
        return Err(EvalError::arity(format!("{f} takes 2 arguments, got {}", a.nargs())));
    }
    let (x, s) = (int_at(a, 0, f)?, int_at(a, 1, f)?);
    // CuTe declares both `shiftl(T, int)` (math.hpp) and `shiftl(C<t>, U)` (integral_constant.hpp):
    // a static value with a dynamic shift matches both equally well, and g++ refuses the call.
    if x.s && !s.s {
        return Err(EvalError::type_err(format!(
            "no matching function: {f}({x}, {s}) is ambiguous in CuTe (a static value, a dynamic shift); make both static or both dynamic"
        )));
    }
    Ok((x, s))
}

fn f_shiftl(a: &Args) -> R<Value> {
    let (x, s) = two_ints(a, "shiftl")?;
    x.shiftl(s).map(Value::from)
}

fn f_shiftr(a: &Args) -> R<Value> {
    let (x, s) = two_ints(a, "shiftr")?;
    x.shiftr(s).map(Value::from)
}

macro_rules! b {
    ($name:expr, $sig:expr, $doc:expr, $ex:expr, $res:expr, $f:expr) => {
        Builtin { name: $name, sig: $sig, doc: $doc, example: $ex, result: $res, f: $f }
    };
}

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[
    b!(
        "shiftl",
        "shiftl(x, s)",
        "CuTe's shiftl: x << s (x >> -s for negative s); static iff both are",
        "shiftl(_3, _4)",
        "_48",
        f_shiftl
    ),
    b!(
        "shiftr",
        "shiftr(x, s)",
        "CuTe's shiftr: x >> s, arithmetic (x << -s for negative s); static iff both are",
        "shiftr(_-48, _4)",
        "_-3",
        f_shiftr
    ),
];
