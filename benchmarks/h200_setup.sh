# Sourced by the *_h200.sh scripts (from the repository root, with OUT set): the carried wheels on
# PYTHONPATH, a private cache, and the machine's facts in $OUT/machine.txt.
mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=/tmp/site:$PWD || exit 1
export PYTHONUNBUFFERED=1 CUDAPERF_CACHE_DIR=/tmp/cudaperf-cache
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; echo "cpus $(nproc)"
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)"; nvcc --version | tail -1
} > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"
