//! A tiny reader for the layout literals of the atom tables, written exactly as CuTe prints
//! them (`((_4,_8),(_2,_2)):((_32,_1),(_16,_8))`, `_32:_1`, `(_16,_8,_16)`).
//! Only the tables use it; user input goes through the real parser.
//! May import: `eval::int`, `eval::int_tuple`, `eval::layout`, `eval::error`.

use crate::eval::error::{EvalError, R};
use crate::eval::int::Int;
use crate::eval::int_tuple::IntTuple;
use crate::eval::layout::Layout;

fn bad(s: &str) -> EvalError {
    EvalError::rule("atom table", format!("cannot read `{s}`"))
}

fn tuple(s: &[u8], pos: &mut usize, src: &str) -> R<IntTuple> {
    if *pos < s.len() && s[*pos] == b'(' {
        *pos += 1;
        let mut v = Vec::new();
        if *pos < s.len() && s[*pos] == b')' {
            *pos += 1;
            return Ok(IntTuple::T(v));
        }
        loop {
            v.push(tuple(s, pos, src)?);
            match s.get(*pos) {
                Some(b',') => *pos += 1,
                Some(b')') => {
                    *pos += 1;
                    return Ok(IntTuple::T(v));
                }
                _ => return Err(bad(src)),
            }
        }
    }
    let is_static = s.get(*pos) == Some(&b'_');
    if is_static {
        *pos += 1;
    }
    let start = *pos;
    if s.get(*pos) == Some(&b'-') {
        *pos += 1;
    }
    while *pos < s.len() && s[*pos].is_ascii_digit() {
        *pos += 1;
    }
    let text = std::str::from_utf8(&s[start..*pos]).map_err(|_| bad(src))?;
    let v: i64 = text.parse().map_err(|_| bad(src))?;
    Ok(IntTuple::I(Int::new(v, is_static)))
}

/// Read an IntTuple literal (`(_16,_8,_16)`).
pub fn parse_tuple(src: &str) -> R<IntTuple> {
    let s: Vec<u8> = src.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let mut pos = 0;
    let t = tuple(&s, &mut pos, src)?;
    if pos != s.len() {
        return Err(bad(src));
    }
    Ok(t)
}

/// Read a layout literal `shape:stride`.
pub fn parse_layout(src: &str) -> R<Layout> {
    let s: Vec<u8> = src.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let mut pos = 0;
    let shape = tuple(&s, &mut pos, src)?;
    if s.get(pos) != Some(&b':') {
        return Err(bad(src));
    }
    pos += 1;
    let stride = tuple(&s, &mut pos, src)?;
    if pos != s.len() {
        return Err(bad(src));
    }
    Ok(Layout::new(shape, stride))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn round_trip() {
        for s in [
            "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))",
            "_32:_1",
            "((_4,_8),(_32,_2)):((_512,_1),((_16,_8)))",
            "(_4,-16):(1,_0)",
        ] {
            assert_eq!(parse_layout(s).unwrap().to_string(), s);
        }
        assert_eq!(parse_tuple("(_16,_8,_16)").unwrap().to_string(), "(_16,_8,_16)");
    }
}
