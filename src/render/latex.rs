//! `print_latex`: the TikZ document CuTe's `print_latex(L)` prints (`cute/util/print_latex.hpp`,
//! default colours `TikzColor_BWx8`), byte for byte (without the final newline).

use super::grid::{check_limit, Grid};
use crate::eval::error::{EvalError, R};
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::layout::{Func, Layout};
use crate::eval::ops::swizzle::composed::compose3;
use crate::eval::value::Value;
use std::fmt::Write;

const BW8: [&str; 8] = ["black!00", "black!40", "black!20", "black!60", "black!10", "black!50", "black!30", "black!70"];

/// `TikzColor_BWx8{}(idx)` = `color_map[idx % 8]`. For a negative idx CuTe reads outside its
/// table: on the reference platform the entries at -1, -2, -4, -5 are null pointers, printed
/// `(null)`; the others are arbitrary bytes, which we refuse to imitate.
fn color(idx: i32) -> R<&'static str> {
    let r = idx % 8;
    if r >= 0 {
        return Ok(BW8[r as usize]);
    }
    match r {
        -1 | -2 | -4 | -5 => Ok("(null)"),
        _ => Err(EvalError::rule(
            "print_latex colour of a negative index",
            format!("index {idx}: CuTe reads color_map[{r}], outside its colour table, and prints arbitrary bytes"),
        )),
    }
}

/// `append<2>(layout, Layout<_1,_0>{})` on the plain layout.
fn append2(l: &Layout, what: &str) -> R<Layout> {
    let mut s = l.shape.modes();
    let mut d = l.stride.modes();
    if let (V::T(ss), V::T(ds)) = (l.shape.view(), l.stride.view()) {
        s = ss.to_vec();
        d = ds.to_vec();
    }
    if s.len() > 2 || d.len() > 2 {
        return Err(EvalError::rule(
            "rank(layout) <= 2",
            format!("{what} needs a layout of rank at most 2, `{l}` has rank {}", s.len()),
        ));
    }
    while s.len() < 2 {
        s.push(IntTuple::st(1));
    }
    while d.len() < 2 {
        d.push(IntTuple::st(0));
    }
    Ok(Layout::new(IntTuple::T(s), IntTuple::T(d)))
}

/// `append<2>(L, _1:_0)` for a layout or composed layout (`composition(A, O, append<2>(B))`);
/// `what` (the printer) is named when the rank is too high.
pub fn append2_value(v: &Value, what: &str) -> R<Value> {
    fn go(f: &Func, what: &str) -> R<Value> {
        match f {
            Func::Layout(l) => Ok(Value::Layout(append2(l, what)?)),
            Func::Composed(c) => compose3(c.outer.clone(), c.offset, go(&c.inner, what)?),
            Func::Swizzle(sw) => Err(EvalError::type_err(format!("{sw} is not a layout"))),
        }
    }
    match v {
        Value::Layout(l) => go(&Func::Layout(l.clone()), what),
        Value::Composed(c) => go(&Func::Composed(c.clone()), what),
        v => Err(EvalError::type_err(format!("expected a layout, got {} `{v}`", v.kind()))),
    }
}

/// The TikZ document of a layout of rank <= 2.
pub fn print_latex(v: &Value) -> R<String> {
    let layout = append2_value(v, "print_latex")?;
    let g = Grid::new(&layout)?;
    check_limit("print_latex", g.rows, g.cols)?;
    let mut out = String::new();
    let _ = writeln!(out, "% Layout: {layout}");
    out.push_str(
        "\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n\
         \\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n",
    );
    let (mm, nn) = (g.rows as i32, g.cols as i32);
    for m in 0..g.rows {
        for n in 0..g.cols {
            let idx = g.at(m, n)?;
            let _ = writeln!(out, "\\node[fill={}] at ({m},{n}) {{{idx}}};", color(idx)?);
        }
    }
    let _ = write!(out, "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({mm},{nn});\n\n");
    for m in 0..g.rows {
        let _ = writeln!(out, "\\node at ({m},-1) {{\\Large{{\\texttt{{{m}}}}}}};");
    }
    for n in 0..g.cols {
        let _ = writeln!(out, "\\node at (-1,{n}) {{\\Large{{\\texttt{{{n}}}}}}};");
    }
    out.push_str("\\end{tikzpicture}\n\\end{document}");
    Ok(out)
}
