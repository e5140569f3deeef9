//! `print_layout`: CuTe's console table of a rank-2 layout (`cute/util/print_tensor.hpp`),
//! byte for byte (without the final newline, which the caller's line ending supplies); on a
//! terminal coloured and cut to its width (`term`). Also the text tables of thread-value tiles
//! (`print_layout` of a TiledMMA, TiledCopy or TV layout over its tile), which CuTe does not print.

use super::grid::{check_limit, Grid};
use super::term::{bands, cell, Terminal};
use crate::eval::error::R;
use crate::eval::layout::{Func, Swizzle};
use crate::eval::value::Value;
use std::fmt::Write;

const DELIM: &str = "+-----------------------";

/// The table CuTe's `print_layout(L)` prints for a rank-2 layout or composed layout.
pub fn print_layout(v: &Value) -> R<String> {
    print_layout_on(v, &Terminal::default())
}

/// `print_layout` for a terminal: CuTe's table, its cells coloured (by index mod 8, or for a
/// swizzled layout by the chunk `[M, M+B)` of the offset its swizzle moves the cell to) and cut
/// into bands of columns when wider than the terminal. Plain and whole: CuTe's bytes.
pub fn print_layout_on(v: &Value, t: &Terminal) -> R<String> {
    let g = Grid::new(v)?;
    check_limit("print_layout", g.rows, g.cols)?;
    let idx_width = g.digits()? + 2;
    let w = idx_width - 2;
    let delim = &DELIM[..(idx_width + 1).min(DELIM.len())];
    let sw = outer_swizzle(v);
    let class = |x: i32| match sw {
        Some(s) => ((x as i64) >> s.m) & ((1i64 << s.b) - 1),
        None => (x as i64).rem_euclid(8),
    };
    let mut out = String::new();
    let _ = writeln!(out, "{v}");
    for (i, cols) in bands(t, g.cols, 4, w + 3).into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("    ");
        for n in cols.clone() {
            let _ = write!(out, "  {n:>w$} ");
        }
        out.push('\n');
        let rule = |out: &mut String| {
            out.push_str("    ");
            for _ in cols.clone() {
                out.push_str(delim);
            }
            out.push_str("+\n");
        };
        for m in 0..g.rows {
            rule(&mut out);
            let _ = write!(out, "{m:>2}  ");
            for n in cols.clone() {
                let x = g.at(m, n)?;
                out.push('|');
                out.push_str(&cell(t, &format!(" {x:>w$} "), class(x), false));
            }
            out.push_str("|\n");
        }
        rule(&mut out);
    }
    while out.ends_with('\n') {
        out.pop();
    }
    Ok(out)
}

/// The outermost swizzle of a composed layout (`Sw<B,M,S> o ... o L`), if any.
pub fn outer_swizzle(v: &Value) -> Option<Swizzle> {
    match v {
        Value::Composed(c) => match &c.outer {
            Func::Swizzle(sw) => Some(*sw),
            _ => None,
        },
        _ => None,
    }
}

/// A thread-value tile as a text table: `rows x cols` cells, each `T#V#` of its first owner
/// (blank when none owns it), coloured by thread (CuTe's TV colours), odd warps in bold.
pub fn tv_table(
    title: &str,
    rows: i64,
    cols: i64,
    owner: &dyn Fn(i64, i64) -> Option<(i64, i64)>,
    t: &Terminal,
) -> String {
    let label = |m: i64, n: i64| owner(m, n).map(|(tid, vid)| format!("T{tid}V{vid}")).unwrap_or_default();
    let mut w = 2;
    for m in 0..rows {
        for n in 0..cols {
            w = w.max(label(m, n).len());
        }
    }
    let delim = format!("+{}", "-".repeat(w + 2));
    let mut out = format!("{title}\n");
    for (i, band) in bands(t, cols, 4, w + 3).into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("    ");
        for n in band.clone() {
            let _ = write!(out, "  {n:>w$} ");
        }
        out.push('\n');
        let rule = |out: &mut String| {
            out.push_str("    ");
            for _ in band.clone() {
                out.push_str(&delim);
            }
            out.push_str("+\n");
        };
        for m in 0..rows {
            rule(&mut out);
            let _ = write!(out, "{m:>2}  ");
            for n in band.clone() {
                out.push('|');
                let text = format!(" {:>w$} ", label(m, n));
                match owner(m, n) {
                    Some((tid, _)) => out.push_str(&cell(t, &text, tid, (tid / 32) % 2 == 1)),
                    None => out.push_str(&text),
                }
            }
            out.push_str("|\n");
        }
        rule(&mut out);
    }
    while out.ends_with('\n') {
        out.pop();
    }
    out
}
