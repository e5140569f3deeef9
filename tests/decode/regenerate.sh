#!/usr/bin/env bash
# Regenerate the compiler messages of tests/decode/: each case of cases.list (a case CuTe refuses)
# is turned into C++ by the oracle (`cute-oracle --cpp`) and compiled alone against the oracle's
# cached CuTe 4.2 headers; the compiler's messages, with the header folders shortened, are the file.
#   tests/decode/regenerate.sh [COMPILER] [../shared/oracle/cute-oracle]
# COMPILER is one of
#   g++    (the default) NAME.txt for every case;
#   clang  clang_NAME.txt for every case (Debian's clang++ 14: `apt-get install clang`);
#   nvcc   nvcc_NAME.txt for the cases of NVCC_CASES, compiled as CUDA (nvcc's EDG front end;
#          the GPU machine has CUDA 13.0: `nvcc --version` -> V13.0.88).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
compiler="${1:-g++}"
oracle="${2:-$here/../../../shared/oracle/cute-oracle}"
cache="${CUTE_ORACLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cute-oracle}"
headers="$cache/headers-cutlass-4.2.0.0-cuda-12.9"
cutlass="$headers/cutlass_library/source/include"
prelude="$(ls -d "$cache"/prelude-* | head -1)"
NVCC_CASES="shape_divisibility dynamic_complement gmma_tile_size composition_rank"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# the include folders of the wheels, for the host compilers
host_includes=(-I"$prelude" -I"$cutlass" -I"$headers/nvidia/cuda_runtime/include"
  -I"$headers/nvidia/cuda_nvcc/include" -I"$headers/nvidia/cuda_cccl/include")

case "$compiler" in
  g++) prefix=""; cases="$(grep -v '^#' "$here/cases.list" | sed -n 's/^\([a-z_0-9]*\): .*/\1/p')" ;;
  clang) prefix="clang_"; cases="$(grep -v '^#' "$here/cases.list" | sed -n 's/^\([a-z_0-9]*\): .*/\1/p')" ;;
  nvcc) prefix="nvcc_"; cases="$NVCC_CASES" ;;
  *) echo "usage: $0 [g++|clang|nvcc] [cute-oracle]" >&2; exit 2 ;;
esac

# compile NAME: the messages of compiling the case's C++ in "$tmp/NAME.err"
compile() {
  local name="$1"
  case "$compiler" in
    g++)
      LC_ALL=C g++ -std=c++17 -O0 -w -fdiagnostics-color=never -fmax-errors=3 "${host_includes[@]}" \
        -c "$tmp/$name.cpp" -o /dev/null 2> "$tmp/$name.err" || true ;;
    clang)
      LC_ALL=C clang++ -std=c++17 -O0 -w -fno-color-diagnostics -ferror-limit=3 "${host_includes[@]}" \
        -c "$tmp/$name.cpp" -o /dev/null 2> "$tmp/$name.err" || true ;;
    nvcc)
      mkdir -p "$tmp/cases"
      cp "$tmp/$name.cpp" "$tmp/cases/$name.cu"
      (cd "$tmp" && LC_ALL=C nvcc -std=c++17 -arch=sm_90a -I "$prelude" -I "$cutlass" -c "cases/$name.cu" \
        -o /dev/null > "$name.err" 2>&1 || true) ;;
  esac
}

# the messages with the folders of this machine shortened
shorten() {
  case "$compiler" in
    nvcc) sed -e "s|$cutlass/|include/|g" -e "s|$prelude/|prelude/|g" -e "s|/usr/local/cuda[^ :]*/include/||g" ;;
    *) sed -e "s|$cutlass/||g" -e "s|$headers/[^ :]*/include/||g" -e "s|$prelude/||g" -e "s|$tmp/||g" ;;
  esac
}

n=0
for name in $cases; do
  expr="$(grep "^$name: " "$here/cases.list" | sed "s/^$name: //")"
  printf '%s\n' "$expr" | python3 "$oracle" --cpp - > "$tmp/$name.cpp"
  compile "$name"
  shorten < "$tmp/$name.err" > "$here/$prefix$name.txt"
  n=$((n + 1))
done
echo "$n files written ($compiler)" >&2
