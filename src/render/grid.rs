//! A rank-2 layout (plain, swizzled or composed) as a grid of integers, evaluated fast and the
//! way CuTe's printers do it: `int(layout(m,n))` (truncated to 32 bits, with the wrapping
//! arithmetic the compiled C++ performs), `num_digits(cosize(layout))` for the cell width.
//! Also the size limit every printer checks before producing output.

use crate::eval::error::{EvalError, R};
use crate::eval::int::dy;
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::layout::{Func, Layout};
use crate::eval::ops::swizzle::bits;
use crate::eval::value::Value;

// The cell limit lives in `eval::budget` (the atoms' LaTeX pictures check it too).
pub use crate::eval::budget::{check_limit, check_limit_with, limit, DEFAULT_LIMIT};

/// Most bytes a picture's text may take: 256 per cell of the limit. A TV or TiledMMA picture
/// draws three elements per cell, and a TiledMMA's operands can cover their tiles several times
/// over (CuTe's `print_svg` draws every (thread, value)), so the cell count alone does not bound
/// it: a fuzz finding wrote 589 MB (1.2 GB of memory, 20 s) within the cell limit.
pub fn byte_budget() -> usize {
    (limit() as usize).saturating_mul(256)
}

/// The error for a picture whose text passes `byte_budget`.
pub fn too_many_bytes(what: &str) -> EvalError {
    let lim = limit();
    EvalError::limit(format!(
        "{what}: the picture would be larger than {} bytes (256 per cell of the limit of {lim} cells); \
         set the environment variable CUTE_PRINT_LIMIT to a larger number of cells to allow it",
        byte_budget()
    ))
}

/// C++ `%` / `/` on the values (truncating), division by zero reported like CuTe's SIGFPE.
fn divmod(c: i64, p: i64) -> R<(i64, i64)> {
    if p == 0 {
        return Err(EvalError::new(
            crate::eval::error::ErrorKind::DivZero,
            "division by zero",
            "a mode of size 0 in the layout".to_string(),
        ));
    }
    Ok((c.wrapping_div(p), c.wrapping_rem(p)))
}

fn product(t: &IntTuple) -> i64 {
    match t.view() {
        V::I(i) => i.v,
        V::T(v) => v.iter().fold(1i64, |a, e| a.wrapping_mul(product(e))),
        _ => 1,
    }
}

/// `crd2idx(c, shape, stride)` for an integer coordinate, `None` where CuTe would not compile.
fn crd2idx_int(c: i64, shape: &IntTuple, stride: &IntTuple) -> R<Option<i64>> {
    match (shape.view(), stride.view()) {
        (V::I(_), V::I(d)) => Ok(Some(c.wrapping_mul(d.v))),
        (V::T(ss), V::T(ds)) if ss.len() == ds.len() && !ss.is_empty() => {
            let mut c = c;
            let mut acc = 0i64;
            let last = ss.len() - 1;
            for i in 0..last {
                let (q, r) = divmod(c, product(&ss[i]))?;
                match crd2idx_int(r, &ss[i], &ds[i])? {
                    Some(v) => acc = acc.wrapping_add(v),
                    None => return Ok(None),
                }
                c = q;
            }
            Ok(crd2idx_int(c, &ss[last], &ds[last])?.map(|v| acc.wrapping_add(v)))
        }
        _ => Ok(None),
    }
}

/// The points of one mode `s:d` (integer coordinates 0..size) at which its value
/// (`crd2idx_int`) is seen first, in order, with the values: `Ok(None)` where the mode is
/// not a tree of positive integer extents and integer strides (the point-by-point path then
/// gives `at`'s error); `Err(n)` where `n` points, more than `max`, remain after leaving out
/// the coordinates along stride-0 leaves (they are 0 at a value's first point: a point is the
/// smallest with its value when its stride-0 coordinates are 0, and among those the order by
/// index is the order of the other coordinates).
fn first_parts(s: &IntTuple, d: &IntTuple, max: i64) -> Result<Option<Vec<(i64, i64)>>, i64> {
    fn leaves(s: &IntTuple, d: &IntTuple, out: &mut Vec<(i64, i64)>) -> Option<()> {
        match (s.view(), d.view()) {
            (V::I(a), V::I(b)) if a.v > 0 => {
                out.push((a.v, b.v));
                Some(())
            }
            (V::T(ss), V::T(ds)) if ss.len() == ds.len() && !ss.is_empty() => {
                ss.iter().zip(ds.iter()).try_for_each(|(a, b)| leaves(a, b, out))
            }
            _ => None,
        }
    }
    let mut flat = Vec::new();
    if leaves(s, d, &mut flat).is_none() {
        return Ok(None);
    }
    // (extent, weight of the coordinate in the index, stride) of the leaves that move the value
    let mut moving = Vec::new();
    let mut weight = 1i64;
    for &(n, stride) in &flat {
        if stride != 0 {
            moving.push((n, weight, stride));
        }
        weight = weight.checked_mul(n).ok_or(i64::MAX)?;
    }
    let count = moving.iter().try_fold(1i64, |acc, &(n, _, _)| acc.checked_mul(n)).unwrap_or(i64::MAX);
    if count > max {
        return Err(count);
    }
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut coord = vec![0i64; moving.len()];
    let (mut index, mut value) = (0i64, 0i64);
    loop {
        if seen.insert(value) {
            out.push((index, value));
        }
        // next coordinate, first leaf fastest (colexicographic, as the index counts)
        let mut k = 0;
        loop {
            let Some(&(n, w, stride)) = moving.get(k) else { return Ok(Some(out)) };
            coord[k] += 1;
            index += w;
            value = value.wrapping_add(stride);
            if coord[k] < n {
                break;
            }
            index -= n * w;
            value = value.wrapping_sub(n.wrapping_mul(stride));
            coord[k] = 0;
            k += 1;
        }
    }
}

fn not_printable(f: &dyn std::fmt::Display) -> EvalError {
    EvalError::rule(
        "cannot evaluate",
        format!("`{f}` cannot be evaluated at a 2-D coordinate (shape and stride are not congruent)"),
    )
}

/// `f(x)` for an integer x.
fn eval1(f: &Func, x: i64) -> R<i64> {
    crate::eval::budget::tick()?;
    match f {
        Func::Swizzle(sw) => Ok(bits::apply(*sw, dy(x)).v),
        Func::Layout(l) => crd2idx_int(x, &l.shape, &l.stride)?.ok_or_else(|| not_printable(l)),
        Func::Composed(c) => {
            let v = eval1(&c.inner, x)?;
            eval1(&c.outer, c.offset.v.wrapping_add(v))
        }
    }
}

/// The innermost plain layout (it defines the domain: shape, rank, cosize).
fn domain(f: &Func) -> R<&Layout> {
    match f {
        Func::Layout(l) => Ok(l),
        Func::Composed(c) => domain(&c.inner),
        Func::Swizzle(sw) => Err(EvalError::type_err(format!("{sw} has no shape: it is not a layout"))),
    }
}

/// A rank-2 function ready to print.
pub struct Grid {
    pub f: Func,
    pub rows: i64,
    pub cols: i64,
}

impl Grid {
    /// The grid of a layout or composed layout whose (innermost) shape has rank 2.
    pub fn new(v: &Value) -> R<Grid> {
        let f = match v {
            Value::Layout(l) => Func::Layout(l.clone()),
            Value::Composed(c) => Func::Composed(c.clone()),
            v => return Err(EvalError::type_err(format!("expected a layout, got {} `{v}`", v.kind()))),
        };
        let d = domain(&f)?;
        let (rows, cols) = match d.shape.view() {
            V::T(m) if m.len() == 2 => (product(&m[0]), product(&m[1])),
            _ => {
                let s = &d.shape;
                let hint = if s.rank() == 1 { "; for one column write make_layout(L, _1:_0)" } else { "" };
                return Err(EvalError::rule(
                    "rank(layout) == 2",
                    format!("CuTe prints rank-2 layouts only, `{v}` has rank {}{hint}", s.rank()),
                ));
            }
        };
        Ok(Grid { f, rows, cols })
    }

    /// `int(layout(m, n))`.
    pub fn at(&self, m: i64, n: i64) -> R<i32> {
        Ok(eval2(&self.f, m, n)? as i32)
    }

    /// Calls `f(m, n, at(m, n))` for the points in order (m outer), leaving out points whose
    /// value an earlier visited point had. For loops that act on each value's first point
    /// only: a TV layout's threads often all hold the same values (a GMMA operand in shared
    /// memory belongs to all 128 threads), hundreds of millions of points for a few atoms. For a
    /// plain layout, `at(m, n)` is `(row(m) + col(n)) as i32` (wrapping, as `at`), so a row or
    /// column whose part an earlier one had is left out, and those are never enumerated: a
    /// coordinate along a stride-0 leaf is 0 at a part's first point. The statement clock ticks
    /// at each point. At most 16 points per cell of the print limit are visited: more is a
    /// limit error naming `what` (a fuzz finding: 2^31 threads with distinct parts ran into the
    /// statement's time limit).
    pub fn each_first(&self, what: &str, f: &mut dyn FnMut(i64, i64, i64) -> R<()>) -> R<()> {
        let lim = limit();
        let max = lim.saturating_mul(16);
        let too_many = |n: i64| {
            let n = if n == i64::MAX { "more than 2^63".to_string() } else { n.to_string() };
            EvalError::limit(format!(
                "{what}: {n} (thread, value) points to visit, more than {max} (16 per cell of the limit of {lim} cells); \
                 set the environment variable CUTE_PRINT_LIMIT to a larger number of cells to allow it"
            ))
        };
        let firsts = match &self.f {
            Func::Layout(l) => match (l.shape.view(), l.stride.view()) {
                (V::T(s), V::T(d)) if s.len() == 2 && d.len() == 2 => {
                    let rows = first_parts(&s[0], &d[0], max).map_err(too_many)?;
                    let cols = first_parts(&s[1], &d[1], max).map_err(too_many)?;
                    rows.zip(cols)
                }
                _ => None,
            },
            _ => None,
        };
        let Some((rows, cols)) = firsts else {
            // An empty grid has no points (a fuzz finding: 2^41 rows of no columns spun here
            // for minutes, outside the inner loop's clock).
            if self.rows <= 0 || self.cols <= 0 {
                return Ok(());
            }
            let n = self.rows.checked_mul(self.cols).unwrap_or(i64::MAX);
            if n > max {
                return Err(too_many(n));
            }
            for m in 0..self.rows {
                for n in 0..self.cols {
                    crate::eval::budget::tick()?;
                    f(m, n, self.at(m, n)? as i64)?;
                }
            }
            return Ok(());
        };
        let n = (rows.len() as i64).saturating_mul(cols.len() as i64);
        if n > max {
            return Err(too_many(n));
        }
        for &(m, r) in &rows {
            for &(n, c) in &cols {
                crate::eval::budget::tick()?;
                f(m, n, r.wrapping_add(c) as i32 as i64)?;
            }
        }
        Ok(())
    }

    /// `num_digits(cosize(layout))` with CuTe's `int` argument.
    pub fn digits(&self) -> R<usize> {
        let d = domain(&self.f)?;
        let x = cosize(d) as i32;
        Ok(num_digits(x))
    }
}

fn eval2(f: &Func, m: i64, n: i64) -> R<i64> {
    match f {
        Func::Layout(l) => match (l.shape.view(), l.stride.view()) {
            (V::T(s), V::T(d)) if s.len() == 2 && d.len() == 2 => {
                let a = crd2idx_int(m, &s[0], &d[0])?.ok_or_else(|| not_printable(l))?;
                let b = crd2idx_int(n, &s[1], &d[1])?.ok_or_else(|| not_printable(l))?;
                Ok(a.wrapping_add(b))
            }
            _ => Err(not_printable(l)),
        },
        Func::Composed(c) => {
            let v = eval2(&c.inner, m, n)?;
            eval1(&c.outer, c.offset.v.wrapping_add(v))
        }
        Func::Swizzle(sw) => Err(EvalError::type_err(format!("{sw} is not a rank-2 layout"))),
    }
}

/// `cosize(layout)` = 1 + sum (s-1)*|d| over the leaves (wrapping like the C++).
fn cosize(l: &Layout) -> i64 {
    fn go(s: &IntTuple, d: &IntTuple) -> i64 {
        match (s.view(), d.view()) {
            (V::I(s), V::I(d)) => s.v.wrapping_sub(1).wrapping_mul(d.v.wrapping_abs()),
            (V::T(ss), V::T(ds)) => ss.iter().zip(ds.iter()).fold(0i64, |a, (s, d)| a.wrapping_add(go(s, d))),
            _ => 0,
        }
    }
    go(&l.shape, &l.stride).wrapping_add(1)
}

/// CuTe's `num_digits(int)`.
pub fn num_digits(x: i32) -> usize {
    let mut n = 1;
    let mut p: i64 = 10;
    while n < 10 && (x as i64) >= p {
        n += 1;
        p *= 10;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits() {
        assert!(check_limit_with("p", 1024, 1024, 1 << 20).is_ok());
        let e = check_limit_with("print_layout", 1 << 20, 1 << 20, 1 << 20).unwrap_err();
        assert_eq!(e.kind, crate::eval::error::ErrorKind::Limit);
        assert!(e.detail.contains("CUTE_PRINT_LIMIT"), "{e}");
        assert!(check_limit_with("p", 0, i64::MAX, 1 << 20).is_err());
        assert!(check_limit_with("p", i64::MAX, i64::MAX, 1 << 20).is_err());
    }

    #[test]
    fn digits() {
        assert_eq!(num_digits(-5), 1);
        assert_eq!(num_digits(9), 1);
        assert_eq!(num_digits(10), 2);
        assert_eq!(num_digits(512), 3);
        assert_eq!(num_digits(i32::MAX), 10);
    }
}
