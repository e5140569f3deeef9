//! `run gemm` / `emit gemm` options: what the generator refuses, with the rule, the reason and
//! the offending option (`arg` = 3 + option index; M, N, K are 0..2). CPU only.

mod gemm_common;

use cute::runtime::{gemm_statement, GemmOpt};
use gemm_common::*;

fn refused(m: i64, n: i64, k: i64, opts: Vec<GemmOpt>) -> (String, Option<usize>) {
    match gemm_statement(true, m, n, k, &opts) {
        Ok(_) => {
            panic!("accepted: {}", opts.iter().map(|o| format!("{}={}", o.key, o.value)).collect::<Vec<_>>().join(" "))
        }
        Err(e) => (e.to_string(), e.arg),
    }
}

macro_rules! refuses {
    ($name:ident, ($m:expr, $n:expr, $k:expr), [$($o:expr),*], $arg:expr, $($frag:expr),+) => {
        #[test]
        fn $name() {
            let (msg, arg) = refused($m, $n, $k, vec![$($o),*]);
            $( assert!(msg.contains($frag), "`{msg}` lacks `{}`", $frag); )+
            assert_eq!(arg, $arg, "{msg}");
        }
    };
}

refuses!(
    smem_that_breaks_16_byte_vectors,
    (1024, 1024, 1024),
    [opt("smem_a", layout(&[128, 64], &[1, 128]))],
    Some(3),
    "smem layout",
    "breaks 16-byte vectors"
);
refuses!(
    smem_whose_swizzle_breaks_vectors,
    (1024, 1024, 1024),
    [opt("smem_b", swizzled(3, 2, 3, &[8, 64], &[64, 1]))],
    Some(3),
    "breaks 16-byte vectors"
);
refuses!(
    smem_atom_wider_than_the_tile,
    (1024, 1024, 1024),
    [
        opt("tile", tile(128, 128, 32)),
        opt("mma", Value::Tuple(t(&[2, 2]))),
        opt("smem_a", swizzled(3, 3, 3, &[8, 64], &[64, 1]))
    ],
    Some(5),
    "smem layout",
    "does not tile the 128x32 tile"
);
refuses!(
    smem_that_does_not_divide_the_tile,
    (1024, 1024, 1024),
    [opt("smem_a", layout(&[96, 64], &[64, 1]))],
    Some(3),
    "does not tile"
);
refuses!(
    smem_not_one_to_one,
    (1024, 1024, 1024),
    [opt("smem_a", layout(&[128, 64], &[0, 1]))],
    Some(3),
    "not one-to-one"
);
refuses!(smem_not_a_layout, (1024, 1024, 1024), [opt("smem_a", int(3))], Some(3), "expected a layout");
refuses!(
    copy_with_the_wrong_thread_count,
    (1024, 1024, 1024),
    [opt("copy_a", layout(&[64, 2], &[2, 1]))],
    Some(3),
    "copy layout",
    "has 128 threads; the block has 256"
);
// a rank-3 warp layout whose stride is not a 3-tuple (a `structured` fuzz finding: slicing
// its stride panicked)
refuses!(
    warp_layout_not_congruent,
    (1024, 1024, 1024),
    [opt("mma", layout(&[2, 4, 1], &[7]))],
    Some(3),
    "gemm mma",
    "not congruent"
);
// past 64 bits: a count, not a panic or a wrapped number (a `structured` fuzz finding)
refuses!(
    copy_with_more_threads_than_64_bits,
    (1024, 1024, 1024),
    [opt("copy_a", layout(&[4, i64::MAX], &[i64::MAX, 1]))],
    Some(3),
    "copy layout",
    "has 4 x 9223372036854775807 threads; the block has 256"
);
refuses!(
    copy_that_does_not_tile,
    (1024, 1024, 1024),
    [opt("tile", tile(128, 256, 32)), opt("copy_a", layout(&[32, 8], &[8, 1]))],
    Some(4),
    "covers 32x64, which does not tile the 128x32 tile"
);
refuses!(copy_not_one_to_one, (1024, 1024, 1024), [opt("copy_b", layout(&[32, 8], &[8, 2]))], Some(3), "one-to-one");
refuses!(unknown_key, (64, 64, 64), [opt("tiles", tile(64, 64, 32))], Some(3), "unknown key `tiles`");
refuses!(key_twice, (64, 64, 64), [opt("stages", int(3)), opt("stages", int(4))], Some(4), "given twice");
refuses!(fp8_inputs, (64, 64, 64), [opt("dtype", tag("f8"))], Some(3), "not supported");
refuses!(bad_layout_letters, (64, 64, 64), [opt("layout", tag("XN"))], Some(3), "expected TN, NN, NT or TT");
refuses!(
    tile_not_a_multiple_of_16,
    (64, 64, 64),
    [opt("tile", tile(128, 120, 32))],
    Some(3),
    "BN = 120 must be a positive multiple of 16"
);
refuses!(
    too_much_shared_memory,
    (4096, 4096, 4096),
    [opt("tile", tile(256, 256, 64)), opt("mma", Value::Tuple(t(&[4, 4]))), opt("stages", int(4))],
    Some(5),
    "262144 bytes of shared memory; the limit is 232448"
);
refuses!(
    warp_tile_too_large,
    (4096, 4096, 4096),
    [opt("tile", tile(256, 256, 32)), opt("mma", Value::Tuple(t(&[2, 2])))],
    Some(4),
    "512 accumulator registers"
);
refuses!(
    warps_that_do_not_tile,
    (4096, 4096, 4096),
    [opt("tile", tile(128, 128, 32)), opt("mma", Value::Tuple(t(&[3, 2])))],
    Some(4),
    "3 warps in M"
);
refuses!(
    an_fp16_accumulating_atom,
    (64, 64, 64),
    [opt("mma", atom("SM80_16x8x16_F16F16F16F16_TN"))],
    Some(3),
    "fp32 accumulation"
);
refuses!(
    atom_and_dtype_disagree,
    (64, 64, 64),
    [opt("dtype", tag("f16")), opt("mma", atom("SM80_16x8x16_F32BF16BF16F32_TN"))],
    Some(4),
    "bf16 inputs, but dtype=f16"
);
refuses!(non_positive_size, (0, 64, 64), [], Some(0), "must be positive");

fn atom(name: &str) -> Value {
    cute::eval::atoms::named_value(name, &[]).expect("known").expect("atom")
}

#[test]
fn accepted_values_and_the_defaults() {
    // a dynamic layout is made static before tiling; the default is the Sw<3,3,3> atom
    let src = gemm_statement(true, 1000, 1000, 1000, &[opt("smem_a", layout(&[8, 64], &[64, 1]))]).unwrap();
    assert!(src.contains("smem_a = tile_to_shape((_8,_64):(_64,_1), (_128,_64,_3))"), "{}", &src[..800]);
    let src = gemm_statement(true, 1000, 1000, 1000, &[]).unwrap();
    assert!(src.contains("smem_b = tile_to_shape(Sw<3,3,3> o _0 o (_8,_64):(_64,_1), (_256,_64,_3))"));
    assert!(src.contains("extern \"C\" __global__ void __launch_bounds__(256, 1)"));
    // a tiled MMA gives the warps and the input type
    let src = gemm_statement(
        true,
        512,
        512,
        512,
        &[opt("mma", tiled_mma("SM80_16x8x16_F32BF16BF16F32_TN", &[2, 2, 1])), opt("tile", tile(128, 128, 64))],
    )
    .unwrap();
    assert!(src.contains("bf16*bf16->bf16"));
    assert!(src.contains("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"));
    assert!(src.contains("warps (_2,_2):(_1,_2)"));
}

#[test]
fn run_without_a_gpu_is_one_clear_error() {
    let (drv, _, _) = cute::runtime::device::libraries_present();
    if drv {
        eprintln!("skipping: a CUDA driver is present");
        return;
    }
    let e = gemm_statement(false, 64, 64, 64, &[]).unwrap_err();
    assert_eq!(e.rule, "no GPU");
    assert!(e.detail.contains("libcuda.so"), "{e}");
    assert!(!e.to_string().contains('\n'));
}

fn permuted(perm: &str) -> Value {
    value_of(&format!("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, make_layout((_2,_2,_1)), {perm})"))
}

refuses!(
    k_permutation_that_is_not_the_identity,
    (1024, 1024, 1024),
    [opt("tile", tile(128, 128, 32)), opt("mma", permuted("<_32,_32,(_8,_2):(_2,_1)>"))],
    Some(4),
    "gemm mma",
    "K permutation",
    "not the identity"
);
refuses!(
    permutation_that_is_not_one_to_one,
    (1024, 1024, 1024),
    [opt("tile", tile(128, 128, 32)), opt("mma", permuted("<(_16,_2):(_1,_32),_32,_16>"))],
    Some(4),
    "gemm mma",
    "is not a permutation of 0..32"
);
refuses!(
    permutation_cute_finds_not_injective,
    (1024, 1024, 1024),
    [opt("tile", tile(128, 128, 32)), opt("mma", permuted("<(_16,_2):(_1,_8),_32,_16>"))],
    Some(4),
    "gemm mma",
    "non-injective"
);
refuses!(
    permutation_larger_than_the_tile,
    (1024, 1024, 1024),
    [opt("tile", tile(128, 64, 32)), opt("mma", permuted("<_32,_128,_16>"))],
    Some(4),
    "gemm mma",
    "does not divide BN = 64"
);
refuses!(
    permutation_cute_cannot_partition_with,
    (1024, 1024, 1024),
    [opt("tile", tile(96, 64, 32)), opt("mma", permuted("<(_3,_32):(_32,_1),_32,_16>"))],
    Some(4),
    "gemm mma",
    "cannot partition",
    "divisib"
);

#[test]
fn permuted_tiled_mmas_are_described_in_the_source() {
    let src = gemm_statement(
        true,
        1000,
        1000,
        1000,
        &[opt("tile", tile(128, 128, 32)), opt("mma", permuted("<_32,(_8,_4):(_4,_1),_16>"))],
    )
    .unwrap();
    assert!(
        src.contains("tiled MMA = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_2,_1):(_1,_2,_0), <_32,(_8,_4):(_4,_1),_16>)"),
        "{}",
        &src[..1500]
    );
    assert!(src.contains("perm_m = (_32,_4):(_1,_32)   perm_n = ((_8,_4),_4):((_4,_1),_32)"), "{}", &src[..1500]);
    // the default is the tiled MMA whose permutation gives each warp a contiguous block
    let src = gemm_statement(true, 1000, 1000, 1000, &[]).unwrap();
    assert!(src.contains(
        "tiled MMA = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, (_2,_4,_1):(_1,_2,_0), <(_16,_2,_4):(_1,_64,_16),(_8,_4,_8):(_1,_64,_8),_>)"
    ), "{}", &src[..1500]);
}
