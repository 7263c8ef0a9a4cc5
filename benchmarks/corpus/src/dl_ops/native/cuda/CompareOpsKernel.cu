// Copyright (c) 2018-2023 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

namespace {

template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void gt_kernel(
  const scalar_t* a,
  const scalar_t* b,
  scalar_t* out,
  int n) {
  const int linear_index = blockIdx.x * blockDim.x + threadIdx.x;
  if (linear_index >= n) return;
  const float x = static_cast<float>(a[linear_index]);
  const float y = static_cast<float>(b[linear_index]);
  out[linear_index] = static_cast<scalar_t>(static_cast<float>(x > y));
}

template <typename scalar_t>
__global__ void lt_kernel(
  const scalar_t* __restrict__ a,
  const scalar_t* __restrict__ b,
  scalar_t* __restrict__ out,
  int n) {
  const int linear_index = blockIdx.x * blockDim.x + threadIdx.x;
  if (linear_index >= n) return;
  const float x = static_cast<float>(a[linear_index]);
  const float y = static_cast<float>(b[linear_index]);
  out[linear_index] = static_cast<scalar_t>(static_cast<float>(x < y));
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void eq_kernel(const scalar_t* a, const scalar_t* b, scalar_t* out, int n) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n) return;
  const float x = static_cast<float>(a[index]);
  const float y = static_cast<float>(b[index]);
  out[index] = static_cast<scalar_t>(static_cast<float>(x == y));
}

template <typename scalar_t>
__global__ void __launch_bounds__(1024) ne_kernel(const scalar_t* a, const scalar_t* b, scalar_t* out, int n) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n) return;
  const float x = static_cast<float>(a[index]);
  const float y = static_cast<float>(b[index]);
  out[index] = static_cast<scalar_t>(static_cast<float>(x != y));
}

template <typename scalar_t>
__global__ void ge_kernel(
  const scalar_t* a,
  const scalar_t* b,
  scalar_t* out,
  int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = static_cast<float>(a[i]);
  const float y = static_cast<float>(b[i]);
  out[i] = static_cast<scalar_t>(static_cast<float>(x >= y));
}

template <typename scalar_t>
__global__ void le_kernel(
  const scalar_t* __restrict__ a,
  const scalar_t* __restrict__ b,
  scalar_t* __restrict__ out,
  int n) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  const float x = static_cast<float>(a[idx]);
  const float y = static_cast<float>(b[idx]);
  out[idx] = static_cast<scalar_t>(static_cast<float>(x <= y));
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void logical_and_kernel(
  const scalar_t* __restrict__ a,
  const scalar_t* __restrict__ b,
  scalar_t* __restrict__ out,
  int n) {
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n) return;
  const float x = static_cast<float>(a[index]);
  const float y = static_cast<float>(b[index]);
  out[index] = static_cast<scalar_t>(static_cast<float>(x != 0.f && y != 0.f));
}

// logical or kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void logical_or_kernel(
  const scalar_t* a,
  const scalar_t* b,
  scalar_t* out,
  int n) {
  const int linear_index = blockIdx.x * blockDim.x + threadIdx.x;
  if (linear_index >= n) return;
  const float x = static_cast<float>(a[linear_index]);
  const float y = static_cast<float>(b[linear_index]);
  out[linear_index] = static_cast<scalar_t>(static_cast<float>(x != 0.f || y != 0.f));
}

// logical xor kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void logical_xor_kernel(
  const scalar_t* __restrict__ a,
  const scalar_t* __restrict__ b,
  scalar_t* __restrict__ out,
  int n) {
  const int linear_index = blockIdx.x * blockDim.x + threadIdx.x;
  if (linear_index >= n) return;
  const float x = static_cast<float>(a[linear_index]);
  const float y = static_cast<float>(b[linear_index]);
  out[linear_index] = static_cast<scalar_t>(static_cast<float>((x != 0.f) != (y != 0.f)));
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void where_kernel(
  const bool* cond,
  const scalar_t* __restrict__ a,
  const scalar_t* __restrict__ b,
  scalar_t* __restrict__ out,
  int n) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  out[idx] = cond[idx] ? a[idx] : b[idx];
}

template <typename scalar_t>
__global__ void clamp_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  float lo,
  float hi,
  int n) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  float v = static_cast<float>(in[idx]);
  v = v < lo ? lo : v;
  v = v > hi ? hi : v;
  out[idx] = static_cast<scalar_t>(v);
}

template <typename scalar_t>
__global__ void clamp_min_max_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  float lo,
  float hi,
  int n) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  float v = static_cast<float>(in[idx]);
  v = v < lo ? lo : v;
  v = v > hi ? hi : v;
  out[idx] = static_cast<scalar_t>(v);
}

}  // namespace

void gt_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  TORCH_CHECK(a.is_contiguous(), "gt_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "gt_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    gt_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void lt_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "lt_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    lt_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void eq_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "eq_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    eq_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void ne_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "ne_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    ne_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void ge_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  TORCH_CHECK(a.is_contiguous(), "ge_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "ge_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    ge_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void le_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "le_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    le_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void logical_and_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  TORCH_CHECK(a.is_contiguous(), "logical_and_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "logical_and_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    logical_and_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void logical_or_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  TORCH_CHECK(a.is_contiguous(), "logical_or_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "logical_or_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    logical_or_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void logical_xor_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  TORCH_CHECK(a.is_contiguous(), "logical_xor_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "logical_xor_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    logical_xor_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void where_kernel_cuda(const Tensor& cond, const Tensor& a, const Tensor& b, Tensor& out) {
  TORCH_CHECK(cond.is_contiguous(), "where_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = cond.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(cond.scalar_type(), "where_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    where_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(cond.data_ptr<bool>(), a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void clamp_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "clamp_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "clamp_kernel_cuda", [&] {
    const float lo = -1.0f;
    const float hi = 1.0f;
    const int n = static_cast<int>(numel);
    clamp_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), lo, hi, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void clamp_min_max_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "clamp_min_max_kernel_cuda", [&] {
    const float lo = -1.0f;
    const float hi = 1.0f;
    const int n = static_cast<int>(numel);
    clamp_min_max_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), lo, hi, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(gt_stub, &gt_kernel_cuda);
REGISTER_DISPATCH(lt_stub, &lt_kernel_cuda);
REGISTER_DISPATCH(eq_stub, &eq_kernel_cuda);
REGISTER_DISPATCH(ne_stub, &ne_kernel_cuda);

}  // namespace native
}  // namespace at
