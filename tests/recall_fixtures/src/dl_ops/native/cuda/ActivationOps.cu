// Copyright (c) 2018-2021 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

// Forward and backward kernels for the point-wise activations are stamped out
// by ACTIVATION_LIST below; see DEFINE_ACTIVATION_KERNELS.

#include <cmath>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

// X(name, forward(v), backward(v, g))
#define ACTIVATION_LIST(X) \
  X(relu, v > 0.f ? v : 0.f, v > 0.f ? g : 0.f) \
  X(sigmoid, 1.f / (1.f + expf(-v)), g * (1.f / (1.f + expf(-v))) * (1.f - 1.f / (1.f + expf(-v)))) \
  X(tanh, tanhf(v), g * (1.f - tanhf(v) * tanhf(v))) \
  X(gelu, 0.5f * v * (1.f + erff(v * 0.70710678f)), g * (0.5f * (1.f + erff(v * 0.70710678f)) + v * 0.39894228f * expf(-0.5f * v * v))) \
  X(silu, v / (1.f + expf(-v)), g * (1.f / (1.f + expf(-v))) * (1.f + v * (1.f - 1.f / (1.f + expf(-v))))) \
  X(softplus, v > 20.f ? v : log1pf(expf(v)), g / (1.f + expf(-v))) \
  X(mish, v * tanhf(v > 20.f ? v : log1pf(expf(v))), g * (tanhf(log1pf(expf(v))) + v * (1.f - tanhf(log1pf(expf(v))) * tanhf(log1pf(expf(v)))) / (1.f + expf(-v)))) \
  X(elu, v > 0.f ? v : (expf(v) - 1.f), v > 0.f ? g : g * expf(v)) \
  X(selu, 1.0507010f * (v > 0.f ? v : 1.6732632f * (expf(v) - 1.f)), v > 0.f ? 1.0507010f * g : g * 1.0507010f * 1.6732632f * expf(v)) \
  X(hardswish, v * fminf(fmaxf(v + 3.f, 0.f), 6.f) / 6.f, v < -3.f ? 0.f : (v > 3.f ? g : g * (2.f * v + 3.f) / 6.f)) \
  X(hardsigmoid, fminf(fmaxf(v / 6.f + 0.5f, 0.f), 1.f), (v > -3.f && v < 3.f) ? g / 6.f : 0.f) \
  X(hardtanh, fminf(fmaxf(v, -1.f), 1.f), (v > -1.f && v < 1.f) ? g : 0.f) \
  X(leaky_relu, v > 0.f ? v : 0.01f * v, v > 0.f ? g : 0.01f * g) \
  X(relu6, fminf(fmaxf(v, 0.f), 6.f), (v > 0.f && v < 6.f) ? g : 0.f) \
  X(abs, fabsf(v), v > 0.f ? g : -g) \
  X(exp, expf(v), g * expf(v)) \
  X(log, logf(v), g / v) \
  X(sqrt, sqrtf(v), g * 0.5f * rsqrtf(v)) \
  X(square, v * v, 2.f * g * v) \
  X(sin, sinf(v), g * cosf(v)) \
  X(cos, cosf(v), -g * sinf(v)) \
  X(erf, erff(v), g * 1.12837917f * expf(-v * v)) \
  X(softsign, v / (1.f + fabsf(v)), g / ((1.f + fabsf(v)) * (1.f + fabsf(v)))) \
  X(tanhshrink, v - tanhf(v), g * tanhf(v) * tanhf(v)) \
  X(logsigmoid, -log1pf(expf(-v)), g / (1.f + expf(v))) \
  X(softshrink, v > 0.5f ? v - 0.5f : (v < -0.5f ? v + 0.5f : 0.f), fabsf(v) > 0.5f ? g : 0.f) \
  X(quick_gelu, v / (1.f + expf(-1.702f * v)), g * (1.f / (1.f + expf(-1.702f * v))) * (1.f + 1.702f * v * (1.f - 1.f / (1.f + expf(-1.702f * v)))))

#define DEFINE_ACTIVATION_KERNELS(NAME, FWD, BWD)                                      \
  template <typename scalar_t>                                                         \
  C10_LAUNCH_BOUNDS_1(256)                                                             \
  __global__ void NAME##_forward_kernel(const scalar_t* __restrict__ input,            \
                                        scalar_t* __restrict__ output, int64_t n) {    \
    CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {                                             \
      const float v = static_cast<float>(input[i]);                                    \
      output[i] = static_cast<scalar_t>(FWD);                                          \
    }                                                                                  \
  }                                                                                    \
  template <typename scalar_t>                                                         \
  C10_LAUNCH_BOUNDS_1(256)                                                             \
  __global__ void NAME##_backward_kernel(const scalar_t* __restrict__ grad_output,     \
                                         const scalar_t* __restrict__ self,            \
                                         scalar_t* __restrict__ grad_input, int64_t n) { \
    CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {                                             \
      const float v = static_cast<float>(self[i]);                                     \
      const float g = static_cast<float>(grad_output[i]);                              \
      grad_input[i] = static_cast<scalar_t>(BWD);                                      \
    }                                                                                  \
  }

#define DEFINE_ACTIVATION_LAUNCHERS(NAME, FWD, BWD)                                    \
  void NAME##_kernel_cuda(const Tensor& self, Tensor& out) {                          \
    const int64_t n = self.numel();                                                    \
    AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), #NAME "_cuda", [&] {                \
      NAME##_forward_kernel<scalar_t><<<GET_BLOCKS(n), 256, 0,                         \
                                        at::cuda::getCurrentCUDAStream()>>>(           \
          self.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);                     \
    });                                                                                \
    C10_CUDA_KERNEL_LAUNCH_CHECK();                                                    \
  }                                                                                    \
  void NAME##_backward_kernel_cuda(const Tensor& grad, const Tensor& self, Tensor& gi) { \
    const int64_t n = self.numel();                                                    \
    AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), #NAME "_backward_cuda", [&] {       \
      NAME##_backward_kernel<scalar_t><<<GET_BLOCKS(n), 256, 0,                        \
                                         at::cuda::getCurrentCUDAStream()>>>(          \
          grad.data_ptr<scalar_t>(), self.data_ptr<scalar_t>(), gi.data_ptr<scalar_t>(), n); \
    });                                                                                \
    C10_CUDA_KERNEL_LAUNCH_CHECK();                                                    \
  }

ACTIVATION_LIST(DEFINE_ACTIVATION_KERNELS)

// Parametric activations take an extra scalar; one macro call per op.
#define DEFINE_PARAMETRIC_ACTIVATION(NAME, EXPR)                                       \
  template <typename scalar_t, typename accscalar_t>                                   \
  __global__ void NAME##_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, \
                                accscalar_t alpha, int64_t n) {                        \
    CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {                                             \
      const accscalar_t v = static_cast<accscalar_t>(x[i]);                            \
      y[i] = static_cast<scalar_t>(EXPR);                                              \
    }                                                                                  \
  }

DEFINE_PARAMETRIC_ACTIVATION(leaky_relu_alpha, v > accscalar_t(0) ? v : alpha * v)
DEFINE_PARAMETRIC_ACTIVATION(elu_alpha, v > accscalar_t(0) ? v : alpha * (exp(v) - accscalar_t(1)))
DEFINE_PARAMETRIC_ACTIVATION(
    celu_alpha,
    v > accscalar_t(0) ? v : alpha * (exp(v / alpha) - accscalar_t(1)))
DEFINE_PARAMETRIC_ACTIVATION(softplus_beta, log1p(exp(alpha * v)) / alpha)
DEFINE_PARAMETRIC_ACTIVATION(threshold, v > alpha ? v : accscalar_t(0))
DEFINE_PARAMETRIC_ACTIVATION(
    hardshrink_lambda,
    (v > alpha || v < -alpha) ? v : accscalar_t(0))
DEFINE_PARAMETRIC_ACTIVATION(prelu_scalar, v > accscalar_t(0) ? v : alpha * v)
DEFINE_PARAMETRIC_ACTIVATION(rrelu_eval, v >= accscalar_t(0) ? v : v * alpha)

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void glu_forward_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(b[i]);
        out[i] = static_cast<scalar_t>(x / (1.f + expf(-y)));
    }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void glu_backward_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(b[i]);
        out[i] = static_cast<scalar_t>(y * x);
    }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void swiglu_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(b[i]);
        out[i] = static_cast<scalar_t>(x / (1.f + expf(-x)) * y);
    }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void geglu_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(b[i]);
        out[i] = static_cast<scalar_t>(0.5f * x * (1.f + erff(x * 0.70710678f)) * y);
    }
}

ACTIVATION_LIST(DEFINE_ACTIVATION_LAUNCHERS)

void leaky_relu_alpha_kernel_cuda(const Tensor& self, Tensor& out, double alpha) {
  const int64_t n = self.numel();
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "leaky_relu_alpha_cuda", [&] {
    using accscalar_t = at::acc_type<scalar_t, true>;
    leaky_relu_alpha_kernel<scalar_t, accscalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        self.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), static_cast<accscalar_t>(alpha), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void elu_alpha_kernel_cuda(const Tensor& self, Tensor& out, double alpha) {
  const int64_t n = self.numel();
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "elu_alpha_cuda", [&] {
    using accscalar_t = at::acc_type<scalar_t, true>;
    elu_alpha_kernel<scalar_t, accscalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        self.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), static_cast<accscalar_t>(alpha), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void celu_alpha_kernel_cuda(const Tensor& self, Tensor& out, double alpha) {
  const int64_t n = self.numel();
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "celu_alpha_cuda", [&] {
    using accscalar_t = at::acc_type<scalar_t, true>;
    celu_alpha_kernel<scalar_t, accscalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        self.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), static_cast<accscalar_t>(alpha), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void softplus_beta_kernel_cuda(const Tensor& self, Tensor& out, double alpha) {
  const int64_t n = self.numel();
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "softplus_beta_cuda", [&] {
    using accscalar_t = at::acc_type<scalar_t, true>;
    softplus_beta_kernel<scalar_t, accscalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        self.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), static_cast<accscalar_t>(alpha), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void threshold_kernel_cuda(const Tensor& self, Tensor& out, double alpha) {
  const int64_t n = self.numel();
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "threshold_cuda", [&] {
    using accscalar_t = at::acc_type<scalar_t, true>;
    threshold_kernel<scalar_t, accscalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        self.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), static_cast<accscalar_t>(alpha), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void hardshrink_lambda_kernel_cuda(const Tensor& self, Tensor& out, double alpha) {
  const int64_t n = self.numel();
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "hardshrink_lambda_cuda", [&] {
    using accscalar_t = at::acc_type<scalar_t, true>;
    hardshrink_lambda_kernel<scalar_t, accscalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        self.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), static_cast<accscalar_t>(alpha), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void prelu_scalar_kernel_cuda(const Tensor& self, Tensor& out, double alpha) {
  const int64_t n = self.numel();
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "prelu_scalar_cuda", [&] {
    using accscalar_t = at::acc_type<scalar_t, true>;
    prelu_scalar_kernel<scalar_t, accscalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        self.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), static_cast<accscalar_t>(alpha), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void rrelu_eval_kernel_cuda(const Tensor& self, Tensor& out, double alpha) {
  const int64_t n = self.numel();
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "rrelu_eval_cuda", [&] {
    using accscalar_t = at::acc_type<scalar_t, true>;
    rrelu_eval_kernel<scalar_t, accscalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        self.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), static_cast<accscalar_t>(alpha), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void glu_forward_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  const int n = static_cast<int>(a.numel());
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "glu_forward_kernel", [&] {
    glu_forward_kernel<scalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
}

void glu_backward_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  const int n = static_cast<int>(a.numel());
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "glu_backward_kernel", [&] {
    glu_backward_kernel<scalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
}

void swiglu_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  const int n = static_cast<int>(a.numel());
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "swiglu_kernel", [&] {
    swiglu_kernel<scalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
}

void geglu_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  const int n = static_cast<int>(a.numel());
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "geglu_kernel", [&] {
    geglu_kernel<scalar_t><<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
}

REGISTER_DISPATCH(relu_stub, &relu_kernel_cuda);
REGISTER_DISPATCH(gelu_stub, &gelu_kernel_cuda);

}  // namespace native
}  // namespace at
