#!/usr/bin/env bash
# Run one cargo-fuzz target for SECONDS (niced), from the kept corpus, with the limits of the
# README's "Reliability" section; prints libFuzzer's final statistics (executions, cov, ft).
#   scripts/fuzz.sh session|structured|laws SECONDS [extra libFuzzer flags]
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). New inputs go to
# fuzz/work/<target>/ (ignored); findings to fuzz/artifacts/<target>/. To keep a finding: fix
# it, then copy it to tests/fuzz_regressions/<target>/ (tests/fuzz_corpus.rs replays it).
# To refresh the kept corpus (edges only, so it stays a few hundred files):
#   cargo +nightly fuzz cmin -O -a -s none TARGET fuzz/corpus/TARGET -- -use_counters=0
# FUZZ_NO_TRACE_CMP=1 builds without comparison tracing (`--no-trace-compares`, into
# fuzz/target-notc/): about twice the executions per second for `laws` and `structured`, whose
# inputs are generated (comparison hints help the byte-level `session` target most).
# On a busy machine -timeout is wall-clock: pass -timeout=10 -report_slow_units=1 after
# SECONDS and re-time each slow-unit-*/timeout-* alone (`fuzz/target/.../TARGET FILE`).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS}
secs=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
shift 2
mkdir -p "fuzz/work/$target" "fuzz/corpus/$target"
# -s none by default: the code the targets run is safe Rust but for `Value::dispose`'s free of
# a vector of integers and `list::Fixed`'s view of its items (no sanitizer needed to see a panic, an overflow - debug assertions are
# on with -a -, a stack overflow, a hang or the memory limit); much faster. FUZZ_SANITIZER=address
# runs under AddressSanitizer (into fuzz/target-address/), as after a change to that unsafe code.
san=${FUZZ_SANITIZER:-none}
dir=fuzz/target
if [ "$san" != none ]; then dir=$dir-$san; fi
flags=()
if [ "${FUZZ_NO_TRACE_CMP:-0}" = 1 ]; then flags=(--no-trace-compares); dir=$dir-notc; fi
if [ "$dir" != fuzz/target ]; then flags+=(--target-dir "$dir"); fi
exec nice -n 15 cargo +nightly fuzz run -O -a -s "$san" "${flags[@]}" "$target" "fuzz/work/$target" "fuzz/corpus/$target" -- \
  -max_total_time="$secs" -timeout=1 -rss_limit_mb=1024 -print_final_stats=1 "$@"
