//! When a swizzle folds into a slice: `Sw<B,M,S> o L` sliced at a coordinate with underscores is
//! a plain layout exactly when no Y/Z bit pair of the swizzle is active on both sides over the
//! slice. The active bits are `A`, the slice's largest offset projected on the Y and Z bits (as
//! CuTe computes it: the projection composed with the sliced layout, at its last index), and the
//! colliding pairs are the Z bits of `A & ~sw(A)`. CuTe tests this only when `A` is static; a
//! dynamic `A` always decays. The value is CuTe's own slice; the verdict is cross-checked with it.
//! May import: `analysis::access`, `eval::{builtins, error, int, int_tuple, layout, value}`.

use super::access::at;
use crate::eval::builtins;
use crate::eval::error::{EvalError, R};
use crate::eval::int::st;
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::layout::{Func, Layout, Swizzle};
use crate::eval::value::Value;

/// The verdict on one slice.
#[derive(Clone, Debug)]
pub struct SliceVerdict {
    pub sw: Swizzle,
    /// The inner layout sliced (before the swizzle).
    pub sliced: Value,
    /// `A`, and whether it is static.
    pub active: i64,
    pub active_static: bool,
    /// `(Y bit, Z bit)` pairs active on both sides.
    pub collisions: Vec<(i32, i32)>,
    /// CuTe's slice.
    pub slice: Value,
    /// CuTe's slice offset (`slice_and_offset`).
    pub offset: Value,
    /// Every mode sliced with `_`: CuTe only reshapes, never folds.
    pub all_under: bool,
}

impl SliceVerdict {
    pub fn folds(&self) -> bool {
        !self.all_under && (!self.active_static || self.collisions.is_empty())
    }
}

/// `(Y_i, Z_i)` bit positions of the swizzle: Y bits are xor-ed into Z bits.
pub fn pairs(sw: Swizzle) -> Vec<(i32, i32)> {
    (0..sw.b).map(|i| (sw.m + sw.s.max(0) + i, sw.m - sw.s.min(0) + i)).collect()
}

fn pow2(k: i32) -> IntTuple {
    IntTuple::I(st(1i64 << k))
}

/// CuTe's `swizzle_only_zy`: shape `(2^M, 2^B, 2^(|S|-B), 2^B, 1)`, strides keeping only the Z
/// and Y bits.
fn only_zy(sw: Swizzle) -> Layout {
    let (b, m, s) = (sw.b, sw.m, sw.s.abs());
    let zero = IntTuple::I(st(0));
    Layout::new(
        IntTuple::T(vec![pow2(m), pow2(b), pow2(s - b), pow2(b), IntTuple::I(st(1))]),
        IntTuple::T(vec![zero.clone(), pow2(m), zero.clone(), pow2(m + s), zero]),
    )
}

pub fn swizzle_apply(sw: Swizzle, x: i64) -> i64 {
    let y: i64 = ((1i64 << sw.b) - 1) << (sw.m + sw.s.max(0));
    let t = x & y;
    x ^ if sw.s >= 0 { t >> sw.s } else { t << -sw.s }
}

pub fn verdict(layout: &Value, coord: &Value) -> R<SliceVerdict> {
    let Value::Composed(c) = layout else {
        return Err(EvalError::type_err(format!(
            "swizzle_slice: expected a swizzled layout Sw<B,M,S> o L, got {} `{layout}`",
            layout.kind()
        ))
        .at_arg(0));
    };
    let (Func::Swizzle(sw), Func::Layout(inner)) = (&c.outer, &c.inner) else {
        return Err(EvalError::type_err(format!("swizzle_slice: expected Sw<B,M,S> o L, got `{layout}`")).at_arg(0));
    };
    if !has_under(coord) {
        return Err(EvalError::type_err(format!(
            "swizzle_slice: the coordinate `{coord}` has no `_`: it is a point, not a slice"
        ))
        .at_arg(1));
    }
    let so = builtins::call("slice_and_offset", &[], &[coord.clone(), layout.clone()])?;
    let parts = so.elems();
    let (Some(slice), Some(offset)) = (parts.first().cloned(), parts.get(1).cloned()) else {
        return Err(EvalError::type_err(format!("slice_and_offset gave `{so}`")));
    };
    let sliced = builtins::call("slice", &[], &[coord.clone(), Value::Layout(inner.clone())])?;
    let proj = builtins::call("composition", &[], &[Value::Layout(only_zy(*sw)), sliced.clone()])?;
    let n = match builtins::call("size", &[], std::slice::from_ref(&proj))? {
        Value::Tuple(IntTuple::I(i)) => i,
        v => return Err(EvalError::type_err(format!("size of the projection is `{v}`"))),
    };
    let a = match builtins::call("__apply", &[], &[proj.clone(), Value::from(n.sub(st(1))?)])? {
        Value::Tuple(IntTuple::I(i)) => i,
        v => return Err(EvalError::type_err(format!("the projection's last offset is `{v}`"))),
    };
    let c_bits = a.v & !swizzle_apply(*sw, a.v);
    let collisions: Vec<(i32, i32)> = pairs(*sw).into_iter().filter(|&(_, z)| c_bits >> z & 1 == 1).collect();
    let all_under = !has_int(coord);
    let v = SliceVerdict { sw: *sw, sliced, active: a.v, active_static: a.s, collisions, slice, offset, all_under };
    // CuTe's slice took the same branch, or this analysis is wrong: say so rather than mislead.
    let plain = matches!(v.slice, Value::Layout(_));
    if plain != v.folds() {
        return Err(EvalError::rule(
            "internal: swizzle_slice disagrees with CuTe's slice",
            format!("the bit test says {}, the slice is `{}`", if v.folds() { "folds" } else { "composed" }, v.slice),
        ));
    }
    Ok(v)
}

fn has_int(v: &Value) -> bool {
    match v {
        Value::Tuple(x) => x.leaves().iter().any(|l| matches!(l, IntTuple::I(_))),
        Value::Tile(v) => v.iter().any(has_int),
        _ => false,
    }
}

fn has_under(v: &Value) -> bool {
    fn t(x: &IntTuple) -> bool {
        match x.view() {
            V::Under => true,
            V::T(v) => v.iter().any(t),
            _ => false,
        }
    }
    match v {
        Value::Tuple(x) => t(x),
        Value::Tile(v) => v.iter().any(has_under),
        _ => false,
    }
}

fn bin(x: i64, width: usize) -> String {
    if x < 0 {
        return format!("{x} (negative)");
    }
    format!("{x:0width$b}")
}

/// The lines of `explain swizzle_slice(...)` (and of `explain S(_,j)`).
pub fn explain(v: &SliceVerdict) -> Vec<String> {
    let sw = v.sw;
    let width = (sw.m + sw.b + sw.s.abs()).max(1) as usize;
    let width = width.max(format!("{:b}", v.active.max(0)).len());
    let pairs: Vec<String> = pairs(sw).iter().map(|(y, z)| format!("Y{y}/Z{z}")).collect();
    let mut out = vec![
        format!("  {sw}: bit pairs {} (each Y bit is xor-ed into its Z bit)", pairs.join(", ")),
        format!("  the inner layout sliced: {}", v.sliced),
        "  A = the slice's largest offset on the Y and Z bits (CuTe: the Y/Z projection o slice, at its last index)"
            .to_string(),
        format!(
            "  A           = {}  ({}{})",
            bin(v.active, width),
            v.active,
            if v.active_static { ", static" } else { ", dynamic" }
        ),
        format!("  sw(A)       = {}", bin(swizzle_apply(sw, v.active), width)),
        format!("  A & ~sw(A)  = {}", bin(v.active & !swizzle_apply(sw, v.active), width)),
    ];
    if v.all_under {
        out.push("  every mode is sliced with `_`: CuTe only reshapes the inner layout and keeps the swizzle".into());
    } else if !v.active_static {
        out.push("  A is dynamic: CuTe cannot test it at compile time and always decays to a plain layout".into());
    } else if v.collisions.is_empty() {
        out.push("  no Y/Z pair is active on both sides: the swizzle folds into a plain layout".into());
    } else {
        let c: Vec<String> = v.collisions.iter().map(|(y, z)| format!("Y{y}/Z{z}")).collect();
        out.push(format!(
            "  colliding pairs (both bits active over the slice): {}: the slice stays composed",
            c.join(", ")
        ));
    }
    out.push(format!("  CuTe's slice: {} (offset {})", v.slice, v.offset));
    out
}

/// Check on the points of a folded slice: `plain(i) + offset == S(coordinate i)`.
pub fn check_points(layout: &Value, coord: &Value, v: &SliceVerdict) -> R<Option<String>> {
    if !matches!(v.slice, Value::Layout(_)) {
        return Ok(None);
    }
    let n = match builtins::call("size", &[], std::slice::from_ref(&v.slice))? {
        Value::Tuple(IntTuple::I(i)) => i.v,
        _ => return Ok(None),
    };
    let off = match &v.offset {
        Value::Tuple(IntTuple::I(i)) => i.v,
        _ => return Ok(None),
    };
    let shown = n.min(4096);
    for i in 0..shown {
        let full = fill(coord, i, &v.sliced)?;
        let want = at(layout, full)?;
        let got = at(&v.slice, Value::from(crate::eval::int::dy(i)))? + off;
        if want != got {
            let why = if v.active_static { "" } else { ": CuTe's untested decay of a dynamic slice is wrong here" };
            return Ok(Some(format!(
                "  check: slice(i) + offset == S at the full coordinate fails at i = {i} ({got} vs {want}){why}"
            )));
        }
    }
    Ok(Some(format!("  check: slice(i) + offset == S at the full coordinate, for {shown} of {n} points: holds")))
}

/// The full coordinate of point `i` of the slice: the underscores of `coord` replaced by the
/// natural coordinate of `i` over the sliced modes.
fn fill(coord: &Value, i: i64, sliced: &Value) -> R<Value> {
    let shape = builtins::call("shape", &[], std::slice::from_ref(sliced))?;
    let sub = builtins::call("idx2crd", &[], &[Value::from(crate::eval::int::dy(i)), shape])?;
    // One top-level entry per underscore, in order (CuTe's slice keeps the underscored modes).
    let mut leaves = match sub {
        Value::Tuple(x) if x.is_tuple() => x.into_kids().unwrap_or_default(),
        Value::Tuple(x) => vec![x],
        v => return Err(EvalError::type_err(format!("idx2crd gave `{v}`"))),
    }
    .into_iter();
    fn put(c: &IntTuple, it: &mut dyn Iterator<Item = IntTuple>) -> IntTuple {
        match c.view() {
            V::Under => it.next().unwrap_or(IntTuple::I(st(0))),
            V::T(v) => IntTuple::T(v.iter().map(|x| put(x, it)).collect()),
            _ => c.clone(),
        }
    }
    match coord {
        Value::Tuple(c) => Ok(Value::Tuple(put(c, &mut leaves))),
        v => Err(EvalError::type_err(format!("a slice coordinate, got `{v}`"))),
    }
}
