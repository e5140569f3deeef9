#!/usr/bin/env bash
# Regenerate tests/decode/nvcc_*.txt: nvcc's (EDG front end's) messages for cases CuTe refuses.
# Needs nvcc (the GPU machine has CUDA 13.0: `nvcc --version` -> V13.0.88). Each case of
# NVCC_CASES in cases.list becomes C++ through the oracle (`cute-oracle --cpp`), is compiled as
# CUDA against the oracle's cached CuTe 4.2 headers, and the messages, with the folders
# shortened, are the file.
#   tests/decode/regenerate_nvcc.sh [../shared/oracle/cute-oracle]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
oracle="${1:-$here/../../../shared/oracle/cute-oracle}"
cache="${CUTE_ORACLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cute-oracle}"
headers="$cache/headers-cutlass-4.2.0.0-cuda-12.9/cutlass_library/source/include"
prelude="$(ls -d "$cache"/prelude-* | head -1)"
NVCC_CASES="shape_divisibility dynamic_complement gmma_tile_size composition_rank"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for name in $NVCC_CASES; do
  expr="$(grep "^$name: " "$here/cases.list" | sed "s/^$name: //")"
  mkdir -p "$tmp/cases"
  printf '%s\n' "$expr" | python3 "$oracle" --cpp - > "$tmp/cases/$name.cu"
  (cd "$tmp" && LC_ALL=C nvcc -std=c++17 -arch=sm_90a -I "$prelude" -I "$headers" -c "cases/$name.cu" -o /dev/null > "$name.err" 2>&1 || true)
  sed -e "s|$headers/|include/|g" -e "s|$prelude/|prelude/|g" -e "s|/usr/local/cuda[^ :]*/include/||g" "$tmp/$name.err" > "$here/nvcc_$name.txt"
done
echo "$(echo $NVCC_CASES | wc -w) files written" >&2
