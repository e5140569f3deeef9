//! Printing that is more than `Display`: print_layout tables, print_latex (TikZ), SVG pictures.
//! Reads the algebra, never the reverse. May import: `eval` (algebra), never parser/runtime.
//!
//! - `grid`: a rank-2 layout as CuTe's printers evaluate it; the size limit (`CUTE_PRINT_LIMIT`).
//! - `table`: `print_layout`, byte-identical to CuTe (coloured, cut to width on a terminal); the
//!   text tables of thread-value tiles.
//! - `term`: what a terminal changes in a table (colour, width), set per statement.
//! - `latex`: `print_latex`, byte-identical to CuTe.
//! - `tensor`: `print_tensor` of a counting tensor, byte-identical to CuTe.
//! - `mma_svg`: `print_svg` of a TiledMMA or MMA atom, byte-identical to CuTe.
//! - `svg`: `print_svg` of everything else: pictures CuTe does not draw, in its visual language.
//! - `cpp`: `cpp(x)`, the CuTe C++ that builds a value.
//! - `print`: `print(x)`, CuTe's own print.

pub mod cpp;
pub mod grid;
pub mod latex;
pub mod mma_svg;
pub mod print;
pub mod svg;
pub mod table;
pub mod tensor;
pub mod term;

use crate::eval::builtins::{Args, Builtin, Form};
use crate::eval::error::{EvalError, R};
use crate::eval::value::{FileOut, Value};

pub use latex::print_latex;
pub use svg::svg;
pub use table::print_layout;

fn one_arg<'a>(a: &'a Args, name: &str) -> R<&'a Value> {
    if !a.targs.is_empty() {
        return Err(EvalError::arity(format!("{name}(L) takes one layout")));
    }
    a.arg(0)
}

fn f_print_layout(a: &Args) -> R<Value> {
    let t = term::get();
    let args: Vec<Value> = (0..a.nargs()).map(|i| a.arg(i).cloned()).collect::<R<_>>()?;
    if !a.targs.is_empty() {
        return Err(EvalError::arity(
            "print_layout(L), print_layout(X) of a TiledMMA or TiledCopy, or print_layout(TV, (M,N))",
        ));
    }
    if let Some(tiles) = svg::tv_tiles(&args)? {
        let tables: Vec<String> = tiles
            .iter()
            .map(|(title, tile)| {
                table::tv_table(title, tile.rows, tile.cols, &|m, n| tile.owner.get(&(m, n)).copied(), &t)
            })
            .collect();
        return Ok(Value::Text(tables.join("\n\n")));
    }
    Ok(Value::Text(table::print_layout_on(&args[0], &t).map_err(|e| e.at_arg(0))?))
}

fn f_print_tensor(a: &Args) -> R<Value> {
    let what = "print_tensor prints a tensor (make_identity_tensor, make_coord_tensor, make_tensor(iter, L), \
                their tiles and partitions)";
    let v = one_arg(a, "print_tensor")?;
    if let Value::Atom(x) = v {
        if let crate::eval::atoms::AtomValue::Partition(p) = &**x {
            return Ok(Value::Text(tensor::print_tensor(p).map_err(|e| e.at_arg(0))?));
        }
    }
    match v {
        v @ (Value::Layout(_) | Value::Composed(_)) => Err(EvalError::type_err(format!(
            "{what}, not the layout `{v}`: print_layout({v}) prints its table, \
             print_tensor(make_coord_tensor({v})) its indices"
        ))),
        v => Err(EvalError::type_err(format!("{what}, not {} `{v}`", v.kind()))),
    }
    .map_err(|e| e.at_arg(0))
}

pub(crate) fn f_print_latex(a: &Args) -> R<Value> {
    Ok(Value::Text(print_latex(one_arg(a, "print_latex")?).map_err(|e| e.at_arg(0))?))
}

/// `print_svg(X)`: CuTe's own picture for a TiledMMA or an MMA atom, ours for the rest;
/// `print_svg(TV, (M,N))`: a thread-value layout over its tile.
pub fn picture(args: &[&Value]) -> R<String> {
    match args {
        [v] if mma_svg::is_mma(v) => mma_svg::print_svg_mma(v).map_err(|e| e.at_arg(0)),
        [v] => svg(v).map_err(|e| e.at_arg(0)),
        [tv, tile] => svg::svg_tv(tv, tile).map_err(|e| if e.arg.is_none() { e.at_arg(0) } else { e }),
        _ => Err(EvalError::arity("print_svg(X) or print_svg(TV, (M,N))")),
    }
}

/// `bank_picture(S, T [, access])`.
pub fn banks(args: &[&Value]) -> R<String> {
    match args {
        [s, t] => svg::svg_banks(s, t, None),
        [s, t, a] => svg::svg_banks(s, t, Some(a)),
        _ => Err(EvalError::arity("bank_picture(S, T) or bank_picture(S, T, access)")),
    }
    .map_err(|e| if e.arg.is_none() { e.at_arg(0) } else { e })
}

fn no_targs(a: &Args, name: &str) -> R<()> {
    if a.targs.is_empty() {
        Ok(())
    } else {
        Err(EvalError::arity(format!("{name} takes no template arguments")))
    }
}

fn f_cpp(a: &Args) -> R<Value> {
    if !a.targs.is_empty() {
        return Err(EvalError::arity("cpp(x) takes one value"));
    }
    Ok(Value::Text(cpp::cpp(a.arg(0)?).map_err(|e| e.at_arg(0))?))
}

fn f_print_svg(a: &Args) -> R<Value> {
    no_targs(a, "print_svg")?;
    Ok(Value::Text(picture(a.args)?))
}

fn f_bank_picture(a: &Args) -> R<Value> {
    no_targs(a, "bank_picture")?;
    Ok(Value::Text(banks(a.args)?))
}

/// `f(X, ..., "path")`: the picture `draw(X, ...)` as a file to be written (the session writes it).
fn to_file(a: &Args, name: &str, ext: &str, draw: fn(&[&Value]) -> R<String>) -> R<Value> {
    no_targs(a, name)?;
    // (at least two arguments, the value and the path: the registry's arity)
    let Some((last, rest)) = a.args.split_last().filter(|(_, r)| !r.is_empty()) else { return Err(a.refuse()) };
    let at = rest.len();
    let path = match last {
        Value::Str(s) if !s.is_empty() => s.clone(),
        Value::Str(_) => return Err(EvalError::type_err("the file name is empty").at_arg(at)),
        v => {
            return Err(EvalError::type_err(format!(
                "the file name must be a string such as \"f.{ext}\", got {} `{v}`",
                v.kind()
            ))
            .at_arg(at))
        }
    };
    let text = draw(rest)?;
    Ok(Value::File(Box::new(FileOut { path, text })))
}

fn f_svg(a: &Args) -> R<Value> {
    to_file(a, "svg", "svg", picture)
}

fn f_banks(a: &Args) -> R<Value> {
    to_file(a, "banks", "svg", banks)
}

fn f_latex(a: &Args) -> R<Value> {
    to_file(a, "latex", "tex", |args| match args {
        [v] => match v {
            Value::Atom(_) => {
                let a = Args { name: "print_latex", sig: "print_latex(T) / print_latex(C)", targs: &[], args };
                crate::eval::atoms::quiet(|| crate::eval::atoms::f_print_latex(&a)).map(|t| t.to_string())
            }
            v => print_latex(v).map_err(|e| e.at_arg(0)),
        },
        _ => Err(EvalError::arity("latex(X, \"file.tex\")")),
    })
}

/// Built-in functions of this module.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "cpp",
        sig: "cpp(x)",
        doc: "the CuTe C++ expression that builds x, static-ness included (for `using namespace cute;`; \
              not a CuTe printer: tests/cpp_compile.rs compiles it and checks what CuTe prints)",
        example: "cpp((_8,4):(_1,16))",
        result: "make_layout(make_shape(Int<8>{}, 4), make_stride(Int<1>{}, 16))",
        f: f_cpp, arity: crate::eval::builtins::Arity::Says(1, 1, 0, "cpp(x) takes one value"),
},
    Builtin {
        name: "print_layout",
        sig: "print_layout(L) / print_layout(X) / print_layout(TV, (M,N))",
        doc: "CuTe's table of a rank-2 layout or swizzled layout: row m, column n holds L(m,n) \
              (at most CUTE_PRINT_LIMIT cells, default 1048576); of a TiledMMA or MMA atom (C, A, B), a \
              TiledCopy (source, destination) or a TV layout over its (M,N) tile, tables of T#V# cells \
              (not CuTe's). On a terminal the cells are coloured (by index mod 8, a swizzled layout's by \
              the chunk its swizzle moves them to, T#V# by thread) and a wide table is cut into bands",
        example: "print_layout((_2,_4):(_1,_2))",
        result: "(_2,_4):(_1,_2)\n      0   1   2   3 \n    +---+---+---+---+\n 0  | 0 | 2 | 4 | 6 |\n    +---+---+---+---+\n 1  | 1 | 3 | 5 | 7 |\n    +---+---+---+---+",
        f: f_print_layout, arity: crate::eval::builtins::Arity::Says(1, 2, 0, "print_layout(L), print_layout(X) of a TiledMMA or TiledCopy, or print_layout(TV, (M,N))"),
},
    Builtin {
        name: "print_tensor",
        sig: "print_tensor(T)",
        doc: "CuTe's listing of a counting tensor's elements (an identity or coordinate tensor, make_tensor(iter, L), \
              a tile or partition of one): rank 1 an element a line, rank 2 a row a line, rank 3 and 4 their \
              slices between lines of - and =; a run-time integer in 5 columns, anything else after two blanks",
        example: "print_tensor(make_identity_tensor((_2,_3)))",
        result: "ArithTuple(_0,_0) o (_2,_3):(_1@0,_1@1):\n  (0,0)  (0,1)  (0,2)\n  (1,0)  (1,1)  (1,2)",
        f: f_print_tensor, arity: crate::eval::builtins::Arity::Says(1, 1, 0, "print_tensor(T) takes one tensor"),
},
    Builtin {
        name: "print_svg",
        sig: "print_svg(X) / print_svg(TV, (M,N))",
        doc: "an SVG picture: of a TiledMMA or MMA atom CuTe's own (C, A and B tiles by thread and value); of a \
              TiledCopy its source and destination tiles; of a thread-value layout over an (M,N) tile (or an MMA \
              atom's A/B/C layout) cells T#/V# coloured by thread, warps outlined; of a layout its indices, a \
              swizzled one coloured by the chunk its swizzle moves each cell to",
        example: "print_svg(_1:_1)",
        result: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"269\" height=\"96\" viewBox=\"0 0 269 96\">\n<title>(_1,_1):(_1,_0)</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<g font-family=\"monospace\" text-anchor=\"middle\" dominant-baseline=\"central\">\n<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\" text-anchor=\"start\">(_1,_1):(_1,_0)</text>\n<text x=\"8\" y=\"36\" font-size=\"11\" text-anchor=\"start\">shade: index mod 8 (as print_latex)</text>\n<text x=\"35\" y=\"54\" font-size=\"10\">0</text>\n<text x=\"11\" y=\"76\" font-size=\"10\">0</text>\n<rect x=\"23\" y=\"64\" width=\"24\" height=\"24\" fill=\"rgb(255,255,255)\" stroke=\"black\"/>\n<text x=\"35\" y=\"76\" font-size=\"10\">0</text>\n</g>\n</svg>",
        f: f_print_svg, arity: crate::eval::builtins::Arity::Says(1, 2, 0, "print_svg(X) or print_svg(TV, (M,N))"),
},
    Builtin {
        name: "bank_picture",
        sig: "bank_picture(S, T [, access])",
        doc: "an SVG picture of a shared-memory layout S ((m,n) -> element offset) with each cell's 4-byte bank for \
              elements of T (a type or a bit count); with an access (a TiledCopy or a TV layout) warp 0's cells are \
              outlined, in red where they conflict",
        example: "bank_picture((_1,_2):(_0,_1), 32)",
        result: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"486\" height=\"104\" viewBox=\"0 0 486 104\">\n<title>(_1,_2):(_0,_1)  (32-bit elements)</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<g font-family=\"monospace\" text-anchor=\"middle\" dominant-baseline=\"central\">\n<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\" text-anchor=\"start\">(_1,_2):(_0,_1)  (32-bit elements)</text>\n<text x=\"8\" y=\"36\" font-size=\"11\" text-anchor=\"start\">cell: b = 4-byte bank of its first byte (32 banks), colour by bank</text>\n<text x=\"41\" y=\"54\" font-size=\"10\">0</text>\n<text x=\"77\" y=\"54\" font-size=\"10\">1</text>\n<text x=\"11\" y=\"80\" font-size=\"10\">0</text>\n<rect x=\"23\" y=\"64\" width=\"36\" height=\"32\" fill=\"rgb(237,171,171)\" stroke=\"black\"/>\n<text x=\"41\" y=\"73\" font-size=\"9\">b0</text>\n<rect x=\"59\" y=\"64\" width=\"36\" height=\"32\" fill=\"rgb(226,140,120)\" stroke=\"black\"/>\n<text x=\"77\" y=\"73\" font-size=\"9\">b1</text>\n</g>\n</svg>",
        f: f_bank_picture, arity: crate::eval::builtins::Arity::Own,
},
    Builtin {
        name: "banks",
        sig: "banks(S, T [, access], \"file.svg\")",
        doc: "writes bank_picture(S, T [, access]) to a file and says `wrote file.svg` on stderr",
        example: "banks(Sw<3,3,3> o (_8,_64):(_64,_1), half_t, \"/tmp/banks.svg\")",
        result: "",
        f: f_banks, arity: crate::eval::builtins::Arity::Says(2, crate::eval::builtins::MANY, 0, "banks(X, \"file.svg\") takes the value and a file name; print_banks(X) prints the picture instead"),
},
    Builtin {
        name: "svg",
        sig: "svg(X [, (M,N)], \"file.svg\")",
        doc: "writes print_svg(X [, (M,N)]) to a file (whole or not at all) and says `wrote file.svg` on stderr",
        example: "svg((_4,_4):(_4,_1), \"/tmp/layout.svg\")",
        result: "",
        f: f_svg, arity: crate::eval::builtins::Arity::Says(2, crate::eval::builtins::MANY, 0, "svg(X, \"file.svg\") takes the value and a file name; print_svg(X) prints the picture instead"),
},
    Builtin {
        name: "latex",
        sig: "latex(X, \"file.tex\")",
        doc: "writes print_latex(X) to a file (whole or not at all) and says `wrote file.tex` on stderr",
        example: "latex((_4,_4):(_4,_1), \"/tmp/layout.tex\")",
        result: "",
        f: f_latex, arity: crate::eval::builtins::Arity::Says(2, crate::eval::builtins::MANY, 0, "latex(X, \"file.tex\") takes the value and a file name; print_latex(X) prints the picture instead"),
},
];

/// The forms of overloaded functions drawn here (the entry of `print_latex` is the registry's:
/// an MMA or copy object goes to `eval::atoms`).
pub const FORMS: &[Form] = &[
    Form {
        name: "print_latex",
        sig: "print_latex(L)",
        doc: "CuTe's TikZ (LaTeX) picture of a layout of rank <= 2, cells shaded by index modulo 8",
        example: "print_latex((_2,_2):(_1,_2))",
        result: "% Layout: (_2,_2):(_1,_2)\n\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n\\node[fill=black!00] at (0,0) {0};\n\\node[fill=black!20] at (0,1) {2};\n\\node[fill=black!40] at (1,0) {1};\n\\node[fill=black!60] at (1,1) {3};\n\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,2);\n\n\\node at (0,-1) {\\Large{\\texttt{0}}};\n\\node at (1,-1) {\\Large{\\texttt{1}}};\n\\node at (-1,0) {\\Large{\\texttt{0}}};\n\\node at (-1,1) {\\Large{\\texttt{1}}};\n\\end{tikzpicture}\n\\end{document}",
    },
];
