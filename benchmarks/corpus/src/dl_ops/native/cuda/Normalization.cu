// Copyright (c) 2016-2022 The Tensorlite Authors. All rights reserved.
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
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void layer_norm_forward_kernel(
  const scalar_t* x,
  const scalar_t* gamma,
  const scalar_t* beta,
  scalar_t* y,
  float* mean,
  float* inv_std,
  int rows,
  int cols,
  float eps) {
  const int row = blockIdx.x;
  if (row >= rows) return;
  const size_t base = static_cast<size_t>(row) * cols;
  __shared__ float scratch[32];
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    s += static_cast<float>(x[base + c]);
  }
  const float mu = blk_sum(s, scratch) / cols;
  float ss = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float d = static_cast<float>(x[base + c]) - mu;
    ss += d * d;
  }
  const float rstd = rsqrtf(blk_sum(ss, scratch) / cols + eps);
  if (threadIdx.x == 0) {
    mean[row] = mu;
    inv_std[row] = rstd;
  }
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float xh = (static_cast<float>(x[base + c]) - mu) * rstd;
    y[base + c] = static_cast<scalar_t>(xh * static_cast<float>(gamma[c]) + static_cast<float>(beta[c]));
  }
}

// rms norm forward kernel: one thread per output element.
template <typename scalar_t>
__global__ void rms_norm_forward_kernel(
  const scalar_t* __restrict__ x,
  const scalar_t* __restrict__ weight,
  scalar_t* __restrict__ y,
  int rows,
  int cols,
  float eps) {
  const int row = blockIdx.x;
  if (row >= rows) return;
  const size_t base = static_cast<size_t>(row) * cols;
  __shared__ float scratch[32];
  float ss = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = static_cast<float>(x[base + c]);
    ss += v * v;
  }
  const float r = rsqrtf(blk_sum(ss, scratch) / cols + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    y[base + c] = static_cast<scalar_t>(static_cast<float>(x[base + c]) * r * static_cast<float>(weight[c]));
  }
}

template <typename scalar_t>
__global__ void batch_norm_inference_kernel(
  const scalar_t* __restrict__ x,
  scalar_t* __restrict__ y,
  const float* running_mean,
  const float* running_var,
  const float* weight,
  const float* bias,
  int channels,
  int hw,
  float eps,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const int c = (i / hw) % channels;
    const float inv = rsqrtf(running_var[c] + eps);
    y[i] = static_cast<scalar_t>((static_cast<float>(x[i]) - running_mean[c]) * inv * weight[c] + bias[c]);
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void bias_add_nchw_kernel(
  scalar_t* out,
  const scalar_t* bias,
  int channels,
  int spatial,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const int c = (i / spatial) % channels;
    out[i] = static_cast<scalar_t>(static_cast<float>(out[i]) + static_cast<float>(bias[c]));
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void group_norm_apply_kernel(
  const scalar_t* __restrict__ x,
  scalar_t* __restrict__ y,
  const float* running_mean,
  const float* running_var,
  const float* weight,
  const float* bias,
  int channels,
  int hw,
  float eps,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const int c = (i / hw) % channels;
    const float inv = rsqrtf(running_var[c] + eps);
    y[i] = static_cast<scalar_t>((static_cast<float>(x[i]) - running_mean[c]) * inv * weight[c] + bias[c]);
  }
}

template <typename scalar_t>
__global__ void instance_norm_apply_kernel(
  const scalar_t* __restrict__ x,
  scalar_t* __restrict__ y,
  const float* running_mean,
  const float* running_var,
  const float* weight,
  const float* bias,
  int channels,
  int hw,
  float eps,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const int c = (idx / hw) % channels;
    const float inv = rsqrtf(running_var[c] + eps);
    y[idx] = static_cast<scalar_t>((static_cast<float>(x[idx]) - running_mean[c]) * inv * weight[c] + bias[c]);
  }
}

// layer norm stats kernel: one thread per output element.
template <typename scalar_t, typename accscalar_t>
__global__ void layer_norm_stats_kernel(
  const scalar_t* x,
  const scalar_t* gamma,
  const scalar_t* beta,
  scalar_t* y,
  float* mean,
  float* inv_std,
  int rows,
  int cols,
  float eps) {
  const int row = blockIdx.x;
  if (row >= rows) return;
  const size_t base = static_cast<size_t>(row) * cols;
  __shared__ float scratch[32];
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    s += static_cast<float>(x[base + c]);
  }
  const float mu = blk_sum(s, scratch) / cols;
  float ss = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float d = static_cast<float>(x[base + c]) - mu;
    ss += d * d;
  }
  const float rstd = rsqrtf(blk_sum(ss, scratch) / cols + eps);
  if (threadIdx.x == 0) {
    mean[row] = mu;
    inv_std[row] = rstd;
  }
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float xh = (static_cast<float>(x[base + c]) - mu) * rstd;
    y[base + c] = static_cast<scalar_t>(xh * static_cast<float>(gamma[c]) + static_cast<float>(beta[c]));
  }
}

// fused add rms norm kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void fused_add_rms_norm_kernel(
  const scalar_t* __restrict__ x,
  const scalar_t* __restrict__ weight,
  scalar_t* __restrict__ y,
  int rows,
  int cols,
  float eps) {
  const int row = blockIdx.x;
  if (row >= rows) return;
  const size_t base = static_cast<size_t>(row) * cols;
  __shared__ float scratch[32];
  float ss = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = static_cast<float>(x[base + c]);
    ss += v * v;
  }
  const float r = rsqrtf(blk_sum(ss, scratch) / cols + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    y[base + c] = static_cast<scalar_t>(static_cast<float>(x[base + c]) * r * static_cast<float>(weight[c]));
  }
}

}  // namespace

void layer_norm_forward_kernel_cuda(const Tensor& x, const Tensor& gamma, const Tensor& beta, Tensor& y, Tensor& mean, Tensor& inv_std) {
  TORCH_CHECK(x.is_contiguous(), "layer_norm_forward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = x.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "layer_norm_forward_kernel_cuda", [&] {
    const int rows = static_cast<int>(x.size(0));
    const int cols = static_cast<int>(x.size(1));
    const float eps = 1e-5f;
    layer_norm_forward_kernel<scalar_t, at::acc_type<scalar_t, true>><<<rows, 256, 0, stream>>>(x.data_ptr<scalar_t>(), gamma.data_ptr<scalar_t>(), beta.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), mean.data_ptr<float>(), inv_std.data_ptr<float>(), rows, cols, eps);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void rms_norm_forward_kernel_cuda(const Tensor& x, const Tensor& weight, Tensor& y) {
  TORCH_CHECK(x.is_contiguous(), "rms_norm_forward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = x.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "rms_norm_forward_kernel_cuda", [&] {
    const int rows = static_cast<int>(x.size(0));
    const int cols = static_cast<int>(x.size(1));
    const float eps = 1e-6f;
    rms_norm_forward_kernel<scalar_t><<<rows, 256, 0, stream>>>(x.data_ptr<scalar_t>(), weight.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), rows, cols, eps);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void batch_norm_inference_kernel_cuda(const Tensor& x, Tensor& y, const Tensor& running_mean, const Tensor& running_var, const Tensor& weight, const Tensor& bias) {
  const int64_t numel = x.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "batch_norm_inference_kernel_cuda", [&] {
    const int channels = 64;
    const int hw = 196;
    const float eps = 1e-5f;
    const int n = static_cast<int>(numel);
    batch_norm_inference_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), running_mean.data_ptr<float>(), running_var.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(), channels, hw, eps, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void bias_add_nchw_kernel_cuda(Tensor& out, const Tensor& bias) {
  const int64_t numel = out.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(out.scalar_type(), "bias_add_nchw_kernel_cuda", [&] {
    const int channels = 64;
    const int spatial = 196;
    const int n = static_cast<int>(numel);
    bias_add_nchw_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(out.data_ptr<scalar_t>(), bias.data_ptr<scalar_t>(), channels, spatial, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void group_norm_apply_kernel_cuda(const Tensor& x, Tensor& y, const Tensor& running_mean, const Tensor& running_var, const Tensor& weight, const Tensor& bias) {
  const int64_t numel = x.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "group_norm_apply_kernel_cuda", [&] {
    const int channels = 64;
    const int hw = 196;
    const float eps = 1e-5f;
    const int n = static_cast<int>(numel);
    group_norm_apply_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), running_mean.data_ptr<float>(), running_var.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(), channels, hw, eps, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void instance_norm_apply_kernel_cuda(const Tensor& x, Tensor& y, const Tensor& running_mean, const Tensor& running_var, const Tensor& weight, const Tensor& bias) {
  TORCH_CHECK(x.is_contiguous(), "instance_norm_apply_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = x.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "instance_norm_apply_kernel_cuda", [&] {
    const int channels = 64;
    const int hw = 196;
    const float eps = 1e-5f;
    const int n = static_cast<int>(numel);
    instance_norm_apply_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), running_mean.data_ptr<float>(), running_var.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(), channels, hw, eps, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void layer_norm_stats_kernel_cuda(const Tensor& x, const Tensor& gamma, const Tensor& beta, Tensor& y, Tensor& mean, Tensor& inv_std) {
  const int64_t numel = x.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "layer_norm_stats_kernel_cuda", [&] {
    const int rows = static_cast<int>(x.size(0));
    const int cols = static_cast<int>(x.size(1));
    const float eps = 1e-5f;
    layer_norm_stats_kernel<scalar_t, at::acc_type<scalar_t, true>><<<rows, 256, 0, stream>>>(x.data_ptr<scalar_t>(), gamma.data_ptr<scalar_t>(), beta.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), mean.data_ptr<float>(), inv_std.data_ptr<float>(), rows, cols, eps);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void fused_add_rms_norm_kernel_cuda(const Tensor& x, const Tensor& weight, Tensor& y) {
  TORCH_CHECK(x.is_contiguous(), "fused_add_rms_norm_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = x.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "fused_add_rms_norm_kernel_cuda", [&] {
    const int rows = static_cast<int>(x.size(0));
    const int cols = static_cast<int>(x.size(1));
    const float eps = 1e-6f;
    fused_add_rms_norm_kernel<scalar_t><<<rows, 256, 0, stream>>>(x.data_ptr<scalar_t>(), weight.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), rows, cols, eps);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(layer_norm_forward_stub, &layer_norm_forward_kernel_cuda);
REGISTER_DISPATCH(rms_norm_forward_stub, &rms_norm_forward_kernel_cuda);
REGISTER_DISPATCH(batch_norm_inference_stub, &batch_norm_inference_kernel_cuda);
REGISTER_DISPATCH(bias_add_nchw_stub, &bias_add_nchw_kernel_cuda);

}  // namespace native
}  // namespace at
