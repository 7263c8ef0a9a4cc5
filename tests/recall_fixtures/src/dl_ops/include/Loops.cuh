#pragma once
// Generic element-wise launch helpers: the kernels live here, the operator files pass
// device lambdas.  Files using these need nvcc --extended-lambda.

#include "aten_lite.cuh"

namespace at {
namespace native {

C10_HOST_DEVICE constexpr int num_threads() { return 128; }
C10_HOST_DEVICE constexpr int thread_work_size() { return 4; }
C10_HOST_DEVICE constexpr int block_work_size() { return thread_work_size() * num_threads(); }

// Each thread handles thread_work_size() elements, strided by the block size.
template <typename func_t>
C10_LAUNCH_BOUNDS_1(num_threads())
__global__ void elementwise_kernel(int64_t N, func_t f) {
  const int tid = threadIdx.x;
  int64_t idx = static_cast<int64_t>(block_work_size()) * blockIdx.x + tid;
#pragma unroll
  for (int i = 0; i < thread_work_size(); i++) {
    if (idx < N) {
      f(idx);
      idx += num_threads();
    }
  }
}

template <typename T, int vec_size>
struct alignas(sizeof(T) * vec_size) aligned_vector {
  T val[vec_size];
};

template <int vec_size, typename scalar_t, typename func_t>
C10_LAUNCH_BOUNDS_1(num_threads())
__global__ void vectorized_elementwise_kernel(int64_t N, const scalar_t* __restrict__ in,
                                              scalar_t* __restrict__ out, func_t f) {
  using vec_t = aligned_vector<scalar_t, vec_size>;
  const int64_t base = (static_cast<int64_t>(blockIdx.x) * num_threads() + threadIdx.x) * vec_size;
  if (base + vec_size <= N) {
    vec_t v = *reinterpret_cast<const vec_t*>(in + base);
#pragma unroll
    for (int j = 0; j < vec_size; ++j) {
      v.val[j] = f(v.val[j]);
    }
    *reinterpret_cast<vec_t*>(out + base) = v;
  } else {
    for (int64_t j = base; j < N; ++j) {
      out[j] = f(in[j]);
    }
  }
}

template <typename func_t>
void launch_elementwise(int64_t N, const func_t& f) {
  if (N == 0) return;
  const int64_t grid = (N + block_work_size() - 1) / block_work_size();
  auto stream = at::cuda::getCurrentCUDAStream();
  elementwise_kernel<func_t><<<grid, num_threads(), 0, stream>>>(N, f);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

template <typename scalar_t, typename func_t>
void launch_vectorized(const Tensor& in, Tensor& out, const func_t& f) {
  const int64_t N = in.numel();
  const int64_t grid = (N + 4 * num_threads() - 1) / (4 * num_threads());
  vectorized_elementwise_kernel<4, scalar_t, func_t>
      <<<grid, num_threads(), 0, at::cuda::getCurrentCUDAStream()>>>(N, in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), f);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

}  // namespace native
}  // namespace at
