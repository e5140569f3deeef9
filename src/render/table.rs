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

#[cfg(test)]
mod tests {
    use crate::eval::ops::swizzle::testkit::eval;

    #[test]
    fn rank_must_be_two() {
        assert!(eval("print_layout(_8:_1)").is_err());
        assert!(eval("print_layout((_2,_2,_2):(_1,_2,_4))").is_err());
        assert!(eval("print_layout(Sw<3,3,3>)").is_err());
    }

    #[test]
    fn table_like_cute() {
        // From the oracle: int truncation of the values, width from num_digits(int(cosize)).
        assert_eq!(
            eval("print_layout((2,(_3,_2)):(1000000000000,(1,3)))").unwrap(),
            "(2,(_3,_2)):(1000000000000,(1,3))\n      0   1   2   3   4   5 \n    +---+---+---+---+---+---+\n 0  | 0 | 1 | 2 | 3 | 4 | 5 |\n    +---+---+---+---+---+---+\n 1  | -727379968 | -727379967 | -727379966 | -727379965 | -727379964 | -727379963 |\n    +---+---+---+---+---+---+"
        );
        assert_eq!(
            eval("print_layout(Sw<1,1,2> o _0 o (_4,_8):(_8,_1) o (_2,_2):(_1,_2))").unwrap(),
            "Sw<1,1,2> o _0 o (_2,_2):(_8,_16)\n       0    1 \n    +----+----+\n 0  |  0 | 16 |\n    +----+----+\n 1  | 10 | 26 |\n    +----+----+"
        );
    }

    #[test]
    fn huge_is_refused_quickly() {
        let e = eval("print_layout((1048576,1048576):(1,1048576))").unwrap_err();
        assert!(e.detail.contains("CUTE_PRINT_LIMIT"), "{e}");
    }
}
