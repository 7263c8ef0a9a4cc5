#!/usr/bin/env bash
# The rewards on the H200 (through the device tool): the GPU tests, then the benchmark (a batch of 64
# completions through unified_reward).  Everything lands in $OUT; copy it to tests/data/h200/rewards/.
#   bash benchmarks/rewards_h200.sh        (from the repository root; needs .whl/ with tree-sitter wheels)
set -u
OUT=${OUT:-/tmp/rewards-h200}
mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=/tmp/site:$PWD || exit 1
export PYTHONUNBUFFERED=1 CUDAPERF_CACHE_DIR=/tmp/cudaperf-cache
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; echo "cpus $(nproc)"
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)"; nvcc --version | tail -1
} > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"

echo "== GPU tests"
SECONDS=0
CUDAPERF_REWARD_RESULTS="$OUT/gpu_rewards.jsonl" timeout 80 python3 -m pytest -q -p no:cacheprovider -m gpu \
    tests/test_rewards_gpu.py > "$OUT/pytest_gpu.log" 2>&1
echo "GPU tests took ${SECONDS} s"
tail -15 "$OUT/pytest_gpu.log"

echo "== benchmark"
timeout 70 python3 benchmarks/bench_rewards.py --repeats 5 --gpu 64 -o "$OUT/bench_rewards.json"
