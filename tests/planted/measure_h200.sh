#!/usr/bin/env bash
# Ground truth for the planted set on a GPU (no linter involved): builds the harnesses from
# gpu_harness.py, profiles every case once with Nsight Compute, runs compute-sanitizer
# racecheck (grids capped at 4 x 4 blocks) on the files that use shared memory for exchange and synccheck (full grids) on the
# barrier-divergence file.  Results go to OUTDIR: ncu.csv, racecheck.txt, synccheck.txt.
#
#   bash tests/planted/measure_h200.sh OUTDIR
#   python3 tests/planted/summarize_gpu.py OUTDIR
set -u
OUTDIR=${1:?usage: measure_h200.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-/tmp/planted_harness}
mkdir -p "$OUTDIR" "$BUILD"
python3 "$HERE/gpu_harness.py" "$BUILD" || exit 1
# FILES="atomic_contention barrier_divergence" restricts every step to those files
FILES=${FILES:-}
keep() { [ -z "$FILES" ] && return 0; for x in $FILES; do case "$1" in *harness_$x|*harness_$x.cu) return 0 ;; esac; done; return 1; }
for f in "$BUILD"/harness_*.cu; do
    keep "$f" || continue
    nvcc -arch=sm_90 -O2 -lineinfo -I "$HERE" -o "${f%.cu}" "$f" &
done
wait
METRICS=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets.sum,\
sm__maximum_warps_per_active_cycle_pct,launch__registers_per_thread,\
l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,\
gpu__time_duration.sum
: > "$OUTDIR/ncu.csv"
: > "$OUTDIR/racecheck.txt"
for exe in "$BUILD"/harness_*; do
    [ -x "$exe" ] || continue
    case "$exe" in *.cu) continue ;; esac
    keep "$exe" || continue
    echo "== $(basename "$exe")" >> "$OUTDIR/ncu.csv"
    timeout 60 ncu --launch-skip 10 --csv --page raw --metrics "$METRICS" "$exe" all \
        2>&1 | grep -v '^==PROF==' >> "$OUTDIR/ncu.csv"
    case "$exe" in *barrier_divergence|*shared_race|*redundant_barrier|*bank_conflict) ;; *) continue ;; esac
    echo "== $(basename "$exe")" >> "$OUTDIR/racecheck.txt"
    timeout 60 compute-sanitizer --tool racecheck --racecheck-report analysis --print-limit 100000 \
        "$exe" all cap >> "$OUTDIR/racecheck.txt" 2>&1
done
: > "$OUTDIR/synccheck.txt"
if keep harness_barrier_divergence; then
    # one process per case: a kernel that synccheck stops must not hide the ones after it
    for id in $(python3 -c "import json; print(' '.join(c['id'] for c in json.load(open('$HERE/manifest.json')) if c['file'] == 'barrier_divergence.cu'))"); do
        echo "== $id" >> "$OUTDIR/synccheck.txt"
        timeout 60 compute-sanitizer --tool synccheck --print-limit 20 "$BUILD/harness_barrier_divergence" "$id" \
            >> "$OUTDIR/synccheck.txt" 2>&1
    done
fi
echo done
