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
  # the persistent variant's ptxas report (warnings included)
  "$bin" -e 'emit gemm 8192 8192 8192 arch=sm90 persistent=1' > "$out/kp.cu" 2>>"$log"
  (cd "$out" && nvcc -cubin -gencode=arch=compute_90a,code=sm_90a -Xptxas -v kp.cu -o kp.cubin) 2>&1 | grep -vE '^ptxas info +: (Compiling|Function|Compile time|0 bytes gmem)' | sed 's/^/persistent: /' | tee -a "$log"
fi
# memory and race checks of small sm90 runs (odd M and N, a ragged last k-tile)
if command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck synccheck; do
    echo "sanitizer $tool: $(timeout 240 compute-sanitizer --tool $tool "$bin" -e 'run gemm 300 200 136 arch=sm90 iters=1 warmup=0' 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|error' | head -3 | tr '\n' ' ')" | tee -a "$log"
  done
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
grep -E '^== |^ +[0-9]+ +[0-9]+ +[0-9]+ |^error|^SASS|^sanitizer|^persistent|^  \(sm80' "$log"
