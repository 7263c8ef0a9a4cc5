#!/usr/bin/env bash
# The GPU side of `cudaperf profile` on an H200, in one call:
#
#   bash tests/corpus/profile_h200.sh OUTDIR
#
# Needs the package importable (pip install -e . or PYTHONPATH=repo root, plus tree-sitter and
# tree-sitter-cuda), CuPy, nvidia-ml-py, ncu.  Writes OUTDIR/driver.log (tool versions),
# OUTDIR/pytest_gpu.log (the `gpu`-marked tests), OUTDIR/profile.json + profile.log
# (`cudaperf profile` on corpus cases spanning the features, merged by profile_h200.py).
set -u
OUT=${1:?usage: profile_h200.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
PY=${PYTHON:-python3}
CASES=${CASES:-"copy_contiguous copy_strided_32 vec_double half_axpy transpose_tiled_pad0 smem_stride_32 matmul_tiled_16 reduce_warp_shuffle divergence_odd_even"}
mkdir -p "$OUT"
log() { echo "[profile_h200 $(date +%H:%M:%S)] $*"; }
cd "$REPO" || exit 2
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  ncu --version | tail -1
  "$PY" -c 'import cupy, numpy, pynvml, tree_sitter; print("cupy", cupy.__version__, "numpy", numpy.__version__)'
} > "$OUT/driver.log" 2>&1
log "gpu tests"
timeout "${TEST_LIMIT:-240}" "$PY" -m pytest -m gpu tests/test_profile.py -q -p no:cacheprovider -rs > "$OUT/pytest_gpu.log" 2>&1
log "gpu tests rc=$?"
log "profile: $CASES"
# shellcheck disable=SC2086
timeout "${PROFILE_LIMIT:-300}" "$PY" "$HERE/profile_h200.py" --out "$OUT/profile.json" --log "$OUT/profile.log" $CASES
log "profile rc=$?"
