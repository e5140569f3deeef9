use super::*;
use crate::eval::layout::Layout;

/// Test helper: parse an IntTuple literal (`(_2,(3,_4))`, `_`, `-3`).
pub(crate) fn p(s: &str) -> IntTuple {
    fn go(b: &[u8], i: &mut usize) -> IntTuple {
        match b[*i] {
            b'(' => {
                *i += 1;
                let mut v = Vec::new();
                if b[*i] == b')' {
                    *i += 1;
                    return T(v);
                }
                loop {
                    v.push(go(b, i));
                    let c = b[*i];
                    *i += 1;
                    if c == b')' {
                        return T(v);
                    }
                }
            }
            b'_' if !b.get(*i + 1).is_some_and(|c| c.is_ascii_digit() || *c == b'-') => {
                *i += 1;
                Under
            }
            _ => {
                let stat = b[*i] == b'_';
                if stat {
                    *i += 1;
                }
                let st0 = *i;
                while *i < b.len() && (b[*i].is_ascii_digit() || b[*i] == b'-') {
                    *i += 1;
                }
                let v: i64 = std::str::from_utf8(&b[st0..*i]).unwrap().parse().unwrap();
                I(Int::new(v, stat))
            }
        }
    }
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let mut i = 0;
    go(s.as_bytes(), &mut i)
}

/// Test helper: parse `S:D`.
pub(crate) fn pl(s: &str) -> Layout {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    // split at the top-level ':'
    let mut depth = 0;
    for (k, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ':' if depth == 0 => return Layout::new(p(&s[..k]), p(&s[k + 1..])),
            _ => {}
        }
    }
    panic!("no ':' in {s}")
}

fn ps(t: R<IntTuple>) -> String {
    match t {
        Ok(t) => t.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn size_and_product() {
    assert_eq!(size(&p("(2,_3,4)")).unwrap().to_string(), "24");
    assert_eq!(size(&p("_6")).unwrap().to_string(), "_6");
    assert_eq!(size(&p("(_2,(_3,_4))")).unwrap().to_string(), "_24");
    assert_eq!(size(&p("()")).unwrap().to_string(), "_1");
    assert_eq!(size(&p("(_0,5)")).unwrap().to_string(), "_0");
    assert_eq!(ps(product_each(&p("((2,_3),_4)"))), "(6,_4)");
    assert_eq!(ps(product_each(&p("5"))), "(5)");
}

#[test]
fn divisions() {
    assert!(shape_div(&p("_6"), &p("_4")).is_err());
    assert_eq!(ps(shape_div(&p("6"), &p("4"))), "2");
    assert_eq!(ps(shape_div(&p("(4,5,6)"), &p("40"))), "(1,1,3)");
    assert_eq!(ps(ceil_div(&p("(_4,_5,_6)"), &p("_40"))), "(_1,_1,_3)");
    assert_eq!(ps(ceil_div(&p("_7"), &p("_2"))), "_4");
    assert!(ceil_div(&p("4"), &p("0")).is_err());
}

#[test]
fn tests_booleans() {
    assert_eq!(compatible(&p("24"), &p("(4,6)")).unwrap().to_string(), "1");
    assert_eq!(compatible(&p("_24"), &p("_32")).unwrap().to_string(), "_0");
    assert_eq!(congruent(&p("(1,(2,3))"), &p("(_1,(4,5))")).to_string(), "_1");
    assert_eq!(weakly_congruent(&p("(1,2)"), &p("((1,2),3)")).to_string(), "_1");
}

#[test]
fn compact() {
    assert_eq!(ps(compact_col_major(&p("(_2,_1,4)"), &p("_1"))), "(_1,_0,_2)");
    assert_eq!(ps(compact_row_major(&p("(2,3)"), &p("_1"))), "(3,_1)");
    assert_eq!(ps(compact_order(&p("(_2,_2,_2,_2)"), &p("(_0,_2,_3,_1)"))), "(_1,_4,_8,_2)");
    assert_eq!(ps(compact_order(&p("(2,3,4,5)"), &p("(_2,67,42,_50)"))), "(_1,10,30,2)");
}

#[test]
fn structure_ops() {
    assert_eq!(ps(take(&p("(1,2,3,4)"), 1, 3)), "(2,3)");
    assert_eq!(ps(group(&p("(_1,_2,_3,_4,_5,_6)"), 2, 4)), "(_1,_2,(_3,_4),_5,_6)");
    assert_eq!(ps(unflatten(&p("(1,2,3)"), &p("(_,(_,_))"))), "(1,(2,3))");
    assert_eq!(ps(zip(&p("((1,2),(3,4))"))), "((1,3),(2,4))");
    assert_eq!(ps(append_n(&p("5"), 3, &p("_1"))), "(5,_1,_1)");
    assert_eq!(flatten(&p("((1,2),(3,(4)))")).to_string(), "(1,2,3,4)");
}
