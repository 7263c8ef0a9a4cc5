#!/bin/bash
# Build and run benchmarks/memory_latency.cu on the GPU machine: $OUT/memory_latency.csv (the loads'
# latency by footprint, idle and loaded) and $OUT/memory_latency.txt (GPU, driver, nvcc).
set -euo pipefail
work=$(mktemp -d)
nvcc -O3 -arch=native -o "$work/memory_latency" benchmarks/memory_latency.cu
"$work/memory_latency" > "${OUT:-.}/memory_latency.csv"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; nvcc --version | tail -2; } \
  > "${OUT:-.}/memory_latency.txt"
