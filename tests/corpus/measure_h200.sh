#!/usr/bin/env bash
# Collect ground truth for the calibration corpus on the H200.
#
#   bash tests/corpus/measure_h200.sh [--manifest PATH] OUTDIR [PHASES]
#
# --manifest PATH (or MANIFEST=PATH) measures another manifest in the same format
# (default: tests/corpus/manifest.json); its .cu paths are relative to its folder.
#
# PHASES (default "time ncu summary sanitize") is any subset, in order, of:
#   time      timing + attributes + device pass   -> OUTDIR/{timings,attributes,device,launch_order}.json
#   ncu       one launch per case under Nsight Compute -> OUTDIR/ncu_raw.csv (+ launch_order.json of that run)
#   summary   expected vs measured table            -> OUTDIR/summary.json, OUTDIR/summary.txt
#   sanitize  compute-sanitizer memcheck (all cases), racecheck + synccheck (shared-memory cases)
#             -> OUTDIR/sanitizer_{memcheck,racecheck,synccheck}.log
#   sync      racecheck and synccheck on EVERY case, one sanitizer process per case and tool
#             (SYNC_JOBS at a time, default 8; each under CASE_LIMIT seconds, default 60, so a
#             kernel that hangs at a divergent barrier costs only its own run); the per-case
#             logs are concatenated, each after a line "##### case ID tool TOOL rc RC"
#             -> OUTDIR/sync_{racecheck,synccheck}.log, OUTDIR/sync_cases.out (the launcher's output)
#             RACECHECK_ARGS (default: none, i.e. the analysis report) is passed to racecheck.
# Each phase runs under `timeout` (seconds, override with TIME_LIMIT, NCU_LIMIT, SAN_LIMIT).
# Extra variables: PYTHON (default python3), ONLY (comma-separated case ids for every phase).
set -u
MANIFEST_PATH=${MANIFEST:-}
POS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --manifest) MANIFEST_PATH=${2:?--manifest needs a path}; shift 2 ;;
    --manifest=*) MANIFEST_PATH=${1#--manifest=}; shift ;;
    *) POS+=("$1"); shift ;;
  esac
done
set -- ${POS[@]+"${POS[@]}"}
OUT=${1:?usage: measure_h200.sh [--manifest PATH] OUTDIR [PHASES]}
PHASES=${2:-time ncu summary sanitize}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python3}
SCRIPT="$HERE/measure_h200.py"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ONLY_ARGS=()
if [ -n "${ONLY:-}" ]; then ONLY_ARGS=(--only "$ONLY"); fi
MANIFEST_ARGS=()
if [ -n "$MANIFEST_PATH" ]; then
  MANIFEST_PATH=$(cd "$(dirname "$MANIFEST_PATH")" && pwd)/$(basename "$MANIFEST_PATH")
  MANIFEST_ARGS=(--manifest "$MANIFEST_PATH")
fi
log() { echo "[measure_h200 $(date +%H:%M:%S)] $*"; }
rc_all=0

for phase in $PHASES; do
  case "$phase" in
  time)
    log "timing/attributes pass"
    timeout "${TIME_LIMIT:-300}" "$PY" "$SCRIPT" "${MANIFEST_ARGS[@]}" --out "$OUT" --time "${ONLY_ARGS[@]}" 2>&1 | tee "$OUT/time_pass.log"
    rc=${PIPESTATUS[0]}; log "timing pass rc=$rc"; [ "$rc" = 0 ] || rc_all=1
    cp -f "$OUT/launch_order.json" "$OUT/launch_order_time.json" 2>/dev/null || true
    ;;
  ncu)
    METRICS=$("$PY" "$SCRIPT" --metrics)
    log "ncu pass ($(ncu --version | tail -1))"
    # The ncu pass writes its own launch_order.json (the one that maps ncu rows to case ids).
    timeout "${NCU_LIMIT:-480}" ncu --csv --page raw --clock-control none --metrics "$METRICS" \
        --log-file "$OUT/ncu_raw.csv" \
        "$PY" "$SCRIPT" "${MANIFEST_ARGS[@]}" --out "$OUT" --no-time "${ONLY_ARGS[@]}" 2>&1 | tee "$OUT/ncu_pass.log"
    rc=${PIPESTATUS[0]}; log "ncu pass rc=$rc"; [ "$rc" = 0 ] || rc_all=1
    cp -f "$OUT/launch_order.json" "$OUT/launch_order_ncu.json" 2>/dev/null || true
    ;;
  summary)
    log "summary"
    "$PY" "$SCRIPT" "${MANIFEST_ARGS[@]}" --summarize "$OUT" | tee "$OUT/summary.txt"
    ;;
  sanitize)
    if ! command -v compute-sanitizer >/dev/null 2>&1; then log "compute-sanitizer not found; skipping"; continue; fi
    SHARED=$("$PY" "$SCRIPT" "${MANIFEST_ARGS[@]}" --list --shared-only)
    if [ -n "${ONLY:-}" ]; then SAN_ALL="$ONLY"; else SAN_ALL=$("$PY" "$SCRIPT" "${MANIFEST_ARGS[@]}" --list); fi
    mkdir -p "$OUT/sanitizer_tmp"
    log "memcheck over all cases"
    timeout "${SAN_LIMIT:-300}" compute-sanitizer --tool memcheck --error-exitcode 3 --log-file "$OUT/sanitizer_memcheck.log" \
        "$PY" "$SCRIPT" "${MANIFEST_ARGS[@]}" --out "$OUT/sanitizer_tmp" --no-time --only "$SAN_ALL" > "$OUT/sanitizer_memcheck.out" 2>&1
    log "memcheck rc=$?"
    for tool in racecheck synccheck; do
      log "$tool over shared-memory cases"
      timeout "${SAN_LIMIT:-300}" compute-sanitizer --tool "$tool" --error-exitcode 3 --log-file "$OUT/sanitizer_$tool.log" \
          "$PY" "$SCRIPT" "${MANIFEST_ARGS[@]}" --out "$OUT/sanitizer_tmp" --no-time --only "$SHARED" > "$OUT/sanitizer_$tool.out" 2>&1
      log "$tool rc=$?"
    done
    ;;
  sync)
    if ! command -v compute-sanitizer >/dev/null 2>&1; then log "compute-sanitizer not found; skipping"; continue; fi
    if [ -n "${ONLY:-}" ]; then SYNC_IDS="$ONLY"; else SYNC_IDS=$("$PY" "$SCRIPT" "${MANIFEST_ARGS[@]}" --list); fi
    SYNC_TMP="$OUT/sync_tmp"
    mkdir -p "$SYNC_TMP"
    sync_one() {  # tool id
      local extra=""
      [ "$1" = racecheck ] && extra=${RACECHECK_ARGS:-}
      timeout "${CASE_LIMIT:-60}" compute-sanitizer --tool "$1" $extra --error-exitcode 3 \
          --log-file "$SYNC_TMP/$1.$2.log" \
          "$PY" "$SCRIPT" "${MANIFEST_ARGS[@]}" --out "$SYNC_TMP/$1.$2" --no-time --only "$2" \
          > "$SYNC_TMP/$1.$2.out" 2>&1
      echo $? > "$SYNC_TMP/$1.$2.rc"
    }
    log "racecheck + synccheck per case (${SYNC_JOBS:-8} at a time)"
    for tool in racecheck synccheck; do
      for id in ${SYNC_IDS//,/ }; do
        while [ "$(jobs -rp | wc -l)" -ge "${SYNC_JOBS:-8}" ]; do sleep 0.2; done
        sync_one "$tool" "$id" &
      done
    done
    wait
    : > "$OUT/sync_cases.out"
    for tool in racecheck synccheck; do
      : > "$OUT/sync_$tool.log"
      for id in ${SYNC_IDS//,/ }; do
        rc=$(cat "$SYNC_TMP/$tool.$id.rc" 2>/dev/null || echo missing)
        echo "##### case $id tool $tool rc $rc" >> "$OUT/sync_$tool.log"
        cat "$SYNC_TMP/$tool.$id.log" >> "$OUT/sync_$tool.log" 2>/dev/null
        echo "##### case $id tool $tool rc $rc" >> "$OUT/sync_cases.out"
        tail -n 20 "$SYNC_TMP/$tool.$id.out" >> "$OUT/sync_cases.out" 2>/dev/null
      done
    done
    cp -f "$(ls "$SYNC_TMP"/racecheck.*/device.json 2>/dev/null | head -1)" "$OUT/device.json" 2>/dev/null || true
    log "sync done"
    ;;
  *)
    log "unknown phase $phase"; rc_all=2 ;;
  esac
done
log "done; outputs in $OUT"
exit $rc_all
