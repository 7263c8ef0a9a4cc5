#!/usr/bin/env bash
# The execution engine on the H200 (through the device tool): a smoke run, the GPU tests, then the
# benchmark.  Everything lands in $OUT; copy it to tests/data/h200/eval/.
#   bash benchmarks/eval_h200.sh        (from the repository root; needs .whl/ with tree-sitter wheels)
set -u
OUT=${OUT:-/tmp/eval-h200}
. benchmarks/h200_setup.sh

echo "== smoke: one native candidate"
SECONDS=0
timeout 120 python3 -m cudaperf eval --reference examples/eval/scale_add/reference.py \
    --candidate examples/eval/scale_add/candidate_native.cu --format json > "$OUT/smoke.json" 2> "$OUT/smoke.err"
echo "smoke took ${SECONDS} s"
if ! grep -q '"status": "correct"' "$OUT/smoke.json"; then
    tail -c 4000 "$OUT/smoke.json"; tail -40 "$OUT/smoke.err"; exit 1
fi
grep -E '"(status|speedup|candidate|reference)"' "$OUT/smoke.json"

echo "== benchmark"
timeout 300 python3 benchmarks/bench_eval.py --native 20 --kernelbench 8 -o "$OUT/bench_eval.json" > "$OUT/bench.log" 2>&1
grep -E '^(native|kernelbench)' "$OUT/bench.log" | cut -c1-600
tail -5 "$OUT/bench.log"

echo "== GPU tests"
CUDAPERF_EVAL_RESULTS="$OUT/gpu_results.jsonl" timeout 260 python3 -m pytest -q -p no:cacheprovider -m gpu \
    tests/test_eval_gpu.py > "$OUT/pytest_gpu.log" 2>&1
tail -25 "$OUT/pytest_gpu.log"
python3 -c "
import json
for line in open('$OUT/gpu_results.jsonl'):
    r = json.loads(line)
    print(f\"{r['case']:28} {r['status']:14} {str(r['rule'] or ''):16} {r.get('seconds') or 0:6.2f}s speedup={r['speedup']} {r['reason'][:70]}\")
" 2>&1 | head -40
