// Copyright (c) 2012-2025 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

namespace {

template <typename scalar_t>
__global__ void abs_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* self,
  scalar_t* grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    const float g = static_cast<float>(grad_output[i]);
    const float v = static_cast<float>(self[i]);
    grad_input[i] = static_cast<scalar_t>(v > 0.f ? g : -g);
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void cos_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* self,
  scalar_t* grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const float g = static_cast<float>(grad_output[index]);
    const float v = static_cast<float>(self[index]);
    grad_input[index] = static_cast<scalar_t>(-g * sinf(v));
  }
}

// elu backward kernel: one thread per output element.
template <typename scalar_t>
__global__ void elu_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const float g = static_cast<float>(grad_output[idx]);
    const float v = static_cast<float>(self[idx]);
    grad_input[idx] = static_cast<scalar_t>(v > 0.f ? g : g * expf(v));
  }
}

template <typename scalar_t>
__global__ void erf_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* self,
  scalar_t* grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const float g = static_cast<float>(grad_output[idx]);
    const float v = static_cast<float>(self[idx]);
    grad_input[idx] = static_cast<scalar_t>(g * 1.12837917f * expf(-v * v));
  }
}

template <typename scalar_t>
__global__ void __launch_bounds__(512, 2) exp_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* self,
  scalar_t* grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const float g = static_cast<float>(grad_output[index]);
    const float v = static_cast<float>(self[index]);
    grad_input[index] = static_cast<scalar_t>(g * expf(v));
  }
}

template <typename scalar_t>
__global__ void __launch_bounds__(256) gelu_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* self,
  scalar_t* grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    const float g = static_cast<float>(grad_output[i]);
    const float v = static_cast<float>(self[i]);
    grad_input[i] = static_cast<scalar_t>(g * (0.5f * (1.f + erff(v * 0.70710678f)) + v * 0.39894228f * expf(-0.5f * v * v)));
  }
}

// hardsigmoid backward kernel: one thread per output element.
template <typename scalar_t>
__global__ void hardsigmoid_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    const float g = static_cast<float>(grad_output[i]);
    const float v = static_cast<float>(self[i]);
    grad_input[i] = static_cast<scalar_t>((v > -3.f && v < 3.f) ? g / 6.f : 0.f);
  }
}

template <typename scalar_t>
__global__ void __launch_bounds__(512, 2) hardswish_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const float g = static_cast<float>(grad_output[index]);
    const float v = static_cast<float>(self[index]);
    grad_input[index] = static_cast<scalar_t>(v < -3.f ? 0.f : (v > 3.f ? g : g * (2.f * v + 3.f) / 6.f));
  }
}

template <typename scalar_t>
__global__ void hardtanh_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* self,
  scalar_t* grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    const float g = static_cast<float>(grad_output[i]);
    const float v = static_cast<float>(self[i]);
    grad_input[i] = static_cast<scalar_t>((v > -1.f && v < 1.f) ? g : 0.f);
  }
}

template <typename scalar_t>
__global__ void leaky_relu_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const float g = static_cast<float>(grad_output[index]);
    const float v = static_cast<float>(self[index]);
    grad_input[index] = static_cast<scalar_t>(v > 0.f ? g : 0.01f * g);
  }
}

template <typename scalar_t>
__global__ void log_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const float g = static_cast<float>(grad_output[idx]);
    const float v = static_cast<float>(self[idx]);
    grad_input[idx] = static_cast<scalar_t>(g / v);
  }
}

// logsigmoid backward kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void logsigmoid_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    const float g = static_cast<float>(grad_output[i]);
    const float v = static_cast<float>(self[i]);
    grad_input[i] = static_cast<scalar_t>(g / (1.f + expf(v)));
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void mish_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    const float g = static_cast<float>(grad_output[i]);
    const float v = static_cast<float>(self[i]);
    grad_input[i] = static_cast<scalar_t>(g * (tanhf(log1pf(expf(v))) + v * (1.f - tanhf(log1pf(expf(v))) * tanhf(log1pf(expf(v)))) / (1.f + expf(-v))));
  }
}

// quick gelu backward kernel: one thread per output element.
template <typename scalar_t>
__global__ void quick_gelu_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const float g = static_cast<float>(grad_output[idx]);
    const float v = static_cast<float>(self[idx]);
    grad_input[idx] = static_cast<scalar_t>(g * (1.f / (1.f + expf(-1.702f * v))) * (1.f + 1.702f * v * (1.f - 1.f / (1.f + expf(-1.702f * v)))));
  }
}

// relu backward kernel: one thread per output element.
template <typename scalar_t>
__global__ void relu_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* self,
  scalar_t* grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const float g = static_cast<float>(grad_output[idx]);
    const float v = static_cast<float>(self[idx]);
    grad_input[idx] = static_cast<scalar_t>(v > 0.f ? g : 0.f);
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void relu6_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* self,
  scalar_t* grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const float g = static_cast<float>(grad_output[index]);
    const float v = static_cast<float>(self[index]);
    grad_input[index] = static_cast<scalar_t>((v > 0.f && v < 6.f) ? g : 0.f);
  }
}

template <typename scalar_t>
__global__ void selu_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const float g = static_cast<float>(grad_output[idx]);
    const float v = static_cast<float>(self[idx]);
    grad_input[idx] = static_cast<scalar_t>(v > 0.f ? 1.0507010f * g : g * 1.0507010f * 1.6732632f * expf(v));
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void sigmoid_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* self,
  scalar_t* grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const float g = static_cast<float>(grad_output[index]);
    const float v = static_cast<float>(self[index]);
    grad_input[index] = static_cast<scalar_t>(g * (1.f / (1.f + expf(-v))) * (1.f - 1.f / (1.f + expf(-v))));
  }
}

// silu backward kernel: one thread per output element.
template <typename scalar_t>
__global__ void silu_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    const float g = static_cast<float>(grad_output[i]);
    const float v = static_cast<float>(self[i]);
    grad_input[i] = static_cast<scalar_t>(g * (1.f / (1.f + expf(-v))) * (1.f + v * (1.f - 1.f / (1.f + expf(-v)))));
  }
}

template <typename scalar_t>
__global__ void sin_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const float g = static_cast<float>(grad_output[index]);
    const float v = static_cast<float>(self[index]);
    grad_input[index] = static_cast<scalar_t>(g * cosf(v));
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void softplus_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const float g = static_cast<float>(grad_output[index]);
    const float v = static_cast<float>(self[index]);
    grad_input[index] = static_cast<scalar_t>(g / (1.f + expf(-v)));
  }
}

// softshrink backward kernel: one thread per output element.
template <typename scalar_t>
__global__ void softshrink_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const float g = static_cast<float>(grad_output[idx]);
    const float v = static_cast<float>(self[idx]);
    grad_input[idx] = static_cast<scalar_t>(fabsf(v) > 0.5f ? g : 0.f);
  }
}

// softsign backward kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void softsign_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* self,
  scalar_t* grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const float g = static_cast<float>(grad_output[idx]);
    const float v = static_cast<float>(self[idx]);
    grad_input[idx] = static_cast<scalar_t>(g / ((1.f + fabsf(v)) * (1.f + fabsf(v))));
  }
}

template <typename scalar_t>
__global__ void __launch_bounds__(512, 2) sqrt_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const float g = static_cast<float>(grad_output[idx]);
    const float v = static_cast<float>(self[idx]);
    grad_input[idx] = static_cast<scalar_t>(g * 0.5f * rsqrtf(v));
  }
}

template <typename scalar_t>
__global__ void square_backward_kernel(
  const scalar_t* grad_output,
  const scalar_t* self,
  scalar_t* grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const float g = static_cast<float>(grad_output[idx]);
    const float v = static_cast<float>(self[idx]);
    grad_input[idx] = static_cast<scalar_t>(2.f * g * v);
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void tanh_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const float g = static_cast<float>(grad_output[idx]);
    const float v = static_cast<float>(self[idx]);
    grad_input[idx] = static_cast<scalar_t>(g * (1.f - tanhf(v) * tanhf(v)));
  }
}

// tanhshrink backward kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void tanhshrink_backward_kernel(
  const scalar_t* __restrict__ grad_output,
  const scalar_t* __restrict__ self,
  scalar_t* __restrict__ grad_input,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    const float g = static_cast<float>(grad_output[i]);
    const float v = static_cast<float>(self[i]);
    grad_input[i] = static_cast<scalar_t>(g * tanhf(v) * tanhf(v));
  }
}

}  // namespace

void abs_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "abs_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    abs_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void cos_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "cos_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "cos_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    cos_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void elu_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "elu_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    elu_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void erf_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "erf_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "erf_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    erf_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void exp_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "exp_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    exp_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void gelu_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "gelu_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    gelu_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void hardsigmoid_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "hardsigmoid_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "hardsigmoid_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    hardsigmoid_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void hardswish_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "hardswish_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    hardswish_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void hardtanh_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "hardtanh_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "hardtanh_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    hardtanh_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void leaky_relu_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "leaky_relu_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "leaky_relu_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    leaky_relu_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void log_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "log_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    log_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void logsigmoid_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "logsigmoid_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    logsigmoid_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void mish_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "mish_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "mish_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    mish_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void quick_gelu_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "quick_gelu_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    quick_gelu_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void relu_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "relu_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    relu_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void relu6_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "relu6_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "relu6_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    relu6_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void selu_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "selu_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "selu_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    selu_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sigmoid_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "sigmoid_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    sigmoid_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void silu_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "silu_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "silu_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    silu_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sin_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "sin_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "sin_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    sin_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void softplus_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "softplus_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "softplus_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    softplus_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void softshrink_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "softshrink_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    softshrink_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void softsign_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "softsign_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    softsign_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sqrt_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "sqrt_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    sqrt_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void square_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "square_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "square_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    square_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void tanh_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  TORCH_CHECK(grad_output.is_contiguous(), "tanh_backward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "tanh_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    tanh_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void tanhshrink_backward_kernel_cuda(const Tensor& grad_output, const Tensor& self, Tensor& grad_input) {
  const int64_t numel = grad_output.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "tanhshrink_backward_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    tanhshrink_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(grad_output.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), grad_input.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(abs_backward_stub, &abs_backward_kernel_cuda);
REGISTER_DISPATCH(cos_backward_stub, &cos_backward_kernel_cuda);
REGISTER_DISPATCH(elu_backward_stub, &elu_backward_kernel_cuda);

}  // namespace native
}  // namespace at
