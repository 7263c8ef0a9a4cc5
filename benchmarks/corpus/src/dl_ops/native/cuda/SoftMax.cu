// Copyright (c) 2019-2022 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

namespace {

__device__ __forceinline__ float wrp_sum(float v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

__device__ __forceinline__ float wrp_max(float v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
  return v;
}

// Reduces across the block; `scratch` must hold 32 floats.  All threads get the result.
__device__ __forceinline__ float blk_sum(float v, float* scratch) {
  const int lane = threadIdx.x & 31;
  const int wid = threadIdx.x >> 5;
  v = wrp_sum(v);
  __syncthreads();
  if (lane == 0) scratch[wid] = v;
  __syncthreads();
  const int nwarps = (blockDim.x + 31) >> 5;
  v = (threadIdx.x < nwarps) ? scratch[lane] : 0.f;
  if (wid == 0) v = wrp_sum(v);
  if (threadIdx.x == 0) scratch[0] = v;
  __syncthreads();
  return scratch[0];
}

__device__ __forceinline__ float blk_max(float v, float* scratch) {
  const int lane = threadIdx.x & 31;
  const int wid = threadIdx.x >> 5;
  v = wrp_max(v);
  __syncthreads();
  if (lane == 0) scratch[wid] = v;
  __syncthreads();
  const int nwarps = (blockDim.x + 31) >> 5;
  v = (threadIdx.x < nwarps) ? scratch[lane] : -3.402823466e+38f;
  if (wid == 0) v = wrp_max(v);
  if (threadIdx.x == 0) scratch[0] = v;
  __syncthreads();
  return scratch[0];
}

template <typename scalar_t, typename accscalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void softmax_forward_kernel(
  const scalar_t* input,
  scalar_t* output,
  int rows,
  int cols) {
  const int row = blockIdx.x;
  if (row >= rows) return;
  const scalar_t* x = input + static_cast<size_t>(row) * cols;
  scalar_t* y = output + static_cast<size_t>(row) * cols;
  __shared__ float scratch[32];
  float m = -3.402823466e+38f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    m = fmaxf(m, static_cast<float>(x[c]));
  }
  m = blk_max(m, scratch);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    s += expf(static_cast<float>(x[c]) - m);
  }
  s = blk_sum(s, scratch);
  const float inv = 1.f / s;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    y[c] = static_cast<scalar_t>(expf(static_cast<float>(x[c]) - m) * inv);
  }
}

template <typename scalar_t, typename accscalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void log_softmax_forward_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int rows,
  int cols) {
  const int row = blockIdx.x;
  if (row >= rows) return;
  const scalar_t* x = input + static_cast<size_t>(row) * cols;
  scalar_t* y = output + static_cast<size_t>(row) * cols;
  __shared__ float scratch[32];
  float m = -3.402823466e+38f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    m = fmaxf(m, static_cast<float>(x[c]));
  }
  m = blk_max(m, scratch);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    s += expf(static_cast<float>(x[c]) - m);
  }
  s = blk_sum(s, scratch);
  const float lse = m + logf(s);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    y[c] = static_cast<scalar_t>(static_cast<float>(x[c]) - lse);
  }
}

// softmax backward kernel: one thread per output element.
template <typename scalar_t, typename accscalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void softmax_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ output,
  scalar_t* __restrict__ grad_input,
  int rows,
  int cols) {
  const int row = blockIdx.x;
  if (row >= rows) return;
  const size_t base = static_cast<size_t>(row) * cols;
  __shared__ float scratch[32];
  float dot = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    dot += static_cast<float>(grad_output[base + c]) * static_cast<float>(output[base + c]);
  }
  dot = blk_sum(dot, scratch);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float o = static_cast<float>(output[base + c]);
    grad_input[base + c] = static_cast<scalar_t>(o * (static_cast<float>(grad_output[base + c]) - dot));
  }
}

template <typename scalar_t, typename accscalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void log_softmax_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* output,
  scalar_t* grad_input,
  int rows,
  int cols) {
  const int row = blockIdx.x;
  if (row >= rows) return;
  const size_t base = static_cast<size_t>(row) * cols;
  __shared__ float scratch[32];
  float dot = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    dot += static_cast<float>(grad_output[base + c]) * static_cast<float>(output[base + c]);
  }
  dot = blk_sum(dot, scratch);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float o = static_cast<float>(output[base + c]);
    grad_input[base + c] = static_cast<scalar_t>(o * (static_cast<float>(grad_output[base + c]) - dot));
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void masked_softmax_kernel(
  const scalar_t* input,
  scalar_t* output,
  int rows,
  int cols) {
  const int row = blockIdx.x;
  if (row >= rows) return;
  const scalar_t* x = input + static_cast<size_t>(row) * cols;
  scalar_t* y = output + static_cast<size_t>(row) * cols;
  __shared__ float scratch[32];
  float m = -3.402823466e+38f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    m = fmaxf(m, static_cast<float>(x[c]));
  }
  m = blk_max(m, scratch);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    s += expf(static_cast<float>(x[c]) - m);
  }
  s = blk_sum(s, scratch);
  const float inv = 1.f / s;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    y[c] = static_cast<scalar_t>(expf(static_cast<float>(x[c]) - m) * inv);
  }
}

template <typename scalar_t>
__global__ void __launch_bounds__(512, 2) cross_entropy_fwd_kernel(
  const scalar_t* __restrict__ logits,
  const int64_t* target,
  float* loss,
  int rows,
  int cols,
  int64_t ignore_index) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const scalar_t* x = logits + static_cast<size_t>(r) * cols;
  float m = -3.402823466e+38f;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, static_cast<float>(x[c]));
  float s = 0.f;
  for (int c = 0; c < cols; ++c) s += expf(static_cast<float>(x[c]) - m);
  const int64_t t = target[r];
  if (t == ignore_index) {
    loss[r] = 0.f;
    return;
  }
  loss[r] = logf(s) + m - static_cast<float>(x[t]);
}

}  // namespace

void softmax_forward_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "softmax_forward_kernel_cuda", [&] {
    const int rows = static_cast<int>(input.size(0));
    const int cols = static_cast<int>(input.size(1));
    softmax_forward_kernel<scalar_t, at::acc_type<scalar_t, true>><<<rows, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), rows, cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void log_softmax_forward_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "log_softmax_forward_kernel_cuda", [&] {
    const int rows = static_cast<int>(input.size(0));
    const int cols = static_cast<int>(input.size(1));
    log_softmax_forward_kernel<scalar_t, at::acc_type<scalar_t, true>><<<rows, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), rows, cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void softmax_backward_kernel_cuda(const Tensor& grad_output, const Tensor& output, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "softmax_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "softmax_backward_kernel_cuda", [&] {
    const int rows = static_cast<int>(grad_output.size(0));
    const int cols = static_cast<int>(grad_output.size(1));
    softmax_backward_kernel<scalar_t, at::acc_type<scalar_t, true>><<<rows, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), rows, cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void log_softmax_backward_kernel_cuda(const Tensor& grad_output, const Tensor& output, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "log_softmax_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "log_softmax_backward_kernel_cuda", [&] {
    const int rows = static_cast<int>(grad_output.size(0));
    const int cols = static_cast<int>(grad_output.size(1));
    log_softmax_backward_kernel<scalar_t, at::acc_type<scalar_t, true>><<<rows, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), rows, cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void masked_softmax_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "masked_softmax_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "masked_softmax_kernel_cuda", [&] {
    const int rows = static_cast<int>(input.size(0));
    const int cols = static_cast<int>(input.size(1));
    masked_softmax_kernel<scalar_t><<<rows, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), rows, cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void cross_entropy_fwd_kernel_cuda(const Tensor& logits, const Tensor& target, Tensor& loss) {
  TORCH_CHECK(logits.is_contiguous(), "cross_entropy_fwd_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = logits.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(logits.scalar_type(), "cross_entropy_fwd_kernel_cuda", [&] {
    const int rows = static_cast<int>(logits.size(0));
    const int cols = static_cast<int>(logits.size(1));
    const int64_t ignore_index = -100;
    cross_entropy_fwd_kernel<scalar_t><<<(rows + 255) / 256, 256, 0, stream>>>(logits.data_ptr<scalar_t>(), target.data_ptr<int64_t>(), loss.data_ptr<float>(), rows, cols, ignore_index);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(softmax_forward_stub, &softmax_forward_kernel_cuda);
REGISTER_DISPATCH(log_softmax_forward_stub, &log_softmax_forward_kernel_cuda);
REGISTER_DISPATCH(softmax_backward_stub, &softmax_backward_kernel_cuda);
REGISTER_DISPATCH(log_softmax_backward_stub, &log_softmax_backward_kernel_cuda);

}  // namespace native
}  // namespace at
