#!/usr/bin/env bash
# The fast path on the H200, each step optional (STEPS, default all): what a worker's start costs
# (start), KernelBench candidates per minute with the engine's defaults (bench) and with workers started
# fresh one candidate at a time (baseline), and `--fast-path check` (both paths, differences flagged)
# over directories of model-written candidates (check).  Everything lands in $OUT; copy it to
# tests/data/h200/fastpath/.
#   STEPS="bench check" KB=40 CHECK_DIRS="tests/kb_llm/mse_loss ..." bash benchmarks/fastpath_h200.sh
#   (needs .whl/, see isolation_h200.sh)
set -u
OUT=${OUT:-/tmp/fastpath-h200}
. benchmarks/h200_setup.sh
STEPS=${STEPS:-start bench baseline check}
step() { echo "== $1"; shift; SECONDS=0; "$@"; echo "-- exit $? in ${SECONDS} s"; }
bench() {   # name, extra bench_eval arguments...
    local name=$1
    shift
    step "bench_eval $name (KernelBench, fast path)" timeout "${BENCH_SECONDS:-200}" python3 benchmarks/bench_eval.py \
        --native 0 --kernelbench "${KB:-8}" "$@" -o "$OUT/$name.json" > "$OUT/$name.log" 2>&1
    grep -E "^kernelbench" "$OUT/$name.log" | cut -c1-400; tail -3 "$OUT/$name.log" | cut -c1-300
}
for s in $STEPS; do
    case $s in
    start) step "worker start" timeout 200 python3 benchmarks/worker_start.py --concurrent 8 > "$OUT/worker_start.json"
           python3 -c "import json,sys; d=json.load(open(sys.argv[1])); [print(k, v if not isinstance(v, dict) else (v['wall_s'], v['children'][:2])) for k, v in d.items()]" "$OUT/worker_start.json" ;;
    bench) bench bench_eval ;;
    baseline) bench bench_eval_baseline --per-gpu 1 --no-fork ;;
    check)
        for d in ${CHECK_DIRS:-tests/kb_llm/mse_loss}; do
            name=$(basename "$d")
            step "fast-path check $d" timeout "${CHECK_SECONDS:-200}" python3 -m cudaperf eval --fast-path check \
                --reference "$d/reference.py" --candidate "$d" --format jsonl -o "$OUT/check_$name.jsonl" \
                > "$OUT/check_$name.log" 2>&1
            python3 - "$OUT/check_$name.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    fast = [f for f in r.get("flags", []) if f.startswith("fast-path")]
    print(r["candidate"].split("/")[-1][:40].ljust(40), r["status"].ljust(14), "; ".join(fast)[:200])
PY
        done ;;
    esac
done
