// Copyright (c) 2016-2020 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

namespace {

template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void relu_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(v > 0.f ? v : 0.f);
  }
}

// sigmoid kernel: one thread per output element.
template <typename scalar_t>
__global__ void sigmoid_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(1.f / (1.f + expf(-v)));
  }
}

// tanh kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void tanh_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(tanhf(v));
  }
}

// gelu kernel: one thread per output element.
template <typename scalar_t>
__global__ void gelu_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(0.5f * v * (1.f + erff(v * 0.70710678f)));
  }
}

// gelu tanh kernel: one thread per output element.
template <typename scalar_t>
__global__ void gelu_tanh_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(0.5f * v * (1.f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v))));
  }
}

template <typename scalar_t>
__global__ void __launch_bounds__(512, 2) silu_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(v / (1.f + expf(-v)));
  }
}

template <typename scalar_t>
__global__ void softplus_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(v > 20.f ? v : log1pf(expf(v)));
  }
}

template <typename scalar_t>
__global__ void mish_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(v * tanhf(v > 20.f ? v : log1pf(expf(v))));
  }
}

// elu kernel: one thread per output element.
template <typename scalar_t>
__global__ void elu_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(v > 0.f ? v : (expf(v) - 1.f));
  }
}

// selu kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void selu_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(1.0507010f * (v > 0.f ? v : 1.6732632f * (expf(v) - 1.f)));
  }
}

template <typename scalar_t>
__global__ void celu_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(fmaxf(v, 0.f) + fminf(0.f, expf(v) - 1.f));
  }
}

template <typename scalar_t>
__global__ void hardswish_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(v * fminf(fmaxf(v + 3.f, 0.f), 6.f) / 6.f);
  }
}

template <typename scalar_t>
__global__ void hardsigmoid_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(fminf(fmaxf(v / 6.f + 0.5f, 0.f), 1.f));
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void hardtanh_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(fminf(fmaxf(v, -1.f), 1.f));
  }
}

// leaky relu kernel: one thread per output element.
template <typename scalar_t>
__global__ void leaky_relu_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(v > 0.f ? v : 0.01f * v);
  }
}

template <typename scalar_t>
__global__ void relu6_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(fminf(fmaxf(v, 0.f), 6.f));
  }
}

// abs kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void abs_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(fabsf(v));
  }
}

// neg kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void neg_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(-v);
  }
}

// exp kernel: one thread per output element.
template <typename scalar_t>
__global__ void exp_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(expf(v));
  }
}

// exp2 kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void exp2_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(exp2f(v));
  }
}

// expm1 kernel: one thread per output element.
template <typename scalar_t>
__global__ void expm1_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(expm1f(v));
  }
}

template <typename scalar_t>
__global__ void log_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(logf(v));
  }
}

template <typename scalar_t>
__global__ void __launch_bounds__(512, 2) log1p_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(log1pf(v));
  }
}

// log2 kernel: one thread per output element.
template <typename scalar_t>
__global__ void log2_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(log2f(v));
  }
}

template <typename scalar_t>
__global__ void log10_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(log10f(v));
  }
}

template <typename scalar_t>
__global__ void sqrt_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(sqrtf(v));
  }
}

// rsqrt kernel: one thread per output element.
template <typename scalar_t>
__global__ void rsqrt_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(rsqrtf(v));
  }
}

template <typename scalar_t>
__global__ void reciprocal_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(1.f / v);
  }
}

// square kernel: one thread per output element.
template <typename scalar_t>
__global__ void square_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(v * v);
  }
}

template <typename scalar_t>
__global__ void cube_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(v * v * v);
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void sin_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(sinf(v));
  }
}

template <typename scalar_t>
__global__ void cos_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(cosf(v));
  }
}

template <typename scalar_t>
__global__ void tan_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(tanf(v));
  }
}

template <typename scalar_t>
__global__ void __launch_bounds__(256) asin_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(asinf(v));
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void acos_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(acosf(v));
  }
}

template <typename scalar_t>
__global__ void atan_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(atanf(v));
  }
}

template <typename scalar_t>
__global__ void sinh_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(sinhf(v));
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void cosh_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(coshf(v));
  }
}

template <typename scalar_t>
__global__ void asinh_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(asinhf(v));
  }
}

// acosh kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void acosh_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(acoshf(v));
  }
}

template <typename scalar_t>
__global__ void atanh_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(atanhf(v));
  }
}

template <typename scalar_t>
__global__ void erf_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(erff(v));
  }
}

// erfc kernel: one thread per output element.
template <typename scalar_t>
__global__ void erfc_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(erfcf(v));
  }
}

// erfinv kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void erfinv_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(erfinvf(v));
  }
}

// lgamma kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void lgamma_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(lgammaf(v));
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void floor_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(floorf(v));
  }
}

// ceil kernel: one thread per output element.
template <typename scalar_t>
__global__ void ceil_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(ceilf(v));
  }
}

template <typename scalar_t>
__global__ void round_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(rintf(v));
  }
}

template <typename scalar_t>
__global__ void __launch_bounds__(1024) trunc_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(truncf(v));
  }
}

template <typename scalar_t>
__global__ void frac_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(v - truncf(v));
  }
}

template <typename scalar_t>
__global__ void sign_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(static_cast<float>((v > 0.f) - (v < 0.f)));
  }
}

// softsign kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void softsign_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(v / (1.f + fabsf(v)));
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void tanhshrink_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(v - tanhf(v));
  }
}

// logsigmoid kernel: one thread per output element.
template <typename scalar_t>
__global__ void logsigmoid_kernel(
  const scalar_t* __restrict__ input,
  scalar_t* __restrict__ output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(-log1pf(expf(-v)));
  }
}

template <typename scalar_t>
__global__ void softshrink_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(v > 0.5f ? v - 0.5f : (v < -0.5f ? v + 0.5f : 0.f));
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void hardshrink_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(fabsf(v) > 0.5f ? v : 0.f);
  }
}

template <typename scalar_t>
__global__ void sinc_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(v == 0.f ? 1.f : sinpif(v) / (3.14159265f * v));
  }
}

template <typename scalar_t>
__global__ void i0_approx_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const float v = static_cast<float>(input[i]);
    output[i] = static_cast<scalar_t>(1.f + 0.25f * v * v + 0.015625f * v * v * v * v);
  }
}

template <typename scalar_t>
__global__ void deg2rad_kernel(const scalar_t* input, scalar_t* output, int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(v * 0.0174532925f);
  }
}

template <typename scalar_t>
__global__ void rad2deg_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output, int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const float v = static_cast<float>(input[index]);
    output[index] = static_cast<scalar_t>(v * 57.2957795f);
  }
}

template <typename scalar_t>
__global__ void logit_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(logf(v / (1.f - v)));
  }
}

template <typename scalar_t>
__global__ void quick_gelu_kernel(
  const scalar_t* input,
  scalar_t* output,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const float v = static_cast<float>(input[idx]);
    output[idx] = static_cast<scalar_t>(v / (1.f + expf(-1.702f * v)));
  }
}

}  // namespace

void relu_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "relu_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    relu_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sigmoid_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "sigmoid_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    sigmoid_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void tanh_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "tanh_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    tanh_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void gelu_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "gelu_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    gelu_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void gelu_tanh_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "gelu_tanh_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    gelu_tanh_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void silu_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "silu_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    silu_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void softplus_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "softplus_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    softplus_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void mish_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "mish_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "mish_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    mish_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void elu_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "elu_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    elu_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void selu_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "selu_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    selu_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void celu_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "celu_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    celu_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void hardswish_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "hardswish_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "hardswish_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    hardswish_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void hardsigmoid_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "hardsigmoid_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    hardsigmoid_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void hardtanh_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "hardtanh_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "hardtanh_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    hardtanh_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void leaky_relu_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "leaky_relu_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "leaky_relu_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    leaky_relu_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void relu6_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "relu6_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "relu6_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    relu6_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void abs_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "abs_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    abs_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void neg_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "neg_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    neg_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void exp_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "exp_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "exp_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    exp_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void exp2_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "exp2_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    exp2_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void expm1_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "expm1_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "expm1_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    expm1_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void log_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "log_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "log_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    log_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void log1p_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "log1p_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    log1p_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void log2_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "log2_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    log2_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void log10_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "log10_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    log10_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sqrt_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "sqrt_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    sqrt_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void rsqrt_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "rsqrt_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "rsqrt_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    rsqrt_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void reciprocal_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "reciprocal_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    reciprocal_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void square_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "square_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "square_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    square_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void cube_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "cube_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    cube_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sin_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "sin_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    sin_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void cos_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "cos_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "cos_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    cos_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void tan_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "tan_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    tan_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void asin_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "asin_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "asin_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    asin_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void acos_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "acos_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    acos_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void atan_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "atan_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    atan_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sinh_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "sinh_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "sinh_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    sinh_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void cosh_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "cosh_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "cosh_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    cosh_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void asinh_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "asinh_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    asinh_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void acosh_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "acosh_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "acosh_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    acosh_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void atanh_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "atanh_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "atanh_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    atanh_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void erf_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "erf_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "erf_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    erf_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void erfc_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "erfc_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    erfc_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void erfinv_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "erfinv_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    erfinv_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void lgamma_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "lgamma_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    lgamma_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void floor_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "floor_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    floor_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void ceil_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "ceil_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    ceil_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void round_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "round_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    round_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void trunc_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "trunc_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "trunc_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    trunc_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void frac_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "frac_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "frac_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    frac_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sign_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "sign_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "sign_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    sign_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void softsign_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "softsign_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "softsign_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    softsign_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void tanhshrink_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "tanhshrink_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    tanhshrink_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void logsigmoid_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "logsigmoid_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    logsigmoid_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void softshrink_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "softshrink_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    softshrink_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void hardshrink_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "hardshrink_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    hardshrink_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sinc_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "sinc_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    sinc_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void i0_approx_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "i0_approx_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    i0_approx_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void deg2rad_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "deg2rad_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    deg2rad_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void rad2deg_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "rad2deg_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "rad2deg_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    rad2deg_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void logit_kernel_cuda(const Tensor& input, Tensor& output) {
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "logit_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    logit_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void quick_gelu_kernel_cuda(const Tensor& input, Tensor& output) {
  TORCH_CHECK(input.is_contiguous(), "quick_gelu_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = input.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "quick_gelu_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    quick_gelu_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(relu_stub, &relu_kernel_cuda);
REGISTER_DISPATCH(sigmoid_stub, &sigmoid_kernel_cuda);
REGISTER_DISPATCH(tanh_stub, &tanh_kernel_cuda);
REGISTER_DISPATCH(gelu_stub, &gelu_kernel_cuda);

}  // namespace native
}  // namespace at
