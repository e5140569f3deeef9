#!/usr/bin/env bash
# GEMM benchmark on the GPU machine: checks (against cuBLAS) and times M=N=K = 1024, 2048,
# 4096, 8192 in f16 and bf16, plus the odd sizes, in one run. Builds nothing: it runs a
# binary built elsewhere and carried along: .gpu/cute (the CLI, running scripts/gemm_bench.cute)
# or .gpu/gemm (the examples/gemm driver, given the statements below); GEMM_BIN picks one.
#   usage: scripts/gpu_bench.sh [extra key=value options for every run]
# Writes the full log to $OUT/bench.log when $OUT is set; prints a short table last.
set -uo pipefail
# default: the cute CLI running scripts/gemm_bench.cute when carried, else the example driver
if [ -z "${GEMM_BIN:-}" ]; then
  if [ -x .gpu/cute ]; then GEMM_BIN=.gpu/cute; else GEMM_BIN=.gpu/gemm; fi
fi
bin="$GEMM_BIN"
log="${OUT:-/tmp}/bench.log"
extra="$*"
if [ ! -x "$bin" ]; then
  echo "error: $bin not found (build with cargo build --release --example gemm and copy it there)" >&2
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | tee "$log"
stmts=()
for d in f16 bf16; do
  for s in 1024 2048 4096 8192; do
    stmts+=("run $s $s $s dtype=$d $extra")
  done
done
stmts+=("run 1000 1000 1000 $extra" "run 257 129 65 $extra" "run 257 129 65 dtype=bf16 $extra")
if [[ "$bin" == *cute ]]; then
  [ -z "$extra" ] || echo "note: extra options apply to the example driver only" >&2
  "$bin" scripts/gemm_bench.cute 2>&1 | tee -a "$log"
  rc=${PIPESTATUS[0]}
else
  "$bin" "${stmts[@]}" 2>&1 | tee -a "$log"
  rc=${PIPESTATUS[0]}
fi
echo
echo "summary (M N K types layout time_ms TFLOP/s cuBLAS ratio rel_err):"
grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ ' "$log"
grep -E '^error' "$log"
exit $rc
