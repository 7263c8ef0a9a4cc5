#!/bin/bash
# Compile benchmarks/atomic_aggregation.cu for each architecture and keep the SASS of every kernel
# (run on the GPU machine; needs nvcc and cuobjdump).  Output: $OUT/atomic_aggregation.tar.gz
# holding nvcc.txt and sm_XX.sass; benchmarks/atomic_aggregation.py reads them.
set -euo pipefail
work=$(mktemp -d)/atomic_aggregation
mkdir -p "$work"
nvcc --version | tail -2 > "$work/nvcc.txt"
for arch in 75 80 86 89 90 100 120; do
  nvcc -arch=sm_$arch -cubin -O3 -o "$work/sm_$arch.cubin" benchmarks/atomic_aggregation.cu
  cuobjdump -sass "$work/sm_$arch.cubin" > "$work/sm_$arch.sass"
  rm "$work/sm_$arch.cubin"
done
tar -C "$(dirname "$work")" -czf "${OUT:-.}/atomic_aggregation.tar.gz" atomic_aggregation
