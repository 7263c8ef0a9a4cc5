#!/usr/bin/env bash
# The Ray backend against the local engine on the H200 kinds (through the device tool): candidates per
# minute on 1..N GPUs.  Ray travels as a trimmed site-packages archive plus wheels of its dependencies
# missing from the image (jsonschema and its three), in RAY_CARRY (default ../../.i17ray).
#   bash benchmarks/cluster_h200.sh 1 2      (GPU counts; from the repository root)
# The archive (25 MB; the cp312 wheel unpacked is 201 MB, over the 64 MiB a call carries): unzip
# ray-2.60.0-cp312 into site/, delete ray/jars ray/dashboard/client/build ray/rllib ray/data ray/serve
# ray/tune ray/train, every *.map and __pycache__, `strip --strip-unneeded` ray/_raylet.so and the raylet
# and gcs_server binaries under ray/core/src/ray, then `tar -C site -cf - . | xz -5 > ray-site.tar.xz`.
# Wheels beside it: jsonschema, jsonschema-specifications, referencing, rpds-py (cp312).
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
