// Copyright (c) 2018-2024 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

template <typename scalar_t>
__global__ void __launch_bounds__(512, 2) bitonic_sort_step_kernel(
  scalar_t* __restrict__ data,
  int j,
  int k) {
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int ixj = i ^ j;
  if (ixj <= i) return;
  const scalar_t a = data[i];
  const scalar_t b = data[ixj];
  const bool up = (i & k) == 0;
  if ((up && a > b) || (!up && a < b)) {
    data[i] = b;
    data[ixj] = a;
  }
}

// bitonic merge kernel: one thread per output element.
template <typename scalar_t>
__global__ void bitonic_merge_kernel(
  scalar_t* __restrict__ data,
  int j,
  int k) {
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int ixj = i ^ j;
  if (ixj <= i) return;
  const scalar_t a = data[i];
  const scalar_t b = data[ixj];
  const bool up = (i & k) == 0;
  if ((up && a > b) || (!up && a < b)) {
    data[i] = b;
    data[ixj] = a;
  }
}

// argmax rows kernel: one thread per output element.
template <typename scalar_t>
__global__ void argmax_rows_kernel(
  const scalar_t* __restrict__ in,
  int64_t* out,
  int rows,
  int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float best = static_cast<float>(in[r * cols]);
  int64_t arg = 0;
  for (int c = 1; c < cols; ++c) {
    const float v = static_cast<float>(in[r * cols + c]);
    if (v > best) {
      best = v;
      arg = c;
    }
  }
  out[r] = arg;
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void argmin_rows_kernel(
  const scalar_t* in,
  int64_t* out,
  int rows,
  int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float best = static_cast<float>(in[r * cols]);
  int64_t arg = 0;
  for (int c = 1; c < cols; ++c) {
    const float v = static_cast<float>(in[r * cols + c]);
    if (v > best) {
      best = v;
      arg = c;
    }
  }
  out[r] = arg;
}

// topk threshold kernel: one thread per output element.
template <typename scalar_t>
__global__ void topk_threshold_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  float lo,
  float hi,
  int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = static_cast<float>(in[i]);
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    out[i] = static_cast<scalar_t>(v);
  }
}

void bitonic_sort_step_kernel_cuda(Tensor& data) {
  TORCH_CHECK(data.is_contiguous(), "bitonic_sort_step_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = data.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(data.scalar_type(), "bitonic_sort_step_kernel_cuda", [&] {
    const int j = 2;
    const int k = 4;
    bitonic_sort_step_kernel<scalar_t><<<4096, 256, 0, stream>>>(data.data_ptr<scalar_t>(), j, k);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void bitonic_merge_kernel_cuda(Tensor& data) {
  const int64_t numel = data.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(data.scalar_type(), "bitonic_merge_kernel_cuda", [&] {
    const int j = 2;
    const int k = 4;
    bitonic_merge_kernel<scalar_t><<<4096, 256, 0, stream>>>(data.data_ptr<scalar_t>(), j, k);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void argmax_rows_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "argmax_rows_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "argmax_rows_kernel_cuda", [&] {
    const int rows = static_cast<int>(in.size(0));
    const int cols = static_cast<int>(in.size(1));
    argmax_rows_kernel<scalar_t><<<(rows + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<int64_t>(), rows, cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void argmin_rows_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "argmin_rows_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "argmin_rows_kernel_cuda", [&] {
    const int rows = static_cast<int>(in.size(0));
    const int cols = static_cast<int>(in.size(1));
    argmin_rows_kernel<scalar_t><<<(rows + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<int64_t>(), rows, cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void topk_threshold_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "topk_threshold_kernel_cuda", [&] {
    const float lo = -1.0f;
    const float hi = 1.0f;
    const int n = static_cast<int>(numel);
    topk_threshold_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), lo, hi, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(bitonic_sort_step_stub, &bitonic_sort_step_kernel_cuda);
REGISTER_DISPATCH(bitonic_merge_stub, &bitonic_merge_kernel_cuda);

}  // namespace native
}  // namespace at
