//! `print_svg` of a TiledMMA or an MMA atom: CuTe 4.2's own picture (`cute/util/print_svg.hpp`,
//! `print_svg_mma`), byte for byte (without the final newline). C is drawn at the bottom right,
//! A to its left, B above it; each cell is the first (thread, value) that owns it, coloured
//! `SVGColor_TV` by thread.
//! May import: `eval` (the registry's functions for the TiledMMA's layouts), `render::grid`.

use super::grid::Grid;
use crate::eval::atoms::AtomValue;
use crate::eval::builtins;
use crate::eval::error::{EvalError, R};
use crate::eval::int::write_i64;
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::value::Value;
use std::fmt::Write;

/// CuTe's `SVGColor_TV`: one colour per thread modulo 8.
pub const TV_COLOURS: [&str; 8] = [
    "175,175,255",
    "175,255,175",
    "255,255,175",
    "255,175,175",
    "210,210,255",
    "210,255,210",
    "255,255,210",
    "255,210,210",
];

/// The colour CuTe gives thread `tid` (`color_map[tid % 8]`; a thread index is never negative).
pub fn tv_colour(tid: i64) -> &'static str {
    TV_COLOURS[tid.rem_euclid(8) as usize]
}

/// True for the values `print_svg` draws as CuTe does: a TiledMMA or an MMA atom.
pub fn is_mma(v: &Value) -> bool {
    matches!(v, Value::Atom(a) if matches!(**a, AtomValue::TiledMma(_) | AtomValue::MmaAtom(_)))
}

fn call(name: &str, args: &[Value]) -> R<Value> {
    builtins::call(name, &[], args)
}

fn int_of(t: &IntTuple) -> R<i64> {
    match t.view() {
        V::I(i) => Ok(i.v),
        V::T(v) => v.iter().try_fold(1i64, |a, e| Ok(a.wrapping_mul(int_of(e)?))),
        _ => Err(EvalError::type_err(format!("tile extent `{t}` is not an integer"))),
    }
}

/// One operand's (thread, value) -> index layout as a grid, and its comment line.
struct Operand {
    tv: Grid,
    comment: String,
}

fn operand(mma: &Value, which: &str, tile: &[IntTuple], modes: [usize; 2]) -> R<Operand> {
    let tv = call(&format!("get_layout{which}_TV"), std::slice::from_ref(mma))?;
    let shape = Value::Tuple(IntTuple::T(vec![tile[modes[0]].clone(), tile[modes[1]].clone()]));
    let ident = call("make_identity_layout", &[shape])?;
    let composed = call("composition", &[ident, tv.clone()])?;
    Ok(Operand { tv: Grid::new(&tv)?, comment: format!("ArithTuple(_0,_0) o {composed}") })
}

/// CuTe's SVG of a TiledMMA (an MMA atom is drawn as `make_tiled_mma(atom)`).
pub fn print_svg_mma(v: &Value) -> R<String> {
    let mma = match v {
        Value::Atom(a) if matches!(**a, AtomValue::MmaAtom(_)) => call("make_tiled_mma", std::slice::from_ref(v))?,
        v => v.clone(),
    };
    let tile_v = call("tile_shape", std::slice::from_ref(&mma))?;
    let kids = match &tile_v {
        Value::Tuple(t) => t.kids(),
        _ => None,
    };
    let tile = match kids {
        Some(t) if t.len() == 3 => t.to_vec(),
        _ => return Err(EvalError::type_err(format!("tile_shape is `{tile_v}`, not (M,N,K)"))),
    };
    let (m_, n_, k_) = (int_of(&tile[0])?, int_of(&tile[1])?, int_of(&tile[2])?);
    super::grid::check_limit("print_svg", k_.saturating_add(m_).max(1), k_.saturating_add(n_).max(1))?;
    let c = operand(&mma, "C", &tile, [0, 1])?;
    let a = operand(&mma, "A", &tile, [0, 2])?;
    let b = operand(&mma, "B", &tile, [1, 2])?;
    let cell = 20i64;
    let size = format!("\" width=\"{cell}\" height=\"{cell}\" fill=\"rgb(");
    let budget = super::grid::byte_budget();
    let mut out = String::new();
    let _ = writeln!(out, "<!--  Tile: {tile_v}  -->");
    let _ = writeln!(out, "<!--     A: {}  -->", a.comment);
    let _ = writeln!(out, "<!--     B: {}  -->", b.comment);
    let _ = writeln!(out, "<!--     C: {}  -->", c.comment);
    let _ = writeln!(
        out,
        "<svg width=\"100%\" height=\"100%\" viewBox=\"0 0 {} {}\" preserveAspectRatio=\"xMidYMid meet\" \
         xmlns=\"http://www.w3.org/2000/svg\">",
        (k_ + n_ + 2) * cell,
        (k_ + m_ + 2) * cell
    );
    // (x, y) of the cell for index `idx` of each operand's tile, and the rect's closing (CuTe
    // writes `"black"/>` for C and `"black" />` for A and B).
    // CuTe visits every (thread, value) and the first to reach a cell draws it; `each_first`
    // leaves out the points that can only reach cells already drawn (a fuzz finding: six SM90
    // atoms, 402,653,184 points for B, took 28 s).
    let draw = |out: &mut String,
                op: &Operand,
                (rows, extent): (i64, i64),
                at: &dyn Fn(i64, i64) -> (i64, i64),
                close: &str| {
        let rows = rows.max(1);
        let cells = rows.checked_mul(extent.max(0)).filter(|&n| n <= 1 << 26).unwrap_or(0);
        let mut in_tile = vec![false; cells as usize];
        let mut elsewhere = std::collections::HashSet::new();
        op.tv.each_first("print_svg", &mut |tid, vid, idx| {
            let (r, s) = (idx.rem_euclid(rows), idx.div_euclid(rows));
            let k = s * rows + r;
            let fresh = if (0..cells).contains(&k) && s >= 0 {
                !std::mem::replace(&mut in_tile[k as usize], true)
            } else {
                elsewhere.insert((r, s))
            };
            if !fresh {
                return Ok(());
            }
            if out.len() > budget {
                return Err(super::grid::too_many_bytes("print_svg"));
            }
            let (x, y) = at(r, s);
            // written in pieces, not with `write!` (a picture has up to hundreds of thousands
            // of cells; formatting took most of its time)
            let num = |out: &mut String, v: i64| {
                let _ = write_i64(out, v);
            };
            out.push_str("<rect x=\"");
            num(out, x);
            out.push_str("\" y=\"");
            num(out, y);
            out.push_str(&size);
            out.push_str(tv_colour(tid));
            out.push_str(")\" stroke=\"black\"");
            out.push_str(close);
            out.push_str("/>\n");
            for (label, i, q) in [("T", tid, 1), ("V", vid, 3)] {
                out.push_str("<text x=\"");
                num(out, x + cell / 2);
                out.push_str("\" y=\"");
                num(out, y + q * cell / 4);
                out.push_str("\" text-anchor=\"middle\" alignment-baseline=\"central\" font-size=\"8\">");
                out.push_str(label);
                num(out, i);
                out.push_str("</text>\n");
            }
            Ok(())
        })
    };
    let label = |out: &mut String, x: i64, y: i64, i: i64| {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" alignment-baseline=\"central\" font-size=\"12\">{i}</text>",
            x + cell / 2,
            y + cell / 2
        );
    };
    // C: (m, n) at column n + K + 2, row m + K + 2.
    draw(&mut out, &c, (m_, n_), &|m, n| ((n + k_ + 2) * cell, (m + k_ + 2) * cell), "")?;
    // A: (m, k) at column k + 1, row m + K + 2.
    draw(&mut out, &a, (m_, k_), &|m, k| ((k + 1) * cell, (m + k_ + 2) * cell), " ")?;
    for m in 0..m_ {
        label(&mut out, 0, (m + k_ + 2) * cell, m);
    }
    for k in 0..k_ {
        label(&mut out, (k + 1) * cell, (k_ + 1) * cell, k);
    }
    // B: (n, k) at column n + K + 2, row k + 1.
    draw(&mut out, &b, (n_, k_), &|n, k| ((n + k_ + 2) * cell, (k + 1) * cell), " ")?;
    for n in 0..n_ {
        label(&mut out, (n + k_ + 2) * cell, 0, n);
    }
    for k in 0..k_ {
        label(&mut out, (k_ + 1) * cell, (k + 1) * cell, k);
    }
    out.push_str("</svg>");
    Ok(out)
}
