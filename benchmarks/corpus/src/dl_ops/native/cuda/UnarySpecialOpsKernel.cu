// Copyright (c) 2015-2022 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include "../../include/aten_lite.cuh"
#include "../../include/Loops.cuh"

namespace at::native {

void sqrt_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "sqrt_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>(sqrtf(v));
    });
  });
}

void frac_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "frac_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>(v - truncf(v));
    });
  });
}

void frac_vec_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "frac_vec_cuda", [&]() {
    launch_vectorized<scalar_t>(self, result, [] GPU_LAMBDA(scalar_t a) -> scalar_t {
      const float v = static_cast<float>(a);
      return static_cast<scalar_t>(v - truncf(v));
    });
  });
}

void nan_to_num_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "nan_to_num_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>(isnan(v) ? 0.f : (isinf(v) ? (v > 0.f ? 3.0e38f : -3.0e38f) : v));
    });
  });
}

void logical_not_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "logical_not_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>(v == 0.f ? 1.f : 0.f);
    });
  });
}

void logical_not_vec_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "logical_not_vec_cuda", [&]() {
    launch_vectorized<scalar_t>(self, result, [] GPU_LAMBDA(scalar_t a) -> scalar_t {
      const float v = static_cast<float>(a);
      return static_cast<scalar_t>(v == 0.f ? 1.f : 0.f);
    });
  });
}

void bitwise_not_f_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "bitwise_not_f_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>(-v - 1.f);
    });
  });
}

void signbit_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "signbit_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>(signbit(v) ? 1.f : 0.f);
    });
  });
}

REGISTER_DISPATCH(sqrt_stub, &sqrt_kernel_cuda);

}  // namespace at::native
