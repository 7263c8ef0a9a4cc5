#!/usr/bin/env bash
# One-call collection of H200 ground truth for the validation set.
#
#   bash tests/validation/run_h200.sh RESULTDIR
#
# Runs, in order: SASS dump of every instantiated kernel (nvcc + cuobjdump, in the
# background, CPU only), the timing pass and the ncu pass of
# tests/corpus/measure_h200.sh on tests/validation/manifest.json, the summary, and a
# time-limited compute-sanitizer memcheck (racecheck/synccheck are skipped: the tiled
# GEMMs make them slow). RESULTDIR gets everything plus validation_h200.tgz.
set -u
RES=${1:?usage: run_h200.sh RESULTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
PY=${PYTHON:-python3}
MAN="$HERE/manifest.json"
WORK=$(mktemp -d)
mkdir -p "$RES"
RES=$(cd "$RES" && pwd)
log() { echo "[run_h200 $(date +%H:%M:%S)] $*"; }

{
  log "host $(hostname)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv 2>&1
  nvcc --version | tail -2
  ncu --version | tail -1
  "$PY" -c 'import cupy, numpy; print("cupy", cupy.__version__, "numpy", numpy.__version__)'
} > "$RES/driver.log" 2>&1

# SASS of every kernel instantiation the manifest names (background, CPU only).
(
  cd "$REPO" && "$PY" - "$MAN" "$WORK/sass" <<'EOF'
import json, os, subprocess, sys, collections
man, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
root = os.path.dirname(man)
by_file = collections.OrderedDict()
for c in json.load(open(man)):
    x = c['kernel'] + (c.get('template_args') or '')
    by_file.setdefault(c['file'], [])
    if x not in by_file[c['file']]:
        by_file[c['file']].append(x)
procs = []
for rel, exprs in by_file.items():
    base = os.path.join(out, os.path.basename(rel)[:-3])
    with open(base + '_tu.cu', 'w') as fh:
        fh.write('#include "%s"\nvoid __force() {\n' % os.path.join(root, rel))
        for x in exprs:
            if '<' in x:
                fh.write('    (void)&%s;\n' % x)
        fh.write('}\n')
    cmd = ('nvcc -arch=sm_90 -cubin -std=c++17 -lineinfo -o {b}.cubin {b}_tu.cu && '
           'cuobjdump -sass {b}.cubin > {b}.sass').format(b=base)
    procs.append(subprocess.Popen(cmd, shell=True))
print('sass rc', [p.wait() for p in procs])
EOF
  cat "$WORK"/sass/*.sass > "$RES/sass.txt" 2>/dev/null
) > "$RES/sass.log" 2>&1 &
SASS_PID=$!

log "measure (time ncu summary)" >> "$RES/driver.log"
TIME_LIMIT=${TIME_LIMIT:-150} NCU_LIMIT=${NCU_LIMIT:-300} \
  bash "$REPO/tests/corpus/measure_h200.sh" --manifest "$MAN" "$WORK/m" "time ncu summary" >> "$RES/driver.log" 2>&1
log "measure rc=$?" >> "$RES/driver.log"

if command -v compute-sanitizer >/dev/null 2>&1; then
  ALL=$("$PY" "$REPO/tests/corpus/measure_h200.py" --manifest "$MAN" --list)
  mkdir -p "$WORK/san"
  log "memcheck (limit ${SAN_LIMIT:-90}s)" >> "$RES/driver.log"
  timeout "${SAN_LIMIT:-90}" compute-sanitizer --tool memcheck --error-exitcode 3 \
      --log-file "$WORK/m/sanitizer_memcheck.log" \
      "$PY" "$REPO/tests/corpus/measure_h200.py" --manifest "$MAN" --out "$WORK/san" --no-time --only "$ALL" \
      > "$WORK/m/sanitizer_memcheck.out" 2>&1
  log "memcheck rc=$?" >> "$RES/driver.log"
fi

wait "$SASS_PID"
cp -f "$WORK"/m/* "$RES"/ 2>/dev/null
cp -f "$RES/driver.log" "$RES/driver_full.log"
tar czf "$WORK/validation_h200.tgz" -C "$RES" . && mv "$WORK/validation_h200.tgz" "$RES/"
log "done" >> "$RES/driver.log"
ls -la "$RES"
