//! Kernel configurations shared by the GEMM tests (lowering checks and the NVRTC compile test).
#![allow(dead_code)]

use cute::eval::int::st;
use cute::eval::int_tuple::IntTuple;
use cute::eval::layout::{Composed, Func, Layout, Swizzle};
pub use cute::eval::value::Value;
use cute::runtime::GemmOpt;

pub fn t(v: &[i64]) -> IntTuple {
    IntTuple::T(v.iter().map(|&x| IntTuple::st(x)).collect())
}
pub fn tag(s: &str) -> Value {
    Value::Tag(s.to_string())
}
pub fn tile(a: i64, b: i64, c: i64) -> Value {
    Value::Tuple(t(&[a, b, c]))
}
pub fn int(v: i64) -> Value {
    Value::Tuple(IntTuple::st(v))
}
pub fn layout(shape: &[i64], stride: &[i64]) -> Value {
    Value::Layout(Layout::new(t(shape), t(stride)))
}
pub fn swizzled(b: i32, m: i32, s: i32, shape: &[i64], stride: &[i64]) -> Value {
    Value::Composed(Box::new(Composed {
        outer: Func::Swizzle(Swizzle { b, m, s }),
        offset: st(0),
        inner: Func::Layout(Layout::new(t(shape), t(stride))),
        mixed: None,
    }))
}
pub fn opt(key: &str, value: Value) -> GemmOpt {
    GemmOpt { key: key.to_string(), value }
}

pub type Case = (i64, i64, i64, Vec<GemmOpt>);

/// (description, (M, N, K, options)) for every configuration the tests exercise.
pub fn configurations() -> Vec<(String, Case)> {
    let mut v: Vec<(String, Case)> = Vec::new();
    let mut add = |m: i64, n: i64, k: i64, opts: Vec<GemmOpt>| {
        let d = format!(
            "gemm {m} {n} {k} {}",
            opts.iter().map(|o| format!("{}={}", o.key, o.value)).collect::<Vec<_>>().join(" ")
        );
        v.push((d, (m, n, k, opts)));
    };
    // defaults (TN f16, <128,256,32>, 4 stages, 2x4 warps) at the benchmark and odd sizes
    add(8192, 8192, 8192, vec![]);
    add(1000, 1000, 1000, vec![]);
    add(257, 129, 65, vec![]);
    add(257, 129, 66, vec![]);
    add(257, 129, 68, vec![]);
    // offsets beyond 2^31 elements: 64-bit index arithmetic
    add(65536, 40000, 72, vec![]);
    add(4096, 4096, 4096, vec![opt("dtype", tag("bf16"))]);
    add(257, 129, 65, vec![opt("dtype", tag("bf16")), opt("out", tag("f32"))]);
    add(1024, 1024, 1024, vec![opt("dtype", tag("f16")), opt("out", tag("f32"))]);
    // operand majors
    for l in ["NN", "NT", "TT"] {
        add(1024, 1024, 1024, vec![opt("layout", tag(l))]);
        add(257, 129, 65, vec![opt("layout", tag(l))]);
        add(1000, 1000, 1000, vec![opt("layout", tag(l)), opt("dtype", tag("bf16"))]);
    }
    // tiles, stages, warps
    add(2048, 2048, 2048, vec![opt("tile", tile(128, 128, 32)), opt("mma", Value::Tuple(t(&[2, 2, 1])))]);
    add(2048, 2048, 2048, vec![opt("tile", tile(128, 256, 64)), opt("stages", int(3))]);
    add(2048, 2048, 2048, vec![opt("tile", tile(256, 128, 32)), opt("mma", Value::Tuple(t(&[4, 2, 1])))]);
    add(
        1000,
        1000,
        1000,
        vec![opt("tile", tile(64, 64, 32)), opt("mma", Value::Tuple(t(&[2, 2, 1]))), opt("stages", int(2))],
    );
    add(
        2048,
        2048,
        2048,
        vec![opt("tile", tile(128, 128, 64)), opt("mma", layout(&[2, 2], &[2, 1])), opt("stages", int(3))],
    );
    // odd number of 16-deep k-steps per tile (BK = 16, 48)
    add(1000, 1000, 1000, vec![opt("tile", tile(128, 128, 16)), opt("mma", Value::Tuple(t(&[2, 2, 1])))]);
    add(
        257,
        129,
        65,
        vec![opt("tile", tile(64, 128, 48)), opt("mma", Value::Tuple(t(&[2, 2, 1]))), opt("layout", tag("NT"))],
    );
    // the previous default
    add(8192, 8192, 8192, vec![opt("tile", tile(128, 256, 32)), opt("stages", int(4))]);
    // a tiled MMA value from the atoms module
    add(
        2048,
        2048,
        2048,
        vec![opt("mma", tiled_mma("SM80_16x8x16_F32BF16BF16F32_TN", &[4, 2, 1])), opt("tile", tile(256, 128, 64))],
    );
    // tiled MMAs in CuTe's order (warps interleaved atom by atom), with permutations
    add(
        1000,
        1000,
        1000,
        vec![
            opt("mma", value_of(&format!("make_tiled_mma({F16}, make_layout((_2,_2,_1)))"))),
            opt("tile", tile(128, 128, 32)),
        ],
    );
    add(
        1000,
        1000,
        1000,
        vec![
            opt("mma", value_of(&format!("make_tiled_mma({F16}, make_layout((_2,_2,_1)), <_32,_32,_16>)"))),
            opt("tile", tile(128, 128, 32)),
        ],
    );
    add(
        257,
        129,
        65,
        vec![
            opt(
                "mma",
                value_of(&format!(
                    "make_tiled_mma({F16}, make_layout((_2,_2,_1)), <(_8,_4):(_4,_1),(_8,_2,_2):(_1,_16,_8),_>)"
                )),
            ),
            opt("tile", tile(64, 64, 32)),
        ],
    );
    add(
        2048,
        2048,
        2048,
        vec![
            opt("mma", value_of(&format!("make_tiled_mma({F16}, make_layout((_2,_4,_1),(_4,_1,_0)), <(_16,_2,_4):(_1,_64,_16),(_8,_4,_8):(_1,_64,_8),_16>)"))),
            opt("layout", tag("NT")),
        ],
    );
    // a permutation that splits the accumulators' column pairs (single stores)
    add(
        1000,
        1000,
        1000,
        vec![
            opt(
                "mma",
                value_of(&format!(
                    "make_tiled_mma({F16}, make_layout((_2,_2,_1)), <(_2,_16):(_16,_1),(_2,_8):(_8,_1),_16>)"
                )),
            ),
            opt("tile", tile(64, 64, 32)),
        ],
    );
    // explicit layouts
    add(
        4096,
        4096,
        4096,
        vec![
            opt("tile", tile(128, 256, 64)),
            opt("stages", int(3)),
            opt("smem_a", swizzled(3, 3, 3, &[8, 64], &[64, 1])),
            opt("smem_b", swizzled(3, 3, 3, &[8, 64], &[64, 1])),
            opt("copy_a", layout(&[32, 8], &[8, 1])),
        ],
    );
    add(1000, 1000, 1000, vec![opt("smem_a", layout(&[128, 32], &[32, 1]))]);
    // padded rows under a swizzle: some ldmatrix addresses have no constant form (full expressions)
    add(1000, 1000, 1000, vec![opt("smem_a", swizzled(3, 3, 3, &[8, 64], &[72, 1]))]);
    add(
        1000,
        1000,
        1000,
        vec![
            opt("layout", tag("NN")),
            opt("smem_a", swizzled(3, 3, 3, &[64, 8], &[1, 64])),
            opt("tile", tile(128, 128, 32)),
            opt("mma", Value::Tuple(t(&[2, 2]))),
        ],
    );
    v
}

/// `make_tiled_mma(OP, make_layout(atom_layout))` through the built-ins.
pub fn tiled_mma(op: &str, atom_layout: &[i64]) -> Value {
    let opv = match cute::eval::atoms::named_value(op, &[]) {
        Some(Ok(v)) => v,
        other => panic!("{op}: {other:?}"),
    };
    let l = cute::registry::call("make_layout", &[], &[Value::Tuple(t(atom_layout))]).expect("make_layout");
    cute::registry::call("make_tiled_mma", &[], &[opv, l]).expect("make_tiled_mma")
}

const F16: &str = "SM80_16x8x16_F32F16F16F32_TN";

/// The value of a `.cute` expression (statements separated by `;`, the last one's value).
pub fn value_of(src: &str) -> Value {
    let prog = cute::parser::parse(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
    let mut it = cute::interp::Interp::new();
    for st in &prog.stmts {
        if it.exec(st).is_err() {
            panic!("{src}: evaluation failed");
        }
    }
    it.last().cloned().unwrap_or_else(|| panic!("{src}: no value"))
}

/// The Hopper kernel's configurations (`arch=sm90`): defaults at the benchmark and odd sizes,
/// both types, f32 output, one consumer, persistent CTAs, other tiles and swizzles.
pub fn sm90_configurations() -> Vec<(String, Case)> {
    let mut v: Vec<(String, Case)> = Vec::new();
    let mut add = |m: i64, n: i64, k: i64, mut opts: Vec<GemmOpt>| {
        opts.insert(0, opt("arch", tag("sm90")));
        let d = format!(
            "gemm {m} {n} {k} {}",
            opts.iter().map(|o| format!("{}={}", o.key, o.value)).collect::<Vec<_>>().join(" ")
        );
        v.push((d, (m, n, k, opts)));
    };
    add(8192, 8192, 8192, vec![]);
    add(4096, 4096, 4096, vec![opt("dtype", tag("bf16"))]);
    add(1000, 1000, 1000, vec![]);
    add(257, 129, 72, vec![]);
    add(257, 129, 72, vec![opt("dtype", tag("bf16")), opt("out", tag("f32"))]);
    add(2048, 2048, 2048, vec![opt("consumers", int(1)), opt("tile", tile(64, 256, 64))]);
    add(2048, 2048, 2048, vec![opt("persistent", int(0))]);
    add(2048, 2048, 2048, vec![opt("tile", tile(128, 128, 64)), opt("stages", int(5))]);
    add(2048, 2048, 2048, vec![opt("tile", tile(256, 128, 64)), opt("stages", int(4))]);
    add(2048, 2048, 2048, vec![opt("tile", tile(128, 256, 128)), opt("stages", int(2))]);
    add(1000, 1000, 1000, vec![opt("tile", tile(128, 128, 32))]);
    add(
        1000,
        1000,
        1000,
        vec![
            opt("tile", tile(128, 128, 64)),
            opt("smem_a", swizzled(2, 3, 3, &[8, 32], &[32, 1])),
            opt("smem_b", swizzled(3, 3, 3, &[8, 64], &[64, 1])),
        ],
    );
    // the epilogue: straight stores; TMA stores of f32 boxes (32 columns)
    add(2048, 2048, 2048, vec![opt("tma_store", int(0))]);
    add(1000, 1000, 1000, vec![opt("out", tag("f32"))]);
    // 2-CTA clusters along M, B multicast (an odd number of M tiles: a phantom tile)
    add(8192, 8192, 8192, vec![opt("cluster", int(2))]);
    add(1100, 1000, 1000, vec![opt("cluster", int(2))]);
    add(2048, 2048, 2048, vec![opt("cluster", int(2)), opt("layout", tag("NN"))]);
    add(2048, 2048, 2048, vec![opt("cluster", int(2)), opt("persistent", int(0)), opt("dtype", tag("bf16"))]);
    // MN-major operands (BLAS N for A, T for B): MN-major GMMA atoms, transposed wgmma reads
    add(4096, 4096, 4096, vec![opt("layout", tag("NT"))]);
    add(8192, 8192, 8192, vec![opt("layout", tag("NN")), opt("dtype", tag("bf16"))]);
    add(2048, 2048, 2048, vec![opt("layout", tag("TT"))]);
    add(264, 136, 100, vec![opt("layout", tag("NT"))]);
    add(1000, 1000, 1000, vec![opt("layout", tag("NT")), opt("tile", tile(128, 96, 64))]);
    add(1000, 1000, 1000, vec![opt("layout", tag("TT")), opt("tile", tile(128, 192, 32))]);
    add(
        1000,
        1000,
        1000,
        vec![
            opt("layout", tag("NN")),
            opt("tile", tile(128, 128, 64)),
            opt("smem_a", swizzled(2, 3, 3, &[32, 8], &[1, 32])),
        ],
    );
    v
}
