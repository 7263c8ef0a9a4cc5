/* Split-K GEMM: partial products per K slice, then a reduction kernel. */
#include <cstdio>
#include <vector>

#include "cutlass_lite/gemm/device/gemm.cuh"
#include "cutlass_lite/reduction/kernel/reduce_split_k.cuh"
#include "cutlass_lite/util/reference/device/gemm.cuh"
#include "cutlass_lite/util/reference/device/tensor_fill.cuh"

namespace {

using Element = float;
using Layout = cutlass_lite::layout::ColumnMajor;

/// Computes one K-slice of the product into its own workspace partition.
template <int kTile, int kSlices>
__global__ void __launch_bounds__(kTile * kTile)
splitk_partial_kernel(cutlass_lite::gemm::GemmCoord problem, Element const* __restrict__ A, int lda,
                      Element const* __restrict__ B, int ldb, Element* __restrict__ workspace) {
  static_assert(kTile * kTile <= 1024, "tile too large for one block");
  __shared__ Element As[kTile][kTile + 1];
  __shared__ Element Bs[kTile][kTile + 1];
  const int slice = blockIdx.z;
  const int k_per_slice = (problem.k() + kSlices - 1) / kSlices;
  const int k_begin = slice * k_per_slice;
  const int k_end = min(problem.k(), k_begin + k_per_slice);
  const int row = blockIdx.x * kTile + threadIdx.x;
  const int col = blockIdx.y * kTile + threadIdx.y;
  Element acc = Element(0);
  for (int k0 = k_begin; k0 < k_end; k0 += kTile) {
    As[threadIdx.y][threadIdx.x] = (row < problem.m() && k0 + threadIdx.y < k_end) ? A[row + (k0 + threadIdx.y) * lda] : Element(0);
    Bs[threadIdx.y][threadIdx.x] = (col < problem.n() && k0 + threadIdx.x < k_end) ? B[(k0 + threadIdx.x) + col * ldb] : Element(0);
    __syncthreads();
    CUTLASS_PRAGMA_UNROLL
    for (int kk = 0; kk < kTile; ++kk) {
      acc += As[kk][threadIdx.x] * Bs[threadIdx.y][kk];
    }
    __syncthreads();
  }
  if (row < problem.m() && col < problem.n()) {
    workspace[size_t(slice) * problem.m() * problem.n() + row + size_t(col) * problem.m()] = acc;
  }
}

/// Zeroes the workspace (a grid-stride loop).
__global__ void zero_workspace_kernel(Element* p, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(blockDim.x) * gridDim.x) {
    p[i] = Element(0);
  }
}

}  // namespace

int run_split_k(int m, int n, int k) {
  constexpr int kSlices = 4;
  constexpr int kTile = 16;
  using Reduction = cutlass_lite::reduction::kernel::ReduceSplitK<Element, Element>;
  Element *A, *B, *C, *D, *workspace;
  cudaMalloc(&A, sizeof(Element) * m * k);
  cudaMalloc(&B, sizeof(Element) * k * n);
  cudaMalloc(&C, sizeof(Element) * m * n);
  cudaMalloc(&D, sizeof(Element) * m * n);
  cudaMalloc(&workspace, sizeof(Element) * m * n * kSlices);
  cutlass_lite::reference::device::BlockFillSequential(A, int64_t(m) * k);
  cutlass_lite::reference::device::BlockFillSequential(B, int64_t(k) * n, Element(1), Element(0.5f));
  zero_workspace_kernel<<<256, 256>>>(workspace, size_t(m) * n * kSlices);
  cutlass_lite::gemm::GemmCoord problem(m, n, k);
  dim3 grid((m + kTile - 1) / kTile, (n + kTile - 1) / kTile, kSlices);
  splitk_partial_kernel<kTile, kSlices><<<grid, dim3(kTile, kTile)>>>(problem, A, m, B, k, workspace);
  Reduction::Params rp;
  rp.problem_size = cutlass_lite::MatrixCoord(m, n);
  rp.partitions = kSlices;
  rp.partition_stride = size_t(m) * n;
  rp.workspace = workspace;
  rp.source = C;
  rp.destination = D;
  rp.alpha = 1.0f;
  rp.beta = 0.0f;
  cutlass_lite::reduction::kernel::reduce_split_k_kernel<Reduction><<<Reduction::grid_shape(rp.problem_size), Reduction::kThreads>>>(rp);
  cutlass_lite::reference::device::compute_gemm<Element, Layout, Element, Layout, Element, Layout, Element, Element>(
      problem, 1.0f, {A, Layout(m)}, {B, Layout(k)}, 0.0f, {C, Layout(m)}, {C, Layout(m)}, 0.0f);
  cudaError_t err = cudaDeviceSynchronize();
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  cudaFree(D);
  cudaFree(workspace);
  return err == cudaSuccess ? 0 : 1;
}

int main() {
  return run_split_k(512, 256, 4096);
}
