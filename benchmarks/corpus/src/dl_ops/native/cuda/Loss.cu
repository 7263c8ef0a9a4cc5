// Copyright (c) 2014-2023 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

namespace {

// squared diff loss kernel: one thread per output element.
template <typename scalar_t>
__global__ void __launch_bounds__(256) squared_diff_loss_kernel(
  const scalar_t* __restrict__ a,
  const scalar_t* __restrict__ b,
  scalar_t* __restrict__ out,
  int n) {
  const int linear_index = blockIdx.x * blockDim.x + threadIdx.x;
  if (linear_index >= n) return;
  const float x = static_cast<float>(a[linear_index]);
  const float y = static_cast<float>(b[linear_index]);
  out[linear_index] = static_cast<scalar_t>((x - y) * (x - y));
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void smooth_l1_loss_kernel(
  const scalar_t* __restrict__ a,
  const scalar_t* __restrict__ b,
  scalar_t* __restrict__ out,
  int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = static_cast<float>(a[i]);
  const float y = static_cast<float>(b[i]);
  out[i] = static_cast<scalar_t>(fabsf(x - y) < 1.f ? 0.5f * (x - y) * (x - y) : fabsf(x - y) - 0.5f);
}

template <typename scalar_t>
__global__ void huber_loss_kernel(
  const scalar_t* __restrict__ a,
  const scalar_t* __restrict__ b,
  scalar_t* __restrict__ out,
  int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = static_cast<float>(a[i]);
  const float y = static_cast<float>(b[i]);
  out[i] = static_cast<scalar_t>(fabsf(x - y) < 1.f ? 0.5f * (x - y) * (x - y) : (fabsf(x - y) - 0.5f));
}

// bce loss kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void bce_loss_kernel(
  const scalar_t* a,
  const scalar_t* b,
  scalar_t* out,
  int n) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  const float x = static_cast<float>(a[idx]);
  const float y = static_cast<float>(b[idx]);
  out[idx] = static_cast<scalar_t>(-(y * logf(fmaxf(x, 1e-12f)) + (1.f - y) * logf(fmaxf(1.f - x, 1e-12f))));
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void kl_div_loss_kernel(
  const scalar_t* __restrict__ a,
  const scalar_t* __restrict__ b,
  scalar_t* __restrict__ out,
  int n) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n) return;
  const float x = static_cast<float>(a[index]);
  const float y = static_cast<float>(b[index]);
  out[index] = static_cast<scalar_t>(y > 0.f ? y * (logf(y) - x) : 0.f);
}

// nll loss forward kernel: one thread per output element.
template <typename scalar_t>
__global__ void nll_loss_forward_kernel(
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

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void cross_entropy_loss_kernel(
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

// loss reduce sum kernel: one thread per output element.
template <typename scalar_t, int BLOCK>
__global__ void __launch_bounds__(1024) loss_reduce_sum_kernel(
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

}  // namespace

void squared_diff_loss_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "squared_diff_loss_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    squared_diff_loss_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void smooth_l1_loss_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "smooth_l1_loss_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    smooth_l1_loss_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void huber_loss_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  TORCH_CHECK(a.is_contiguous(), "huber_loss_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "huber_loss_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    huber_loss_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void bce_loss_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  TORCH_CHECK(a.is_contiguous(), "bce_loss_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "bce_loss_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    bce_loss_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void kl_div_loss_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  TORCH_CHECK(a.is_contiguous(), "kl_div_loss_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "kl_div_loss_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    kl_div_loss_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void nll_loss_forward_kernel_cuda(const Tensor& logits, const Tensor& target, Tensor& loss) {
  TORCH_CHECK(logits.is_contiguous(), "nll_loss_forward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = logits.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(logits.scalar_type(), "nll_loss_forward_kernel_cuda", [&] {
    const int rows = static_cast<int>(logits.size(0));
    const int cols = static_cast<int>(logits.size(1));
    const int64_t ignore_index = -100;
    nll_loss_forward_kernel<scalar_t><<<(rows + 255) / 256, 256, 0, stream>>>(logits.data_ptr<scalar_t>(), target.data_ptr<int64_t>(), loss.data_ptr<float>(), rows, cols, ignore_index);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void cross_entropy_loss_kernel_cuda(const Tensor& logits, const Tensor& target, Tensor& loss) {
  TORCH_CHECK(logits.is_contiguous(), "cross_entropy_loss_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = logits.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(logits.scalar_type(), "cross_entropy_loss_kernel_cuda", [&] {
    const int rows = static_cast<int>(logits.size(0));
    const int cols = static_cast<int>(logits.size(1));
    const int64_t ignore_index = -100;
    cross_entropy_loss_kernel<scalar_t><<<(rows + 255) / 256, 256, 0, stream>>>(logits.data_ptr<scalar_t>(), target.data_ptr<int64_t>(), loss.data_ptr<float>(), rows, cols, ignore_index);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void loss_reduce_sum_kernel_cuda(const Tensor& in, Tensor& partial) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "loss_reduce_sum_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    loss_reduce_sum_kernel<scalar_t, 256><<<(n + 255) / 256 > 1024 ? 1024 : (n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), partial.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(squared_diff_loss_stub, &squared_diff_loss_kernel_cuda);

}  // namespace native
}  // namespace at
