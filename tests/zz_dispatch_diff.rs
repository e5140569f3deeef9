//! Scratch: every registry name × argument kinds, full result/error text, written to $DIFF_OUT.
mod common;
use cute::eval::error::take_warnings;
use cute::registry::{self, TArg};

#[test]
fn dump() {
    let Ok(path) = std::env::var("DIFF_OUT") else { return };
    let pool_src = [
        "5", "_4", "_0", "(2,_3)", "((2,3),4)", "(_,2)", "(_4,_2):(_1,_4)", "(_8,_64):(_64,_1)", "((_2,_2),_4):((_1,_8),_2)",
        "Sw<3,3,3>", "Sw<3,3,3> o (_8,_64):(_64,_1)", "Sw<2,0,2> o _2 o (_4,_4):(_4,_1)", "make_composed_layout(_16:_2, _0, (_4,_4):(_1,_4))",
        "<_4,_2>", "<_2:_2,_4>", "LayoutLeft", "half_t", "\"s\"",
        "SM80_16x8x16_F16F16F16F16_TN", "mma_atom(SM80_16x8x16_F16F16F16F16_TN)",
        "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1)))",
        "SM75_U32x4_LDSM_N", "copy_atom(SM75_U32x4_LDSM_N, half_t)",
        "make_tiled_copy(copy_atom(UniversalCopy<uint128_t>, half_t), (_16,_8):(_1,_16), make_layout((_8,_1)))",
        "partition_C(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))), 37, make_layout((_64,_32)))",
        "partition_C(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, make_layout((_2,_2,_1))), 37, Sw<3,3,3> o (_64,_32):(_32,_1))",
        "print_layout((_2,_2):(_1,_2))",
    ];
    let pool: Vec<_> = pool_src.iter().map(|s| common::eval_value(s).unwrap_or_else(|e| panic!("{s}: {e:?}"))).collect();
    let small = [0usize, 3, 6, 10, 19, 21, 24];
    let targsets: Vec<Vec<TArg>> = vec![vec![], vec![TArg::Int(1)], vec![TArg::Int(0), TArg::Int(1)], vec![TArg::Name("half_t".into()), TArg::Name("uint32_t".into())]];
    let mut out = String::new();
    let mut names = registry::names();
    names.retain(|n| !matches!(*n, "svg" | "print_svg" | "print_latex" | "tikz" ) || true);
    let show = |r: &cute::eval::error::R<cute::eval::value::Value>| match r {
        Ok(v) => { let s = v.to_string(); format!("OK {}", if s.len() > 300 { format!("{}..{}", &s[..150], s.len()) } else { s }) }
        Err(e) => format!("ERR {:?}", e),
    };
    for n in names {
        for (ti, t) in targsets.iter().enumerate() {
            let mut lists: Vec<Vec<usize>> = vec![vec![]];
            for i in 0..pool.len() { lists.push(vec![i]); }
            for i in 0..pool.len() { for j in 0..pool.len() { lists.push(vec![i, j]); } }
            if ti <= 1 { for &i in &small { for &j in &small { for &k in &small { lists.push(vec![i, j, k]); } } } }
            for l in lists {
                let args: Vec<_> = l.iter().map(|&i| pool[i].clone()).collect();
                let _ = take_warnings();
                let r = registry::call(n, t, &args);
                let w = take_warnings();
                out += &format!("{n}<{ti}>{l:?} {} {:?}\n", show(&r), w);
            }
        }
    }
    std::fs::write(path, out).unwrap();
}
