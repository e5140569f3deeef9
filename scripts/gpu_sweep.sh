#!/usr/bin/env bash
# 8192^3 variations (raster group, stages, tile, warps) to find a faster default
B=${GEMM_BIN:-.gpu/cute}
for d in f16 bf16; do
for o in "raster=8" "raster=4" "raster=16" "raster=32" "stages=4" "stages=4 raster=16" "tile=<256,128,64> mma=(4,2,1)" "tile=<256,128,32> mma=(4,2,1) stages=4" "tile=<128,256,32> stages=4" "tile=<128,128,64> mma=(2,2,1) stages=4"; do
  echo "== $d $o"
  $B -e "run gemm 8192 8192 8192 dtype=$d $o" 2>&1 | sed -n 2p
done
done
