//! Bytes → parse → evaluate → print, through the session the CLI uses (`cute FILE`, `-e`,
//! the REPL). The first byte picks the options (REPL rules, keep going); the rest is the input.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../src/harness.rs"]
mod harness;

fuzz_target!(|data: &[u8]| {
    harness::session_bytes(data);
});
