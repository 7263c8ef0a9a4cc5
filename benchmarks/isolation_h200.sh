#!/usr/bin/env bash
# The sandboxed engine on the H200: the self-test, one native and one KernelBench candidate, the hostile
# suite (tests/hacks/hostile) in one batch, the GPU tests of the engine and its timer, and the CPU-mode
# isolation tests on that machine's kernel.
# Everything lands in $OUT; copy it to tests/data/h200/isolation/.
#   bash benchmarks/isolation_h200.sh   (from the repository root; needs .whl/ with the tree-sitter,
#                                        pyseccomp and landlock wheels)
# STEPS picks a subset (default: all of selftest smoke bench trace hostile gpu isolation), to fit one
# device call.
set -u
STEPS=" ${STEPS:-selftest smoke bench trace hostile gpu isolation} "
want() { [[ "$STEPS" == *" $1 "* ]]; }
OUT=${OUT:-/tmp/isolation-h200}
. benchmarks/h200_setup.sh
step() { echo "== $1"; shift; SECONDS=0; "$@"; echo "-- exit $? in ${SECONDS} s"; }

want selftest && step "self-test" timeout 60 python3 -m cudaperf eval --self-test --format json > "$OUT/selftest.json" 2>&1
want selftest && { head -c 3000 "$OUT/selftest.json"; echo; }
want smoke && for c in ${SMOKE:-candidate_native.cu candidate_kernelbench.py}; do
    step "smoke $c" timeout 90 python3 -m cudaperf eval --reference examples/eval/scale_add/reference.py \
        --candidate "examples/eval/scale_add/$c" --format json > "$OUT/smoke_$c.json" 2> "$OUT/smoke_$c.err"
    grep -E '"(status|reason|speedup|seconds)"' "$OUT/smoke_$c.json" | cut -c1-300
    grep -q '"status": "correct"' "$OUT/smoke_$c.json" || { tail -c 3000 "$OUT/smoke_$c.json"; tail -20 "$OUT/smoke_$c.err"; }
done
want bench && step "bench_eval (native)" timeout 240 python3 benchmarks/bench_eval.py --native 20 --kernelbench 0 \
    -o "$OUT/bench_eval.json" > "$OUT/bench_eval.log" 2>&1
want bench && grep -E "^native" "$OUT/bench_eval.log" | cut -c1-700
want trace && step "tracing child (the ranker's)" timeout 120 python3 -c "
from pathlib import Path; from cudaperf.costmodel import trace
d = Path('tests/kb_llm/mse_loss'); r = trace.run((d / 'reference.py').read_text(), [(d / 'honest_atomic_mean.py').read_text()])
print(sorted(r), r['candidates'][0].get('error'))" > "$OUT/trace.log" 2>&1
want trace && tail -5 "$OUT/trace.log" | cut -c1-600
want hostile && step "hostile suite" timeout "${HOSTILE_SECONDS:-360}" python3 benchmarks/hostile_h200.py "$OUT" --sandboxed \
    --deadline "$(( ${HOSTILE_SECONDS:-360} - 30 ))" > "$OUT/hostile.log" 2>&1
want hostile && tail -45 "$OUT/hostile.log" | cut -c1-300
want gpu && step "GPU tests" env CUDAPERF_EVAL_RESULTS="$OUT/gpu_results.jsonl" timeout "${GPU_TESTS_SECONDS:-300}" \
    python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_eval_gpu.py tests/test_timing_gpu.py \
    > "$OUT/pytest_gpu.log" 2>&1
want gpu && tail -30 "$OUT/pytest_gpu.log" | cut -c1-400
want isolation && step "isolation tests (CPU mode)" timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_eval_isolation.py \
    > "$OUT/pytest_isolation.log" 2>&1
want isolation && tail -8 "$OUT/pytest_isolation.log" | cut -c1-400
