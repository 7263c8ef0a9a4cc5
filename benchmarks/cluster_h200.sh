#!/usr/bin/env bash
# The Ray backend against the local engine on the H200 kinds (through the device tool): candidates per
# minute on 1..N GPUs.  Ray travels as a trimmed site-packages archive plus wheels of its dependencies
# missing from the image (jsonschema and its three), in RAY_CARRY (default ../../.i17ray).
#   bash benchmarks/cluster_h200.sh 1 2      (GPU counts; from the repository root)
set -u
OUT=${OUT:-/tmp/cluster-h200}
RAY_CARRY=${RAY_CARRY:-../../.i17ray}
. benchmarks/h200_setup.sh
tar -C /tmp/site -xJf "$RAY_CARRY/ray-site.tar.xz" \
    && python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site \
        "$RAY_CARRY"/*.whl || exit 1
python3 -c "import ray; print('ray', ray.__version__)"
timeout "${BENCH_TIMEOUT:-330}" python3 benchmarks/bench_cluster.py --gpus "${@:-1}" --native 40 --kernelbench 8 \
    -o "$OUT/bench_cluster.json" > "$OUT/bench_cluster.log" 2>&1
echo "exit $?"
grep -E '^(local|ray)' "$OUT/bench_cluster.log" | cut -c1-400
tail -5 "$OUT/bench_cluster.log"
