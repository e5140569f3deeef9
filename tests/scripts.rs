//! Every self-checking script in `scripts/` runs and exits 0: its asserts are proofs of the
//! worked examples they hold. Scripts that need a GPU (`run gemm`) are left to scripts/gpu_bench.sh.

use std::process::Command;

#[test]
fn every_script_passes() {
    let dir = format!("{}/scripts", env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("scripts/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cute"))
        .collect();
    paths.sort();
    let mut failed = Vec::new();
    let mut ran = 0;
    for p in &paths {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        if text.lines().any(|l| l.trim_start().starts_with("run gemm")) {
            continue;
        }
        ran += 1;
        let out =
            Command::new(env!("CARGO_BIN_EXE_cute")).args(["--color", "never"]).arg(p).output().expect("run cute");
        if !out.status.success() {
            failed.push(format!(
                "{}: exit {:?}\n{}",
                p.display(),
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    println!("{ran} scripts run, {} failed", failed.len());
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
