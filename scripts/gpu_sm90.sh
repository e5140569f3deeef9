#!/usr/bin/env bash
# The Hopper kernel on the GPU machine, in one go: SASS and ptxas report of the default
# kernel (nvcc + cuobjdump on the emitted source), then `run gemm arch=sm90 ...` statements
# (each checked against cuBLAS and a float64 sample, output poisoned, race-checked, timed
# against cuBLAS in the same process). Runs a carried binary: .gpu/cute (built elsewhere).
#   usage: scripts/gpu_sm90.sh [file of statements, one `run gemm ...` per line]
# Writes logs under $OUT when set; prints a short table last.
set -uo pipefail
bin=${GEMM_BIN:-.gpu/cute}
out=${OUT:-/tmp}
log="$out/sm90.log"
: > "$log"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | tee -a "$log"
# SASS: HGMMA in the main loop
"$bin" -e 'emit gemm 8192 8192 8192 arch=sm90' > "$out/k90.cu" 2>>"$log"
if command -v nvcc >/dev/null; then
  (cd "$out" && nvcc -cubin -gencode=arch=compute_90a,code=sm_90a -Xptxas -v k90.cu -o k90.cubin) 2>&1 | grep -E 'registers|spill|error' | tee -a "$log"
  cuobjdump --dump-sass "$out/k90.cubin" > "$out/k90.sass" 2>&1
  echo "SASS: $(grep -c HGMMA "$out/k90.sass") HGMMA, $(grep -c UTMALDG "$out/k90.sass") UTMALDG, $(grep -c 'LDL\|STL' "$out/k90.sass") LDL/STL" | tee -a "$log"
  grep -m3 HGMMA "$out/k90.sass" | tee -a "$log"
fi
if [ $# -ge 1 ]; then mapfile -t stmts < "$1"; else
stmts=(
  "run gemm 1000 1000 1000 arch=sm90"
  "run gemm 257 129 72 arch=sm90"
  "run gemm 4096 4096 4096 arch=sm90"
  "run gemm 8192 8192 8192 arch=sm90"
  "run gemm 8192 8192 8192 arch=sm90 dtype=bf16"
  "run gemm 4096 4096 4096 arch=sm90 dtype=bf16"
)
fi
for s in "${stmts[@]}"; do
  [ -z "$s" ] && continue
  echo "== $s" | tee -a "$log"
  timeout 120 "$bin" -e "$s" 2>&1 | tee -a "$log"
done
echo
echo "summary (M N K types layout time_ms TFLOP/s cuBLAS ratio rel_err):"
grep -E '^== |^ +[0-9]+ +[0-9]+ +[0-9]+ |^error|^SASS' "$log"
