#!/usr/bin/env bash
# One device call: occupancy sweep + ncu confirmation on an H200.
#
#   bash tests/occupancy/run_h200.sh OUTDIR
#
# OUTDIR gets occupancy_h200.json, ncu_occupancy.csv, ncu_launches.json and the logs.
set -u
RES=${1:?usage: run_h200.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python3}
export PYTHONUNBUFFERED=1
mkdir -p "$RES"
log() { echo "[run_h200 $(date +%H:%M:%S)] $*"; }
T0=$(date +%s)
{
  log "host $(hostname)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv 2>&1
  nvcc --version | tail -2
  ncu --version | tail -1
  "$PY" -c 'import cupy, numpy; print("cupy", cupy.__version__, "numpy", numpy.__version__)'
} > "$RES/driver.log" 2>&1
cat "$RES/driver.log"

log "sweep"
"$PY" "$HERE/sweep_h200.py" --out "$RES" 2>&1 | tee "$RES/sweep.log"

log "ncu"
METRICS=launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__occupancy_limit_barriers,sm__maximum_warps_per_active_cycle_pct,launch__registers_per_thread,launch__shared_mem_config_size
KFILT='regex:^(trivial|regs_|smem_|bar_|mix_)'
REP=/tmp/ncu_occ
timeout 180 ncu --metrics "$METRICS" --clock-control none -k "$KFILT" -o "$REP" -f \
    "$PY" "$HERE/sweep_h200.py" --ncu-launch --out "$RES" > "$RES/ncu.log" 2>&1
rc=$?
log "ncu rc=$rc"
if [ $rc -ne 0 ] || [ ! -f "$REP.ncu-rep" ]; then
  log "retrying ncu with --section LaunchStats --section Occupancy"
  timeout 180 ncu --section LaunchStats --section Occupancy --clock-control none -k "$KFILT" -o "$REP" -f \
      "$PY" "$HERE/sweep_h200.py" --ncu-launch --out "$RES" >> "$RES/ncu.log" 2>&1
  log "ncu (sections) rc=$?"
fi
if [ -f "$REP.ncu-rep" ]; then
  ncu --import "$REP.ncu-rep" --csv --page raw > "$RES/ncu_occupancy.csv" 2>> "$RES/ncu.log"
  log "csv rows: $(wc -l < "$RES/ncu_occupancy.csv")"
fi
tail -25 "$RES/ncu.log"
log "done in $(( $(date +%s) - T0 ))s"
