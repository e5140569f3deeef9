//! Shared by `tests/cpp_compile.rs` and `tests/decode.rs`: g++ against the CuTe headers of the
//! `nvidia-cutlass==4.2.0.0` wheel, as the oracle (`../shared/oracle/cute-oracle`) compiles: the
//! same pinned wheels, the same cache folder (`$CUTE_ORACLE_CACHE`, else
//! `$XDG_CACHE_HOME/cute-oracle`, else `~/.cache/cute-oracle`), fetched once with
//! `python3 -m pip download` when the cache lacks them; a precompiled header of the CuTe includes
//! is built once under the target folder.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

const WHEELS: &[&str] = &[
    "nvidia-cutlass==4.2.0.0",
    "nvidia-cuda-runtime-cu12==12.9.79",
    "nvidia-cuda-nvcc-cu12==12.9.86",
    "nvidia-cuda-cccl-cu12==12.9.27",
];
const INCLUDE_DIRS: &[&str] = &[
    "cutlass_library/source/include",
    "nvidia/cuda_runtime/include",
    "nvidia/cuda_nvcc/include",
    "nvidia/cuda_cccl/include",
];
const HEADERS_NAME: &str = "headers-cutlass-4.2.0.0-cuda-12.9";
pub const CXXFLAGS: &[&str] = &["-std=c++17", "-O0", "-w", "-fdiagnostics-color=never"];
const PRELUDE: &str = r#"// tests/cpp_compile.rs prelude (generated)
#pragma once
#include <cstdio>
#include <cute/tensor.hpp>
#include <cute/layout_composed.hpp>
#include <cute/swizzle_layout.hpp>
#include <cute/util/print.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm61.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm75.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm89.hpp>
#include <cute/atom/mma_traits_sm90.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm90.hpp>
using namespace cute;
"#;

/// The oracle's fetch (`ensure_headers`), same wheels, folder, marker and lock.
const FETCH: &str = r#"
import fcntl, shutil, subprocess, sys, tempfile, zipfile
from pathlib import Path
cache, name, wheels, dirs = Path(sys.argv[1]), sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
cache.mkdir(parents=True, exist_ok=True)
with open(cache / ".lock", "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    root = cache / name
    if not (root / ".complete").exists():
        with tempfile.TemporaryDirectory(dir=cache) as tmp:
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                            "--disable-pip-version-check", "-q", "-d", tmp, *wheels], check=True, stdout=sys.stderr)
            unpacked = Path(tmp) / "unpacked"
            for wheel in sorted(Path(tmp).glob("*.whl")):
                with zipfile.ZipFile(wheel) as z:
                    for m in z.namelist():
                        if any(m.startswith(d + "/") for d in dirs):
                            z.extract(m, unpacked)
            (unpacked / ".complete").write_text("\n".join(wheels) + "\n")
            if root.exists():
                shutil.rmtree(root)
            unpacked.rename(root)
"#;

fn cache_dir() -> PathBuf {
    if let Some(c) = std::env::var_os("CUTE_ORACLE_CACHE") {
        return PathBuf::from(c);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache"));
    base.join("cute-oracle")
}

/// The include folders, fetched first if the cache lacks them.
fn headers() -> Vec<PathBuf> {
    let cache = cache_dir();
    let root = cache.join(HEADERS_NAME);
    if !root.join(".complete").exists() {
        eprintln!("cpp_compile: fetching {} into {}", WHEELS.join(" "), cache.display());
        let st = Command::new("python3")
            .args(["-c", FETCH])
            .arg(&cache)
            .arg(HEADERS_NAME)
            .arg(WHEELS.join(" "))
            .arg(INCLUDE_DIRS.join(" "))
            .status()
            .expect("run python3");
        assert!(st.success(), "fetching the CuTe headers failed");
    }
    INCLUDE_DIRS.iter().map(|d| root.join(d)).collect()
}

/// A folder holding `prelude.hpp` and, if g++ could build it, its precompiled header.
fn prelude(includes: &[PathBuf]) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let version = Command::new("g++").arg("--version").output().expect("g++ (needed to compile cpp(x))").stdout;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (PRELUDE, &version, CXXFLAGS, includes).hash(&mut h);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cpp-prelude-{:016x}", h.finish()));
    if !dir.join(".complete").exists() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("prelude.hpp"), PRELUDE).unwrap();
        let out = Command::new("g++")
            .args(CXXFLAGS)
            .args(includes.iter().map(|d| format!("-I{}", d.display())))
            .args(["-x", "c++-header"])
            .arg(dir.join("prelude.hpp"))
            .arg("-o")
            .arg(dir.join("prelude.hpp.gch"))
            .env("LC_ALL", "C")
            .output()
            .unwrap();
        if !out.status.success() {
            eprintln!("precompiled header failed, compiling without:\n{}", String::from_utf8_lossy(&out.stderr));
            let _ = std::fs::remove_file(dir.join("prelude.hpp.gch"));
        }
        std::fs::write(dir.join(".complete"), "ok\n").unwrap();
    }
    dir
}

/// The compiler set up: include folders and the folder of the precompiled prelude.
pub struct Cxx {
    includes: Vec<PathBuf>,
    pre: PathBuf,
}

impl Cxx {
    pub fn new() -> Cxx {
        let includes = headers();
        let pre = prelude(&includes);
        Cxx { includes, pre }
    }

    /// Compile `body` (after `#include "prelude.hpp"`) to the executable `bin`, or only check it
    /// when `bin` is None. The compiler's messages if it fails.
    pub fn compile(&self, body: &str, src: &Path, bin: Option<&Path>) -> Result<(), String> {
        std::fs::write(src, format!("#include \"prelude.hpp\"\n{body}")).unwrap();
        let mut cmd = Command::new("g++");
        cmd.args(CXXFLAGS)
            .arg("-fmax-errors=5")
            .arg(format!("-I{}", self.pre.display()))
            .args(self.includes.iter().map(|d| format!("-I{}", d.display())))
            .arg(src)
            .env("LC_ALL", "C");
        match bin {
            Some(b) => cmd.arg("-o").arg(b),
            None => cmd.arg("-fsyntax-only"),
        };
        let out = cmd.output().expect("run g++");
        let _ = std::fs::remove_file(src);
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).to_string())
        }
    }

    /// Check C++ declarations (`static_assert`s), splitting until the failing ones are alone.
    pub fn check_asserts(&self, items: &[String]) -> Vec<String> {
        let work = work_dir();
        let tag = format!("asserts{}_{}", items.len(), std::process::id());
        match self.compile(&items.concat(), &work.join(format!("{tag}.cpp")), None) {
            Ok(()) => Vec::new(),
            Err(e) if items.len() == 1 => {
                let first: Vec<&str> = e.lines().filter(|l| l.contains("error")).take(2).collect();
                vec![format!("{}  {}", items[0], first.join("\n  "))]
            }
            Err(_) => {
                let (a, b) = items.split_at(items.len() / 2);
                let mut v = self.check_asserts(a);
                v.extend(self.check_asserts(b));
                v
            }
        }
    }
}

/// A scratch folder under the target folder.
pub fn work_dir() -> PathBuf {
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cxx-work");
    std::fs::create_dir_all(&work).unwrap();
    work
}
