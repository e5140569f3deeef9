//! Replays, on the stable toolchain, every kept fuzz input through the same harness the
//! cargo-fuzz targets use (`fuzz/src/harness.rs`, `gen.rs`, `laws.rs`): the minimized corpora
//! `fuzz/corpus/<target>/` and the findings `tests/fuzz_regressions/<target>/` (each one a
//! panic, overflow, stack overflow or hang once; kept so that it cannot come back).
//! A run of one input longer than `SLOW` fails (the fuzzers run with `-timeout=1`; the test
//! machine may be busy, hence the looser bound).

#[path = "../fuzz/src/gen.rs"]
#[allow(dead_code)]
mod gen;
#[path = "../fuzz/src/harness.rs"]
mod harness;
#[path = "../fuzz/src/laws.rs"]
mod laws;

use std::path::Path;
use std::time::{Duration, Instant};

const SLOW: Duration = Duration::from_secs(10);

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let mut v = Vec::new();
    for dir in [format!("fuzz/corpus/{target}"), format!("tests/fuzz_regressions/{target}")] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_file() && p.file_name().is_some_and(|n| !n.to_string_lossy().starts_with('.')) {
                v.push((p.display().to_string(), std::fs::read(&p).expect("read corpus file")));
            }
        }
    }
    v.sort();
    v
}

fn replay(target: &str, f: fn(&[u8])) {
    let all = inputs(target);
    for (name, data) in &all {
        let t = Instant::now();
        let r = std::panic::catch_unwind(|| f(data));
        assert!(r.is_ok(), "{name}: panicked");
        assert!(t.elapsed() < SLOW, "{name}: took {:?}", t.elapsed());
    }
    eprintln!("{target}: {} inputs replayed", all.len());
}

#[test]
fn session_corpus() {
    replay("session", harness::session_bytes);
}

#[test]
fn structured_corpus() {
    replay("structured", |d| harness::structured(&gen::program(d)));
}

#[test]
fn laws_corpus() {
    replay("laws", laws::check);
}

/// The recursion limits of the issue: 1 MiB of `(`, 100,000 nested calls, 100,000 `o`s end with
/// an error, not a stack overflow.
#[test]
fn deep_inputs() {
    let cases = [
        "(".repeat(1 << 20),
        format!("{}1{}", "size(".repeat(100_000), ")".repeat(100_000)),
        format!("_1:_1{}", " o _1:_1".repeat(100_000)),
    ];
    for src in &cases {
        let mut s = cute::session::Session::new(cute::session::Options::default());
        let (r, _, e) = harness::run(&mut s, src);
        assert_ne!(r, cute::session::Outcome::Ok, "{}", &src[..40]);
        assert!(e.starts_with("error: "), "{e}");
    }
}

/// Shows what a kept or found input is, as the program the target ran (not a check):
/// `FUZZ_SHOW=TARGET:FILE cargo test --release --test fuzz_corpus show -- --ignored --nocapture`
/// (TARGET `structured` or `laws`: the generated program or layouts; `session`: the text).
#[test]
#[ignore]
fn show() {
    let Ok(arg) = std::env::var("FUZZ_SHOW") else { return };
    let (target, file) = arg.split_once(':').expect("FUZZ_SHOW=TARGET:FILE");
    let data = std::fs::read(file).expect("read the input");
    match target {
        "structured" => println!("{}", gen::program(&data)),
        "laws" => {
            let mut u = arbitrary::Unstructured::new(&data);
            let law = u.int_in_range(0u8..=4);
            let mut g = gen::Gen::new(&mut u);
            match g.layout_parts() {
                Ok((sh, st)) => println!("law {law:?}, A = {sh}:{st}"),
                Err(_) => println!("law {law:?}, no layout"),
            }
        }
        _ => println!("{}", String::from_utf8_lossy(data.get(1..).unwrap_or_default())),
    }
}
