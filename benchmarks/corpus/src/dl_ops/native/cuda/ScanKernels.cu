// Copyright (c) 2017-2024 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

namespace {

// cumsum rows kernel: one thread per output element.
template <typename scalar_t>
__global__ void cumsum_rows_kernel(
  const scalar_t* in,
  scalar_t* out,
  int rows,
  int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.f;
  for (int c = 0; c < cols; ++c) {
    acc += static_cast<float>(in[r * cols + c]);
    out[r * cols + c] = static_cast<scalar_t>(acc);
  }
}

// cumprod rows kernel: one thread per output element.
template <typename scalar_t>
__global__ void cumprod_rows_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  int rows,
  int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.f;
  for (int c = 0; c < cols; ++c) {
    acc += static_cast<float>(in[r * cols + c]);
    out[r * cols + c] = static_cast<scalar_t>(acc);
  }
}

template <typename scalar_t, int BLOCK>
__global__ void block_scan_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  float* block_sums,
  int n) {
  __shared__ float buf[2][BLOCK];
  const int tid = threadIdx.x;
  const int gid = blockIdx.x * BLOCK + tid;
  buf[0][tid] = gid < n ? static_cast<float>(in[gid]) : 0.f;
  __syncthreads();
  int src = 0;
  for (int off = 1; off < BLOCK; off <<= 1) {
    const int dst = 1 - src;
    buf[dst][tid] = buf[src][tid] + (tid >= off ? buf[src][tid - off] : 0.f);
    __syncthreads();
    src = dst;
  }
  if (gid < n) out[gid] = static_cast<scalar_t>(buf[src][tid]);
  if (tid == BLOCK - 1) block_sums[blockIdx.x] = buf[src][tid];
}

// add block offsets kernel: one thread per output element.
template <typename scalar_t>
__global__ void add_block_offsets_kernel(
  scalar_t* __restrict__ out,
  const float* offsets,
  int n) {
  if (blockIdx.x == 0) return;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) {
    out[gid] = static_cast<scalar_t>(static_cast<float>(out[gid]) + offsets[blockIdx.x - 1]);
  }
}

}  // namespace

void cumsum_rows_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "cumsum_rows_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "cumsum_rows_kernel_cuda", [&] {
    const int rows = static_cast<int>(in.size(0));
    const int cols = static_cast<int>(in.size(1));
    cumsum_rows_kernel<scalar_t><<<(rows + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), rows, cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void cumprod_rows_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "cumprod_rows_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "cumprod_rows_kernel_cuda", [&] {
    const int rows = static_cast<int>(in.size(0));
    const int cols = static_cast<int>(in.size(1));
    cumprod_rows_kernel<scalar_t><<<(rows + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), rows, cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void block_scan_kernel_cuda(const Tensor& in, Tensor& out, Tensor& block_sums) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "block_scan_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    block_scan_kernel<scalar_t, 256><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), block_sums.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void add_block_offsets_kernel_cuda(Tensor& out, const Tensor& offsets) {
  const int64_t numel = out.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(out.scalar_type(), "add_block_offsets_kernel_cuda", [&] {
    const int n = static_cast<int>(numel);
    add_block_offsets_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(out.data_ptr<scalar_t>(), offsets.data_ptr<float>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(cumsum_rows_stub, &cumsum_rows_kernel_cuda);
REGISTER_DISPATCH(cumprod_rows_stub, &cumprod_rows_kernel_cuda);
REGISTER_DISPATCH(block_scan_stub, &block_scan_kernel_cuda);

}  // namespace native
}  // namespace at
