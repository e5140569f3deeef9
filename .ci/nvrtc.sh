#!/usr/bin/env bash
# Install NVRTC (no GPU needed) from PyPI into .ci/nvrtc-wheel and print the folder that holds
# libnvrtc.so.13, for LD_LIBRARY_PATH. Used by CI to compile every generated GEMM kernel
# (tests/gemm_nvrtc.rs) for sm_80 and sm_90a.
#   export LD_LIBRARY_PATH="$(.ci/nvrtc.sh):$LD_LIBRARY_PATH"
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="$here/nvrtc-wheel"
lib="$dest/nvidia/cu13/lib"
if [ ! -e "$lib/libnvrtc.so.13" ]; then
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$dest" \
    'nvidia-cuda-nvrtc==13.0.88' >&2
fi
if [ ! -e "$lib/libnvrtc.so.13" ]; then
  echo "error: libnvrtc.so.13 not found under $dest after installing nvidia-cuda-nvrtc" >&2
  exit 1
fi
# cudarc looks for libnvrtc.so (and versioned names); make the unversioned name available too.
[ -e "$lib/libnvrtc.so" ] || ln -s libnvrtc.so.13 "$lib/libnvrtc.so"
echo "$lib"
