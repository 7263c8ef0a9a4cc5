#!/usr/bin/env bash
# The fast path on the H200: KernelBench candidates per second with it (bench_eval), and
# `--fast-path check` (both paths, differences flagged) over a directory of model-written candidates.
# Everything lands in $OUT; copy it to tests/data/h200/fastpath/.
#   CHECK_DIRS="tests/kb_llm/mse_loss ..." bash benchmarks/fastpath_h200.sh   (needs .whl/, see isolation_h200.sh)
set -u
OUT=${OUT:-/tmp/fastpath-h200}
. benchmarks/h200_setup.sh
step() { echo "== $1"; shift; SECONDS=0; "$@"; echo "-- exit $? in ${SECONDS} s"; }

step "bench_eval (KernelBench, fast path)" timeout "${BENCH_SECONDS:-150}" python3 benchmarks/bench_eval.py --native 0 \
    --kernelbench "${KB:-8}" -o "$OUT/bench_eval.json" > "$OUT/bench_eval.log" 2>&1
grep -E "^kernelbench" "$OUT/bench_eval.log" | cut -c1-600; tail -3 "$OUT/bench_eval.log" | cut -c1-300
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
done
