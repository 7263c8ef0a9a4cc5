"""Issue 26's precision items: findings say what they rest on (a guessed launch, data, a name nothing in
sight declares), or stay silent where the premise does not hold (overhead-bound kernels)."""

from __future__ import annotations

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file


def lint(code: str, rules: list[str], **options) -> list:
    return lint_file(analyze_source(code, "k.cu", Options(resources="estimate", **options)), select(rules), code)


BRANCHES = """
__global__ void on_data(const float* a, float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (a[i] > 0.0f) {
        for (int k = 0; k < 16; k++) b[i * 16 + k] = a[i] * k;
    } else {
        for (int k = 0; k < 16; k++) b[i * 16 + k] = -a[i] * k;
    }
}
__global__ void on_lanes(const float* a, float* b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 2) {
        for (int k = 0; k < 16; k++) b[i * 16 + k] = a[i] * k;
    } else {
        for (int k = 0; k < 16; k++) b[i * 16 + k] = -a[i] * k;
    }
}
"""


def test_a_branch_on_data_says_the_split_depends_on_data_not_a_share():
    data, lanes = lint(BRANCHES, ["divergent-branch"])
    assert (data.kernel, data.line) == ("on_data", 5) and "%" not in data.message
    assert data.message.startswith("`a[i] > 0.0f` splits warps whose lanes read different values: it tests data "
                                   "loaded per thread, so how many warps split depends on the data")
    # a split by lane index keeps its share, and says the block it was measured under is a guess
    assert lanes.kernel == "on_lanes" and "(100% of warps under this launch)" in lanes.message
    assert lanes.message.endswith("(under a guessed launch: block 256x1x1 is a default, no launch of `on_lanes` "
                                  "gave it; give --block)")
    given = lint(BRANCHES, ["divergent-branch"], block=(128, 1, 1), grid=(64, 1, 1))
    assert [f.kernel for f in given] == ["on_data", "on_lanes"] and not any("guessed" in f.message for f in given)


STREAMS = """
__global__ void child(float* a) { a[threadIdx.x] = 1.0f; }
__global__ void parent(float* a, const float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * 2.0f + b[i];
    if (i == 0) child<<<1, 32>>>(a);
}
__global__ void saxpy(const float* x, float* y, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = s * x[i] + y[i];
}
__global__ void triad(const float* x, const float* y, float* z, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = x[i] + s * y[i];
}
__global__ void unknown(const real* x, real* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.0f * x[i] + 1.0f;
}
int main() {
    float *x, *y, *z;
    saxpy<<<4, 256>>>(x, y, 2.0f, 1000);
    triad<<<65536, 256>>>(x, y, z, 2.0f, 65536 * 256);
    return 0;
}
"""


def test_memory_bound_stays_silent_on_overhead_bound_kernels_and_names_its_premises():
    found = {f.kernel: f.message for f in lint(STREAMS, ["memory-bound"])}
    # device-side launches and 1,000 elements: overhead, not bandwidth, sets their time
    assert "parent" not in found and "saxpy" not in found
    # 16 M elements at the host's launch: bandwidth-bound, nothing guessed
    assert found["triad"] == "0.17 FLOP per DRAM byte"
    # the child kernel's launch is found (1 block of 32 threads): a few bytes, silent too
    assert "child" not in found
    # a type nothing in sight declares (a header's typedef): said in the message, as is the guessed launch
    assert "(resting on names the analysis could not resolve: the element types of `x`, `y` (taken as 4 bytes))" \
        in found["unknown"]
    assert "(under a guessed launch: grid 4096x1x1 and block 256x1x1 is a default" in found["unknown"]


COMPUTE = """
__global__ void poly(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i], acc = 0.0f;
    for (int k = 0; k < 4096; k++) acc = acc * v + 1.0f;
    y[i] = acc;
}
"""


def test_compute_bound_says_when_its_sizes_rest_on_a_guessed_grid():
    # FLOPs of a guessed grid over bytes of an n sized to that grid by `i >= n`: said, with the launch
    (guessed,) = lint(COMPUTE, ["compute-bound"])
    assert "(assuming n = 1048576, sized to the guessed grid by a bounds check) (under a guessed launch: " \
        "grid 4096x1x1 and block 256x1x1 is a default" in guessed.message
    (given,) = lint(COMPUTE, ["compute-bound"], grid=(65536, 1, 1), block=(256, 1, 1), args={"n": 65536 * 256})
    assert given.message.endswith("FLOP per DRAM byte") and "guess" not in given.message
    tiny = lint(COMPUTE, ["compute-bound"], grid=(4, 1, 1), block=(256, 1, 1), args={"n": 1000})
    assert not tiny  # 8 KB moved: a launch's overhead, not arithmetic, sets its time


def test_an_address_reading_the_guessed_block_width_says_so():
    code = "__global__ void k(float* a) { a[threadIdx.x * blockDim.x + blockIdx.x] = 0.f; }"
    (guessed,) = lint(code, ["uncoalesced-access"])
    assert guessed.message.endswith("(the address reads blockDim: under a guessed launch, block 256x1x1 is a "
                                    "default, no launch of `k` gave it; give --block)")
    (given,) = lint(code, ["uncoalesced-access"], block=(256, 1, 1), grid=(8, 1, 1))
    assert "guess" not in given.message


def test_a_block_known_in_part_keeps_its_known_axis_in_the_shapes_tried():
    """`dim3(1, rows)`: warps run down a column whatever rows is, so the row-major store is strided."""
    code = ("__global__ void k(float* dst, int width) {\n"
            "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
            "  dst[y * width + x] = 0.f;\n}\n"
            "void run(float* d, int w, int h, int rows) {\n"
            "  dim3 block(1, rows);\n  dim3 grid(w, h / rows);\n  k<<<grid, block>>>(d, w);\n}\n")
    (finding,) = lint(code, ["uncoalesced-access"])
    assert "under every block shape tried (1x256, 1x16, 1x8, 1x32; the launch gives the block only in part)" \
        in finding.message
