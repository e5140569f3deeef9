//! Injectivity and surjectivity of a layout (or swizzled layout) as a function from its domain
//! `[0, size)` to the integers, decided point by point (exact, up to a size limit).
//! May import: `analysis::access`.

use super::access::{at, int, int_of};
use crate::eval::error::{EvalError, R};
use crate::eval::value::Value;
use std::collections::HashMap;

/// Most points evaluated.
pub const MAX_POINTS: i64 = 1 << 22;

/// What one pass over the domain found.
#[derive(Clone, Debug)]
pub struct Image {
    pub size: i64,
    /// The first two indices with the same value, if any: (i, j, value).
    pub repeat: Option<(i64, i64, i64)>,
    /// The smallest value in `[0, n)` not hit, for the `n` asked (None: all hit).
    pub missing: Option<i64>,
    /// A value outside `[0, n)`: (index, value).
    pub outside: Option<(i64, i64)>,
    pub n: Option<i64>,
}

pub fn image(l: &Value, n: Option<i64>) -> R<Image> {
    if !matches!(l, Value::Layout(_) | Value::Composed(_)) {
        return Err(EvalError::type_err(format!("expected a layout, got {} `{l}`", l.kind())).at_arg(0));
    }
    let size = int_of("size", &[], l)?;
    if size > MAX_POINTS || n.is_some_and(|n| n > MAX_POINTS) {
        return Err(EvalError::rule(
            "too many points to analyse",
            format!(
                "size {size}{}; the limit is {MAX_POINTS}",
                n.map(|n| format!(", codomain {n}")).unwrap_or_default()
            ),
        ));
    }
    if n.is_some_and(|n| n < 0) {
        return Err(EvalError::type_err("the codomain size must not be negative").at_arg(1));
    }
    let mut first: HashMap<i64, i64> = HashMap::new();
    let mut repeat = None;
    let mut outside = None;
    let mut hit = vec![false; n.unwrap_or(0) as usize];
    for i in 0..size {
        let v = at(l, int(i))?;
        if let Some(&j) = first.get(&v) {
            repeat.get_or_insert((j, i, v));
        } else {
            first.insert(v, i);
        }
        if let Some(n) = n {
            if (0..n).contains(&v) {
                hit[v as usize] = true;
            } else {
                outside.get_or_insert((i, v));
            }
        }
    }
    let missing = hit.iter().position(|h| !h).map(|p| p as i64);
    Ok(Image { size, repeat, missing, outside, n })
}

pub fn explain(name: &str, l: &Value, im: &Image) -> Vec<String> {
    let mut out = vec![format!("  {l} evaluated at all {} points of its domain", im.size)];
    match im.repeat {
        Some((i, j, v)) => out.push(format!("  not injective: L({i}) == L({j}) == {v}")),
        None => out.push(format!("  injective: {} distinct values", im.size)),
    }
    if let Some(n) = im.n {
        match im.missing {
            Some(m) => out.push(format!("  not surjective onto [0, {n}): {m} is never hit")),
            None => out.push(format!("  surjective onto [0, {n}): every value is hit")),
        }
        if name == "is_bijective" {
            if let Some((i, v)) = im.outside {
                out.push(format!("  L({i}) = {v} lies outside [0, {n})"));
            }
        }
    }
    out
}
