"""The roofline notes (memory-bound, compute-bound) on the patterns that made them false on real code:
each false pattern stays silent or moves to the right roof, and its true twin still fires."""

from __future__ import annotations

from conftest import kernel_report

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.lint.rules import REGISTRY
from cudaperf.lint.run import lint_file

NOTES = [r for r in REGISTRY.values() if r.name in ("memory-bound", "compute-bound")]


def notes(code: str, grid=(64, 1, 1), block=(256, 1, 1), **args) -> dict[str, str]:
    options = Options(grid=grid, block=block, args=args, resources="estimate")
    return {f.name: f.message for f in lint_file(analyze_source(code, "t.cu", options), NOTES, code)}


# 24 FLOPs per thread, 12 bytes written per thread: memory-bound (the writes stay in the L2 during
# a small kernel but reach DRAM after it), as simpleVulkanMMAP's Monte Carlo kernel, unless the
# launch is so small that its overhead sets the time; 512 FMAs per 4 bytes is compute-bound.
WRITES = """
__global__ void points(float* xy, float* inside, float seed) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = seed * i + 0.5f, y = seed * x + 0.25f;
    for (int k = 0; k < 5; ++k) { x = x * x + y; y = y * x + seed; }
    xy[2 * i] = x; xy[2 * i + 1] = y;
    inside[i] = x * x + y * y;
}
__global__ void iterate(float* out, float seed) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = seed * i;
    for (int k = 0; k < 512; ++k) x = x * seed + 0.5f;
    out[i] = x;
}"""


def test_writes_that_stay_in_the_l2_still_count_in_the_intensity():
    small = kernel_report(WRITES.split("__global__ void iterate")[0], grid=(16, 1, 1))
    assert small["memory"]["dram_bytes_write"] == 0  # ncu's in-kernel figure: nothing evicted yet
    assert small["compute"]["bound"] == "memory"
    assert small["compute"]["arithmetic_intensity"] == small["compute"]["flops"] / (12 * 16 * 256)
    # 4,096 threads move 48 KB: a launch's overhead, not bandwidth, sets that kernel's time (issue 26)
    assert not notes(WRITES.split("__global__ void iterate")[0], grid=(16, 1, 1))
    assert set(notes(WRITES.split("__global__ void iterate")[0], grid=(4096, 1, 1))) == {"memory-bound"}
    assert set(notes("__global__ void iterate" + WRITES.split("__global__ void iterate")[1],
                     grid=(4096, 1, 1))) == {"compute-bound"}


# A grid-stride sum over n elements, then a tree reduction in every block: with n made up (no launch
# gives it) the tree's adds in blocks past n outweigh the few bytes, a made-up compute-bound note.
REDUCE = """
__global__ void reduce(const float* in, double* out, int n) {
    __shared__ double s[256];
    double sum = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int half = 128; half > 0; half /= 2) {
        if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}"""


def test_no_compute_bound_note_under_a_made_up_size():
    assert "compute-bound" not in notes(REDUCE, grid=(4096, 1, 1))
    report = kernel_report(REDUCE, grid=(4096, 1, 1))
    assert report["compute"]["bound"] == "compute"  # what the made-up n = 1024 gives
    given = notes(REDUCE, grid=(4096, 1, 1), n=1 << 24)
    assert set(given) == {"memory-bound"} and "assuming" not in given["memory-bound"]


def test_memory_bound_note_is_silent_on_a_made_up_size():
    """Issue 26's strict reading: at the program's own size (cuda-samples' demos: a few MB) such a
    kernel is overhead-bound, so a placement at a made-up n says nothing; a given n keeps it."""
    axpy = """__global__ void axpy(const float* x, float* y, float a, int n) {
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i] + y[i];
    }"""
    assert "memory-bound" not in notes(axpy)
    assert notes(axpy, n=1 << 24)["memory-bound"] == "0.17 FLOP per DRAM byte"


# Heavy arithmetic on texture fetches: the fetched bytes are not modelled, so the bytes counted are a
# lower bound and a compute-bound placement is unfounded; memory-bound stays sound (more bytes only
# lower the intensity).  The same arithmetic on a global load is compute-bound.
TEXTURE = """
__global__ void shade(cudaTextureObject_t tex, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    float v = tex2D<float>(tex, x, 0);
    for (int k = 0; k < 256; ++k) v = v * 0.99f + 0.5f;
    out[x] = v;
}"""


def test_no_compute_bound_note_when_bytes_go_uncounted():
    assert "compute-bound" not in notes(TEXTURE, w=16384)
    loaded = TEXTURE.replace("cudaTextureObject_t tex", "const float* tex").replace("tex2D<float>(tex, x, 0)", "tex[x]")
    assert not notes(loaded, w=16384)  # 16,384 threads: 8 MFLOP, done within a launch's overhead
    assert set(notes(loaded, grid=(4096, 1, 1), w=16384 * 64)) == {"compute-bound"}


def test_typedef_array_elements_are_accessed():
    """`typedef float vec2[2]; vec2* xy; xy[i][0] = ...`: two 4-byte stores into 8-byte elements."""
    code = """typedef float vec2[2];
    __global__ void k(vec2* xy) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        xy[i][0] = 1.0f; xy[i][1] = 2.0f;
    }"""
    stores = [a for a in kernel_report(code, grid=(4, 1, 1))["memory"]["accesses"] if a["array"] == "xy"]
    assert [a["index"].endswith(("* 8", "+ 4")) for a in stores] == [True, True]


# graphExecution's reduce: the host runs it at sizes 512, 512^2 and 512^3 from one loop; the
# launch's first pass (512 elements, a tree of FLOPs over 2 KB) is not the program's work (2^27
# floats, 0.25 FLOP per byte).  The value a loop counter starts at is a made-up size for the notes.
PASSES = """
__global__ void reduce(const float* in, double* out, size_t n) {
  __shared__ double tmp[256];
  size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  double s = 0;
  for (size_t i = gid; i < n; i += gridDim.x * blockDim.x) s += (double)in[i];
  tmp[threadIdx.x] = s;
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (threadIdx.x < k) tmp[threadIdx.x] += tmp[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = tmp[0];
}
void run(float* in, double* out, size_t n) { reduce<<<2048, 256>>>(in, out, n); }
int main() {
  float* in; double* out;
  CALLS
}"""


def test_a_size_from_the_first_pass_of_a_host_loop_is_a_made_up_size():
    def found(calls):
        code = PASSES.replace("CALLS", calls)
        return {f.name: f.message for f in lint_file(analyze_source(code, "t.cu", Options(resources="estimate")),
                                                     NOTES, code)}
    assert found("run(in, out, 512);") == {"compute-bound": found("run(in, out, 512);")["compute-bound"]}
    looped = found("for (size_t size = 512; size <= 1 << 27; size *= 512) run(in, out, size);")
    assert "compute-bound" not in looped
    stepped = found("for (size_t size = 512; size <= 4096; size += 512) run(in, out, size);")
    assert "compute-bound" in stepped  # a counter stepped by adding (a time step, an offset) is left as it is
