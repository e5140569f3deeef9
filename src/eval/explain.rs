//! `explain EXPR`: how CuTe arrives at a value, step by step, for the operations people ask
//! about (coalesce, composition, complement, the divides and products, the inverses, the casts,
//! tile_to_shape, the common vector of two layouts, evaluation at a coordinate, swizzles). Every
//! value shown is computed by the evaluator (so it is CuTe's); where the operation promises a law,
//! the explanation ends with a check of it, evaluated point by point. For operations without an
//! explainer the caller shows their definition from the registry.
//! May import: `builtins`, `ops` (the traces the operations record), `analysis`, `gmma` and
//! `atoms` (their explainers), the value types. Produces
//! text; the interpreter prints it.

use super::builtins::{self, TArg};
use super::error::{EvalError, R};
use super::int::Int;
use super::int_tuple::{IntTuple, V};
use super::layout::Layout;
use super::ops;
use super::value::Value;

/// The functions `explain` shows step by step (for some of their argument kinds; others show
/// their definition). `:help NAME` points to `explain` for these; `tests/explain.rs` holds the
/// list to what `explain` does with each function's registry example.
pub const EXPLAINED: &[&str] = &[
    "bank_conflicts",
    "blocked_product",
    "coalesce",
    "coalescing",
    "complement",
    "composition",
    "crd2idx",
    "downcast",
    "flat_divide",
    "flat_product",
    "get_layoutA_TV",
    "get_layoutB_TV",
    "get_layoutC_TV",
    "get_layoutD_TV",
    "get_layoutS_TV",
    "inner_partition",
    "is_bijective",
    "is_injective",
    "is_surjective",
    "left_inverse",
    "local_partition",
    "local_tile",
    "logical_divide",
    "logical_product",
    "make_gmma_desc",
    "make_tiled_copy",
    "make_tiled_mma",
    "max_common_layout",
    "max_common_vector",
    "outer_partition",
    "partition_A",
    "partition_B",
    "partition_C",
    "partition_D",
    "partition_S",
    "raked_product",
    "recast_layout",
    "right_inverse",
    "swizzle_slice",
    "tile_to_shape",
    "tiled_divide",
    "tiled_product",
    "upcast",
    "zipped_divide",
    "zipped_product",
];

/// Points checked by the law lines (a layout bigger than this is checked on its first points).
const CHECK_POINTS: i64 = 4096;

/// The explanation of `name(args)` (without the final `= value` line, which the caller adds);
/// `None` when `name` has no explainer (the caller shows the registry's definition).
pub fn explain(name: &str, targs: &[TArg], args: &[Value]) -> R<Option<Vec<String>>> {
    // a counting tensor's form of these is the same function of its layout, the same iterator
    // (overloads' `relayout!`): its layout's explanation
    let tensor = matches!(args.first(), Some(Value::Atom(a)) if matches!(**a, super::atoms::AtomValue::Partition(_)));
    if tensor
        && matches!(
            name,
            "coalesce" | "composition" | "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide"
        )
    {
        let l = call("layout", &args[..1])?;
        let mut of_layout = args.to_vec();
        of_layout[0] = l.clone();
        return Ok(explain(name, targs, &of_layout)?.map(|steps| {
            let mut out = vec![format!("  a tensor: {name} of its layout {l}, with the same iterator")];
            out.extend(steps);
            out
        }));
    }
    let lay = |i: usize| match args.get(i) {
        Some(Value::Layout(l)) => Some(l.clone()),
        _ => None,
    };
    let out = match (name, args.len()) {
        ("coalesce", 1) if lay(0).is_some() && targs.is_empty() => lay(0).map(|l| coalesce(&l)),
        ("composition", 2) if lay(0).is_some() && lay(1).is_some() => {
            lay(0).zip(lay(1)).map(|(a, b)| composition(&a, &b))
        }
        ("complement", 1 | 2) if lay(0).is_some() => lay(0).map(|l| complement(&l, args.get(1))),
        ("logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide", 2) if lay(0).is_some() => {
            lay(0).map(|l| divide(name, &l, &args[1]))
        }
        ("logical_product" | "zipped_product" | "tiled_product" | "flat_product", 2)
            if lay(0).is_some() && lay(1).is_some() =>
        {
            lay(0).zip(lay(1)).map(|(a, b)| product(name, &a, &b))
        }
        ("logical_product" | "zipped_product" | "tiled_product" | "flat_product", 2)
            if lay(0).is_some() && matches!(args[1], Value::Tile(_)) =>
        {
            lay(0).map(|a| product_by_mode(name, &a, &args[1]))
        }
        ("blocked_product" | "raked_product", 2) if lay(0).is_some() && lay(1).is_some() => {
            lay(0).zip(lay(1)).map(|(a, b)| blocked_raked(name, &a, &b))
        }
        ("right_inverse" | "left_inverse", 1) if lay(0).is_some() => lay(0).map(|l| inverse(name, &l)),
        ("upcast" | "downcast", 1) if lay(0).is_some() && matches!(targs, [TArg::Int(_)]) => {
            lay(0).map(|l| cast(name, targs, &l))
        }
        ("recast_layout", 1) if lay(0).is_some() && targs.len() == 2 => lay(0).map(|l| recast(targs, &l)),
        ("tile_to_shape", 2 | 3) if lay(0).is_some() => lay(0).map(|l| tile_to_shape(&l, &args[1..])),
        // a swizzled (composed) block: CuTe tiles the inner layout and keeps the rest outside
        ("tile_to_shape", 2 | 3) => match &args[0] {
            Value::Composed(c) => match &c.inner {
                super::layout::Func::Layout(inner) => Some(tile_to_shape(inner, &args[1..]).map(|steps| {
                    let mut out = vec![format!(
                        "  a composed block A o O o B: composition(A, O, tile_to_shape(B, S)): B = {inner} is tiled, A o O stays outside"
                    )];
                    out.extend(steps);
                    out
                })),
                _ => None,
            },
            _ => None,
        },
        // `crd2idx(c, L)` is `L(c)` (CuTe's `Layout::operator()` calls it)
        ("crd2idx", 2) if lay(1).is_some() => lay(1).map(|l| evaluation(&l, &args[0])),
        ("crd2idx", 3) => match (&args[1], &args[2]) {
            (Value::Tuple(s), Value::Tuple(d)) => Some(evaluation(&Layout::new(s.clone(), d.clone()), &args[0])),
            _ => None,
        },
        ("max_common_vector" | "max_common_layout", 2) if lay(0).is_some() && lay(1).is_some() => {
            lay(0).zip(lay(1)).map(|(a, b)| common(name, &a, &b))
        }
        ("make_gmma_desc", 2 | 3) => Some(super::gmma::explain_desc(targs, args)),
        _ => super::analysis::explain(name, args).or_else(|| super::atoms::explain(name, args)),
    };
    match out {
        // The value itself is computed by the caller; a step that cannot be shown (e.g. a point
        // check on a layout with an empty mode) does not turn it into an error.
        Some(Err(e)) => Ok(Some(vec![format!("  (the steps cannot be shown here: {e})")])),
        Some(Ok(lines)) => Ok(Some(lines)),
        None => Ok(None),
    }
}

/// `L(c)` for a layout, a swizzle or a composed layout.
pub fn explain_apply(callee: &Value, args: &[Value]) -> R<Vec<String>> {
    let steps = match (callee, args) {
        (Value::Layout(l), [c]) => evaluation(l, c),
        (Value::Swizzle(_), [Value::Tuple(IntTuple::I(x))]) => swizzle(callee, *x),
        (Value::Composed(_), [c]) if has_under(c) => super::analysis::explain_slice(callee, c),
        (Value::Composed(_), cs) if cs.len() > 1 && cs.iter().any(has_under) => {
            super::analysis::explain_slice(callee, &Value::tuple(cs.to_vec()))
        }
        _ => Ok(vec![format!(
            "  {} at ({}): evaluated by CuTe's rules (no step-by-step explanation for this case)",
            callee.kind(),
            args.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(", ")
        )]),
    };
    Ok(steps.unwrap_or_else(|e| vec![format!("  (the steps cannot be shown here: {e})")]))
}

fn has_under(v: &Value) -> bool {
    match v {
        Value::Tuple(t) => t.leaves().iter().any(|l| matches!(l, IntTuple::Under)),
        _ => false,
    }
}

fn call(name: &str, args: &[Value]) -> R<Value> {
    builtins::call(name, &[], args)
}

fn at(l: &Layout, i: i64) -> R<i64> {
    match call("__apply", &[Value::Layout(l.clone()), Value::from(Int::new(i, false))])? {
        Value::Tuple(IntTuple::I(x)) => Ok(x.v),
        v => Err(EvalError::type_err(format!("{l} at {i} is {v}, not an integer"))),
    }
}

/// `f(v)` for a function that answers an integer (size, cosize).
fn int_of(f: &str, v: &Value) -> R<i64> {
    match call(f, std::slice::from_ref(v))? {
        Value::Tuple(IntTuple::I(x)) => Ok(x.v),
        r => Err(EvalError::type_err(format!("{f}({v}) is {r}, not an integer"))),
    }
}

fn size(v: &Value) -> R<i64> {
    int_of("size", v)
}

/// The (shape, stride) leaves of a layout, in order.
fn modes(l: &Layout) -> Vec<(Int, Int)> {
    let leaf = |t: &IntTuple| match t {
        IntTuple::I(i) => Some(*i),
        _ => None,
    };
    l.shape.leaves().iter().zip(l.stride.leaves().iter()).filter_map(|(s, d)| leaf(s).zip(leaf(d))).collect()
}

fn mode_str(s: Int, d: Int) -> String {
    format!("{s}:{d}")
}

/// Does `f(i) == g(i)` for every i < n (the first CHECK_POINTS)? The first failing i otherwise.
fn check_all(n: i64, f: impl Fn(i64) -> R<(i64, i64)>) -> R<Result<i64, (i64, i64, i64)>> {
    let n = n.min(CHECK_POINTS);
    for i in 0..n {
        let (a, b) = f(i)?;
        if a != b {
            return Ok(Err((i, a, b)));
        }
    }
    Ok(Ok(n))
}

fn law_line(what: &str, r: Result<i64, (i64, i64, i64)>, total: i64) -> String {
    match r {
        Ok(n) if n == total => format!("  check: {what} for all {n} points: holds"),
        Ok(n) => format!("  check: {what} for the first {n} of {total} points: holds"),
        Err((i, a, b)) => format!("  check: {what} fails at i = {i} ({a} vs {b})"),
    }
}

/// The steps of `coalesce(L)` as the operation took them (`ops::algebra::coalesce_traced`),
/// told first mode to last: each static `_1` dropped, each merge of neighbours, and the
/// neighbours CuTe keeps apart because a dynamic value takes part.
fn coalesce(l: &Layout) -> R<Vec<String>> {
    let v = Value::Layout(l.clone());
    let flat = call("flatten", std::slice::from_ref(&v))?;
    let mut out = vec![
        "  coalesce: flatten, drop size-1 modes, and merge neighbours s0:d0, s1:d1 with d1 == s0*d0".to_string(),
        format!("  flatten(L) = {flat}"),
    ];
    let (rl, trace) = ops::algebra::coalesce_traced(l)?;
    let n = size(&v)?;
    // The kept modes so far, the last one grown by the merges into it; `joins` says whether the
    // operation merged that last one with the next kept mode.
    let mut cur: Vec<(Int, IntTuple)> = Vec::new();
    let mut joins = false;
    for (k, (s, d)) in trace.flat.iter().enumerate() {
        // The walk names the modes with integer strides (a ScaledBasis mode never merges with one).
        if !matches!(d, IntTuple::I(_)) {
            if !trace.dropped[k] {
                joins = false;
            }
            continue;
        }
        let (s, d) = (*s, d.clone());
        if trace.dropped[k] {
            out.push(format!("  {s}:{d}: size _1, dropped"));
            continue;
        }
        let merged_into_last = std::mem::replace(&mut joins, trace.joins_next[k]);
        if let Some(last) = cur.last_mut() {
            if merged_into_last {
                let merged = (last.0.mul(s)?, last.1.clone());
                out.push(format!(
                    "  {}:{} then {s}:{d}: {d} == {}*{}, merged into {}:{}",
                    last.0, last.1, last.0, last.1, merged.0, merged.1
                ));
                *last = merged;
                continue;
            }
            if let (IntTuple::I(ld), IntTuple::I(dv)) = (&last.1, &d) {
                let all_static = last.0.s && ld.s && s.s && dv.s;
                if last.0.v.checked_mul(ld.v) == Some(dv.v) && !all_static {
                    out.push(format!(
                        "  {}:{} then {s}:{d}: {d} == {}*{}, but CuTe merges only static (_n) modes: kept apart",
                        last.0, last.1, last.0, last.1
                    ));
                }
            }
        }
        if s.v == 1 {
            out.push(format!("  {s}:{d}: size 1 but dynamic: kept (CuTe drops only a static _1)"));
        }
        cur.push((s, d));
    }
    let law = check_all(n, |i| Ok((at(l, i)?, at(&rl, i)?)))?;
    out.push(law_line("coalesce(L)(i) == L(i)", law, n));
    Ok(out)
}

fn composition(a: &Layout, b: &Layout) -> R<Vec<String>> {
    let (av, bv) = (Value::Layout(a.clone()), Value::Layout(b.clone()));
    let mut out = vec![
        "  composition(A, B): for each mode s:d of B, A o s:d = the s points of A starting at 0 with step d"
            .to_string(),
        "  (shape_div: drop A's first d elements by stride, then keep s: shape_mod); the results keep B's shape"
            .to_string(),
    ];
    for (s, d) in modes(b) {
        let m = Value::Layout(Layout::new(IntTuple::I(s), IntTuple::I(d)));
        match call("composition", &[av.clone(), m]) {
            Ok(r) => out.push(format!("  A o {} = {r}", mode_str(s, d))),
            Err(e) => out.push(format!("  A o {}: {e}", mode_str(s, d))),
        }
    }
    let r = call("composition", &[av, bv.clone()])?;
    let n = size(&bv)?;
    if let Value::Layout(rl) = &r {
        let law = check_all(n, |i| Ok((at(rl, i)?, at(a, at(b, i)?)?)))?;
        out.push(law_line("R(i) == A(B(i))", law, n));
    }
    Ok(out)
}

/// The steps of `complement(L, M)` as the operation took them (`ops::algebra::complement_traced`):
/// the modes of filter(L) it sorted, the mode each gap became, and where the rest starts.
fn complement(l: &Layout, cotarget: Option<&Value>) -> R<Vec<String>> {
    let v = Value::Layout(l.clone());
    let mut args = vec![v.clone()];
    if let Some(c) = cotarget {
        args.push(c.clone());
    }
    let r = call("complement", &args)?;
    // The steps do not depend on the cotarget (only the rest's extent does, which `r` shows): a
    // cotarget of another kind (a swizzle) is left to the real call above.
    let cot = match cotarget {
        Some(Value::Layout(c)) => Some(c.shape.clone()),
        Some(Value::Tuple(t)) => Some(t.clone()),
        _ => None,
    };
    let (_, trace) = ops::algebra::complement_traced(l, cot.as_ref())?;
    let mut out = vec![
        "  complement(L, M): sort L's modes by stride (size-1 and stride-0 modes ignored); each gap".to_string(),
        "  between one mode's end (s*d) and the next stride becomes a mode; the rest up to M ends it".to_string(),
        format!(
            "  sorted modes: {}",
            if trace.sorted.is_empty() {
                "none".to_string()
            } else {
                trace.sorted.iter().map(|&(s, d)| mode_str(s, d)).collect::<Vec<_>>().join(", ")
            }
        ),
    ];
    for (&(_, d), &(gs, gd)) in trace.sorted.iter().zip(&trace.gaps) {
        if gs.v > 1 {
            out.push(format!("  gap below stride {d}: shape {}, stride {}", gs.v, gd.v));
        }
    }
    out.push(format!("  the rest: stride {} up to the cotarget; with the gaps, coalesced: {r}", trace.rest_stride.v));
    if let Value::Layout(rl) = &r {
        // disjoint images (away from 0), ordered strides
        let n = size(&v)?.min(CHECK_POINTS);
        let image: std::collections::HashSet<i64> = (0..n).map(|i| at(l, i)).collect::<R<_>>()?;
        let rn = size(&r)?.min(CHECK_POINTS);
        let mut clash = None;
        for j in 1..rn {
            let x = at(rl, j)?;
            if image.contains(&x) {
                clash = Some((j, x));
                break;
            }
        }
        out.push(match clash {
            None => format!("  check: its {} points other than 0 miss L's image: disjoint", rn - 1),
            Some((j, x)) => format!("  check: complement({j}) = {x} is also a point of L: not disjoint"),
        });
    }
    Ok(out)
}

fn divide(name: &str, l: &Layout, tiler: &Value) -> R<Vec<String>> {
    let v = Value::Layout(l.clone());
    let mut out = vec!["  logical_divide(L, T) = composition(L, make_layout(T, complement(T, size(L))))".to_string()];
    if let Value::Layout(t) = tiler {
        let n = size(&v)?;
        let tv = Value::Layout(t.clone());
        let comp = call("complement", &[tv.clone(), Value::from(Int::new(n, l.shape.is_static()))])?;
        out.push(format!("  size(L) = {n}"));
        out.push(format!("  complement(T, {n}) = {comp}"));
        let both = call("make_layout", &[tv, comp])?;
        out.push(format!("  make_layout(T, complement) = {both}"));
        out.push(format!("  composition(L, that) = {}", call("logical_divide", &[v.clone(), tiler.clone()])?));
    } else {
        out.push("  a tiler <T0,T1,...> divides mode by mode:".to_string());
        let lmodes = l.shape.modes();
        let smodes = l.stride.modes();
        for (i, (s, d)) in lmodes.iter().zip(smodes.iter()).enumerate() {
            let mode = Value::Layout(Layout::new(s.clone(), d.clone()));
            let t_i = match tiler {
                Value::Tile(v) => v.get(i).cloned(),
                Value::Tuple(t) => t.kids().and_then(|v| v.get(i).cloned()).map(Value::Tuple),
                _ => None,
            };
            match t_i {
                Some(t) => {
                    let r = call("logical_divide", &[mode.clone(), t.clone()]);
                    match r {
                        Ok(r) => out.push(format!("  mode {i}: logical_divide({mode}, {t}) = {r}")),
                        Err(e) => out.push(format!("  mode {i}: logical_divide({mode}, {t}): {e}")),
                    }
                }
                None => out.push(format!("  mode {i}: {mode} (no tiler: kept)")),
            }
        }
        out.push(format!("  logical_divide(L, T) = {}", call("logical_divide", &[v.clone(), tiler.clone()])?));
    }
    match name {
        "zipped_divide" => out.push(
            "  zipped_divide: gather the tiles' modes first, the rests second: ((T0,T1,...),(R0,R1,...))".to_string(),
        ),
        "tiled_divide" => {
            out.push("  tiled_divide: as zipped_divide, with the rests unpacked: ((T0,T1,...),R0,R1,...)".to_string())
        }
        "flat_divide" => out.push("  flat_divide: tiles and rests all unpacked: (T0,T1,...,R0,R1,...)".to_string()),
        _ => {}
    }
    Ok(out)
}

fn product(name: &str, a: &Layout, b: &Layout) -> R<Vec<String>> {
    let (av, bv) = (Value::Layout(a.clone()), Value::Layout(b.clone()));
    let mut out =
        vec!["  logical_product(A, B) = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))".to_string()];
    let n = size(&av)?;
    let cos = int_of("cosize", &bv)?;
    let target =
        n.checked_mul(cos).ok_or_else(|| EvalError::overflow("*", Int::new(n, false), Int::new(cos, false)))?;
    out.push(format!("  size(A) = {n}, cosize(B) = {cos}"));
    let comp =
        call("complement", &[av.clone(), Value::from(Int::new(target, a.shape.is_static() && b.shape.is_static()))])?;
    out.push(format!("  complement(A, {target}) = {comp}"));
    out.push(format!("  composition(complement, B) = {}", call("composition", &[comp, bv.clone()])?));
    out.push(format!("  logical_product(A, B) = {}", call("logical_product", &[av, bv])?));
    out.extend(product_gathering(name));
    Ok(out)
}

/// A product by a tiler `<T0,T1,...>`: mode by mode, as CuTe takes it (each line the
/// operation's value for that mode), then the gathering of the named product.
fn product_by_mode(name: &str, a: &Layout, tiler: &Value) -> R<Vec<String>> {
    let Value::Tile(ts) = tiler else { return Ok(Vec::new()) };
    let mut out = vec!["  a tiler <T0,T1,...> multiplies mode by mode: logical_product(A_i, T_i)".to_string()];
    for (i, (s, d)) in a.shape.modes().into_iter().zip(a.stride.modes()).enumerate() {
        let mode = Value::Layout(Layout::new(s, d));
        match ts.get(i) {
            Some(t) => match call("logical_product", &[mode.clone(), t.clone()]) {
                Ok(r) => out.push(format!("  mode {i}: logical_product({mode}, {t}) = {r}")),
                Err(e) => out.push(format!("  mode {i}: logical_product({mode}, {t}): {e}")),
            },
            None => out.push(format!("  mode {i}: {mode} (no tiler: kept)")),
        }
    }
    out.push(format!(
        "  logical_product(A, T) = {}",
        call("logical_product", &[Value::Layout(a.clone()), tiler.clone()])?
    ));
    out.extend(product_gathering(name));
    Ok(out)
}

/// How the named product arranges logical_product's modes.
fn product_gathering(name: &str) -> Option<String> {
    match name {
        "zipped_product" => Some("  zipped_product: ((A's modes),(the repeats))".to_string()),
        "tiled_product" => Some("  tiled_product: ((A's modes), repeats unpacked)".to_string()),
        "flat_product" => Some("  flat_product: all modes unpacked".to_string()),
        _ => None,
    }
}

fn blocked_raked(name: &str, a: &Layout, b: &Layout) -> R<Vec<String>> {
    let (av, bv) = (Value::Layout(a.clone()), Value::Layout(b.clone()));
    let mut out = vec![if name == "blocked_product" {
        "  blocked_product(A, B): the logical product, then mode i gathers (A_i, B_i): A is a block, and B lays the blocks out".to_string()
    } else {
        "  raked_product(A, B): the logical product, then mode i gathers (B_i, A_i): A's elements are raked across B's repeats".to_string()
    }];
    out.push("  (A and B padded with _1 modes to the same rank)".to_string());
    match call("logical_product", &[av, bv]) {
        Ok(p) => out.push(format!("  logical_product(A, B) = {p}")),
        Err(e) => out.push(format!("  logical_product(A, B): {e}")),
    }
    Ok(out)
}

fn inverse(name: &str, l: &Layout) -> R<Vec<String>> {
    let v = Value::Layout(l.clone());
    let r = call(name, std::slice::from_ref(&v))?;
    let mut out = Vec::new();
    if name == "right_inverse" {
        out.push("  right_inverse(L): R with L(R(i)) == i on the longest prefix 0..n that L reaches".to_string());
        out.push(
            "  in order: follow the modes from stride 1 upward, each next stride == size*stride of the last"
                .to_string(),
        );
    } else {
        out.push("  left_inverse(L): Linv with Linv(L(i)) == i for every i (L injective)".to_string());
        out.push("  = right_inverse(make_layout(L, complement(L))), restricted to L's points".to_string());
    }
    let Value::Layout(rl) = &r else { return Ok(out) };
    if name == "right_inverse" {
        let n = size(&r)?;
        let law = check_all(n, |i| Ok((at(l, at(rl, i)?)?, i)))?;
        out.push(law_line("L(R(i)) == i", law, n));
    } else {
        let n = size(&v)?;
        let law = check_all(n, |i| Ok((at(rl, at(l, i)?)?, i)))?;
        out.push(law_line("Linv(L(i)) == i", law, n));
    }
    Ok(out)
}

/// `recast_layout<Old, New>(L)`: the ratio of the types' sizes in bits, reduced, picks CuTe's
/// casts (`upcast` by the numerator, `downcast` by the denominator, both when neither is 1).
fn recast(targs: &[TArg], l: &Layout) -> R<Vec<String>> {
    let bits = |t: &TArg| match t {
        TArg::Name(n) => ops::algebra::type_bits(n),
        TArg::Int(_) => None,
    };
    let (Some(old), Some(new)) = (bits(&targs[0]), bits(&targs[1])) else { return Ok(Vec::new()) };
    let g = super::int::gcd_i64(old, new);
    let (num, den) = (new / g, old / g);
    let mut out = vec![format!(
        "  recast_layout<{}, {}>(L): {old}-bit elements seen as {new}-bit ones: sizeof_bits ratio {new}/{old} = {num}/{den}",
        targs[0], targs[1]
    )];
    let mut l = l.clone();
    if num != 1 {
        out.push(format!("  upcast<{num}>(L): {num} elements become one"));
        out.extend(cast_modes(true, num, &l)?);
        let Value::Layout(u) = builtins::call("upcast", &[TArg::Int(num)], &[Value::Layout(l)])? else {
            return Ok(out);
        };
        l = u;
    }
    if den != 1 {
        out.push(format!("  downcast<{den}>({}): each element becomes {den}", if num != 1 { "that" } else { "L" }));
        out.extend(cast_modes(false, den, &l)?);
    }
    if num == 1 && den == 1 {
        out.push("  the same size: L itself".to_string());
    }
    Ok(out)
}

/// `tile_to_shape(block, shape [, order])` as CuTe writes it: the block padded to the target's
/// rank, the number of blocks per mode, those laid out in the order, the blocked product.
fn tile_to_shape(block: &Layout, rest: &[Value]) -> R<Vec<String>> {
    let target = match &rest[0] {
        Value::Layout(l) => Value::Tuple(l.shape.clone()),
        t => t.clone(),
    };
    let r = int_of("rank", &target)?;
    let padded = builtins::call("append", &[TArg::Int(r)], &[Value::Layout(block.clone())])?;
    let blocks = call("product_each", &[call("shape", std::slice::from_ref(&padded))?])?;
    let targets = call("product_each", &[target])?;
    let count = call("ceil_div", &[targets.clone(), blocks.clone()])?;
    let (order, tiling) = match rest.get(1) {
        Some(o @ Value::Tuple(_)) => {
            (format!("make_ordered_layout(that, {o})"), call("make_ordered_layout", &[count.clone(), o.clone()])?)
        }
        o => {
            let tag = o.cloned().unwrap_or_else(|| Value::Tag("LayoutLeft".to_string()));
            (format!("make_layout(that, {tag})"), call("make_layout", &[count.clone(), tag])?)
        }
    };
    Ok(vec![
        "  tile_to_shape(B, S): copies of the block B laid out to cover the shape S (blocked_product)".to_string(),
        format!("  append<{r}>(B) = {padded}"),
        format!("  product_each(shape) = {blocks} per block, product_each(S) = {targets}"),
        format!("  ceil_div(S, block) = {count} blocks"),
        format!("  {order} = {tiling}: where each block goes, in blocks"),
        format!("  blocked_product(B, that) = {}", call("blocked_product", &[padded, tiling])?),
    ])
}

/// `upcast<N>(L)` / `downcast<N>(L)`: CuTe casts mode by mode (`transform_layout`), so each leaf
/// mode of L becomes the leaf of the answer in its place; the rule that made it is named.
fn cast(name: &str, targs: &[TArg], l: &Layout) -> R<Vec<String>> {
    let n = match targs {
        [TArg::Int(n)] => *n,
        _ => return Ok(Vec::new()),
    };
    let up = name == "upcast";
    let mut out = if up {
        vec![
            format!("  upcast<{n}>(L): {n} elements become one, mode by mode: a static stride d makes s:d"),
            format!("  ceil_div(s, ceil_div({n}, |d|)) : signum(d)*ceil_div(|d|, {n}); a _0 stride stays; a run-time"),
            format!("  stride is divided by {n} (assumed a multiple of it)"),
        ]
    } else {
        vec![
            format!("  downcast<{n}>(L): each element becomes {n}, mode by mode: a mode of stride _1 (or _-1)"),
            format!("  gets {n} times the shape; every other stride is multiplied by {n}"),
        ]
    };
    out.extend(cast_modes(up, n, l)?);
    Ok(out)
}

/// Each leaf mode of L and the leaf of `upcast<n>(L)` (`up`) or `downcast<n>(L)` in its place,
/// with the rule that made it.
fn cast_modes(up: bool, n: i64, l: &Layout) -> R<Vec<String>> {
    let name = if up { "upcast" } else { "downcast" };
    let mut out = Vec::new();
    let Value::Layout(r) = builtins::call(name, &[TArg::Int(n)], &[Value::Layout(l.clone())])? else { return Ok(out) };
    for ((s, d), (rs, rd)) in modes(l).into_iter().zip(modes(&r)) {
        let rule = match (up, d.s, d.v) {
            (true, true, 0) => "a _0 stride: kept".to_string(),
            (true, true, _) => format!(
                "ceil_div({s}, ceil_div({n}, {})) : {}ceil_div({}, {n})",
                d.v.abs(),
                if d.v < 0 { "-" } else { "" },
                d.v.abs()
            ),
            (true, false, _) => format!("a run-time stride: {d}/{n}"),
            (false, true, 1 | -1) => format!("stride {d}: the shape times {n}"),
            (false, _, _) => format!("the stride times {n}"),
        };
        out.push(format!("  {s}:{d} -> {rs}:{rd} ({rule})"));
    }
    Ok(out)
}

/// `max_common_vector(A, B)` / `max_common_layout(A, B)` as CuTe computes them: B's offsets
/// taken back to its indices (`right_inverse`), A at those indices, coalesced; the vector is
/// the first mode when it is static with a static stride `_1`. Each value is the operations'.
fn common(name: &str, a: &Layout, b: &Layout) -> R<Vec<String>> {
    let (av, bv) = (Value::Layout(a.clone()), Value::Layout(b.clone()));
    let mut out = vec![
        format!("  {name}(A, B): the elements at consecutive offsets in both A and B (what one vector copy"),
        "  between them can move): the first mode of coalesce(composition(A, right_inverse(B))), if it is".to_string(),
        "  static with the static stride _1".to_string(),
    ];
    let r = call("right_inverse", std::slice::from_ref(&bv))?;
    out.push(format!("  right_inverse(B) = {r}: B's offsets 0, 1, 2, ... back to B's indices"));
    if !b.stride.is_static() {
        out.push("  (right_inverse follows only B's static strides: a run-time stride is left out)".to_string());
    }
    let c = call("composition", &[av, r.clone()])?;
    out.push(format!("  composition(A, that) = {c}: A's offset of the element at each of B's offsets"));
    let common = call("coalesce", &[c])?;
    out.push(format!("  coalesce(that) = {common}"));
    let Value::Layout(cl) = &common else { return Ok(out) };
    let (s, d) = match (cl.shape.view(), cl.stride.view()) {
        (V::T(s), V::T(d)) => (s.first().cloned(), d.first().cloned()),
        _ => (Some(cl.shape.clone()), Some(cl.stride.clone())),
    };
    let (Some(IntTuple::I(s)), Some(IntTuple::I(d))) = (s, d) else { return Ok(out) };
    if !(s.s && d.s && d.v == 1) {
        let why = if d.v != 1 {
            format!("its stride is {d}, not 1")
        } else if !d.s {
            "its stride 1 is a run-time value".to_string()
        } else {
            format!("its shape {s} is a run-time value")
        };
        let none = if name == "max_common_vector" { "_1" } else { "_1:_0" };
        out.push(format!("  its first mode {s}:{d} is not a vector ({why}): CuTe answers {none}"));
        return Ok(out);
    }
    out.push(format!("  its first mode {s}:{d}: {} elements are consecutive in both", s.v));
    let Value::Layout(rl) = &r else { return Ok(out) };
    if name == "max_common_vector" {
        let law = check_all(s.v, |n| both_at(a, b, at(rl, n)?, n))?;
        out.push(law_line("A(R(n)) == B(R(n)) == n", law, s.v));
    } else {
        let first = Value::Layout(Layout::new(IntTuple::I(s), IntTuple::I(d)));
        let m = call("composition", &[r.clone(), first])?;
        out.push(format!("  composition(right_inverse(B), {s}:{d}) = {m}: the indices of B that hold them"));
        let Value::Layout(ml) = &m else { return Ok(out) };
        let law = check_all(s.v, |i| both_at(a, b, at(ml, i)?, i))?;
        out.push(law_line("A(M(i)) == B(M(i)) == i", law, s.v));
    }
    Ok(out)
}

/// (A(i), n), or (B(i), n) where A(i) == n: a pair that differs exactly when A(i) or B(i) is not n.
fn both_at(a: &Layout, b: &Layout, i: i64, n: i64) -> R<(i64, i64)> {
    let x = at(a, i)?;
    Ok(if x != n { (x, n) } else { (at(b, i)?, n) })
}

fn evaluation(l: &Layout, c: &Value) -> R<Vec<String>> {
    let mut out = Vec::new();
    let crd = match c {
        Value::Tuple(IntTuple::I(i)) => {
            let hier = call("idx2crd", &[c.clone(), Value::Tuple(l.shape.clone())])?;
            out.push(format!(
                "  index {i} -> coordinate in {}: {hier} (colexicographic: the first mode varies fastest)",
                l.shape
            ));
            hier
        }
        // a mode's integer against a tuple of modes is that mode's index: idx2crd makes it one
        // coordinate per leaf, as crd2idx takes it
        Value::Tuple(t) if t.leaves().len() != l.shape.leaves().len() => {
            let hier = call("idx2crd", &[c.clone(), Value::Tuple(l.shape.clone())])?;
            out.push(format!(
                "  coordinate {t} -> coordinate in {}: {hier} (each integer against a tuple of modes is an index into them)",
                l.shape
            ));
            hier
        }
        other => other.clone(),
    };
    let Value::Tuple(ct) = &crd else { return Ok(out) };
    let cs = ct.leaves();
    let ds = l.stride.leaves();
    if cs.len() == ds.len() {
        let terms: Vec<String> = cs.iter().zip(ds.iter()).map(|(c, d)| format!("{c}*{d}")).collect();
        out.push(format!("  inner product with the strides {}: {}", l.stride, terms.join(" + ")));
    }
    Ok(out)
}

fn swizzle(sw: &Value, x: Int) -> R<Vec<String>> {
    let Value::Swizzle(s) = sw else { return Ok(Vec::new()) };
    let (b, m, sh) = (s.b as i64, s.m as i64, s.s as i64);
    let mask = ((1i64 << b) - 1) << (m + sh.max(0));
    let bits = x.v & mask;
    let moved = if sh >= 0 { bits >> sh } else { bits << -sh };
    Ok(vec![
        format!(
            "  Sw<{b},{m},{sh}>(x) = x ^ ((x & {mask:#b}) >> {sh}): the {b} bits at {} move to {} and flip those",
            m + sh.max(0),
            m
        ),
        format!("  x = {} = {:#b}; x & mask = {bits:#b}; shifted = {moved:#b}", x.v, x.v),
    ])
}
