#!/usr/bin/env bash
# The held-out KernelBench-style corpus (tests/kb_heldout/) end to end on the H200, one batch per task,
# plus the profile GPU tests.  Everything lands in $OUT; copy it to tests/data/h200/heldout/.
#   bash benchmarks/heldout_h200.sh      (from the repository root; needs .whl/ with tree-sitter wheels)
set -u
OUT=${OUT:-/tmp/heldout-h200}
. benchmarks/h200_setup.sh

echo "== profile GPU tests"
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_profile.py > "$OUT/pytest_profile_gpu.log" 2>&1
tail -3 "$OUT/pytest_profile_gpu.log"

echo "== held-out corpus"
SECONDS=0
for task in tests/kb_heldout/*/; do
    name=$(basename "$task")
    timeout 200 python3 -m cudaperf eval --reference "$task/reference.py" --candidate "$task" --format jsonl \
        -o "$OUT/heldout_$name.jsonl" 2> "$OUT/heldout_$name.err"
    echo "$name done at ${SECONDS} s"
done
python3 - "$OUT" <<'PY'
import json, sys, pathlib
for path in sorted(pathlib.Path(sys.argv[1]).glob("heldout_*.jsonl")):
    for line in path.read_text().splitlines():
        r = json.loads(line)
        first = pathlib.Path(r["candidate"]).read_text().splitlines()[0]
        print(f"{pathlib.Path(r['candidate']).parent.name:11} {pathlib.Path(r['candidate']).name:34} "
              f"{r['status']:14} {str(r.get('rule') or ''):18} {r.get('speedup') or 0:6.2f} {r['seconds']:6.1f}s "
              f"| {first[:50]} | {r['reason'][:80]}")
PY
