"""Constructs of real code the analysis once got wrong (issue 28): a second variable stepped in a
`for` header, cooperative groups' tile and grid queries, and constants past float64's range."""

from __future__ import annotations

import warnings

import pytest
from conftest import accesses, kernel_report

from cudaperf.analysis.analyzer import Options, analyze_source

MATRIX_MUL = """
#define BLOCK_SIZE 16
__global__ void mm(float *C, float *A, float *B, int wA, int wB) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by, aEnd = aBegin + wA - 1, aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx, bStep = BLOCK_SIZE * wB;
  float Csub = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[wB * BLOCK_SIZE * by + BLOCK_SIZE * bx + wB * ty + tx] = Csub;
}
"""


def test_second_variable_of_a_for_header_steps_with_the_iterations():
    """cuda-samples' matrixMul: `b += bStep` in the header makes `b` bBegin + k * bStep at
    iteration k, so B's rows are read like A's (16 floats of a row per half-warp)."""
    r = kernel_report(MATRIX_MUL, grid=(8, 8, 1), block=(16, 16, 1), wA=128, wB=128)
    a, b = accesses(r, "A", "load")[0], accesses(r, "B", "load")[0]
    assert b["pattern"] == a["pattern"] == "coalesced"
    assert b["sectors_per_request"] == pytest.approx(4.0)
    assert "iter" in b["index"] and "wB * 16" in b["index"]
    assert r["compute"]["arithmetic_intensity"] is not None  # DRAM bytes known: B's footprint too


def test_a_variable_stepped_in_the_header_and_the_body_is_not_an_induction_variable():
    code = """
    __global__ void k(float *out, const float *in, int n) {
      for (int i = 0, j = threadIdx.x; i < 4; i++, j += 32) { out[j] = in[j]; j += n; }
    }"""
    r = kernel_report(code, grid=(1, 1, 1), block=(32, 1, 1), n=7)
    assert "iter" not in accesses(r, "out", "store")[0]["index"]


GROUPS = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void tiles(float *out, const float *in, int n) {
  cg::thread_block cta = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  __shared__ float partial[32];
  float v = 0.f;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) v += in[i];
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = v;
  cg::sync(cta);
  if (tile.meta_group_rank() == 0) {
    float w = tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : 0.f;
    if (tile.thread_rank() == 0) out[blockIdx.x * cta.num_threads() + cta.meta_group_rank()] = w;
  }
}
"""


def test_cooperative_groups_queries_are_known():
    r = kernel_report(GROUPS, grid=(64, 1, 1), block=(256, 1, 1), n=1 << 20)
    grid_stride = accesses(r, "in", "load")[0]
    assert grid_stride["pattern"] == "coalesced"
    assert grid_stride["executions_per_thread"] == pytest.approx(64)  # 2**20 / (64 * 256) trips
    assert all(a["pattern"] != "unknown" for a in accesses(r))
    store = accesses(r, "partial", "store")[0]
    assert store["executions_per_thread"] == pytest.approx(1 / 32, abs=1e-4)  # one lane per tile
    # 8 tiles of 32: lanes 0-7 of warp 0 read, a split inside that warp only
    branch = next(b for b in r["branches"] if "meta_group_size" in b["condition"])
    assert branch["uniformity"] == "thread" and branch["divergent_fraction"] == pytest.approx(1.0)
    index = accesses(r, "out", "store")[0]["index"]  # a block's size, and its rank among blocks: 0
    assert index == "(blockIdx.x * ((blockDim.x * blockDim.y) * blockDim.z)) * 4", index


def test_a_tile_of_unknown_size_has_no_made_up_rank():
    code = """
    #include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    template <int G> __global__ void k(float *out) {
      __shared__ float s[32];
      auto tile = cg::tiled_partition<G>(cg::this_thread_block());
      if (tile.thread_rank() == 0) s[tile.meta_group_rank()] = 1.f;
      __syncthreads();
      if (threadIdx.x == 0)
        for (int i = 0; i < tile.meta_group_size(); i++) out[i] = s[i];
    }"""
    r = kernel_report(code, grid=(4, 1, 1), block=(256, 1, 1))
    assert accesses(r, "s", "store")[0]["pattern"] == "unknown"
    loop = next(b for b in r["branches"] if b["kind"] == "loop")
    # one lane runs the loop: it cannot disagree with itself, whatever the bound
    assert loop["divergent_fraction"] == 0.0


def test_constants_past_float64_leave_bank_counts_unknown_without_a_warning():
    code = """
    __global__ void k(float *out) {
      __shared__ float s[64];
      s[threadIdx.x * 1e300] = 1.f;
      s[threadIdx.x] = 2.f;
      __syncthreads();
      out[threadIdx.x] = s[threadIdx.x % 1e309];
    }"""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = analyze_source(code, "huge.cu", Options(grid=(1, 1, 1), block=(32, 1, 1), resources="estimate"))
    assert not [d for d in report.diagnostics if d.severity == "error"], report.diagnostics
    by_line = {a.access.line: a for a in report.kernels[0].accesses if a.access.space == "shared"}
    assert by_line[4].banks.wavefronts is None
    assert by_line[5].banks.wavefronts_per_request == pytest.approx(1.0)


def test_a_cuda_barrier_wait_after_arrive_orders_the_block():
    """cuda-samples' simpleAWBarrier: `auto t = bar.arrive(); bar.wait(std::move(t));` in a helper
    taking the barrier by reference is a block barrier; without it the read races."""
    code = """
    #include <cuda/barrier>
    __device__ void reduce(cuda::barrier<cuda::thread_scope_block> &barrier, float *out) {
      extern __shared__ float tmp[];
      if (threadIdx.x % 32 == 0) tmp[threadIdx.x / 32] = 1.f;
      auto token = barrier.arrive();
      WAIT
      if (threadIdx.x < 8) out[threadIdx.x] = tmp[threadIdx.x];
    }
    __global__ void k(float *out) {
      __shared__ cuda::barrier<cuda::thread_scope_block> barrier;
      if (threadIdx.x == 0) init(&barrier, blockDim.x);
      __syncthreads();
      reduce(barrier, out);
    }"""
    waited = kernel_report(code.replace("WAIT", "barrier.wait(std::move(token));"), grid=(1, 1, 1), block=(256, 1, 1))
    unwaited = kernel_report(code.replace("WAIT", ""), grid=(1, 1, 1), block=(256, 1, 1))
    assert [h["kind"] for h in unwaited["sync"]] == ["shared-race"]
    assert waited["sync"] == []


def test_the_variable_a_for_header_steps_is_the_counter_and_the_first_declared_one_steps_in_the_body():
    """HeCBench's addBiasResidualLayerNorm: `for (int idx = tid, i = 0; idx < n && i < N; ++i)
    { ...; idx += blockDim.x; }` runs N trips with idx advancing a block per trip."""
    code = """
    __global__ void k(const float* in, float* out, int n) {
      float acc = 0.f;
      for (int idx = threadIdx.x, i = 0; idx < n && i < 4; ++i) {
        acc += in[blockIdx.x * n + idx];
        idx += blockDim.x;
      }
      out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    }"""
    r = kernel_report(code, grid=(64, 1, 1), block=(256, 1, 1), n=1024)
    load = accesses(r, "in", "load")[0]
    assert load["executions_per_thread"] == pytest.approx(4.0)
    assert load["index"] == "((blockIdx.x * n) + (threadIdx.x + (iter1 * blockDim.x))) * 4"
    assert r["compute"]["arithmetic_intensity"] is not None


EMPTY_LOOP = """
__global__ void k(const int* a, int* out, int n) {
  int j = 0;
  for (int i = 0; i < n; ++i) {
    if (a[i] == 0) break;
    for (j = 0; j < 8 && a[j] != 0; ++j);
    out[threadIdx.x] = j;
  }
}"""


@pytest.mark.parametrize("exit_first", [True, False])
def test_a_loop_with_an_empty_body_does_not_take_the_next_statement(exit_first):
    """HeCBench extend2: `for (j = beg; ...; ++j);` is a whole loop.  The statement after it ran
    once per outer iteration, not inside it, and (lowered again after the `break`) the analysis
    stopped with an internal error."""
    code = EMPTY_LOOP if exit_first else EMPTY_LOOP.replace("if (a[i] == 0) break;", "")
    report = analyze_source(code, "t.cu", Options(grid=(1, 1, 1), block=(32, 1, 1), args={"n": 4}))
    assert not report.diagnostics
    r = kernel_report(code, grid=(1, 1, 1), block=(32, 1, 1), n=4)
    assert accesses(r, "out", "store")[0]["executions_per_thread"] == pytest.approx(4)


CLUSTER = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define SLICES 4
__global__ void __cluster_dims__(SLICES, 1, 1) slices(const float *x, float *y, long long chunk) {
  __shared__ float partial;
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();  // every block of the cluster running before any reads another's shared memory
  const long long begin = (long long)cluster.block_rank() * chunk;
  float s = 0.f;
  for (long long i = begin + threadIdx.x; i < begin + chunk; i += blockDim.x) s += x[i];
  if (threadIdx.x == 0) partial = s;
  cluster.sync();
  if (threadIdx.x == 0 && cluster.block_rank() == 0)
    y[blockIdx.x / cluster.num_blocks()] = *cluster.map_shared_rank(&partial, 1);
}
"""


def test_a_cluster_kernels_block_rank_and_barrier_are_known():
    """kb_fresh13's LayerNorm cluster kernel slices its row by `cg::this_cluster().block_rank()`: with
    `__cluster_dims__(SLICES, 1, 1)` (a macro) the rank is blockIdx.x % 4, so each block's slice loop runs
    its chunk / blockDim.x trips instead of one taken on faith, and no synchronisation rule fires on its
    `cluster.sync()` (the first, before any shared access, makes sure every block of the cluster runs)."""
    from cudaperf.lint.rules import select
    from cudaperf.lint.run import lint_file

    r = kernel_report(CLUSTER, grid=(16, 1, 1), block=(128, 1, 1), chunk=4096)
    load = accesses(r, "x", "load")[0]
    assert load["pattern"] == "coalesced" and load["executions_per_thread"] == pytest.approx(32)
    assert "depends on data" not in (r["compute"].get("reason") or "")
    report = analyze_source(CLUSTER, "k.cu", Options(grid=(16, 1, 1), block=(128, 1, 1), args={"chunk": 4096},
                                                    resources="estimate"))
    assert [f.name for f in lint_file(report, select(["CP4"]), CLUSTER)] == []
    unclustered = CLUSTER.replace("__cluster_dims__(SLICES, 1, 1) ", "")
    r = kernel_report(unclustered, grid=(16, 1, 1), block=(128, 1, 1), chunk=4096)
    assert accesses(r, "x", "load")[0]["executions_per_thread"] != pytest.approx(32)


REMAINDER = """
__global__ void k(const float4 *x, float *y, long long n4) {
  long long i = blockIdx.x * blockDim.x + threadIdx.x;
  const long long stride = (long long)gridDim.x * blockDim.x;
  float s = 0.f;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    float4 a = x[i], b = x[i + stride], c = x[i + 2 * stride], d = x[i + 3 * stride];
    s += (a.x + b.x) + (c.x + d.x);
  }
  for (; i < n4; i += stride) s += x[i].y;
  y[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
"""


@pytest.mark.parametrize("n4, main, rest", [(69 * 16384, 17, 1), (68 * 16384, 17, 0), (71 * 16384, 17, 3)])
def test_a_remainder_loop_starts_where_the_unrolled_loop_left_its_counter(n4, main, rest):
    """The vectorised reduction's tail (`for (; i < n4; i += stride)` after `for (; i + 3 * stride < n4;
    i += 4 * stride)`): the counter leaves the first loop at init + 4 * stride * trips, so the tail runs
    its 0 to 3 trips, not one taken on faith (most of the guesses left in the kb corpora's estimates)."""
    r = kernel_report(REMAINDER, grid=(64, 1, 1), block=(256, 1, 1), n4=n4)
    unrolled, tail = accesses(r, "x", "load")[0], accesses(r, "x", "load")[-1]
    assert unrolled["executions_per_thread"] == pytest.approx(main)
    assert tail["executions_per_thread"] == pytest.approx(rest) and tail["line"] == 10
    assert "depends on data" not in (r["compute"].get("reason") or "")
    left_early = REMAINDER.replace("(c.x + d.x);", "(c.x + d.x);\n    if (s > 1e9f) break;")   # exit unknown
    r = kernel_report(left_early, grid=(64, 1, 1), block=(256, 1, 1), n4=n4)
    assert "depends on data" in r["compute"]["reason"]
    moved = REMAINDER.replace("(c.x + d.x);", "(c.x + d.x);\n    if (s > 1e9f) i += stride;")   # so does a body step
    r = kernel_report(moved, grid=(64, 1, 1), block=(256, 1, 1), n4=n4)
    assert "depends on data" in r["compute"]["reason"]


def test_a_loop_counter_declared_in_its_header_leaves_the_outer_namesake_alone():
    """HeCBench popcount's `int i = <global index>; for (char i = 0; i < 64; i++) {...} r[i] = cnt;`: the
    store uses the outer i (coalesced), which the loop's own i neither changes nor makes unknown."""
    code = """
__global__ void pc(const unsigned long *data, int *r, int length) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= length) return;
  unsigned long x = data[i];
  char cnt = 0;
  for (char i = 0; i < 64; i++) { cnt = cnt + (x & 0x1); x = x >> 1; }
  r[i] = cnt;
}
"""
    store = accesses(kernel_report(code, grid=(64, 1, 1), block=(256, 1, 1), length=1 << 14), "r", "store")[0]
    assert store["pattern"] == "coalesced"
    assert [h["kind"] for h in kernel_report(code, grid=(64, 1, 1), block=(256, 1, 1), length=1 << 14)["sync"]] == []
