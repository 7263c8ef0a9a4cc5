// Copyright (c) 2017-2025 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

namespace {

// fused dropout kernel: one thread per output element.
template <typename scalar_t>
__global__ void fused_dropout_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  unsigned char* mask,
  float p,
  float scale,
  unsigned long long seed,
  int64_t n) {
  for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
     idx += static_cast<int64_t>(blockDim.x) * gridDim.x) {
    unsigned int h = static_cast<unsigned int>(idx) * 2654435761u ^ static_cast<unsigned int>(seed);
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    const float u = (h & 0x00ffffffu) * (1.f / 16777216.f);
    const bool keep = u >= p;
    mask[idx] = keep;
    out[idx] = keep ? static_cast<scalar_t>(static_cast<float>(in[idx]) * scale) : static_cast<scalar_t>(0.f);
  }
}

template <typename scalar_t>
__global__ void dropout_backward_kernel(const scalar_t* a, const scalar_t* b, scalar_t* out, int64_t n) {
  for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
     index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
    const float x = static_cast<float>(a[index]);
    const float y = static_cast<float>(b[index]);
    out[index] = static_cast<scalar_t>(x * y);
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void alpha_dropout_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  unsigned char* mask,
  float p,
  float scale,
  unsigned long long seed,
  int64_t n) {
  for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
     idx += static_cast<int64_t>(blockDim.x) * gridDim.x) {
    unsigned int h = static_cast<unsigned int>(idx) * 2654435761u ^ static_cast<unsigned int>(seed);
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    const float u = (h & 0x00ffffffu) * (1.f / 16777216.f);
    const bool keep = u >= p;
    mask[idx] = keep;
    out[idx] = keep ? static_cast<scalar_t>(static_cast<float>(in[idx]) * scale) : static_cast<scalar_t>(0.f);
  }
}

C10_LAUNCH_BOUNDS_1(256)
__global__ void rng_seed_kernel(unsigned int* state, unsigned long long seed, int n) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  unsigned long long s = seed ^ (0x9E3779B97F4A7C15ull * (id + 1));
  s ^= s >> 33;
  s *= 0xff51afd7ed558ccdull;
  s ^= s >> 33;
  state[id] = static_cast<unsigned int>(s);
}

}  // namespace

void fused_dropout_kernel_cuda(const Tensor& in, Tensor& out, Tensor& mask) {
  TORCH_CHECK(in.is_contiguous(), "fused_dropout_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "fused_dropout_kernel_cuda", [&] {
    const float p = 0.1f;
    const float scale = 1.1111f;
    const unsigned long long seed = 42ull;
    const int64_t n = static_cast<int64_t>(numel);
    fused_dropout_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), mask.data_ptr<unsigned char>(), p, scale, seed, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void dropout_backward_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
  const int64_t numel = a.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "dropout_backward_kernel_cuda", [&] {
    const int64_t n = static_cast<int64_t>(numel);
    dropout_backward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void alpha_dropout_kernel_cuda(const Tensor& in, Tensor& out, Tensor& mask) {
  TORCH_CHECK(in.is_contiguous(), "alpha_dropout_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "alpha_dropout_kernel_cuda", [&] {
    const float p = 0.1f;
    const float scale = 1.1111f;
    const unsigned long long seed = 42ull;
    const int64_t n = static_cast<int64_t>(numel);
    alpha_dropout_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), mask.data_ptr<unsigned char>(), p, scale, seed, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void rng_seed_kernel_cuda(Tensor& state) {
  const int64_t numel = state.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  const unsigned long long seed = 1234ull;
  const int n = static_cast<int>(numel);
  rng_seed_kernel<<<(n + 255) / 256, 256, 0, stream>>>(state.data_ptr<unsigned int>(), seed, n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(fused_dropout_stub, &fused_dropout_kernel_cuda);
REGISTER_DISPATCH(dropout_backward_stub, &dropout_backward_kernel_cuda);
REGISTER_DISPATCH(alpha_dropout_stub, &alpha_dropout_kernel_cuda);
REGISTER_DISPATCH(rng_seed_stub, &rng_seed_kernel_cuda);

}  // namespace native
}  // namespace at
