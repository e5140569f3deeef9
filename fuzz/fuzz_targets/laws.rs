//! Differential: random well-formed layouts checked against the laws CuTe promises
//! (composition pointwise, coalesce keeps the function, complement disjoint and ordered,
//! inverses invert, printing then re-reading gives the same value); see `src/laws.rs`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../src/gen.rs"]
#[allow(dead_code)] // (laws uses the layout generator only)
mod gen;
#[path = "../src/harness.rs"]
mod harness;
#[path = "../src/laws.rs"]
mod laws;

fuzz_target!(|data: &[u8]| {
    laws::check(data);
});
