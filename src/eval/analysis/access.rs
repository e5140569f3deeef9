//! Who touches which bytes: one warp's memory requests, worked out from a thread-value layout, a
//! TiledCopy or an ldmatrix/stmatrix atom and the layout of the memory they address. Shared by the
//! bank-conflict and the coalescing counts, which only group these bytes differently.
//! May import: `eval::{builtins, error, int, int_tuple, layout, value, atoms}`.

use crate::eval::atoms::copy::{CopyAtom, Side, TiledCopy};
use crate::eval::atoms::types::value_type_bits;
use crate::eval::atoms::AtomValue;
use crate::eval::builtins;
use crate::eval::error::{EvalError, R};
use crate::eval::int::{dy, Int};
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::value::Value;

/// Most (thread, value) points one analysis evaluates.
pub const MAX_POINTS: i64 = 1 << 20;

/// One thread's bytes `[addr, addr + bytes)` in one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Touch {
    pub thread: i64,
    pub addr: i64,
    pub bytes: i64,
}

impl Touch {
    /// Thread `thread` reads element `off` of `elem` bytes: bytes `[off * elem, off * elem +
    /// elem)`, an overflow error where they do not fit in 64 bits (a fuzz finding: an offset of
    /// `i64::MAX` panicked in `bank_conflicts`).
    pub fn element(thread: i64, off: i64, elem: i64) -> R<Touch> {
        let addr = off.checked_mul(elem).ok_or_else(|| EvalError::overflow("*", dy(off), dy(elem)))?;
        Touch::bytes_at(thread, addr, elem)
    }

    /// Thread `thread` reads bytes `[addr, addr + bytes)`.
    pub fn bytes_at(thread: i64, addr: i64, bytes: i64) -> R<Touch> {
        addr.checked_add(bytes).ok_or_else(|| EvalError::overflow("+", dy(addr), dy(bytes)))?;
        Ok(Touch { thread, addr, bytes })
    }
}

/// The threads the hardware serves together in one request (a warp, a half or quarter warp, an
/// ldmatrix phase of 8 row addresses), and what they touch.
#[derive(Clone, Debug)]
pub struct Group {
    /// `warp 0, access 2 (values 16..24), threads 8..16`
    pub label: String,
    pub touches: Vec<Touch>,
}

/// A whole warp-level access pattern.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// What access this is: `ldmatrix (SM75_U32x4_LDSM_N): 4 phases of 8 threads x 16 bytes`.
    pub what: String,
    /// Bytes of one element.
    pub elem: i64,
    /// Bytes one thread moves in one request.
    pub width: i64,
    /// Threads served together (8, 16 or 32).
    pub group_threads: i64,
    pub groups: Vec<Group>,
}

/// Evaluate a layout, swizzle or composed layout at an integer or a coordinate.
pub fn at(f: &Value, coord: Value) -> R<i64> {
    match builtins::call("__apply", &[], &[f.clone(), coord])? {
        Value::Tuple(IntTuple::I(x)) => Ok(x.v),
        v => Err(EvalError::type_err(format!("`{f}` at a point is `{v}`, not an integer"))),
    }
}

pub fn int(v: i64) -> Value {
    Value::from(dy(v))
}

fn coord2(a: i64, b: i64) -> Value {
    Value::Tuple(IntTuple::T(vec![IntTuple::I(dy(a)), IntTuple::I(dy(b))]))
}

/// `f(x)` for a function answering an integer (`size`, `cosize`, `rank`).
pub fn int_of(f: &str, targs: &[builtins::TArg], v: &Value) -> R<i64> {
    match builtins::call(f, targs, std::slice::from_ref(v))? {
        Value::Tuple(IntTuple::I(x)) => Ok(x.v),
        r => Err(EvalError::type_err(format!("{f}({v}) is `{r}`, not an integer"))),
    }
}

/// The bytes of one element, from a value type name (`half_t`) or an integer number of bytes.
pub fn elem_bytes(v: &Value, f: &str) -> R<i64> {
    let bytes = match v {
        Value::Tag(t) => match value_type_bits(t) {
            Some(b) if b % 8 == 0 => b / 8,
            Some(b) => {
                return Err(EvalError::type_err(format!("{f}: {t} is {b} bits; elements under a byte are not counted")))
            }
            None => return Err(EvalError::type_err(format!("{f}: `{t}` is not a value type"))),
        },
        Value::Tuple(IntTuple::I(i)) => i.v,
        v => {
            return Err(EvalError::type_err(format!(
                "{f}: the element size is a value type (half_t) or a number of bytes, got {} `{v}`",
                v.kind()
            )))
        }
    };
    if ![1, 2, 4, 8, 16].contains(&bytes) {
        return Err(EvalError::type_err(format!("{f}: an element of {bytes} bytes; expected 1, 2, 4, 8 or 16")));
    }
    Ok(bytes)
}

/// Threads one request serves together for accesses of `width` bytes per thread: shared memory
/// serves 128 bytes per wavefront, so a warp's 64-bit accesses go in two halves and its 128-bit
/// ones in four quarters.
pub fn threads_per_group(width: i64) -> i64 {
    match width {
        ..=4 => 32,
        8 => 16,
        _ => 8,
    }
}

/// `ldmatrix`/`stmatrix` operations: (is stmatrix, number of 8x8 matrices, transposed).
pub fn matrix_op(name: &str) -> Option<(bool, i64, bool)> {
    let st = name.contains("_STSM_");
    if !st && !name.contains("_LDSM_") {
        return None;
    }
    // `U32x4` = four 32-bit registers per thread, `U16x8` = eight 16-bit ones: 128 bits,
    // i.e. four 8x8 matrices of 16-bit values.
    let part = name.split('_').find(|p| p.starts_with('U') && p.contains('x'))?;
    let (w, n) = part[1..].split_once('x')?;
    let bits = w.parse::<i64>().ok()? * n.parse::<i64>().ok()?;
    Some((st, bits / 32, name.ends_with("_T")))
}

/// The thread-value layout `tv` ((thread, value) -> index of `mem`): each value is one access
/// of `elem` bytes; request k is value k of every thread.
pub fn from_tv(tv: &Value, mem: &Value, elem: i64, shared: bool) -> R<Pattern> {
    let threads = match tv {
        Value::Layout(l) => match l.shape.view() {
            V::T(v) if v.len() >= 2 => int_of("size", &[], &Value::from(v[0].clone()))?,
            _ => {
                return Err(EvalError::type_err(format!(
                    "a thread-value layout has a thread mode and a value mode, got `{l}`"
                )))
            }
        },
        v => return Err(EvalError::type_err(format!("expected a thread-value layout, got {} `{v}`", v.kind()))),
    };
    let size = int_of("size", &[], tv)?;
    check_points(size)?;
    let values = if threads == 0 { 0 } else { size / threads };
    let per = if shared { threads_per_group(elem) } else { 32 };
    let mut groups = Vec::new();
    // No values, no accesses: 2^63 - 1 threads of size 0 counted warps without end (and
    // `threads + 31` overflowed; a structured fuzz finding).
    let warps = if values <= 0 || threads <= 0 { 0 } else { threads / 32 + i64::from(threads % 32 != 0) };
    for w in 0..warps {
        for v in 0..values {
            for g in (32 * w..(32 * w + 32).min(threads)).step_by(per as usize) {
                let mut touches = Vec::new();
                for t in g..(g + per).min(threads).min(32 * w + 32) {
                    let off = at(mem, int(at(tv, int(t + threads * v))?))?;
                    touches.push(Touch::element(t, off, elem)?);
                }
                groups.push(Group { label: format!("warp {w}, value {v}, threads {g}..{}", g + per), touches });
            }
        }
    }
    let what = format!(
        "a thread-value layout: {threads} threads x {values} values, each value one access of {elem} byte{}",
        if elem == 1 { "" } else { "s" }
    );
    Ok(Pattern { what, elem, width: elem, group_threads: per, groups })
}

fn check_points(n: i64) -> R<()> {
    if n > MAX_POINTS {
        return Err(EvalError::rule(
            "too many points to analyse",
            format!("{n} (thread, value) points; the limit is {MAX_POINTS}"),
        ));
    }
    Ok(())
}

/// `mem` tiled (as `tile_to_shape` does) until it covers `shape`, if it does not already.
fn cover(mem: &Value, shape: &[i64]) -> R<Value> {
    let rank = int_of("rank", &[], mem)?;
    if rank != shape.len() as i64 {
        return Err(EvalError::type_err(format!(
            "the memory layout `{mem}` has rank {rank}; the access covers a tile of rank {}",
            shape.len()
        )));
    }
    let mut need = Vec::new();
    let mut grow = false;
    for (i, &s) in shape.iter().enumerate() {
        let m = int_of("size", &[builtins::TArg::Int(i as i64)], mem)?;
        if m <= 0 {
            return Err(EvalError::type_err(format!("the memory layout `{mem}` has an empty mode")));
        }
        // s rounded up to a multiple of m, without the sum `s + m - 1` passing 64 bits (a fuzz
        // finding: a mode of size 2^63 - 1 overflowed)
        let q = if s > 0 { (s - 1) / m + 1 } else { (s + m - 1) / m };
        let r = q.checked_mul(m).ok_or_else(|| EvalError::overflow("*", dy(q), dy(m)))?;
        grow |= r != m;
        need.push(IntTuple::I(dy(r)));
    }
    if !grow {
        return Ok(mem.clone());
    }
    builtins::call("tile_to_shape", &[], &[mem.clone(), Value::Tuple(IntTuple::T(need))])
}

/// Which side of a copy is the memory analysed: ldmatrix reads shared memory (Src), stmatrix and
/// cp.async write it (Dst); a plain copy has the same layout on both sides.
fn smem_side(name: &str) -> Side {
    if name.contains("_STSM_") || name.contains("CP_ASYNC") {
        Side::D
    } else {
        Side::S
    }
}

/// A TiledCopy's requests on the shared-memory side (`shared`: bank conflicts) or on the global
/// side (coalescing: the source of cp.async, else the source).
pub fn from_tiled_copy(c: &TiledCopy, mem: &Value, shared: bool) -> R<Pattern> {
    let name = c.atom.op.name.clone();
    let side = if shared {
        smem_side(&name)
    } else if name.contains("CP_ASYNC") {
        Side::S
    } else {
        smem_side(&name)
    };
    let elem = c.atom.bits / 8;
    if c.atom.bits % 8 != 0 || elem == 0 {
        return Err(EvalError::type_err(format!("{}-bit elements are not counted", c.atom.bits)));
    }
    let atom_side = match side {
        Side::S => &c.atom.src,
        Side::D => &c.atom.dst,
    };
    let av = int_of("size", &[builtins::TArg::Int(1)], &Value::Layout(atom_side.clone()))?;
    let tv = Value::Layout(c.get_layout_tv(side)?);
    let threads = int_of("size", &[builtins::TArg::Int(0)], &tv)?;
    let size = int_of("size", &[], &tv)?;
    check_points(size)?;
    let values = if threads == 0 { 0 } else { size / threads };
    let (m, n) = (c.tile_size(Some(0))?.v, c.tile_size(Some(1)).map(|i| i.v).unwrap_or(1));
    let mem = cover(mem, &[m, n])?;
    let width = av * elem;
    let matrix = matrix_op(&name);
    let (per, active) = match matrix {
        // ldmatrix xN: N phases of 8 row addresses (threads 0..8N), 16 bytes each
        Some((_, nm, _)) => (8, 8 * nm),
        None if shared => (threads_per_group(width), 32),
        None => (32, 32),
    };
    let mut groups = Vec::new();
    // (as in `from_tv`: no values, no warps to walk)
    let warps = if values <= 0 || threads <= 0 { 0 } else { threads / 32 + i64::from(threads % 32 != 0) };
    for w in 0..warps {
        for k in 0..values / av.max(1) {
            for g in (32 * w..(32 * w + active).min(threads)).step_by(per as usize) {
                let mut touches = Vec::new();
                for t in g..(g + per).min(threads) {
                    for a in 0..av {
                        let idx = at(&tv, int(t + threads * (a + av * k)))?;
                        let off = at(&mem, coord2(idx % m.max(1), idx / m.max(1)))?;
                        touches.push(Touch::element(t, off, elem)?);
                    }
                }
                groups.push(Group {
                    label: format!(
                        "warp {w}, access {k} (values {}..{}), threads {g}..{}",
                        av * k,
                        av * (k + 1),
                        g + per
                    ),
                    touches,
                });
            }
        }
    }
    let what = match matrix {
        Some((st, nm, _)) => format!(
            "{} ({name}): {nm} phase{} of 8 threads x 16 bytes per access, {} access{} per thread",
            if st { "stmatrix" } else { "ldmatrix" },
            if nm == 1 { "" } else { "s" },
            values / av.max(1),
            if values / av.max(1) == 1 { "" } else { "es" }
        ),
        None => format!(
            "{name} ({}): {width}-byte accesses, groups of {per} threads, {} access{} per thread",
            if matches!(side, Side::D) { "destination" } else { "source" },
            values / av.max(1),
            if values / av.max(1) == 1 { "" } else { "es" }
        ),
    };
    Ok(Pattern { what, elem, width, group_threads: per, groups })
}

/// A bare ldmatrix/stmatrix atom over a shared-memory tile whose mode 0 holds the matrix rows
/// (`_N`; mode 1 for `_T`): thread t < 8N gives the row address of row t % 8 of matrix t / 8, the
/// matrices arranged as `make_tiled_copy_A` of an SM80 MMA places them (x4: a 16x16 tile,
/// matrix j at row block j % 2, column block j / 2; x2: 16 rows; x1: 8 rows).
pub fn from_matrix_atom(a: &CopyAtom, mem: &Value) -> R<Pattern> {
    let name = a.op.name.clone();
    let Some((st, nm, trans)) = matrix_op(&name) else {
        return Err(EvalError::type_err(format!(
            "{name}: a bare copy atom has no tile; give a TiledCopy (make_tiled_copy) or a thread-value layout"
        )));
    };
    if a.bits % 8 != 0 {
        return Err(EvalError::type_err(format!("{}-bit elements are not counted", a.bits)));
    }
    let elem = a.bits / 8;
    let r = 16 / elem; // elements per 16-byte row
    let rows = if nm == 4 { 16 } else { 8 * nm };
    let cols = if nm == 4 { 2 * r } else { r };
    let shape = if trans { [cols, rows] } else { [rows, cols] };
    let mem = cover(mem, &shape)?;
    let mut groups = Vec::new();
    for j in 0..nm {
        let mut touches = Vec::new();
        for i in 0..8 {
            let t = 8 * j + i;
            let (row, col) = if nm == 4 { (i + 8 * (j % 2), r * (j / 2)) } else { (i + 8 * j, 0) };
            for e in 0..r {
                let c = if trans { coord2(col + e, row) } else { coord2(row, col + e) };
                touches.push(Touch::element(t, at(&mem, c)?, elem)?);
            }
        }
        groups.push(Group { label: format!("phase {j}: matrix {j}, threads {}..{}", 8 * j, 8 * j + 8), touches });
    }
    let what = format!(
        "{} ({name}) of {}-byte elements: {nm} phase{} of 8 threads x 16 bytes; rows along mode {}",
        if st { "stmatrix" } else { "ldmatrix" },
        elem,
        if nm == 1 { "" } else { "s" },
        if trans { 1 } else { 0 }
    );
    Ok(Pattern { what, elem, width: 16, group_threads: 8, groups })
}

/// The access pattern of `bank_conflicts`/`coalescing` arguments: (access, memory layout [, elem]).
pub fn pattern(f: &str, args: &[&Value], shared: bool) -> R<Pattern> {
    let (acc, mem) = match args {
        [a, m] | [a, m, _] => (a, m),
        _ => {
            return Err(EvalError::arity(format!(
                "{f} takes (access, memory layout [, element]), got {} arguments",
                args.len()
            )))
        }
    };
    let elem = args.get(2).map(|e| elem_bytes(e, f)).transpose()?;
    match acc {
        Value::Atom(b) => {
            if elem.is_some() && !matches!(**b, AtomValue::CopyOp(_)) {
                return Err(EvalError::type_err(format!(
                    "{f}: the element type comes from the copy atom; drop the third argument"
                )));
            }
            match &**b {
                AtomValue::TiledCopy(c) => from_tiled_copy(c, memory(f, mem)?, shared),
                AtomValue::CopyAtom(a) if shared => from_matrix_atom(a, memory(f, mem)?),
                AtomValue::CopyOp(op) if shared => {
                    let Some(e) = elem else {
                        return Err(EvalError::arity(format!(
                            "{f}({}, L): give the element type: {f}({}, L, half_t)",
                            op.name, op.name
                        )));
                    };
                    let t = match (&args[2], e) {
                        (Value::Tag(t), _) => t.clone(),
                        (_, 1) => "uint8_t".into(),
                        (_, 2) => "half_t".into(),
                        (_, 4) => "float".into(),
                        (_, 8) => "double".into(),
                        _ => "uint128_t".into(),
                    };
                    match builtins::call("copy_atom", &[], &[Value::clone(acc), Value::Tag(t)])? {
                        Value::Atom(a) => match *a {
                            AtomValue::CopyAtom(a) => from_matrix_atom(&a, memory(f, mem)?),
                            v => Err(EvalError::type_err(format!("copy_atom gave {v}"))),
                        },
                        v => Err(EvalError::type_err(format!("copy_atom gave {v}"))),
                    }
                }
                v => Err(EvalError::type_err(format!(
                    "{f}: expected a TiledCopy, {}a thread-value layout, got `{v}`",
                    if shared { "an ldmatrix/stmatrix atom or " } else { "" }
                ))),
            }
        }
        Value::Layout(_) => from_tv(acc, memory(f, mem)?, elem.unwrap_or(4), shared),
        v => Err(EvalError::type_err(format!(
            "{f}: expected a TiledCopy or a thread-value layout, got {} `{v}`",
            v.kind()
        ))),
    }
}

/// The memory argument of `f`, once the access is known good: a layout, a swizzled layout or a
/// tensor (it is evaluated at each access's offset; anything else would be refused there,
/// worded as that internal call).
fn memory<'v>(f: &str, mem: &'v Value) -> R<&'v Value> {
    match mem {
        Value::Layout(_) | Value::Swizzle(_) | Value::Composed(_) => Ok(mem),
        Value::Atom(a) if matches!(**a, AtomValue::Partition(_)) => Ok(mem),
        _ => Err(EvalError::type_err(format!(
            "{f}: the memory layout (argument 2) is a layout, a swizzled layout or a tensor, got {} `{mem}`",
            mem.kind()
        ))
        .at_arg(1)),
    }
}

/// `a / b` rounded up (b > 0).
pub fn ceil_div(a: i64, b: i64) -> i64 {
    if b <= 0 {
        return a;
    }
    (a + b - 1) / b
}

/// An analysis count as a value: a run-time integer.
pub fn count(v: i64) -> Value {
    Value::from(Int::new(v, false))
}
