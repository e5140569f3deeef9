//! An SVG picture of a rank-2 layout (or swizzled/composed layout): one square per coordinate
//! (m, n), shaded by its index modulo 8 with CuTe's `TSVGColor_BWx8` greys, the index written
//! inside, row and column numbers along the edges. Rank-1 layouts are drawn as one column.

use super::grid::{check_limit, Grid};
use super::latex::append2_value;
use crate::eval::error::R;
use crate::eval::value::Value;
use std::fmt::Write;

const GREYS: [&str; 8] = [
    "255,255,255",
    "230,230,230",
    "205,205,205",
    "180,180,180",
    "155,155,155",
    "130,130,130",
    "105,105,105",
    "080,080,080",
];

/// Side of one cell, in SVG user units.
const CELL: i64 = 30;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The SVG document of a layout of rank <= 2.
pub fn svg(v: &Value) -> R<String> {
    let layout = append2_value(v)?;
    let g = Grid::new(&layout)?;
    check_limit("print_svg", g.rows, g.cols)?;
    let width = (g.cols + 1) * CELL;
    let height = (g.rows + 1) * CELL;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">"
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&layout.to_string()));
    let _ = writeln!(
        out,
        "<g font-family=\"monospace\" font-size=\"10\" text-anchor=\"middle\" dominant-baseline=\"central\">"
    );
    for n in 0..g.cols {
        let _ = writeln!(out, "<text x=\"{}\" y=\"{}\">{n}</text>", (n + 1) * CELL + CELL / 2, CELL / 2);
    }
    for m in 0..g.rows {
        let _ = writeln!(out, "<text x=\"{}\" y=\"{}\">{m}</text>", CELL / 2, (m + 1) * CELL + CELL / 2);
    }
    for m in 0..g.rows {
        for n in 0..g.cols {
            let idx = g.at(m, n)?;
            let (x, y) = ((n + 1) * CELL, (m + 1) * CELL);
            let _ = writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"rgb({})\" stroke=\"black\"/>",
                GREYS[idx.rem_euclid(8) as usize]
            );
            let _ = writeln!(out, "<text x=\"{}\" y=\"{}\">{idx}</text>", x + CELL / 2, y + CELL / 2);
        }
    }
    out.push_str("</g>\n</svg>");
    Ok(out)
}
