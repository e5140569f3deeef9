#!/usr/bin/env bash
# Regenerate the g++ messages of tests/decode/*.txt: each case of cases.cute (a case CuTe refuses)
# is turned into C++ by the oracle (`cute-oracle --cpp`) and compiled alone against the oracle's
# cached CuTe headers; the compiler's messages, with the header folders shortened, are the file.
#   tests/decode/regenerate.sh [../shared/oracle/cute-oracle]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
oracle="${1:-$here/../../../shared/oracle/cute-oracle}"
cache="${CUTE_ORACLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cute-oracle}"
headers="$cache/headers-cutlass-4.2.0.0-cuda-12.9"
prelude="$(ls -d "$cache"/prelude-* | head -1)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
n=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  name="${line%%:*}"; expr="${line#*: }"
  printf '%s\n' "$expr" | python3 "$oracle" --cpp - > "$tmp/$name.cpp"
  LC_ALL=C g++ -std=c++17 -O0 -w -fdiagnostics-color=never -fmax-errors=3 -I"$prelude" \
    -I"$headers/cutlass_library/source/include" -I"$headers/nvidia/cuda_runtime/include" \
    -I"$headers/nvidia/cuda_nvcc/include" -I"$headers/nvidia/cuda_cccl/include" \
    -c "$tmp/$name.cpp" -o /dev/null 2> "$tmp/$name.err" || true
  sed -e "s|$headers/cutlass_library/source/include/||g" -e "s|$headers/[^ :]*/include/||g" \
      -e "s|$prelude/||g" -e "s|$tmp/||g" "$tmp/$name.err" > "$here/$name.txt"
  n=$((n + 1))
done < "$here/cases.list"
echo "$n files written" >&2
