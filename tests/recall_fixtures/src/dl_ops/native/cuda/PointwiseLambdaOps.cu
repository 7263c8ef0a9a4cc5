// Copyright (c) 2015-2022 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include "../../include/aten_lite.cuh"
#include "../../include/Loops.cuh"

namespace at::native {

void abs_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "abs_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>(fabsf(v));
    });
  });
}

void sgn_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "sgn_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>((v > 0.f) - (v < 0.f));
    });
  });
}

void reciprocal_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "reciprocal_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>(1.f / v);
    });
  });
}

void exp_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "exp_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>(expf(v));
    });
  });
}

void pow2_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "pow2_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>(v * v);
    });
  });
}

void pow3_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "pow3_cuda", [&]() {
    const scalar_t* in = self.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) {
      const float v = static_cast<float>(in[i]);
      out[i] = static_cast<scalar_t>(v * v * v);
    });
  });
}

void pow3_vec_kernel_cuda(const Tensor& self, Tensor& result) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "pow3_vec_cuda", [&]() {
    launch_vectorized<scalar_t>(self, result, [] GPU_LAMBDA(scalar_t a) -> scalar_t {
      const float v = static_cast<float>(a);
      return static_cast<scalar_t>(v * v * v);
    });
  });
}

// fill_ is implemented with a device lambda; no kernel of its own lives here.
void fill_kernel_cuda(Tensor& self, double value) {
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "fill_cuda", [&]() {
    scalar_t* out = self.data_ptr<scalar_t>();
    const scalar_t v = static_cast<scalar_t>(value);
    launch_elementwise(self.numel(), [=] GPU_LAMBDA(int64_t i) { out[i] = v; });
  });
}

void zero_kernel_cuda(Tensor& self) {
  fill_kernel_cuda(self, 0.0);
}

// Not a kernel: a host function whose name mentions __global__ in a comment.
// __global__ void fill_legacy_kernel(float* p, float v, int n) { ... } was removed in v2.
void fill_legacy(Tensor& self) { fill_kernel_cuda(self, 1.0); }

REGISTER_DISPATCH(abs_stub, &abs_kernel_cuda);

}  // namespace at::native
