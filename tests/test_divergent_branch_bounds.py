"""divergent-branch: a lane-uniform bound splits only the warp that straddles it; per-lane data
and per-lane bounds still split many warps.  Template arguments named by file-scope constants
are resolved from the host launch."""

from __future__ import annotations

from cudaperf.analysis.analyzer import Options, analyze_source
from cudaperf.lint.rules import select
from cudaperf.lint.run import lint_file

HEAVY = "{{ for (int k = 0; k < 8; ++k) a {op}= in[i + k]; }}"


def kernel(condition: str, prologue: str = "") -> str:
    return ("__global__ void k(const float* in, float* out, int n) { __shared__ int bound;"
            " int i = blockIdx.x * blockDim.x + threadIdx.x; float a = 0;"
            f" {prologue} if ({condition}) " + HEAVY.format(op="+") + " else " + HEAVY.format(op="*")
            + " out[i] = a; }")


def findings(code: str, block=(256, 1, 1)) -> list:
    report = analyze_source(code, "t.cu", Options(grid=(64, 1, 1), block=block, resources="estimate"))
    return [f.line for f in lint_file(report, select(["divergent-branch"]), code)]


def test_a_lane_uniform_bound_splits_one_warp_and_is_silent():
    assert not findings(kernel("threadIdx.x < n"))  # an argument
    assert not findings(kernel("threadIdx.x < bound", "if (threadIdx.x == 0) bound = n / 3; __syncthreads();"))
    assert not findings(kernel("threadIdx.y >= n"), block=(16, 18, 1))  # two rows per warp, ranges disjoint


def test_per_lane_splits_still_fire():
    assert findings(kernel("threadIdx.x % 2"))
    assert findings(kernel("in[i] < 0.5f"))  # per-lane data
    assert findings(kernel("threadIdx.x < in[i]"))  # a per-lane bound
    assert findings(kernel("threadIdx.x % 16 < n"))  # every warp covers the same range: all may split


def test_small_blocks_keep_the_boundary_finding():
    assert findings(kernel("threadIdx.x < n"), block=(64, 1, 1))  # the straddling warp is half the block


def test_template_argument_named_by_a_file_scope_constant_is_resolved():
    code = ("constexpr int rows = 16;\n"
            "template <int R> __global__ void k(const float* in, float* out) {"
            " int i = blockIdx.x * blockDim.x + threadIdx.x; float a = 0;"
            " if (threadIdx.y >= R) " + HEAVY.format(op="+") + " else " + HEAVY.format(op="*")
            + " out[i] = a; }\n"
            "void host(const float* in, float* out) { k<rows><<<64, dim3(16, 18)>>>(in, out); }\n")
    report = analyze_source(code, "t.cu", Options(resources="estimate"))
    branch = next(b for b in report.kernels[0].branches if b.kind == "if")
    # R = 16 and rows of 16 lanes: warps 0-7 all take one side, warp 8 the other (unresolved, R may split any)
    assert (branch.result.uniformity, branch.result.divergent_fraction) == ("warp", 0.0)


# bgmv's vectorised shrink: a block-stride loop whose step is a template parameter the host leaves
# unresolved (`launch_bgmv_shrink<block_size>`); `n - offset >= 8` is then known in no lane, and the
# share "100% of warps" counted unknowns as splits.  In fact only the lane where the tail falls
# takes the else side.  A lane test in the same loop is still seen.
STRIDED = """
template <int BLOCK_SIZE>
__global__ void k(const float* in, const float* w, float* out, int n) {
  int offset = threadIdx.x * 8;
  float acc = 0.f;
  while (offset < n) {
    const int remain = n - offset;
    if (CONDITION) {
      for (int i = 0; i < 8; i++) acc += in[offset + i] * w[offset + i];
    } else {
      for (int k = 0; k < remain; k++) acc += in[offset + k] * w[offset + k];
    }
    offset += BLOCK_SIZE * 8;
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}"""


def test_a_condition_known_in_no_lane_is_silent_and_a_lane_test_beside_it_fires():
    assert not findings(STRIDED.replace("CONDITION", "remain >= 8"))
    assert findings(STRIDED.replace("CONDITION", "threadIdx.x % 2"))
