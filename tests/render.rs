//! `print_layout`, `print_latex` and `print_svg` (`render`): corner cases beside the golden records.

mod common;
use common::eval;

// ---- table ----
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

// ---- latex ----
#[test]
fn rank_one_is_padded() {
    let t = eval("print_latex(_8:_1)").unwrap();
    assert!(t.starts_with("% Layout: (_8,_1):(_1,_0)\n"), "{t}");
    assert!(t.contains("grid (8,1);"));
}

#[test]
fn negative_colours() {
    // color_map[-1] is a null pointer on the reference platform: CuTe prints (null).
    let t = eval("print_latex((_2,_2):(_-1,_2))").unwrap();
    assert!(t.contains("\\node[fill=(null)] at (1,0) {-1};"), "{t}");
    // color_map[-3] is arbitrary memory: refused.
    assert!(eval("print_latex((_1,_8):(_1,_-1))").is_err());
    assert!(eval("print_latex((_2,_2,_2):(_1,_2,_4))").is_err());
}

// ---- svg ----
#[test]
fn picture() {
    let t = eval("print_svg(Sw<1,0,1> o (_2,_2):(_2,_1))").unwrap();
    assert!(t.starts_with("<svg "), "{t}");
    assert!(t.ends_with("</svg>"));
    assert!(t.contains("<title>Sw&lt;1,0,1&gt; o _0 o (_2,_2):(_2,_1)</title>"), "{t}");
    // Row 1 of the swizzled layout: 3, 2.
    assert!(t.contains("<text x=\"45\" y=\"75\">3</text>"), "{t}");
    assert!(eval("print_svg((_2,_2,_2):(_1,_2,_4))").is_err());
}
