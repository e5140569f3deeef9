//! `print_latex` of an MMA atom, a TiledMMA and a TiledCopy (`cute/util/print_latex.hpp`): which
//! thread and value holds each element of the C, A and B tiles (or of the copy's source and
//! destination tiles), as CuTe's TikZ picture, byte for byte.
//! May import: `atoms::mma`, `atoms::copy`, `eval::ops` (identity layouts).

use super::copy::{Side, TiledCopy};
use super::mma::{Operand, TiledMma};
use crate::eval::error::{EvalError, R};
use crate::eval::int::st;
use crate::eval::int_tuple::IntTuple::{self, Basis, Under, I};
use crate::eval::int_tuple::T;
use crate::eval::layout::Layout;
use crate::eval::ops::{algebra as oa, coord as oc, divide as od, tuple as ot};
use std::collections::HashSet;
use std::fmt::Write;

/// `TikzColor_TV`: the colour of thread `tid`.
fn color(tid: i64) -> &'static str {
    const MAP: [&str; 8] = [
        "{rgb,255:red,175;green,175;blue,255}",
        "{rgb,255:red,175;green,255;blue,175}",
        "{rgb,255:red,255;green,255;blue,175}",
        "{rgb,255:red,255;green,175;blue,175}",
        "{rgb,255:red,210;green,210;blue,255}",
        "{rgb,255:red,210;green,255;blue,210}",
        "{rgb,255:red,255;green,255;blue,210}",
        "{rgb,255:red,255;green,210;blue,210}",
    ];
    MAP[tid.rem_euclid(8) as usize]
}

const HEADER: &str = "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";
const FOOTER: &str = "\\end{tikzpicture}\n\\end{document}";

/// Largest number of (thread, value) pairs drawn (CuTe would print them all).
const LIMIT: i64 = 1 << 20;

/// `make_identity_tensor(shape)` composed with a TV layout: a layout whose strides are scaled
/// basis elements, so it maps (thread, value) to an (m,n) coordinate.
fn identity_tv(shape: &IntTuple, tv: &Layout) -> R<Layout> {
    let id = crate::eval::ops::structure::make_identity_layout(shape);
    oa::composition_raw(&id, tv)
}

/// A (thread, value) layout with scaled-basis strides (its value at (tid, vid) is a 2-D
/// coordinate), read once for evaluating it at many points: per mode, its leaves as (extent, the coordinate a stride adds to and by how much).
/// What cannot be evaluated is refused here, as at the first point.
pub struct TvEval {
    modes: [Vec<TvLeaf>; 2],
}

/// A leaf's extent, and the coordinate (0 or 1) its stride adds to with the amount.
type TvLeaf = (i64, Option<(usize, crate::eval::int::Int)>);

impl TvEval {
    pub fn new(l: &Layout) -> R<TvEval> {
        let modes = l.shape.modes();
        let strides = l.stride.modes();
        if modes.len() != 2 || strides.len() != 2 {
            return Err(EvalError::rule(
                "static assertion failed",
                format!("print_latex needs a rank-2 (thread, value) layout, got {l}"),
            ));
        }
        let mut out: [Vec<_>; 2] = [Vec::new(), Vec::new()];
        for k in 0..2 {
            let shape = modes[k].leaves();
            let stride = strides[k].leaves();
            for (s, d) in shape.iter().zip(&stride) {
                let s = s.as_int()?.v;
                let to = match d {
                    I(i) if i.v == 0 => None,
                    Basis(b) if b.modes.len() == 1 && b.modes[0] < 2 => Some((b.modes[0], b.v)),
                    other => {
                        return Err(EvalError::rule("not supported", format!("a coordinate stride {other} in {l}")))
                    }
                };
                out[k].push((s, to));
            }
        }
        Ok(TvEval { modes: out })
    }

    /// The 2-D coordinate at (tid, vid).
    pub fn at(&self, tid: i64, vid: i64) -> R<(i64, i64)> {
        let mut acc = [0i64; 2];
        for (leaves, c) in self.modes.iter().zip([tid, vid]) {
            let mut c = c;
            for (j, &(s, to)) in leaves.iter().enumerate() {
                let last = j + 1 == leaves.len();
                let x = if last { c } else { c % s.max(1) };
                c = if last { 0 } else { c / s.max(1) };
                if let Some((m, v)) = to {
                    acc[m] = acc[m]
                        .checked_add(x.checked_mul(v.v).ok_or_else(|| EvalError::overflow("*", st(x), v))?)
                        .ok_or_else(|| EvalError::overflow("+", st(acc[m]), v))?
                }
            }
        }
        Ok((acc[0], acc[1]))
    }
}

fn size2(l: &Layout) -> R<(i64, i64)> {
    let t = ot::product(&*l.shape.get(0)?)?.v;
    let v = ot::product(&*l.shape.get(1)?)?.v;
    if t.checked_mul(v).is_none_or(|n| n > LIMIT) {
        return Err(EvalError::limit(format!("print_latex of {t} threads x {v} values is too large to draw")));
    }
    Ok((t, v))
}

/// The nodes of one tile: every element once, at the first (tid, vid) that holds it.
fn nodes(out: &mut String, l: &Layout, place: impl Fn(i64, i64) -> (i64, i64)) -> R<()> {
    let (nt, nv) = size2(l)?;
    let mut filled = HashSet::new();
    if nt <= 0 || nv <= 0 {
        return Ok(());
    }
    let ev = TvEval::new(l)?;
    for tid in 0..nt {
        for vid in 0..nv {
            let (a, b) = ev.at(tid, vid)?;
            if filled.insert((a, b)) {
                let (x, y) = place(a, b);
                let _ =
                    writeln!(out, "\\node[fill={}] at ({x},{y}) {{\\shortstack{{T{tid} \\\\ V{vid}}}}};", color(tid));
            }
        }
    }
    Ok(())
}

fn grid(out: &mut String, a: (i64, i64), b: (i64, i64)) {
    let _ =
        writeln!(out, "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] ({},{}) grid ({},{});\n", a.0, a.1, b.0, b.1);
}

fn label(out: &mut String, x: i64, y: i64, text: i64) {
    let _ = writeln!(out, "\\node at ({x},{y}) {{\\Large{{\\texttt{{{text}}}}}}};");
}

/// `print_latex(TiledMMA)` (and of an MMA_Atom: `print_latex(make_tiled_mma(atom))`).
pub fn print_latex_mma(t: &TiledMma) -> R<String> {
    let (m, n, k) = (t.tile_size(0)?, t.tile_size(1)?, t.tile_size(2)?);
    let c = identity_tv(&T(vec![I(m), I(n)]), &t.get_layout_tv(Operand::C)?)?;
    let a = identity_tv(&T(vec![I(m), I(k)]), &t.get_layout_tv(Operand::A)?)?;
    let b = identity_tv(&T(vec![I(n), I(k)]), &t.get_layout_tv(Operand::B)?)?;
    let (m, n, k) = (m.v, n.v, k.v);
    // C, A and B with their labels: (m + k + 2) x (n + k + 2) cells (a `structured` fuzz
    // finding: a tile of 2^31 rows wrote labels until 24 GB of memory)
    let extent = |x: i64| x.saturating_add(k).saturating_add(2);
    crate::eval::budget::check_limit("print_latex", extent(m), extent(n))?;
    let mut out = String::new();
    let _ = writeln!(out, "% LayoutC: ArithTuple(_0,_0) o {c}");
    let _ = writeln!(out, "% LayoutA: ArithTuple(_0,_0) o {a}");
    let _ = writeln!(out, "% LayoutB: ArithTuple(_0,_0) o {b}");
    out.push_str(HEADER);
    nodes(&mut out, &c, |x, y| (x, y))?;
    grid(&mut out, (0, 0), (m, n));
    nodes(&mut out, &a, |x, kk| (x, kk - k - 1))?;
    grid(&mut out, (0, -k - 1), (m, -1));
    for i in 0..m {
        label(&mut out, i, -1 - k - 1, i);
    }
    for kk in 0..k {
        label(&mut out, -1, kk - k - 1, kk);
    }
    nodes(&mut out, &b, |y, kk| (kk - k - 1, y))?;
    grid(&mut out, (-k - 1, 0), (-1, n));
    for j in 0..n {
        label(&mut out, -1 - k - 1, j, j);
    }
    for kk in 0..k {
        label(&mut out, kk - k - 1, -1, kk);
    }
    out.push_str(FOOTER);
    Ok(out)
}

/// The tile (M, N) of a TiledCopy and its source and destination (thread, value) -> (m, n)
/// layouts, as `print_latex(TiledCopy)` computes them (for the SVG of a copy too).
pub fn copy_tv(c: &TiledCopy) -> R<(i64, i64, Layout, Layout)> {
    let one = Layout::new(T(vec![I(st(1)), I(st(1))]), T(vec![I(st(0)), I(st(0))]));
    let tile_mn = ot::product_each(&od::logical_divide_tiler(&one, &c.tiler)?.shape)?;
    let dims: Vec<i64> = tile_mn.modes().iter().map(|x| x.as_int().map(|i| i.v)).collect::<R<_>>()?;
    let (m, n) = match dims[..] {
        [m, n] => (m, n),
        _ => {
            return Err(EvalError::rule(
                "static assertion failed",
                format!("print_latex of a copy needs a rank-2 tile, got {tile_mn}"),
            ))
        }
    };
    let id = crate::eval::ops::structure::make_identity_layout(&tile_mn);
    let cut = |side| -> R<Layout> { oc::slice(&T(vec![Under, Under, I(st(0))]), &c.tidfrg(side, &id)?) };
    let (s, d) = (cut(Side::S)?, cut(Side::D)?);
    Ok((m, n, s, d))
}

/// `print_latex(TiledCopy)`.
pub fn print_latex_copy(c: &TiledCopy) -> R<String> {
    let (m, n, s, d) = copy_tv(c)?;
    let mut out = String::new();
    let _ = writeln!(out, "% Layout S TV: ArithTuple(_0,_0) o {s}");
    let _ = writeln!(out, "% Layout D TV: ArithTuple(_0,_0) o {d}");
    out.push_str(HEADER);
    nodes(&mut out, &s, |x, y| (x, y))?;
    grid(&mut out, (0, 0), (m, n));
    for i in 0..m {
        label(&mut out, i, -1, i);
    }
    for j in 0..n {
        label(&mut out, -1, j, j);
    }
    nodes(&mut out, &d, |x, y| (x, y + n + 3))?;
    grid(&mut out, (0, n + 3), (m, n + n + 3));
    for i in 0..m {
        label(&mut out, i, n + n + 3, i);
    }
    for j in 0..n {
        label(&mut out, -1, j + n + 3, j);
    }
    out.push_str(FOOTER);
    Ok(out)
}
