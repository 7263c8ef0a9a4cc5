// Copyright (c) 2019-2022 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

namespace {

template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void adam_update_kernel(
  scalar_t* __restrict__ param,
  const scalar_t* __restrict__ grad,
  float* exp_avg,
  float* exp_avg_sq,
  float lr,
  float beta1,
  float beta2,
  float eps,
  float weight_decay,
  int step,
  int n) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n; index += blockDim.x * gridDim.x) {
    float g = static_cast<float>(grad[index]);
    float w = static_cast<float>(param[index]);
    if (weight_decay != 0.f) g += weight_decay * w;
    const float m = beta1 * exp_avg[index] + (1.f - beta1) * g;
    const float v = beta2 * exp_avg_sq[index] + (1.f - beta2) * g * g;
    exp_avg[index] = m;
    exp_avg_sq[index] = v;
    const float mhat = m / (1.f - powf(beta1, static_cast<float>(step)));
    const float vhat = v / (1.f - powf(beta2, static_cast<float>(step)));
    param[index] = static_cast<scalar_t>(w - lr * mhat / (sqrtf(vhat) + eps));
  }
}

// adamw update kernel: one thread per output element.
template <typename scalar_t>
__global__ void adamw_update_kernel(
  scalar_t* __restrict__ param,
  const scalar_t* __restrict__ grad,
  float* exp_avg,
  float* exp_avg_sq,
  float lr,
  float beta1,
  float beta2,
  float eps,
  float weight_decay,
  int step,
  int n) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n; index += blockDim.x * gridDim.x) {
    float g = static_cast<float>(grad[index]);
    float w = static_cast<float>(param[index]);
    if (weight_decay != 0.f) g += weight_decay * w;
    const float m = beta1 * exp_avg[index] + (1.f - beta1) * g;
    const float v = beta2 * exp_avg_sq[index] + (1.f - beta2) * g * g;
    exp_avg[index] = m;
    exp_avg_sq[index] = v;
    const float mhat = m / (1.f - powf(beta1, static_cast<float>(step)));
    const float vhat = v / (1.f - powf(beta2, static_cast<float>(step)));
    param[index] = static_cast<scalar_t>(w - lr * mhat / (sqrtf(vhat) + eps));
  }
}

template <typename scalar_t>
__global__ void sgd_momentum_update_kernel(
  scalar_t* param,
  const scalar_t* grad,
  float* buf,
  float lr,
  float momentum,
  float dampening,
  float weight_decay,
  bool nesterov,
  int n) {
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n; idx += blockDim.x * gridDim.x) {
    float g = static_cast<float>(grad[idx]) + weight_decay * static_cast<float>(param[idx]);
    float b = momentum * buf[idx] + (1.f - dampening) * g;
    buf[idx] = b;
    if (nesterov) g = g + momentum * b; else g = b;
    param[idx] = static_cast<scalar_t>(static_cast<float>(param[idx]) - lr * g);
  }
}

// grad scale kernel: one thread per output element.
template <typename scalar_t>
__global__ void grad_scale_kernel(
  const scalar_t* x,
  const scalar_t* y,
  scalar_t* out,
  float alpha,
  float beta,
  int n) {
  for (int linear_index = blockIdx.x * blockDim.x + threadIdx.x; linear_index < n; linear_index += blockDim.x * gridDim.x) {
    out[linear_index] = static_cast<scalar_t>(alpha * static_cast<float>(x[linear_index]) + beta * static_cast<float>(y[linear_index]));
  }
}

// grad clip kernel: one thread per output element.
template <typename scalar_t>
__global__ void grad_clip_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  float lo,
  float hi,
  int n) {
  for (int linear_index = blockIdx.x * blockDim.x + threadIdx.x; linear_index < n; linear_index += blockDim.x * gridDim.x) {
    float v = static_cast<float>(in[linear_index]);
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    out[linear_index] = static_cast<scalar_t>(v);
  }
}

// lerp kernel: one thread per output element.
template <typename scalar_t>
__global__ void lerp_kernel(
  const scalar_t* x,
  const scalar_t* y,
  scalar_t* out,
  float alpha,
  float beta,
  int n) {
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n; idx += blockDim.x * gridDim.x) {
    out[idx] = static_cast<scalar_t>(alpha * static_cast<float>(x[idx]) + beta * static_cast<float>(y[idx]));
  }
}

}  // namespace

void adam_update_kernel_cuda(Tensor& param, const Tensor& grad, Tensor& exp_avg, Tensor& exp_avg_sq) {
  TORCH_CHECK(param.is_contiguous(), "adam_update_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = param.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(param.scalar_type(), "adam_update_kernel_cuda", [&] {
    const float lr = 1e-3f;
    const float beta1 = 0.9f;
    const float beta2 = 0.999f;
    const float eps = 1e-8f;
    const float weight_decay = 0.f;
    const int step = 1;
    const int n = static_cast<int>(numel);
    adam_update_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(param.data_ptr<scalar_t>(), grad.data_ptr<scalar_t>(), exp_avg.data_ptr<float>(), exp_avg_sq.data_ptr<float>(), lr, beta1, beta2, eps, weight_decay, step, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void adamw_update_kernel_cuda(Tensor& param, const Tensor& grad, Tensor& exp_avg, Tensor& exp_avg_sq) {
  const int64_t numel = param.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(param.scalar_type(), "adamw_update_kernel_cuda", [&] {
    const float lr = 1e-3f;
    const float beta1 = 0.9f;
    const float beta2 = 0.999f;
    const float eps = 1e-8f;
    const float weight_decay = 0.f;
    const int step = 1;
    const int n = static_cast<int>(numel);
    adamw_update_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(param.data_ptr<scalar_t>(), grad.data_ptr<scalar_t>(), exp_avg.data_ptr<float>(), exp_avg_sq.data_ptr<float>(), lr, beta1, beta2, eps, weight_decay, step, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sgd_momentum_update_kernel_cuda(Tensor& param, const Tensor& grad, Tensor& buf) {
  const int64_t numel = param.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(param.scalar_type(), "sgd_momentum_update_kernel_cuda", [&] {
    const float lr = 0.1f;
    const float momentum = 0.9f;
    const float dampening = 0.f;
    const float weight_decay = 1e-4f;
    const bool nesterov = false;
    const int n = static_cast<int>(numel);
    sgd_momentum_update_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(param.data_ptr<scalar_t>(), grad.data_ptr<scalar_t>(), buf.data_ptr<float>(), lr, momentum, dampening, weight_decay, nesterov, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void grad_scale_kernel_cuda(const Tensor& x, const Tensor& y, Tensor& out) {
  const int64_t numel = x.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "grad_scale_kernel_cuda", [&] {
    const float alpha = 2.0f;
    const float beta = 0.5f;
    const int n = static_cast<int>(numel);
    grad_scale_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), alpha, beta, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void grad_clip_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "grad_clip_kernel_cuda", [&] {
    const float lo = -1.0f;
    const float hi = 1.0f;
    const int n = static_cast<int>(numel);
    grad_clip_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), lo, hi, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void lerp_kernel_cuda(const Tensor& x, const Tensor& y, Tensor& out) {
  const int64_t numel = x.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "lerp_kernel_cuda", [&] {
    const float alpha = 2.0f;
    const float beta = 0.5f;
    const int n = static_cast<int>(numel);
    lerp_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), alpha, beta, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(adam_update_stub, &adam_update_kernel_cuda);
REGISTER_DISPATCH(adamw_update_stub, &adamw_update_kernel_cuda);

}  // namespace native
}  // namespace at
