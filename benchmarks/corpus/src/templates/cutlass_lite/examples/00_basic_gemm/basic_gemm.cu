/* Single-precision GEMM through the device-level template, compared element by element
 * with a straightforward kernel. */
#include <cstdlib>
#include <iostream>
#include <vector>

#include "cutlass_lite/gemm/device/gemm.cuh"
#include "cutlass_lite/util/reference/device/tensor_fill.cuh"

using GemmOp = cutlass_lite::gemm::device::Gemm<float, float>;

static cudaError_t run_template_gemm(int m, int n, int k, float alpha, float const* a, float const* b, float beta,
                                     float* c) {
  GemmOp op;
  GemmOp::Arguments args(cutlass_lite::gemm::GemmCoord(m, n, k), a, k, b, n, c, c, n,
                         GemmOp::EpilogueOutputOp::Params(alpha, beta));
  if (GemmOp::can_implement(args) != cutlass_lite::Status::kSuccess) {
    return cudaErrorInvalidValue;
  }
  return op(args) == cutlass_lite::Status::kSuccess ? cudaSuccess : cudaErrorUnknown;
}

/* deterministic small integers, so float sums are exact and the two results can be compared with == */
__global__ void fill_pattern_kernel(float* dst, int rows, int cols, unsigned salt)
{
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || c >= cols) {
    return;
  }
  unsigned h = (unsigned(r) * 73856093u) ^ (unsigned(c) * 19349663u) ^ salt;
  dst[r * cols + c] = float(int(h % 9u) - 4);
}

/* row-major C = alpha * A * B + beta * C, one element per thread */
__global__ void naive_gemm_kernel(int m, int n, int k, float alpha, float const* __restrict__ a,
                                  float const* __restrict__ b, float beta, float* __restrict__ c)
{
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m && col < n) {
    float s = 0.0f;
    for (int i = 0; i < k; ++i) {
      s = fmaf(a[r * k + i], b[i * n + col], s);
    }
    c[r * n + col] = alpha * s + beta * c[r * n + col];
  }
}

// Explicit instantiations of header templates: declarations, not definitions.
template __global__ void cutlass_lite::reference::device::detail::fill_linear_kernel<float>(float*, int64_t, float, float);
template __global__ void cutlass_lite::reference::device::detail::count_mismatches_kernel<float>(unsigned long long*, float const*, float const*, size_t);

static void fill(float* p, int rows, int cols, unsigned salt) {
  dim3 block(32, 8);
  dim3 grid((cols + 31) / 32, (rows + 7) / 8);
  fill_pattern_kernel<<<grid, block>>>(p, rows, cols, salt);
}

int main(int argc, char** argv) {
  const int m = argc > 1 ? std::atoi(argv[1]) : 256;
  const int n = argc > 2 ? std::atoi(argv[2]) : 256;
  const int k = argc > 3 ? std::atoi(argv[3]) : 128;
  float *a, *b, *c_tmpl, *c_ref;
  cudaMalloc(&a, sizeof(float) * m * k);
  cudaMalloc(&b, sizeof(float) * k * n);
  cudaMalloc(&c_tmpl, sizeof(float) * m * n);
  cudaMalloc(&c_ref, sizeof(float) * m * n);
  fill(a, m, k, 1u);
  fill(b, k, n, 2u);
  fill(c_tmpl, m, n, 3u);
  cudaMemcpy(c_ref, c_tmpl, sizeof(float) * m * n, cudaMemcpyDeviceToDevice);
  cudaError_t err = run_template_gemm(m, n, k, 1.0f, a, b, 1.0f, c_tmpl);
  naive_gemm_kernel<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(m, n, k, 1.0f, a, b, 1.0f, c_ref);
  unsigned long long bad = cutlass_lite::reference::device::CountMismatches(c_tmpl, c_ref, size_t(m) * n);
  std::cout << (err == cudaSuccess && bad == 0 ? "Passed" : "FAILED") << " (" << bad << " mismatches)" << std::endl;
  cudaFree(a);
  cudaFree(b);
  cudaFree(c_tmpl);
  cudaFree(c_ref);
  return bad == 0 ? 0 : 1;
}
