//! Well-formed programs over the whole registry (every function with arguments of every kind,
//! atoms, tiled MMAs and copies, explain, print_*, bindings, asserts, `emit gemm` with random
//! options), generated from the fuzzer's bytes by `src/gen.rs`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../src/gen.rs"]
mod gen;
#[path = "../src/harness.rs"]
mod harness;

fuzz_target!(|data: &[u8]| {
    harness::structured(&gen::program(data));
});
