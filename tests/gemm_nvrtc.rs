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

/// Every sm90 configuration compiles with NVRTC straight to an sm_90a CUBIN; ptxas's report
/// (`--ptxas-options=-v`) is read: the default configuration may neither spill nor keep a
/// stack frame, and the wgmma and TMA instructions must be in the PTX.
#[test]
fn every_sm90_kernel_compiles_to_an_sm90a_cubin() {
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
    let cases = gemm_common::sm90_configurations();
    for (i, (line, opts)) in cases.iter().enumerate() {
        let cfg = match config::parse_kernel(opts.0, opts.1, opts.2, &opts.3, None) {
            Ok((config::Kernel::Sm90(c), _)) => c,
            Ok(_) => {
                failures.push(format!("{line}: not the sm90 kernel"));
                continue;
            }
            Err(e) => {
                failures.push(format!("{line}: refused: {e}"));
                continue;
            }
        };
        let src = cute::runtime::sm90::generate(&cfg).expect("generate");
        match device::compile_cubin(&src, "sm_90a") {
            Ok((cubin, log)) => {
                assert!(!cubin.is_empty(), "{line}: empty CUBIN");
                let (regs, spill, stack) =
                    device::ptxas_resources(&log).unwrap_or_else(|| panic!("{line}: no ptxas report in:\n{log}"));
                eprintln!("{line}: {regs} registers, {spill} bytes spilled, {stack} bytes stack");
                if i == 0 && (spill != 0 || stack != 0) {
                    failures
                        .push(format!("{line} (the default): {spill} bytes spilled, {stack} bytes of stack:\n{log}"));
                }
                assert!(!log.contains("C7508"), "{line}: ptxas ignored setmaxnreg:\n{log}");
            }
            Err(e) => failures.push(format!("{line}: {e}")),
        }
        let ptx = device::compile(&src, "sm_90a").expect("ptx");
        assert!(ptx.contains("wgmma.mma_async.sync.aligned.m64n"), "{line}: no wgmma in the PTX");
        assert!(ptx.contains("cp.async.bulk.tensor.2d"), "{line}: no TMA in the PTX");
    }
    assert!(failures.is_empty(), "{} of {} failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
