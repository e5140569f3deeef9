//! `print_tensor`: CuTe's listing of a tensor's elements (`cute/util/print_tensor.hpp`), for the
//! counting tensors this tool holds (identity and coordinate tensors, `make_tensor(iter, L)`,
//! their tiles and partitions).
//!
//! CuTe prints the tensor, `:`, then by rank: rank 1 an element a line; rank 2 a row a line;
//! rank 3 the rank-2 slices `T(_,_,k)` with a line of `5 * size<1>(T)` dashes between them;
//! rank 4 the rank-3 slices `T(_,_,_,p)` with a line of as many `=` between them; any other
//! rank nothing more. Indices are run-time `int`s, so an element is what `T(m,n)` gives for
//! dynamic `m`, `n`; `pretty_print` writes a run-time integer as `%5d` (a `uint32_t` too, so one
//! at or over 2^31 shows negative) and anything else (a static integer, a coordinate tuple) as two
//! blanks and its `print`.

use crate::eval::atoms::tensor::Partition;
use crate::eval::atoms::tensor_element_typed;
use crate::eval::budget::{limit, tick};
use crate::eval::error::{EvalError, R};
use crate::eval::int::dy;
use crate::eval::int_tuple::{IntTuple, V};
use crate::eval::ops::tuple::product;
use std::fmt::Write;

/// CuTe's `print_tensor(T)` of a counting tensor, without the last line's newline (as the
/// session prints every answer).
pub fn print_tensor(p: &Partition) -> R<String> {
    let shape = &p.layout.shape;
    let modes: Vec<i64> = match shape.view() {
        V::T(ms) => ms.iter().map(|m| Ok(product(m)?.v)).collect::<R<_>>()?,
        _ => vec![product(shape)?.v],
    };
    // (every element is printed: the cell limit of the other printers. A mode of size 0 counts
    // as 1: CuTe still prints a line for each row of an empty row, and a separator as long as
    // mode 1 for each slice, so the loops and lines below stay within the limit too)
    let n = modes.iter().try_fold(1i64, |a, &m| a.checked_mul(m.max(1)));
    let lim = limit();
    if n.is_none_or(|n| n > lim) {
        let n = n.map_or_else(|| "more than 2^63".to_string(), |n| n.to_string());
        let what = if modes.contains(&0) {
            format!("a tensor of shape {shape} ({n} cells, a mode of size 0 counted as 1: CuTe still prints its rows)")
        } else {
            format!("a tensor of {n} elements")
        };
        return Err(EvalError::limit(format!(
            "print_tensor of {what} exceeds the limit of {lim} cells; \
             set the environment variable CUTE_PRINT_LIMIT to a larger number of cells to allow it"
        )));
    }
    let mut out = format!("{p}:\n");
    let budget = super::grid::byte_budget();
    let at = |out: &mut String, c: &[i64]| -> R<()> {
        tick()?;
        // (an element can be a coordinate of up to CUTE_MAX_LEAVES integers: bound the text too)
        if out.len() > budget {
            return Err(super::grid::too_many_bytes("print_tensor"));
        }
        let coord = match c {
            [m] => IntTuple::I(dy(*m)),
            _ => IntTuple::T(c.iter().map(|&i| IntTuple::I(dy(i))).collect()),
        };
        // (writing to a String cannot fail)
        let _ = match tensor_element_typed(p, coord)? {
            // (`pretty_print(uint32_t)` is `%*d` too: an unsigned element at or over 2^31 shows
            // negative)
            (IntTuple::I(i), true) if !i.s => write!(out, "{:5}", i.v as u32 as i32),
            (IntTuple::I(i), _) if !i.s => write!(out, "{:5}", i.v),
            (e, _) => write!(out, "  {e}"),
        };
        Ok(())
    };
    let rows = |out: &mut String, rest: &[i64]| -> R<()> {
        for m in 0..modes[0] {
            for n in 0..modes[1] {
                at(out, &[&[m, n][..], rest].concat())?;
            }
            out.push('\n');
        }
        Ok(())
    };
    let slices = |out: &mut String, rest: &[i64]| -> R<()> {
        for k in 0..modes[2] {
            if k > 0 {
                out.push_str(&"-".repeat(5 * modes[1].max(0) as usize));
                out.push('\n');
            }
            rows(out, &[&[k][..], rest].concat())?;
        }
        Ok(())
    };
    match modes.len() {
        1 => {
            for m in 0..modes[0] {
                at(&mut out, &[m])?;
                out.push('\n');
            }
        }
        2 => rows(&mut out, &[])?,
        3 => slices(&mut out, &[])?,
        4 => {
            for q in 0..modes[3] {
                if q > 0 {
                    out.push_str(&"=".repeat(5 * modes[1].max(0) as usize));
                    out.push('\n');
                }
                slices(&mut out, &[q])?;
            }
        }
        _ => {}
    }
    // (CuTe's last line ends in a newline, which the session adds; the rows of an empty mode,
    // blank lines at the end, go with it, as `cute-oracle` drops them)
    out.truncate(out.trim_end_matches('\n').len());
    Ok(out)
}
