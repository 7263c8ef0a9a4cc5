#!/usr/bin/env bash
# The labels of a written-without-the-linter suite (tests/sync_heldout, or SUITE) against compute-sanitizer on a GPU: every file with a host launch
# is built with -lineinfo and run under racecheck and synccheck.  Writes OUT/<file>.{racecheck,synccheck}.log
# and OUT/summary.tsv (file, tool, exit code, hazards reported, lines named).
#
#   [SUITE=tests/sync_heldout2] OUT=... bash benchmarks/sync_heldout_h200.sh
set -u
OUT=${OUT:?set OUT}
mkdir -p "$OUT/bin"
SUITE=${SUITE:-tests/sync_heldout}
files=$(python3 -c "import json; print(' '.join(c['file'] for c in json.load(open('$SUITE/manifest.json')) if c['host_launch']))")
for f in $files; do
  echo "nvcc -O2 -lineinfo -arch=sm_90 -o $OUT/bin/${f%.cu} $SUITE/$f > $OUT/${f%.cu}.build.log 2>&1"
done | xargs -P 16 -I{} sh -c '{}'
printf 'file\ttool\trc\thazards\tlines\n' > "$OUT/summary.tsv"
for f in $files; do
  b=${f%.cu}
  for tool in racecheck synccheck; do
    if [ -x "$OUT/bin/$b" ]; then
      extra=""; [ $tool = racecheck ] && extra="--racecheck-report analysis"
      timeout 120 compute-sanitizer --tool $tool $extra "$OUT/bin/$b" > "$OUT/$b.$tool.log" 2>&1
      rc=$?
    else
      rc=build_failed
    fi
    hazards=$(grep -c -E "Race reported|Error: |Warning: .*(hazard|race)|Barrier error|divergent" "$OUT/$b.$tool.log" 2>/dev/null)
    lines=$(grep -oE "$b\.cu:[0-9]+" "$OUT/$b.$tool.log" 2>/dev/null | sort -u | tr '\n' ' ')
    printf '%s\t%s\t%s\t%s\t%s\n' "$f" "$tool" "$rc" "$hazards" "$lines" >> "$OUT/summary.tsv"
  done
done
cat "$OUT/summary.tsv"
