#!/usr/bin/env bash
# The sandboxed engine on the H200: the self-test, one native and one KernelBench candidate, the hostile
# suite (tests/hacks/hostile) in one batch, the GPU tests of the engine and its timer, and the CPU-mode
# isolation tests on that machine's kernel.
# Everything lands in $OUT; copy it to tests/data/h200/isolation/.
#   bash benchmarks/isolation_h200.sh   (from the repository root; needs .whl/ with the tree-sitter,
#                                        pyseccomp and landlock wheels)
set -u
OUT=${OUT:-/tmp/isolation-h200}
. benchmarks/h200_setup.sh
step() { echo "== $1"; shift; SECONDS=0; "$@"; echo "-- exit $? in ${SECONDS} s"; }

step "self-test" timeout 60 python3 -m cudaperf eval --self-test --format json > "$OUT/selftest.json" 2>&1
head -c 3000 "$OUT/selftest.json"; echo
for c in ${SMOKE:-candidate_native.cu candidate_kernelbench.py}; do
    step "smoke $c" timeout 90 python3 -m cudaperf eval --reference examples/eval/scale_add/reference.py \
        --candidate "examples/eval/scale_add/$c" --format json > "$OUT/smoke_$c.json" 2> "$OUT/smoke_$c.err"
    grep -E '"(status|reason|speedup|seconds)"' "$OUT/smoke_$c.json" | cut -c1-300
    grep -q '"status": "correct"' "$OUT/smoke_$c.json" || { tail -c 3000 "$OUT/smoke_$c.json"; tail -20 "$OUT/smoke_$c.err"; }
done
step "hostile suite" timeout "${HOSTILE_SECONDS:-360}" python3 benchmarks/hostile_h200.py "$OUT" --sandboxed \
    --deadline "$(( ${HOSTILE_SECONDS:-360} - 30 ))" > "$OUT/hostile.log" 2>&1
tail -45 "$OUT/hostile.log" | cut -c1-300
step "GPU tests" env CUDAPERF_EVAL_RESULTS="$OUT/gpu_results.jsonl" timeout "${GPU_TESTS_SECONDS:-300}" \
    python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_eval_gpu.py tests/test_timing_gpu.py \
    > "$OUT/pytest_gpu.log" 2>&1
tail -30 "$OUT/pytest_gpu.log" | cut -c1-400
step "isolation tests (CPU mode)" timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_eval_isolation.py \
    > "$OUT/pytest_isolation.log" 2>&1
tail -8 "$OUT/pytest_isolation.log" | cut -c1-400
