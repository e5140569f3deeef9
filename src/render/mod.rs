//! Printing that is more than `Display`: print_layout tables, print_latex (TikZ), SVG pictures.
//! Reads the algebra, never the reverse. May import: `eval` (algebra), never parser/runtime.
//!
//! - `grid`: a rank-2 layout as CuTe's printers evaluate it; the size limit (`CUTE_PRINT_LIMIT`).
//! - `table`: `print_layout`, byte-identical to CuTe.
//! - `latex`: `print_latex`, byte-identical to CuTe.
//! - `svg`: `svg(layout)`, a picture (not a CuTe printer).

pub mod grid;
pub mod latex;
pub mod svg;
pub mod table;

use crate::eval::builtins::{Args, Builtin};
use crate::eval::error::{EvalError, R};
use crate::eval::value::{FileOut, Value};

pub use latex::print_latex;
pub use svg::svg;
pub use table::print_layout;

fn one_arg<'a>(a: &'a Args, name: &str) -> R<&'a Value> {
    if a.nargs() != 1 || !a.targs.is_empty() {
        return Err(EvalError::arity(format!("{name}(L) takes one layout")));
    }
    a.arg(0)
}

fn f_print_layout(a: &Args) -> R<Value> {
    Ok(Value::Text(print_layout(one_arg(a, "print_layout")?).map_err(|e| e.at_arg(0))?))
}

fn f_print_latex(a: &Args) -> R<Value> {
    Ok(Value::Text(print_latex(one_arg(a, "print_latex")?).map_err(|e| e.at_arg(0))?))
}

fn f_print_svg(a: &Args) -> R<Value> {
    Ok(Value::Text(svg(one_arg(a, "print_svg")?).map_err(|e| e.at_arg(0))?))
}

/// `f(X, "path")`: the picture `draw(X)` as a file to be written (the session writes it).
fn to_file(a: &Args, name: &str, draw: fn(&Value) -> R<String>) -> R<Value> {
    if a.nargs() != 2 || !a.targs.is_empty() {
        return Err(EvalError::arity(format!(
            "{name}(X, \"file\") takes a value and a file name; print_{name}(X) prints the picture instead"
        )));
    }
    let path = match a.arg(1)? {
        Value::Str(s) if !s.is_empty() => s.clone(),
        Value::Str(_) => return Err(EvalError::type_err("the file name is empty").at_arg(1)),
        v => {
            return Err(EvalError::type_err(format!(
                "the file name must be a string such as \"f.{}\", got {} `{v}`",
                if name == "latex" { "tex" } else { name },
                v.kind()
            ))
            .at_arg(1))
        }
    };
    let text = draw(a.arg(0)?).map_err(|e| e.at_arg(0))?;
    Ok(Value::File(Box::new(FileOut { path, text })))
}

fn f_svg(a: &Args) -> R<Value> {
    to_file(a, "svg", svg)
}

fn f_latex(a: &Args) -> R<Value> {
    to_file(a, "latex", print_latex)
}

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "print_layout",
        sig: "print_layout(L)",
        doc: "CuTe's table of a rank-2 layout or swizzled layout: row m, column n holds L(m,n) \
              (at most CUTE_PRINT_LIMIT cells, default 1048576)",
        example: "print_layout((_2,_4):(_1,_2))",
        result: "(_2,_4):(_1,_2)\n      0   1   2   3 \n    +---+---+---+---+\n 0  | 0 | 2 | 4 | 6 |\n    +---+---+---+---+\n 1  | 1 | 3 | 5 | 7 |\n    +---+---+---+---+",
        f: f_print_layout,
    },
    Builtin {
        name: "print_latex",
        sig: "print_latex(L)",
        doc: "CuTe's TikZ (LaTeX) picture of a layout of rank <= 2, cells shaded by index modulo 8",
        example: "print_latex((_2,_2):(_1,_2))",
        result: "% Layout: (_2,_2):(_1,_2)\n\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n\\node[fill=black!00] at (0,0) {0};\n\\node[fill=black!20] at (0,1) {2};\n\\node[fill=black!40] at (1,0) {1};\n\\node[fill=black!60] at (1,1) {3};\n\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,2);\n\n\\node at (0,-1) {\\Large{\\texttt{0}}};\n\\node at (1,-1) {\\Large{\\texttt{1}}};\n\\node at (-1,0) {\\Large{\\texttt{0}}};\n\\node at (-1,1) {\\Large{\\texttt{1}}};\n\\end{tikzpicture}\n\\end{document}",
        f: f_print_latex,
    },
    Builtin {
        name: "print_svg",
        sig: "print_svg(L)",
        doc: "an SVG picture of a layout of rank <= 2 (not a CuTe printer): cells shaded by index modulo 8, \
              indices written inside",
        example: "print_svg(_1:_1)",
        result: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"60\" height=\"60\" viewBox=\"0 0 60 60\">\n<title>(_1,_1):(_1,_0)</title>\n<g font-family=\"monospace\" font-size=\"10\" text-anchor=\"middle\" dominant-baseline=\"central\">\n<text x=\"45\" y=\"15\">0</text>\n<text x=\"15\" y=\"45\">0</text>\n<rect x=\"30\" y=\"30\" width=\"30\" height=\"30\" fill=\"rgb(255,255,255)\" stroke=\"black\"/>\n<text x=\"45\" y=\"45\">0</text>\n</g>\n</svg>",
        f: f_print_svg,
    },
    Builtin {
        name: "svg",
        sig: "svg(X, \"file.svg\")",
        doc: "writes print_svg(X) to a file (whole or not at all) and says `wrote file.svg` on stderr",
        example: "svg((_4,_4):(_4,_1), \"/tmp/layout.svg\")",
        result: "",
        f: f_svg,
    },
    Builtin {
        name: "latex",
        sig: "latex(X, \"file.tex\")",
        doc: "writes print_latex(X) to a file (whole or not at all) and says `wrote file.tex` on stderr",
        example: "latex((_4,_4):(_4,_1), \"/tmp/layout.tex\")",
        result: "",
        f: f_latex,
    },
];
