//! The algebra's warnings and hostile corners, through the real parser and interpreter (the
//! oracle-answered cases of the algebra are in `tests/oracle/algebra_cases.jsonl`).

mod common;
use common::eval;
use cute::eval::error::take_warnings;

fn ev(s: &str) -> String {
    match eval(s) {
        Ok(v) => v,
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn composition_warns_when_not_pointwise() {
    take_warnings();
    assert_eq!(ev("(_4,_6):(_2,_16) o _4:_3"), "(_2,_2):(_6,_16)");
    let w = take_warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    // (by hand: B(2) = 6 = (2,1) in A's shape, A(6) = 2*2 + 1*16 = 20; the result at 2 = (0,1)
    // gives 16; at 0 and 1 both give 0 and 6)
    assert_eq!(
        w[0],
        "composition is not A∘B at index 2: A(B(2)) = A(6) = 20, but the result (_2,_2):(_6,_16) gives 16 \
         (A = (_4,_6):(_2,_16), B = _4:_3)"
    );
    assert_eq!(ev("(_6,_2):(_8,_2) o (_4,_3):(_3,_1)"), "((_2,_2),_3):((_24,_2),_8)");
    assert!(take_warnings().is_empty());
}

#[test]
fn hostile_inputs_do_not_panic() {
    let cases = [
        "_-9223372036854775808:_1 o _4:_-1",
        "(_4,_4):(_-9223372036854775808,_1) o _4:_-1",
        "(_2,_4):(_1,_2) o _4:_-9223372036854775808",
        "upcast<-1>(_-9223372036854775808:_-9223372036854775808)",
        "upcast<0>(_4:_1)",
        "downcast<0>(_4:_1)",
        "upcast<2>(4:0)",
        "complement(_4:_0, _0)",
        "complement((_2,_2):(_-1,_-2))",
        "complement(_9223372036854775807:_2, _9223372036854775807)",
        "complement(4:0, 24)",
        "composition(_0:_1, _0:_1)",
        "composition((_0,_4):(_1,_1), _4:_1)",
        "composition((4,8):(1,10), 4:0)",
        "logical_divide(_0:_1, _0)",
        "logical_divide(_8:_1, _0:_1)",
        "logical_product(_8:_1, _9223372036854775807:_1)",
        "right_inverse((_0,_4):(_1,_0))",
        "right_inverse((_-4,_4):(_1,_-4))",
        "left_inverse(_4:_-1)",
        "left_inverse((_2,_2):(_-1,_-9223372036854775808))",
        "coalesce(():())",
        "coalesce(())",
        "complement(():())",
        "nullspace(():())",
        "tile_to_shape(():(), ())",
        "tile_to_shape(_4:_1, (_0,_4))",
        "max_alignment(_0:_0)",
        "max_alignment(():())",
        "max_common_vector(_0:_0, _0:_0)",
        "domain_distribute((_0,_4), _0)",
        "blocked_product(():(), ():())",
        "raked_product(_9223372036854775807:_2, _2:_1)",
        "with_shape(_4:_1, ())",
        "composition(_4:_1, ())",
        "logical_product(_4:_1, ())",
        "zipped_divide(_4:_1, ())",
        "zip2_by((), ())",
        "coalesce((_2,_3):(_1,_2,_3))",
        "(_2,_3):(_1) o _4:_1",
        "_4:_1 o (_2,_3):(_1)",
        "complement((_2,_3):(_1))",
        "upcast<2>((_2,_3):(_1))",
        "recast_layout<uint1b_t,uint128_t>((_2,_3):(_1,_2))",
        "flat_product((_2,_2):(_1,_2), <_2, _2, _2>)",
        "tiled_divide((_2,_2):(_1,_2), <(_2,_2), _2>)",
    ];
    for c in cases {
        let _ = ev(c);
        take_warnings();
    }
}
