//! The fast evaluator behind `equivalent` (`eval::ops::compare::Fast`, `Walk`) against the
//! general one (`__apply`), and `equivalent`'s answers and limits.

use cute::eval::int::{dy, st};
use cute::eval::ops::compare::{size_of, Fast, Walk};
use cute::eval::value::Value;

fn parse_value(src: &str) -> Value {
    let prog = cute::parser::parse(src).unwrap();
    let interp = cute::interp::Interp::new();
    match &prog.stmts[0].kind {
        cute::parser::ast::StmtKind::Expr(e) => interp.eval(e).unwrap(),
        _ => panic!("not an expression"),
    }
}

/// The direct evaluator and the odometer walk agree with the general evaluator (`__apply`),
/// out-of-range and negative indices included.
#[test]
fn fast_evaluation_matches_apply() {
    for src in [
        "(2,(3,2)):(1,(4,2))",
        "(_4,_8):(_8,_1)",
        "((2,3),4):((-1,7),0)",
        "_1:_0",
        "(3,1,2):(5,100,-2)",
        "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)",
        "Sw<2,1,-2> o 5 o (4,6):(6,1)",
        "(3,4):(4,1) o 2 o (_4,_3):(_3,_1)",
        "Sw<1,1,1> o _0 o Sw<2,0,2> o _3 o (2,8):(8,1)",
    ] {
        let v = parse_value(src);
        let f = Fast::of_value(&v).unwrap_or_else(|| panic!("{src} is not fast"));
        let n = size_of(&v).unwrap();
        let mut w = Walk::new(&f);
        for i in 0..n {
            let a = cute::registry::call("__apply", &[], &[v.clone(), Value::from(dy(i))]).unwrap().as_int().unwrap().v;
            assert_eq!(f.eval(i).unwrap(), a, "{src} at {i}");
            assert_eq!(w.next().unwrap(), a, "{src} walked to {i}");
        }
        if let Value::Layout(_) = v {
            for i in [-7, -1, n, n + 5, 3 * n + 1] {
                let a =
                    cute::registry::call("__apply", &[], &[v.clone(), Value::from(dy(i))]).unwrap().as_int().unwrap().v;
                assert_eq!(f.eval(i).unwrap(), a, "{src} at {i}");
            }
        }
    }
}

#[test]
fn equivalent_answers_and_limits() {
    let eq = |a: &str, b: &str| {
        let args = [parse_value(a), parse_value(b)];
        cute::registry::call("equivalent", &[], &args)
    };
    assert_eq!(eq("(_2,_4):(_1,_2)", "_8:_1").unwrap(), Value::from(st(1)));
    assert_eq!(eq("(_2,_4):(_4,_1)", "_8:_1").unwrap(), Value::from(st(0)));
    assert_eq!(eq("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "(_8,_64):(_64,_1)").unwrap(), Value::from(st(0)));
    assert_eq!(eq("_1048576:_1", "(_1024,_1024):(_1,_1024)").unwrap(), Value::from(st(1)));
    let e = eq("_16777217:_1", "_16777217:_1").unwrap_err();
    assert_eq!(e.kind, cute::eval::error::ErrorKind::Limit);
    // Deep layouts: the work per index counts.
    let deep = "(_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2,_2):(_1,_2,_4,_8,_16,_32,_64,_128,_256,_512,_1024,_2048,_4096,_8192,_16384,_32768,_65536,_131072,_262144,_524288,_1048576,_2097152,_4194304,_8388608) o _0 o _16777216:_1";
    let e = eq(deep, deep).unwrap_err();
    assert_eq!(e.kind, cute::eval::error::ErrorKind::Limit, "{e}");
}
