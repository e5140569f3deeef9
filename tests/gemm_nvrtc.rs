//! Every kernel configuration the GEMM tests use compiles with NVRTC to PTX for sm_80 and
//! sm_90a (no GPU needed: NVRTC alone, e.g. from the `nvidia-cuda-nvrtc` wheel that
//! `.ci/nvrtc.sh` installs; put its folder on LD_LIBRARY_PATH).
//! With the environment variable `CI` set, a missing libnvrtc FAILS; locally it skips.

mod gemm_common;

use cute::runtime::{config, device, kernel};

#[test]
fn every_tested_kernel_compiles_for_sm80_and_sm90a() {
    let (_, nvrtc, _) = device::libraries_present();
    if !nvrtc {
        let msg = "libnvrtc.so not found: run `export LD_LIBRARY_PATH=$(.ci/nvrtc.sh):$LD_LIBRARY_PATH`";
        if std::env::var_os("CI").is_some() {
            panic!("{msg} (CI is set: a missing NVRTC is a failure)");
        }
        eprintln!("skipping: {msg}");
        return;
    }
    let mut failures = Vec::new();
    let cases = gemm_common::configurations();
    for (line, opts) in &cases {
        let (m, n, k) = (opts.0, opts.1, opts.2);
        let cfg = match config::parse(m, n, k, &opts.3) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{line}: refused: {e}"));
                continue;
            }
        };
        let src = match kernel::generate(&cfg) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{line}: generation failed: {e}"));
                continue;
            }
        };
        for arch in ["sm_80", "sm_90a"] {
            match device::compile(&src, arch) {
                Ok(ptx) => {
                    assert!(ptx.contains("mma.sync.aligned.m16n8k16"), "{line}: no mma.sync in the PTX");
                    assert!(ptx.contains("ldmatrix.sync.aligned"), "{line}: no ldmatrix in the PTX");
                }
                Err(e) => failures.push(format!("{line} [{arch}]: {e}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} configurations failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    eprintln!("{} configurations compiled for sm_80 and sm_90a", cases.len());
}
