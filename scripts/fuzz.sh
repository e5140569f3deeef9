#!/usr/bin/env bash
# Run one cargo-fuzz target for SECONDS (niced), from the kept corpus, with the limits of the
# README's "Reliability" section; prints libFuzzer's final statistics (executions, cov, ft).
#   scripts/fuzz.sh session|structured|laws SECONDS [extra libFuzzer flags]
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). New inputs go to
# fuzz/work/<target>/ (ignored); findings to fuzz/artifacts/<target>/. To keep a finding: fix
# it, then copy it to tests/fuzz_regressions/<target>/ (tests/fuzz_corpus.rs replays it).
# To refresh the kept corpus (edges only, so it stays a few hundred files):
#   cargo +nightly fuzz cmin -O -a -s none TARGET fuzz/corpus/TARGET -- -use_counters=0
# On a busy machine -timeout is wall-clock: pass -timeout=10 -report_slow_units=1 after
# SECONDS and re-time each slow-unit-*/timeout-* alone (`fuzz/target/.../TARGET FILE`).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS}
secs=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
shift 2
mkdir -p "fuzz/work/$target" "fuzz/corpus/$target"
# -s none: the code is safe Rust (no sanitizer needed to see a panic, an overflow - debug
# assertions are on with -a -, a stack overflow, a hang or the memory limit); much faster.
exec nice -n 15 cargo +nightly fuzz run -O -a -s none "$target" "fuzz/work/$target" "fuzz/corpus/$target" -- \
  -max_total_time="$secs" -timeout=1 -rss_limit_mb=1024 -print_final_stats=1 "$@"
