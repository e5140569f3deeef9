//! Analysis of layouts: questions a kernel author asks about a layout beyond what it *is* —
//! shared-memory bank conflicts, global-memory coalescing, when a swizzle folds into a slice,
//! injectivity — plus CuTe's integer `shiftl`/`shiftr` that the swizzle-bit questions use.
//! Every answer is a value usable in `assert`; `explain` shows how it was counted.
//! Free of rendering: produces numbers and text lines only.
//! May import: `eval::{builtins, error, int, int_tuple, layout, value}` and `eval::ops`.

pub mod access;
pub mod banks;
pub mod coalescing;
pub mod gemm;
pub mod injective;
pub mod slice;

use crate::eval::builtins::{b, Arity, MANY};
use crate::eval::builtins::{Args, Builtin};
use crate::eval::error::{EvalError, R};
use crate::eval::int::Int;
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::value::Value;

/// Argument `i` as an integer, or a type error naming the function.
fn int_at(a: &Args, i: usize, f: &str) -> R<Int> {
    match a.arg(i)? {
        Value::Tuple(IntTuple::I(x)) => Ok(*x),
        v => Err(EvalError::type_err(format!("{f}: argument {} must be an integer, got {} `{v}`", i + 1, v.kind()))
            .at_arg(i)),
    }
}

/// The two integer arguments (the entry's `Arity::Takes(2, 2)` has counted them).
fn two_ints(a: &Args, f: &str) -> R<(Int, Int)> {
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

/// True when every integer in `v` is static (the answer is then static too, as CuTe would
/// compute it at compile time).
fn all_static(v: &Value) -> bool {
    fn t(x: &IntTuple) -> bool {
        x.leaves().iter().all(|l| !matches!(l, IntTuple::I(i) if !i.s))
    }
    match v {
        Value::Tuple(x) => t(x),
        Value::Layout(l) => t(&l.shape) && t(&l.stride),
        Value::Composed(c) => {
            c.offset.s
                && [&c.outer, &c.inner].iter().all(|f| match f {
                    crate::eval::layout::Func::Layout(l) => t(&l.shape) && t(&l.stride),
                    crate::eval::layout::Func::Composed(c) => all_static(&Value::Composed(c.clone())),
                    _ => true,
                })
        }
        Value::Tile(v) => v.iter().all(all_static),
        _ => true,
    }
}

fn answer(v: i64, args: &[&Value]) -> Value {
    Value::from(Int::new(v, args.iter().all(|v| all_static(v))))
}

fn f_bank_conflicts(a: &Args) -> R<Value> {
    let p = access::pattern("bank_conflicts", a.args, true)?;
    // The element size is a type, not a run-time value: only the layouts decide static-ness.
    Ok(answer(banks::count(&p).degree(), &a.args[..a.nargs().min(2)]))
}

fn f_coalescing(a: &Args) -> R<Value> {
    let p = access::pattern("coalescing", a.args, false)?;
    Ok(answer(coalescing::count(&p).degree(), &a.args[..a.nargs().min(2)]))
}

fn slice_args<'a>(a: &Args<'a>) -> R<(&'a Value, Value)> {
    match a.args {
        [l, c] => Ok((l, (*c).clone())),
        [l, rest @ ..] if rest.len() > 1 => Ok((l, Value::tuple(crate::eval::builtins::owned(rest)))),
        // (at least two arguments: the registry's arity)
        _ => Err(a.refuse()),
    }
}

fn f_swizzle_slice(a: &Args) -> R<Value> {
    let (l, c) = slice_args(a)?;
    Ok(slice::verdict(l, &c)?.slice)
}

/// (layout, codomain size) of is_surjective / is_bijective; (layout) of is_injective.
fn image_args(a: &Args, f: &str, with_n: bool) -> R<injective::Image> {
    let n = if with_n { Some(int_at(a, 1, f)?.v) } else { None };
    injective::image(a.arg(0)?, n)
}

fn f_is_injective(a: &Args) -> R<Value> {
    let im = image_args(a, "is_injective", false)?;
    Ok(answer(im.repeat.is_none() as i64, a.args))
}

fn f_is_surjective(a: &Args) -> R<Value> {
    let im = image_args(a, "is_surjective", true)?;
    Ok(answer(im.missing.is_none() as i64, a.args))
}

fn f_is_bijective(a: &Args) -> R<Value> {
    let im = image_args(a, "is_bijective", true)?;
    Ok(answer((im.repeat.is_none() && im.missing.is_none() && im.outside.is_none()) as i64, a.args))
}

/// `explain NAME(args)` for this module's functions (None: not one of them).
pub fn explain(name: &str, args: &[Value]) -> Option<R<Vec<String>>> {
    let r = match name {
        "bank_conflicts" => access::pattern(name, &crate::eval::builtins::refs(args), true)
            .map(|p| banks::explain(&p, &banks::count(&p))),
        "coalescing" => access::pattern(name, &crate::eval::builtins::refs(args), false)
            .map(|p| coalescing::explain(&p, &coalescing::count(&p))),
        "swizzle_slice" => match args {
            [l, c] => explain_slice(l, c),
            _ => return None,
        },
        "is_injective" | "is_surjective" | "is_bijective" => {
            let n = match args.get(1) {
                Some(Value::Tuple(IntTuple::I(i))) => Some(i.v),
                _ => None,
            };
            match args.first() {
                Some(l) => injective::image(l, n).map(|im| injective::explain(name, l, &im)),
                None => return None,
            }
        }
        _ => return None,
    };
    Some(r)
}

/// `explain swizzle_slice(S, c)` and `explain S(c)` for a swizzled S and a coordinate with `_`.
pub fn explain_slice(l: &Value, c: &Value) -> R<Vec<String>> {
    let v = slice::verdict(l, c)?;
    let mut out = slice::explain(&v);
    if let Some(check) = slice::check_points(l, c, &v)? {
        out.push(check);
    }
    Ok(out)
}

/// For a refusal CuTe makes only because integers are dynamic, although the question is
/// mathematically defined (a rank-2 `complement`, a `left_inverse` with dynamic strides): what
/// CuTe gives for the same arguments with every integer static.
pub fn static_note(
    name: &str,
    targs: &[crate::eval::builtins::TArg],
    args: &[&Value],
    err: &EvalError,
) -> Option<String> {
    let dynamic_only = matches!(
        err.rule.as_str(),
        "dynamic-stride complement only for rank-1 layouts" | "left inverse requires static strides"
    );
    if !dynamic_only {
        return None;
    }
    fn st_tuple(t: &IntTuple) -> IntTuple {
        match t.view() {
            V::I(i) => IntTuple::I(Int::new(i.v, true)),
            V::T(v) => IntTuple::T(v.iter().map(st_tuple).collect()),
            _ => t.clone(),
        }
    }
    let st_args: Vec<Value> = args
        .iter()
        .map(|a| match a {
            Value::Tuple(t) => Value::Tuple(st_tuple(t)),
            Value::Layout(l) => {
                Value::Layout(crate::eval::layout::Layout::new(st_tuple(&l.shape), st_tuple(&l.stride)))
            }
            &v => v.clone(),
        })
        .collect();
    let v = crate::eval::builtins::call(name, targs, &st_args).ok()?;
    let shown: Vec<String> = st_args.iter().map(|a| a.to_string()).collect();
    Some(format!("with static integers CuTe gives {name}({}) = {v}", shown.join(", ")))
}

/// Built-in functions of this module.
#[rustfmt::skip]
pub const BUILTINS: &[Builtin] = &[
    b!("bank_conflicts", "bank_conflicts(copy_or_tv, smem [, elem])", "Shared-memory bank-conflict degree of one warp's access (wavefronts / ideal, rounded up; 1 = conflict-free): a TiledCopy, an ldmatrix/stmatrix atom (or operation with elem), or a (thread, value) layout of elem-byte accesses (default 4) over a swizzled or plain smem layout", "bank_conflicts(SM75_U32x4_LDSM_N, (_8,_64):(_64,_1), half_t)", "_8", f_bank_conflicts; Arity::Says(2, 3, 0, "bank_conflicts takes (access, memory layout [, element]), got {n} arguments")),
    b!("coalescing", "coalescing(copy_or_tv, gmem [, elem])", "Global-memory coalescing degree of one warp's requests (32-byte sectors / minimum, rounded up; 1 = coalesced)", "coalescing((_32,_4):(_4,_1), _128:_1)", "_4", f_coalescing; Arity::Says(2, 3, 0, "coalescing takes (access, memory layout [, element]), got {n} arguments")),
    b!("swizzle_slice", "swizzle_slice(Sw<B,M,S> o L, coord)", "CuTe's slice of a swizzled layout: a plain layout when no Y/Z bit pair of the swizzle is active on both sides over the slice, else still composed (explain shows A, sw(A), A & ~sw(A))", "swizzle_slice(Sw<3,3,3> o (_8,_64):(_64,_1), (_,5))", "((_2,_2,_2)):((72,144,288))", f_swizzle_slice; Arity::Says(2, MANY, 0, "swizzle_slice takes (Sw<B,M,S> o L, coordinate with `_`)")),
    b!("is_injective", "is_injective(L)", "Test: no two points of L's domain map to the same offset", "is_injective((_2,_2):(_1,_1))", "_0", f_is_injective; Arity::Says(1, 1, 0, "is_injective takes (L), got {n} arguments")),
    b!("is_surjective", "is_surjective(L, n)", "Test: L hits every offset in [0, n)", "is_surjective((_4,_2):(_2,_1), _8)", "_1", f_is_surjective; Arity::Says(2, 2, 0, "is_surjective takes (L, n), got {n} arguments")),
    b!("is_bijective", "is_bijective(L, n)", "Test: L maps its domain one-to-one onto [0, n)", "is_bijective((_4,_2):(_2,_2), _8)", "_0", f_is_bijective; Arity::Says(2, 2, 0, "is_bijective takes (L, n), got {n} arguments")),
    b!("shiftl", "shiftl(x, s)", "CuTe's shiftl: x << s (x >> -s for negative s); static iff both are", "shiftl(_3, _4)", "_48", f_shiftl; Arity::Takes(2, 2)),
    b!("shiftr", "shiftr(x, s)", "CuTe's shiftr: x >> s, arithmetic (x << -s for negative s); static iff both are", "shiftr(_-48, _4)", "_-3", f_shiftr; Arity::Takes(2, 2)),
];
