//! `print_layout`: CuTe's console table of a rank-2 layout (`cute/util/print_tensor.hpp`),
//! byte for byte (without the final newline, which the caller's line ending supplies).

use super::grid::{check_limit, Grid};
use crate::eval::error::R;
use crate::eval::value::Value;
use std::fmt::Write;

const DELIM: &str = "+-----------------------";

/// The table CuTe's `print_layout(L)` prints for a rank-2 layout or composed layout.
pub fn print_layout(v: &Value) -> R<String> {
    let g = Grid::new(v)?;
    check_limit("print_layout", g.rows, g.cols)?;
    let idx_width = g.digits()? + 2;
    let w = idx_width - 2;
    let delim = &DELIM[..(idx_width + 1).min(DELIM.len())];
    let mut out = String::new();
    let _ = writeln!(out, "{v}");
    out.push_str("    ");
    for n in 0..g.cols {
        let _ = write!(out, "  {n:>w$} ");
    }
    out.push('\n');
    let rule = |out: &mut String| {
        out.push_str("    ");
        for _ in 0..g.cols {
            out.push_str(delim);
        }
        out.push_str("+\n");
    };
    for m in 0..g.rows {
        rule(&mut out);
        let _ = write!(out, "{m:>2}  ");
        for n in 0..g.cols {
            let x = g.at(m, n)?;
            let _ = write!(out, "| {x:>w$} ");
        }
        out.push_str("|\n");
    }
    rule(&mut out);
    while out.ends_with('\n') {
        out.pop();
    }
    Ok(out)
}
