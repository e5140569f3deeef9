//! The layout algebra proper, ported case by case from CuTe's `layout.hpp`: coalesce,
//! composition (with layouts and tilers), complement, the inverses, max_common_layout/vector,
//! nullspace, domain_distribute, max_alignment, upcast/downcast/recast_layout, and the member
//! forms `with_shape` / `compose`. Divides and products are in `ops::divide`.
//!
//! Swizzles and swizzled (composed) layouts are not handled here: `eval::overloads` sends them
//! to `ops::swizzle`'s forms, which call the typed functions below on the inner layouts.
//! May import: the core types (`int`, `int_tuple`, `layout`, `value`, `error`, `builtins`),
//! `ops::divide`.

mod cast;
mod coalesce;
mod complement;
mod composition;
mod digits;
mod inverse;
pub mod list;
pub mod util;

pub use cast::{cast_integer, downcast, recast_layout, type_bits, upcast};
pub use coalesce::{
    coalesce, coalesce_flat_into, coalesce_int_flat_into, coalesce_into, coalesce_modes, coalesce_profile,
    coalesce_shape, coalesce_shape_of, coalesce_to, coalesce_traced, coalesce_x, int_modes_into, modes_shape,
    CoalesceTrace, IntModes,
};
pub(crate) use coalesce::{coalesce_two_modes, int_mode_pair};
pub use complement::{complement, complement_cosize, complement_to, complement_traced, ComplementTrace};
pub use composition::{
    check_composition, composition, composition_exact, composition_pair_to, composition_raw, composition_tiler,
    composition_tiler_raw, eval_flat_at, Tiler, CHECK_LIMIT,
};
pub(crate) use composition::{compose_flat, flat_int_modes, BModes};
pub use inverse::{
    check_left_inverse, check_right_inverse, domain_distribute, left_inverse, left_inverse_exact,
    left_inverse_is_exact, max_alignment, max_common_layout, max_common_vector, nullspace, right_inverse,
    right_inverse_checked, right_inverse_exact, right_inverse_is_exact,
};

use crate::eval::builtins::{Args, Builtin, TArg};
use crate::eval::error::{EvalError, R};
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::Layout;
use crate::eval::value::Value;
use util::compact_col_major;

/// Argument `i` as a layout. Swizzles and swizzled layouts are the call's refusal (the swizzle
/// module's forms take them); other kinds are type errors at that argument.
#[inline]
pub fn layout_arg<'a>(a: &Args<'a>, i: usize) -> R<&'a Layout> {
    match a.args.get(i) {
        Some(Value::Layout(l)) => Ok(l),
        _ => Err(not_kind(a, i, "a layout")),
    }
}

/// The error of an argument `i` that is not of the kind wanted (apart: few calls fail): the
/// arity error when it is missing, the call's refusal for a swizzle or swizzled layout (the
/// swizzle module's forms take them), else a type error at that argument.
#[cold]
fn not_kind(a: &Args, i: usize, want: &str) -> EvalError {
    match a.arg(i) {
        Err(e) => e,
        Ok(Value::Swizzle(_) | Value::Composed(_)) => a.refuse(),
        Ok(v) => EvalError::type_err(format!("expected {want}, got {} `{v}`", v.kind())).at_arg(i),
    }
}

/// Argument `i` as a tiler (layout, integer, shape, `_` or `<...>`).
pub fn tiler_arg(a: &Args, i: usize) -> R<Tiler> {
    match Tiler::read(a.arg(i)?) {
        Some(t) => t.map_err(|e| e.at_arg(i)),
        None => Err(a.refuse()),
    }
}

/// Argument `i` as an IntTuple (integer, tuple).
#[inline]
fn tuple_arg<'a>(a: &Args<'a>, i: usize) -> R<&'a IntTuple> {
    match a.args.get(i) {
        Some(Value::Tuple(t)) => Ok(t),
        _ => Err(not_kind(a, i, "an integer or tuple")),
    }
}

/// `make_layout(shape)`: compact column-major.
fn make_layout(shape: &IntTuple) -> R<Layout> {
    Ok(Layout::new(shape.clone(), compact_col_major(shape, crate::eval::int::st(1))?))
}

/// `with_shape(L, shape)`: `L o make_layout(shape)`.
pub fn with_shape(l: &Layout, shape: &IntTuple) -> R<Layout> {
    composition(l, &make_layout(shape)?)
}

#[inline(always)]
pub(crate) fn b_coalesce(a: &Args) -> R<Value> {
    // (a layout alone: most calls)
    if let [Value::Layout(l)] = a.args {
        return coalesce_to(l);
    }
    match a.arg(0)? {
        Value::Tuple(t) if a.nargs() == 1 => Ok(Value::Tuple(coalesce_shape(t)?)),
        Value::Layout(l) => match a.args.get(1) {
            // (no profile is the arm above) a profile that is not a tuple (here: a layout,
            // swizzle, tag or `_`) is a leaf
            None
            | Some(Value::Layout(_) | Value::Swizzle(_) | Value::Composed(_) | Value::Tag(_))
            | Some(Value::Tuple(IntTuple::Under)) => Ok(Value::Layout(coalesce(l)?)),
            Some(_) => Ok(Value::Layout(coalesce_profile(l, tuple_arg(a, 1)?).map_err(|e| e.at_arg(1))?)),
        },
        Value::Swizzle(_) | Value::Composed(_) => Err(a.refuse()),
        v => Err(EvalError::type_err(format!("coalesce needs a layout or a shape, got {} `{v}`", v.kind())).at_arg(0)),
    }
}

#[inline]
pub(crate) fn b_composition(a: &Args) -> R<Value> {
    // composition(A, offset, B) builds a ComposedLayout: the swizzle module's overload.
    if a.nargs() == 3 {
        return Err(a.refuse());
    }
    let l = layout_arg(a, 0)?;
    // Layout o layout, the common case, without copying B into a tiler.
    if let Value::Layout(b) = a.arg(1)? {
        // (its errors are argument 1's)
        return composition::composition_to(l, b, 1);
    }
    let t = tiler_arg(a, 1)?;
    Ok(Value::Layout(composition_tiler(l, &t).map_err(|e| e.at_arg(1))?))
}

pub(crate) fn b_compose(a: &Args) -> R<Value> {
    let l = layout_arg(a, 0)?;
    let t = if a.nargs() == 2 {
        tiler_arg(a, 1)?
    } else {
        Tiler::Tuple((1..a.nargs()).map(|i| tiler_arg(a, i)).collect::<R<_>>()?)
    };
    Ok(Value::Layout(composition_tiler(l, &t)?))
}

pub(crate) fn b_with_shape(a: &Args) -> R<Value> {
    let l = layout_arg(a, 0)?;
    let shape = if a.nargs() == 2 {
        let s = tuple_arg(a, 1)?;
        // CuTe's member `with_shape(shape)` calls `make_layout(shape)` unqualified: a plain `int`
        // has no namespace for argument-dependent lookup, so the C++ does not compile.
        if let IntTuple::I(i) = s {
            if !i.s {
                return Err(EvalError::rule(
                    "with_shape of a dynamic integer",
                    format!("CuTe cannot make a layout from the run-time int {i} here; write ({i}) or _{}", i.v),
                )
                .at_arg(1));
            }
        }
        s.clone()
    } else {
        IntTuple::T((1..a.nargs()).map(|i| tuple_arg(a, i).cloned()).collect::<R<_>>()?)
    };
    Ok(Value::Layout(with_shape(l, &shape)?))
}

#[inline]
pub(crate) fn b_complement(a: &Args) -> R<Value> {
    let l = layout_arg(a, 0)?;
    match a.args.get(1) {
        None => Ok(Value::Layout(complement_cosize(l)?)),
        Some(Value::Layout(c)) => Ok(Value::Layout(complement(l, &c.shape)?)),
        // complement takes shape(cotarget): a composed layout's is its inner layout's shape
        Some(c @ Value::Composed(_)) => match crate::eval::builtins::call("shape", &[], std::slice::from_ref(c))? {
            Value::Tuple(s) => Ok(Value::Layout(complement(l, &s)?)),
            v => Err(EvalError::type_err(format!("complement: the shape of the cotarget is {v}")).at_arg(1)),
        },
        Some(_) => complement_to(l, tuple_arg(a, 1)?),
    }
}

#[inline(always)]
fn under_or_layout(a: &Args, f: impl FnOnce(&Layout) -> R<Value>) -> R<Value> {
    match a.arg(0)? {
        Value::Tuple(IntTuple::Under) => Ok(Value::Tuple(IntTuple::Under)),
        // swizzle_layout.hpp's "kludge" for an offset: right_inverse(t) = left_inverse(t) = -t
        Value::Tuple(IntTuple::I(i)) => Ok(Value::from(i.neg()?)),
        _ => f(layout_arg(a, 0)?),
    }
}

#[inline]
pub(crate) fn b_right_inverse(a: &Args) -> R<Value> {
    // (the value made where it is returned, the law checked where not exact by construction)
    under_or_layout(a, right_inverse_checked)
}

#[inline]
pub(crate) fn b_left_inverse(a: &Args) -> R<Value> {
    under_or_layout(a, |l| {
        let (r, exact) = left_inverse_exact(l)?;
        // (nothing to check where the check cannot warn)
        if !exact {
            check_left_inverse(l, &r);
        }
        Ok(Value::Layout(r))
    })
}

pub(crate) fn b_max_common_layout(a: &Args) -> R<Value> {
    Ok(Value::Layout(max_common_layout(layout_arg(a, 0)?, layout_arg(a, 1)?)?))
}

pub(crate) fn b_max_common_vector(a: &Args) -> R<Value> {
    Ok(Value::from(max_common_vector(layout_arg(a, 0)?, layout_arg(a, 1)?)?))
}

pub(crate) fn b_nullspace(a: &Args) -> R<Value> {
    Ok(Value::Layout(nullspace(layout_arg(a, 0)?)?))
}

fn b_domain_distribute(a: &Args) -> R<Value> {
    let s = match a.arg(0)? {
        Value::Layout(l) => l.shape.clone(),
        _ => tuple_arg(a, 0)?.clone(),
    };
    Ok(Value::Layout(domain_distribute(&s, tuple_arg(a, 1)?).map_err(|e| e.at_arg(1))?))
}

pub(crate) fn b_max_alignment(a: &Args) -> R<Value> {
    if let Value::Tuple(IntTuple::Under) = a.arg(0)? {
        return Ok(Value::from(crate::eval::int::st(0))); // Underscore is an Int<0>
    }
    if let Value::Tuple(IntTuple::I(i)) = a.arg(0)? {
        // swizzle.hpp: max_alignment(C<v>) is c; there is none for a run-time integer
        if !i.s {
            return Err(EvalError::rule("no matching function", format!("max_alignment of the run-time integer {i}")));
        }
        return Ok(Value::from(*i));
    }
    Ok(Value::from(max_alignment(layout_arg(a, 0)?)?))
}

fn one_targ(a: &Args, name: &str) -> R<i64> {
    if a.targs.len() != 1 {
        return Err(EvalError::arity(format!("{name}<N> takes one template argument")));
    }
    a.tint(0)
}

pub(crate) fn b_upcast(a: &Args) -> R<Value> {
    let n = one_targ(a, "upcast")?;
    if a.nargs() == 2 {
        let (s, d) = (tuple_arg(a, 0)?, tuple_arg(a, 1)?);
        return Ok(Value::Layout(upcast(&Layout::new(s.clone(), d.clone()), n)?));
    }
    match a.arg(0)? {
        Value::Tuple(IntTuple::I(i)) => return Ok(Value::from(cast_integer(*i, n, true)?)),
        // Underscore is an Int<0>: the integral overload takes it
        Value::Tuple(IntTuple::Under) => return Ok(Value::from(cast_integer(crate::eval::int::st(0), n, true)?)),
        _ => {}
    }
    Ok(Value::Layout(upcast(layout_arg(a, 0)?, n)?))
}

pub(crate) fn b_downcast(a: &Args) -> R<Value> {
    let n = one_targ(a, "downcast")?;
    match a.arg(0)? {
        Value::Tuple(IntTuple::I(i)) => return Ok(Value::from(cast_integer(*i, n, false)?)),
        // Underscore is an Int<0>: the integral overload takes it
        Value::Tuple(IntTuple::Under) => return Ok(Value::from(cast_integer(crate::eval::int::st(0), n, false)?)),
        _ => {}
    }
    Ok(Value::Layout(downcast(layout_arg(a, 0)?, n)?))
}

pub(crate) fn b_recast_layout(a: &Args) -> R<Value> {
    if a.targs.len() != 2 {
        return Err(EvalError::arity("recast_layout<OldType, NewType>(L) takes two type arguments"));
    }
    let bits = |k: usize| -> R<i64> {
        match &a.targs[k] {
            TArg::Name(n) => type_bits(n).ok_or_else(|| EvalError::type_err(format!("unknown value type `{n}`"))),
            TArg::Int(v) => Err(EvalError::type_err(format!("recast_layout needs type names, got {v}"))),
        }
    };
    let (old, new) = (bits(0)?, bits(1)?);
    Ok(Value::Layout(recast_layout(layout_arg(a, 0)?, old, new)?))
}

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "coalesce",
        sig: "coalesce(L [, profile]) | coalesce(shape)",
        doc: "Merge modes of L that can be merged (static ones only), keeping L as a function",
        example: "coalesce((_2,(_1,_6)):(_1,(_6,_2)))",
        result: "_12:_1",
        f: crate::eval::overloads::coalesce,
        arity: crate::eval::builtins::Arity::Takes(1, 2),
    },
    Builtin {
        name: "composition",
        sig: "composition(A, B)  (also written A o B)",
        doc: "The layout i -> A(B(i)) with B's shape; B may be a layout, a tiler <...>, a shape or an integer",
        example: "composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))",
        result: "((_2,_2),_3):((_24,_2),_8)",
        f: crate::eval::overloads::composition,
        arity: crate::eval::builtins::Arity::Says(2, 3, 0, "composition takes 2 arguments, got {n}"),
    },
    Builtin {
        name: "compose",
        sig: "compose(L, t0, t1, ...)",
        doc: "Member form L.compose(t0, ...): composition(L, <t0, ...>)",
        example: "compose((_4,_8):(_8,_1), _, _4:_2)",
        result: "(_4,_4):(_8,_2)",
        f: crate::eval::overloads::compose,
        arity: crate::eval::builtins::Arity::Says(
            2,
            crate::eval::builtins::MANY,
            0,
            "compose(L, t0, ...) needs a layout and at least one tiler",
        ),
    },
    Builtin {
        name: "with_shape",
        sig: "with_shape(L, shape) | with_shape(L, s0, s1, ...)",
        doc: "Member form L.with_shape(S): composition(L, make_layout(S))",
        example: "with_shape((_4,_6):(_1,_4), (_6,_4))",
        result: "(_6,_4):(_1,_6)",
        f: crate::eval::overloads::with_shape,
        arity: crate::eval::builtins::Arity::Says(
            2,
            crate::eval::builtins::MANY,
            0,
            "with_shape(L, shape) or with_shape(L, s0, s1, ...)",
        ),
    },
    Builtin {
        name: "complement",
        sig: "complement(L [, cotarget])",
        doc: "The layout of the rest of [0, cotarget) that L does not reach (cotarget defaults to cosize(L))",
        example: "complement(_4:_2, _24)",
        result: "(_2,_3):(_1,_8)",
        f: crate::eval::overloads::complement,
        arity: crate::eval::builtins::Arity::Takes(1, 2),
    },
    Builtin {
        name: "right_inverse",
        sig: "right_inverse(L)",
        doc: "A layout R with L(R(i)) == i, built from the static strides of L",
        example: "right_inverse((_2,_4):(_4,_1))",
        result: "(_4,_2):(_2,_1)",
        f: crate::eval::overloads::right_inverse,
        arity: crate::eval::builtins::Arity::Takes(1, 1),
    },
    Builtin {
        name: "left_inverse",
        sig: "left_inverse(L)",
        doc: "A layout R with R(L(i)) == i for injective L (static strides only)",
        example: "left_inverse((_3,_8):(_1,_3))",
        result: "_24:_1",
        f: crate::eval::overloads::left_inverse,
        arity: crate::eval::builtins::Arity::Takes(1, 1),
    },
    Builtin {
        name: "max_common_layout",
        sig: "max_common_layout(A, B)",
        doc: "Layout R of the largest contiguous run on which A and B agree: A(R(i)) == i == B(R(i))",
        example: "max_common_layout((_4,_8):(_1,_4), (_4,_8):(_1,_4))",
        result: "_32:_1",
        f: crate::eval::overloads::max_common_layout,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "max_common_vector",
        sig: "max_common_vector(A, B)",
        doc: "Number of contiguous elements on which A and B agree (static)",
        example: "max_common_vector((_4,_8):(_8,_1), (_4,_8):(_8,_1))",
        result: "_32",
        f: crate::eval::overloads::max_common_vector,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "nullspace",
        sig: "nullspace(L)",
        doc: "The layout of the coordinates that L maps to 0 through static-0 strides",
        example: "nullspace((_4,_2,_3):(_1,_0,_4))",
        result: "_2:_4",
        f: crate::eval::overloads::nullspace,
        arity: crate::eval::builtins::Arity::Takes(1, 1),
    },
    Builtin {
        name: "domain_distribute",
        sig: "domain_distribute(shape, n)",
        doc: "Distribute the static integer n over the static shape (an ordered, surjective layout)",
        example: "domain_distribute((_15,_14), _6)",
        result: "(_3,_2):(_1,_15)",
        f: b_domain_distribute,
        arity: crate::eval::builtins::Arity::Takes(2, 2),
    },
    Builtin {
        name: "max_alignment",
        sig: "max_alignment(L)",
        doc: "The largest N for which upcast<N>(L) compiles",
        example: "max_alignment((_4,_8):(_8,_1))",
        result: "_32",
        f: crate::eval::overloads::max_alignment,
        arity: crate::eval::builtins::Arity::Takes(1, 1),
    },
    Builtin {
        name: "upcast",
        sig: "upcast<N>(L)",
        doc: "N elements become one: the stride-1 mode shrinks by N, other strides are divided by N",
        example: "upcast<4>((_4,_8):(_8,_1))",
        result: "(_4,_2):(_2,_1)",
        f: crate::eval::overloads::upcast,
        arity: crate::eval::builtins::Arity::Takes(1, 2),
    },
    Builtin {
        name: "downcast",
        sig: "downcast<N>(L)",
        doc: "One element becomes N: the stride-1 mode grows by N, other strides are multiplied by N",
        example: "downcast<2>((_4,_8):(_8,_1))",
        result: "(_4,_16):(_16,_1)",
        f: crate::eval::overloads::downcast,
        arity: crate::eval::builtins::Arity::Takes(1, 1),
    },
    Builtin {
        name: "recast_layout",
        sig: "recast_layout<OldType, NewType>(L)",
        doc: "Re-express L in units of NewType instead of OldType (upcast/downcast by the size ratio)",
        example: "recast_layout<uint8_t,uint32_t>((_8,_16):(_16,_1))",
        result: "(_8,_4):(_4,_1)",
        f: crate::eval::overloads::recast_layout,
        arity: crate::eval::builtins::Arity::Takes(1, 1),
    },
];

/// What the algebra's unit tests share: a result shown with the law warnings it recorded, and a
/// small pseudo-random generator.
#[cfg(test)]
pub(crate) mod testing {
    use crate::eval::error::{take_warnings, R};
    use crate::eval::layout::Layout;

    /// A layout (or the error) as text, and the law warnings recorded since the last look.
    pub fn shown(r: R<Layout>) -> (String, Vec<String>) {
        let out = match r {
            Ok(l) => format!("{l}"),
            Err(e) => format!("error: {e}"),
        };
        (out, take_warnings())
    }

    /// xorshift64 from a non-zero seed.
    pub struct Rng(pub u64);

    impl Rng {
        /// A number in `0..n`.
        pub fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }
}
