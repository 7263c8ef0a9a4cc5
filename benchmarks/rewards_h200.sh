#!/usr/bin/env bash
# The rewards on the H200 (through the device tool): the GPU tests, then the benchmark (a batch of 64
# completions through unified_reward).  Everything lands in $OUT; copy it to tests/data/h200/rewards/.
#   bash benchmarks/rewards_h200.sh        (from the repository root; needs .whl/ with tree-sitter wheels)
set -u
OUT=${OUT:-/tmp/rewards-h200}
. benchmarks/h200_setup.sh

echo "== GPU tests"
SECONDS=0
CUDAPERF_REWARD_RESULTS="$OUT/gpu_rewards.jsonl" timeout 80 python3 -m pytest -q -p no:cacheprovider -m gpu \
    tests/test_rewards_gpu.py > "$OUT/pytest_gpu.log" 2>&1
echo "GPU tests took ${SECONDS} s"
tail -15 "$OUT/pytest_gpu.log"

echo "== benchmark"
timeout 70 python3 benchmarks/bench_rewards.py --repeats 5 --gpu 64 -o "$OUT/bench_rewards.json"
