//! Conformance corners answered by the oracle, through the real binary (`cute -e`). Every record
//! of CuTe's golden answers and every oracle case is replayed by `tests/oracle.rs`.

use std::process::Command;

#[test]
fn swizzle_slices_with_mixed_bits_offsets() {
    let cases = [
        ("S = Sw<3,2,3> o (_16,_64):(_64,_1); S(5,_)", "Sw<3,2,3> o M_0|(64&192)=64 o (_64):(_1)"),
        ("S = Sw<3,2,3> o (_16,_16):(_16,_1); S(_,3)", "Sw<3,2,3> o M_0|(0&12)=0 o (_16):(_16)"),
        ("S = Sw<2,3,2> o (_16,_64):(_64,_1); S(13,_)", "Sw<2,3,2> o M_0|(64&64)=64 o (_64):(_1)"),
        ("S = Sw<2,1,3> o (_32,_32):(_32,_1); S(7,_)", "Sw<2,1,3> o M_0|(32&32)=32 o (_32):(_1)"),
        ("S = Sw<3,3,3> o (_16,_128):(_128,_1); S(9,_)", "Sw<3,3,3> o M_0|(128&384)=128 o (_128):(_1)"),
    ];
    for (expr, want) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_cute")).args(["--color", "never", "-e", expr]).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), want, "{expr}");
    }
}

/// `L.with_shape(4)` does not compile in CuTe (argument-dependent lookup finds no `make_layout`
/// for a plain int), while `_8` and tuples work (answers from the oracle).
#[test]
fn with_shape_of_a_dynamic_integer_is_refused() {
    let run = |e: &str| Command::new(env!("CARGO_BIN_EXE_cute")).args(["--color", "never", "-e", e]).output().unwrap();
    for e in ["with_shape((1):(0), 4)", "with_shape((3,6,1):(1,3,18), 4)", "with_shape(8:2, 8)"] {
        let out = run(e);
        assert_eq!(out.status.code(), Some(1), "{e}");
    }
    for (e, want) in [("with_shape(_8:_2, _8)", "_8:_2"), ("with_shape(_8:_2, 2, _4)", "(2,_4):(_2,4)")] {
        assert_eq!(String::from_utf8_lossy(&run(e).stdout).trim_end(), want, "{e}");
    }
}
