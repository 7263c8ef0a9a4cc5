// Copyright (c) 2019-2025 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at::native {

namespace {

// reduce sum kernel: one thread per output element.
template <typename scalar_t, typename accscalar_t, int BLOCK>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void reduce_sum_kernel(
  const scalar_t* in,
  float* partial,
  int n) {
  __shared__ float smem[BLOCK];
  const int tid = threadIdx.x;
  float acc = 0.f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + v;
  }
  smem[tid] = acc;
  __syncthreads();
  #pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] = smem[tid] + smem[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = smem[0];
}

template <typename scalar_t, typename accscalar_t, int BLOCK>
__global__ void __launch_bounds__(512, 2) reduce_max_kernel(const scalar_t* in, float* partial, int n) {
  __shared__ float smem[BLOCK];
  const int tid = threadIdx.x;
  float acc = -3.402823466e+38f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = fmaxf(acc, v);
  }
  smem[tid] = acc;
  __syncthreads();
  #pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] = fmaxf(smem[tid], smem[tid + s]);
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = smem[0];
}

// reduce min kernel: one thread per output element.
template <typename scalar_t, typename accscalar_t, int BLOCK>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void reduce_min_kernel(
  const scalar_t* in,
  float* partial,
  int n) {
  __shared__ float smem[BLOCK];
  const int tid = threadIdx.x;
  float acc = 3.402823466e+38f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = fminf(acc, v);
  }
  smem[tid] = acc;
  __syncthreads();
  #pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] = fminf(smem[tid], smem[tid + s]);
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = smem[0];
}

template <typename scalar_t, typename accscalar_t, int BLOCK>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void reduce_sumsq_kernel(
  const scalar_t* __restrict__ in,
  float* partial,
  int n) {
  __shared__ float smem[BLOCK];
  const int tid = threadIdx.x;
  float acc = 0.f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + v * v;
  }
  smem[tid] = acc;
  __syncthreads();
  #pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] = smem[tid] + smem[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = smem[0];
}

template <typename scalar_t, typename accscalar_t, int BLOCK>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void reduce_abssum_kernel(
  const scalar_t* __restrict__ in,
  float* partial,
  int n) {
  __shared__ float smem[BLOCK];
  const int tid = threadIdx.x;
  float acc = 0.f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + fabsf(v);
  }
  smem[tid] = acc;
  __syncthreads();
  #pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] = smem[tid] + smem[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = smem[0];
}

template <typename scalar_t, typename accscalar_t, int BLOCK>
__global__ void reduce_norm2_kernel(
  const scalar_t* __restrict__ in,
  float* partial,
  int n) {
  __shared__ float smem[BLOCK];
  const int tid = threadIdx.x;
  float acc = 0.f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + v * v;
  }
  smem[tid] = acc;
  __syncthreads();
  #pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] = smem[tid] + smem[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = smem[0];
}

// reduce mean kernel: one thread per output element.
template <typename scalar_t, typename accscalar_t, int BLOCK>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void reduce_mean_kernel(
  const scalar_t* __restrict__ in,
  float* partial,
  int n) {
  __shared__ float smem[BLOCK];
  const int tid = threadIdx.x;
  float acc = 0.f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + v;
  }
  smem[tid] = acc;
  __syncthreads();
  #pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] = smem[tid] + smem[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = smem[0] / static_cast<float>(n);
}

template <typename scalar_t, typename accscalar_t, int BLOCK>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void reduce_logsumexp_partial_kernel(const scalar_t* __restrict__ in, float* partial, int n) {
  __shared__ float smem[BLOCK];
  const int tid = threadIdx.x;
  float acc = 0.f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + expf(v);
  }
  smem[tid] = acc;
  __syncthreads();
  #pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] = smem[tid] + smem[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = smem[0];
}

template <typename scalar_t, typename accscalar_t, int BLOCK>
__global__ void reduce_amax_kernel(
  const scalar_t* in,
  float* partial,
  int n) {
  __shared__ float smem[BLOCK];
  const int tid = threadIdx.x;
  float acc = 0.f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = fmaxf(acc, fabsf(v));
  }
  smem[tid] = acc;
  __syncthreads();
  #pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] = fmaxf(smem[tid], smem[tid + s]);
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = smem[0];
}

template <typename scalar_t, typename accscalar_t, int BLOCK>
__global__ void reduce_count_nonzero_kernel(const scalar_t* __restrict__ in, float* partial, int n) {
  __shared__ float smem[BLOCK];
  const int tid = threadIdx.x;
  float acc = 0.f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + (v != 0.f ? 1.f : 0.f);
  }
  smem[tid] = acc;
  __syncthreads();
  #pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] = smem[tid] + smem[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = smem[0];
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void warp_sum_kernel(
  const scalar_t* in,
  float* out,
  int n) {
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + v;
  }
  #pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    acc = acc + __shfl_down_sync(0xffffffffu, acc, off);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(out, acc);
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void warp_sumsq_kernel(const scalar_t* __restrict__ in, float* out, int n) {
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + v * v;
  }
  #pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    acc = acc + __shfl_down_sync(0xffffffffu, acc, off);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(out, acc);
  }
}

// warp abssum kernel: one thread per output element.
template <typename scalar_t>
__global__ void warp_abssum_kernel(const scalar_t* in, float* out, int n) {
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + fabsf(v);
  }
  #pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    acc = acc + __shfl_down_sync(0xffffffffu, acc, off);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(out, acc);
  }
}

template <typename scalar_t>
__global__ void warp_norm2_kernel(
  const scalar_t* in,
  float* out,
  int n) {
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + v * v;
  }
  #pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    acc = acc + __shfl_down_sync(0xffffffffu, acc, off);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(out, acc);
  }
}

template <typename scalar_t>
__global__ void __launch_bounds__(256) warp_mean_kernel(
  const scalar_t* in,
  float* out,
  int n) {
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + v;
  }
  #pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    acc = acc + __shfl_down_sync(0xffffffffu, acc, off);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(out, acc);
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void warp_logsumexp_partial_kernel(
  const scalar_t* __restrict__ in,
  float* out,
  int n) {
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + expf(v);
  }
  #pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    acc = acc + __shfl_down_sync(0xffffffffu, acc, off);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(out, acc);
  }
}

template <typename scalar_t>
__global__ void warp_count_nonzero_kernel(
  const scalar_t* __restrict__ in,
  float* out,
  int n) {
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float v = static_cast<float>(in[i]);
    acc = acc + (v != 0.f ? 1.f : 0.f);
  }
  #pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    acc = acc + __shfl_down_sync(0xffffffffu, acc, off);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(out, acc);
  }
}

}  // namespace

void reduce_sum_kernel_cuda(const Tensor& in, Tensor& partial) {
  TORCH_CHECK(in.is_contiguous(), "reduce_sum_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "reduce_sum_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    reduce_sum_kernel<scalar_t, at::acc_type<scalar_t, true>, 256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), partial.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void reduce_max_kernel_cuda(const Tensor& in, Tensor& partial) {
  TORCH_CHECK(in.is_contiguous(), "reduce_max_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "reduce_max_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    reduce_max_kernel<scalar_t, at::acc_type<scalar_t, true>, 256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), partial.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void reduce_min_kernel_cuda(const Tensor& in, Tensor& partial) {
  TORCH_CHECK(in.is_contiguous(), "reduce_min_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "reduce_min_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    reduce_min_kernel<scalar_t, at::acc_type<scalar_t, true>, 256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), partial.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void reduce_sumsq_kernel_cuda(const Tensor& in, Tensor& partial) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "reduce_sumsq_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    reduce_sumsq_kernel<scalar_t, at::acc_type<scalar_t, true>, 256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), partial.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void reduce_abssum_kernel_cuda(const Tensor& in, Tensor& partial) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "reduce_abssum_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    reduce_abssum_kernel<scalar_t, at::acc_type<scalar_t, true>, 256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), partial.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void reduce_norm2_kernel_cuda(const Tensor& in, Tensor& partial) {
  TORCH_CHECK(in.is_contiguous(), "reduce_norm2_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "reduce_norm2_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    reduce_norm2_kernel<scalar_t, at::acc_type<scalar_t, true>, 256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), partial.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void reduce_mean_kernel_cuda(const Tensor& in, Tensor& partial) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "reduce_mean_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    reduce_mean_kernel<scalar_t, at::acc_type<scalar_t, true>, 256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), partial.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void reduce_logsumexp_partial_kernel_cuda(const Tensor& in, Tensor& partial) {
  TORCH_CHECK(in.is_contiguous(), "reduce_logsumexp_partial_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "reduce_logsumexp_partial_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    reduce_logsumexp_partial_kernel<scalar_t, at::acc_type<scalar_t, true>, 256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), partial.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void reduce_amax_kernel_cuda(const Tensor& in, Tensor& partial) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "reduce_amax_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    reduce_amax_kernel<scalar_t, at::acc_type<scalar_t, true>, 256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), partial.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void reduce_count_nonzero_kernel_cuda(const Tensor& in, Tensor& partial) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "reduce_count_nonzero_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    reduce_count_nonzero_kernel<scalar_t, at::acc_type<scalar_t, true>, 256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), partial.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void warp_sum_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "warp_sum_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "warp_sum_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    warp_sum_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void warp_sumsq_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "warp_sumsq_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "warp_sumsq_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    warp_sumsq_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void warp_abssum_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "warp_abssum_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    warp_abssum_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void warp_norm2_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "warp_norm2_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "warp_norm2_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    warp_norm2_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void warp_mean_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "warp_mean_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    warp_mean_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void warp_logsumexp_partial_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "warp_logsumexp_partial_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "warp_logsumexp_partial_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    warp_logsumexp_partial_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void warp_count_nonzero_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "warp_count_nonzero_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    warp_count_nonzero_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(reduce_sum_stub, &reduce_sum_kernel_cuda);
REGISTER_DISPATCH(reduce_max_stub, &reduce_max_kernel_cuda);

}  // namespace at::native
