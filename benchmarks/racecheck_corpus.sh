#!/usr/bin/env bash
# Measured ground truth for the shared-memory race rules (CP404 shared-race, CP406 implicit-warp-sync):
# build the HeCBench / cuda-samples programs the rules fire on with -lineinfo and run each under
# compute-sanitizer's racecheck with small arguments.  Parse the results with racecheck_compare.py.
#
#   bash benchmarks/racecheck_corpus.sh SRC_ROOT OUT [NAME...]
#
# SRC_ROOT holds copies of the program directories: hec/<name>-cuda/ (HeCBench src/<name>-cuda) and
# samples/ (cuda-samples: Common/ plus the Samples/<category>/<sample>/ directories used below).
# For each program, OUT/<name>/ gets build.log, racecheck.log (sanitizer and program output together)
# and status (one line: skipped=<why> | build_rc=<rc> | build_rc=0 run_rc=<rc>; 124/137 = timed out).
# Sources are copied to OUT/<name>/src and built there; the few patches below shrink fixed problem
# sizes or pick the flagged kernel, each a one-line literal `replace` that keeps every line number.
# Environment: JOBS (parallel programs, 16), RUN_TIMEOUT (s per racecheck run, 120),
# BUILD_TIMEOUT (s per build, 300), KEEP_BUILD=1 (keep sources, binaries and inputs), BUILD_ONLY=1 (no runs;
# for checking the recipes on a machine without a GPU), RACECHECK_REPORT (analysis: one line per racing source pair;
# "hazard" prints every thread pair and runs into the print limit), NVCC, COMPUTE_SANITIZER.
set -u

NVCC=${NVCC:-nvcc}
SANITIZER=${COMPUTE_SANITIZER:-compute-sanitizer}
FLAGS="-O2 -lineinfo -arch=sm_90 -std=c++17"

# Every program: name | source directory under SRC_ROOT (- for none) | arguments.  Build recipes are in
# build_<name> (- in a name becomes _).
PROGRAMS="
control|-|
bscan|hec/bscan-cuda|1
dct8x8|hec/dct8x8-cuda|64 64 1
fpdc|hec/fpdc-cuda|4 4 1 1
groupnorm|hec/groupnorm-cuda|2 32 8 8 4 1
morphology|hec/morphology-cuda|64 64 256 256 1
radixsort|hec/radixsort-cuda|1
romberg|hec/romberg-cuda|2 128 1
segsort|hec/segsort-cuda|
split|hec/split-cuda|2048 1
bm3d|hec/bm3d-cuda|tiny.pgm denoised.pgm 25
floydwarshall2|hec/floydwarshall2-cuda|tiny.egr 1
gerbil|hec/gerbil-cuda|
hungarian|hec/hungarian-cuda|hungarian.out
lda|hec/lda-cuda|1
merge|hec/merge-cuda|100000 1
seam-carving|hec/seam-carving-cuda|tiny.ppm 4
sosfil|hec/sosfil-cuda|1
sss|hec/sss-cuda|
surfel|hec/surfel-cuda|600 32 32 1
matrixMulDrv|samples/Samples/0_Introduction/matrixMulDrv|
binomialOptions_nvrtc|samples/Samples/5_Domain_Specific/binomialOptions_nvrtc|
"

# Programs that cannot run here: name -> why.
declare -A SKIP=(
  [gerbil]="needs Boost (filesystem, regex, thread), zlib and bzip2 and FASTQ input; Boost is not installed"
  [sss]="needs the GNU Scientific Library (gsl) and its input data files; neither is available"
)

nvcc_() { "$NVCC" $FLAGS "$@"; }
# replace FILE OLD NEW: one literal, single-line edit of a build copy; fails if OLD is not there.
replace() {
  python3 -c 'import sys; path, old, new = sys.argv[1:]; text = open(path).read()
if old not in text or "\n" in old + new: sys.exit(f"replace: {old!r} not found in {path} (or not one line)")
open(path, "w").write(text.replace(old, new, 1))' "$@"
}
# libcuda for the driver-API samples: the driver's, else the toolkit's link stub (same soname, libcuda.so.1).
cuda_link() {
  local home; home=$(dirname "$(dirname "$(readlink -f "$(command -v "$NVCC")")")")
  echo "-L$home/lib64/stubs -L$home/targets/x86_64-linux/lib/stubs -L/usr/local/cuda/lib64/stubs -lcuda"
}

# Build recipes: run inside OUT/<name>/src, produce ../prog (and any input files in ..).
build_control() {      # calibration, our own code: what racecheck reports here on known cases
  # (racecheck_compare.py's CONTROLS names these line numbers; keep them in step)
  cat >control.cu <<'CU'
#include <cstdio>
__global__ void cross_warp(int *out) {   // a race between two warps: no barrier
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[63 - threadIdx.x];
}
__global__ void intra_warp(int *out) {   // a race between lanes of one warp: no __syncwarp
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[31 - threadIdx.x];
}
__global__ void same_value(int *out) {   // every thread stores one value, then a barrier: benign
  __shared__ int s[1];
  s[0] = 7;
  __syncthreads();
  out[threadIdx.x] = s[0];
}
__global__ void clean(int *out) {        // no race
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  cross_warp<<<1, 64>>>(d);
  intra_warp<<<1, 32>>>(d);
  same_value<<<1, 64>>>(d);
  clean<<<1, 64>>>(d);
  printf("control: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
CU
  nvcc_ control.cu -o ../prog; }
build_bscan()          { nvcc_ main.cu -o ../prog; }
build_dct8x8()         { nvcc_ main.cu kernels.cu DCT8x8_gold.cu -o ../prog; }
build_fpdc() {         # MAX doubles (64 Mi = 512 MB written to input.bin) -> 64 Ki
  replace kernels.h '#define MAX (64*1024*1024)' '#define MAX (64*1024)' && nvcc_ main.cu -o ../prog; }
build_groupnorm()      { nvcc_ main.cu -o ../prog; }
build_morphology()     { nvcc_ main.cu morphology.cu -o ../prog; }
build_radixsort()      { nvcc_ main.cu RadixSort.cu Scan.cu -o ../prog; }
build_romberg()        { nvcc_ main.cu -o ../prog; }
build_segsort() {      # 2^25 elements -> 2^16
  replace main.cu 'num_elements = 1UL << 25;' 'num_elements = 1UL << 16;' &&
  nvcc_ --expt-relaxed-constexpr main.cu -o ../prog; }
build_split()          { nvcc_ main.cu -o ../prog; }
build_bm3d() {         # a 128x128 8-bit PGM made here (CImg reads PNM without external libraries)
  python3 -c "
import random; random.seed(1); w = h = 128
open('../tiny.pgm', 'wb').write(b'P5\n%d %d\n255\n' % (w, h) + bytes(random.randrange(256) for _ in range(w * h)))
" && nvcc_ main.cu blockmatching.cu filtering.cu dct8x8.cu -o ../prog; }
build_floydwarshall2() { # graph.h is HeCBench's ECL reader in mis-cuda; a 150-node weighted ring (3 tiles of 64)
  python3 -c "
import struct; n = 150
nlist = [v for i in range(n) for v in ((i - 1) % n, (i + 1) % n)]
data = [n, len(nlist)] + [2 * i for i in range(n + 1)] + nlist + [1 + (i * 7) % 13 for i in range(len(nlist))]
open('../tiny.egr', 'wb').write(struct.pack('%di' % len(data), *data))
" && nvcc_ -I"$SRC_ROOT/hec/mis-cuda" main.cu -o ../prog; }
build_hungarian() {    # 64x64 cost matrix, 100 tests -> 2
  replace main.cu 'const int n_tests = 100;' 'const int n_tests = 2;' && nvcc_ -D_n_=64 -D_range_=64 main.cu -o ../prog; }
build_lda() {          # 500 blocks -> 8
  replace main.cu 'const int block_cnt  = 500;' 'const int block_cnt  = 8;' && nvcc_ main.cu -o ../prog; }
build_merge()          { nvcc_ main.cu -o ../prog; }
build_seam_carving() { # stb_image*.h are not in the copy: stand-ins for the three calls main.cu makes (P6 PPM
  mkdir -p ../stb     # in, no image out) and a 128x64 RGB PPM; width <= 256 takes compute_M_kernel_small
  cat >../stb/stb_image.h <<'STB'
// Stand-in written by racecheck_corpus.sh: reads binary PPM (P6) only.
#include <stdio.h>
#include <stdlib.h>
static const char *stbi_reason_ = "";
static const char *stbi_failure_reason(void) { return stbi_reason_; }
static unsigned char *stbi_load(const char *name, int *x, int *y, int *comp, int) {
  FILE *f = fopen(name, "rb");
  int maxval;
  if (!f || fscanf(f, "P6 %d %d %d", x, y, &maxval) != 3 || fgetc(f) == EOF) {
    stbi_reason_ = "not a binary PPM"; if (f) fclose(f); return NULL;
  }
  size_t n = (size_t)*x * *y;
  unsigned char *pixels = (unsigned char *)malloc(n * 3);
  if (fread(pixels, 3, n, f) != n) { stbi_reason_ = "short PPM"; free(pixels); pixels = NULL; }
  fclose(f);
  *comp = 3;
  return pixels;
}
STB
  echo 'static int stbi_write_bmp(const char *, int, int, int, const void *) { return 1; }' >../stb/stb_image_write.h
  python3 -c "
import random; random.seed(1); w, h = 128, 64
open('../tiny.ppm', 'wb').write(b'P6\n%d %d\n255\n' % (w, h) + bytes(random.randrange(256) for _ in range(3 * w * h)))
" && nvcc_ -I../stb main.cu -o ../prog; }
build_sosfil()         { nvcc_ -DDEBUG main.cu -o ../prog; }   # DEBUG: 2 signals of THREADS+1 samples
build_surfel()         { nvcc_ main.cu -o ../prog; }
build_matrixMulDrv() { # the finding is in matrixMul_bs8_64bit; the sample picks bs32 on an H200: make it take bs8
  replace matrixMulDrv.cpp '{"matrixMul_bs32_64bit", "matrixMul_bs16_64bit", "matrixMul_bs8_64bit"}' \
    '{"matrixMul_bs8_64bit", "matrixMul_bs8_64bit", "matrixMul_bs8_64bit"}' &&
  replace matrixMulDrv.cpp 'int block_size = 32;' 'int block_size = 8;' &&
  nvcc_ -fatbin matrixMul_kernel.cu -o ../matrixMul_kernel64.fatbin &&
  nvcc_ -I"$SRC_ROOT/samples/Common" matrixMulDrv.cpp -o ../prog $(cuda_link); }
build_binomialOptions_nvrtc() { # NVRTC compiles the kernel at run time: add -lineinfo there; 1024 options -> 32
  cp -r "$SRC_ROOT/samples/Common" ../Common &&
  replace ../Common/nvrtc_helper.h 'nvrtcResult res = nvrtcCompileProgram(' \
    'compileParams[numCompileOptions++] = strdup("-lineinfo"); nvrtcResult res = nvrtcCompileProgram(' &&
  replace ../Common/nvrtc_helper.h 'char *compileParams[2];' 'char *compileParams[3];' &&
  replace binomialOptions_common.h '#define MAX_OPTIONS 1024' '#define MAX_OPTIONS 32' &&
  nvcc_ -I../Common binomialOptions.cpp binomialOptions_gold.cpp binomialOptions_gpu.cpp -o ../prog $(cuda_link) -lnvrtc; }

# Racecheck options: every hazard, info level included where this sanitizer knows the option.
racecheck_options() {
  local help opts="--tool racecheck --print-limit 100000"
  help=$("$SANITIZER" --help 2>&1)
  grep -q -- --racecheck-report <<<"$help" && opts+=" --racecheck-report ${RACECHECK_REPORT:-analysis}"
  grep -q -- --racecheck-detect-level <<<"$help" && opts+=" --racecheck-detect-level info"
  echo "$opts"
}

# One program, end to end; never fails, always writes OUT/<name>/status.
one() {
  local name=$1 rel=$2 args=$3 dir="$OUT/$1" rc
  rm -rf "$dir" && mkdir -p "$dir"
  if [[ -n ${SKIP[$name]:-} ]]; then echo "skipped=${SKIP[$name]}" >"$dir/status"; return; fi
  if [[ $rel == - ]]; then mkdir "$dir/src"  # the recipe writes its own source
  elif [[ -d $SRC_ROOT/$rel ]]; then cp -r "$SRC_ROOT/$rel" "$dir/src"
  else echo "skipped=source directory $rel missing" >"$dir/status"; return; fi
  (cd "$dir/src" &&
     timeout -k 10 "${BUILD_TIMEOUT:-300}" nice bash -c "build_${name//-/_}") >"$dir/build.log" 2>&1
  rc=$?
  if [[ $rc -ne 0 || ! -x $dir/prog ]]; then echo "build_rc=$rc" >"$dir/status"; return; fi
  [[ ${BUILD_ONLY:-0} == 1 ]] && { echo "build_rc=0 run_rc=not-run" >"$dir/status"; return; }
  # The run directory is src/ for the NVRTC sample (it reads its kernel source at run time), else OUT/<name>.
  local rundir=$dir; [[ $name == binomialOptions_nvrtc ]] && rundir=$dir/src
  # shellcheck disable=SC2086
  (cd "$rundir" && timeout -s INT -k 15 "${RUN_TIMEOUT:-120}" "$SANITIZER" $RC_OPTS "$dir/prog" $args) \
    >"$dir/racecheck.log" 2>&1 </dev/null
  echo "build_rc=0 run_rc=$?" >"$dir/status"
  # Only the logs and the status come back from the GPU machine: the rest is large and rebuildable.
  [[ ${KEEP_BUILD:-0} == 1 ]] ||
    find "$dir" -mindepth 1 -maxdepth 1 ! -name build.log ! -name racecheck.log ! -name status -exec rm -rf {} +
}

main() {
  if [[ $# -lt 2 ]]; then echo "usage: bash $0 SRC_ROOT OUT [NAME...]" >&2; exit 2; fi
  SRC_ROOT=$(cd "$1" && pwd) || { echo "error: SRC_ROOT $1 is not a directory" >&2; exit 2; }
  mkdir -p "$2" && OUT=$(cd "$2" && pwd)
  shift 2
  if ! command -v "$SANITIZER" >/dev/null; then  # not on PATH: look beside nvcc's toolkit
    SANITIZER=$(dirname "$(dirname "$(readlink -f "$(command -v "$NVCC")")")")/compute-sanitizer/compute-sanitizer
  fi
  RC_OPTS=$(racecheck_options)
  export SRC_ROOT OUT RC_OPTS NVCC SANITIZER FLAGS BUILD_ONLY KEEP_BUILD RUN_TIMEOUT BUILD_TIMEOUT
  { echo "racecheck options: $RC_OPTS"; "$SANITIZER" --version | tail -n 2; } 2>&1 | tee "$OUT/options.txt"
  local selected
  selected=$(grep -v '^$' <<<"$PROGRAMS")
  if [[ $# -gt 0 ]]; then selected=$(grep -E "^($(IFS='|'; echo "$*"))\|" <<<"$selected"); fi
  export -f one nvcc_ replace cuda_link $(compgen -A function build_)
  export SKIP_LIST
  SKIP_LIST=$(declare -p SKIP)
  # xargs runs one `bash -c` per program; SKIP (an associative array) travels as its declaration.
  echo "$selected" | xargs -d '\n' -P "${JOBS:-16}" -I{} bash -c \
    'eval "$SKIP_LIST"; IFS="|" read -r n r a <<<"$1"; one "$n" "$r" "$a"; echo "$n: $(cat "$OUT/$n/status")"' _ {}
}

main "$@"
