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
__global__ void upsample_nearest2d_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  int in_h,
  int in_w,
  int out_h,
  int out_w,
  float scale_h,
  float scale_w,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const int ox = index % out_w;
    const int oy = (index / out_w) % out_h;
    const int nc = index / (out_w * out_h);
    const int ix = min(static_cast<int>(ox * scale_w), in_w - 1);
    const int iy = min(static_cast<int>(oy * scale_h), in_h - 1);
    out[index] = in[(nc * in_h + iy) * in_w + ix];
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void upsample_bilinear2d_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  int in_h,
  int in_w,
  int out_h,
  int out_w,
  float scale_h,
  float scale_w,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const int ox = index % out_w;
    const int oy = (index / out_w) % out_h;
    const int nc = index / (out_w * out_h);
    const float fy = fmaxf((oy + 0.5f) * scale_h - 0.5f, 0.f);
    const float fx = fmaxf((ox + 0.5f) * scale_w - 0.5f, 0.f);
    const int y0 = min(static_cast<int>(fy), in_h - 1);
    const int x0 = min(static_cast<int>(fx), in_w - 1);
    const int y1 = min(y0 + 1, in_h - 1);
    const int x1 = min(x0 + 1, in_w - 1);
    const float ly = fy - y0, lx = fx - x0;
    const scalar_t* base = in + static_cast<size_t>(nc) * in_h * in_w;
    const float v = (1.f - ly) * ((1.f - lx) * static_cast<float>(base[y0 * in_w + x0]) + lx * static_cast<float>(base[y0 * in_w + x1]))
            + ly * ((1.f - lx) * static_cast<float>(base[y1 * in_w + x0]) + lx * static_cast<float>(base[y1 * in_w + x1]));
    out[index] = static_cast<scalar_t>(v);
  }
}

// upsample nearest1d kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void upsample_nearest1d_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  int in_h,
  int in_w,
  int out_h,
  int out_w,
  float scale_h,
  float scale_w,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const int ox = index % out_w;
    const int oy = (index / out_w) % out_h;
    const int nc = index / (out_w * out_h);
    const int ix = min(static_cast<int>(ox * scale_w), in_w - 1);
    const int iy = min(static_cast<int>(oy * scale_h), in_h - 1);
    out[index] = in[(nc * in_h + iy) * in_w + ix];
  }
}

template <typename scalar_t>
__global__ void upsample_linear1d_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  int in_h,
  int in_w,
  int out_h,
  int out_w,
  float scale_h,
  float scale_w,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const int ox = idx % out_w;
    const int oy = (idx / out_w) % out_h;
    const int nc = idx / (out_w * out_h);
    const float fy = fmaxf((oy + 0.5f) * scale_h - 0.5f, 0.f);
    const float fx = fmaxf((ox + 0.5f) * scale_w - 0.5f, 0.f);
    const int y0 = min(static_cast<int>(fy), in_h - 1);
    const int x0 = min(static_cast<int>(fx), in_w - 1);
    const int y1 = min(y0 + 1, in_h - 1);
    const int x1 = min(x0 + 1, in_w - 1);
    const float ly = fy - y0, lx = fx - x0;
    const scalar_t* base = in + static_cast<size_t>(nc) * in_h * in_w;
    const float v = (1.f - ly) * ((1.f - lx) * static_cast<float>(base[y0 * in_w + x0]) + lx * static_cast<float>(base[y0 * in_w + x1]))
            + ly * ((1.f - lx) * static_cast<float>(base[y1 * in_w + x0]) + lx * static_cast<float>(base[y1 * in_w + x1]));
    out[idx] = static_cast<scalar_t>(v);
  }
}

// upsample bicubic approx kernel: one thread per output element.
template <typename scalar_t>
__global__ void __launch_bounds__(1024) upsample_bicubic_approx_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  int in_h,
  int in_w,
  int out_h,
  int out_w,
  float scale_h,
  float scale_w,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const int ox = index % out_w;
    const int oy = (index / out_w) % out_h;
    const int nc = index / (out_w * out_h);
    const float fy = fmaxf((oy + 0.5f) * scale_h - 0.5f, 0.f);
    const float fx = fmaxf((ox + 0.5f) * scale_w - 0.5f, 0.f);
    const int y0 = min(static_cast<int>(fy), in_h - 1);
    const int x0 = min(static_cast<int>(fx), in_w - 1);
    const int y1 = min(y0 + 1, in_h - 1);
    const int x1 = min(x0 + 1, in_w - 1);
    const float ly = fy - y0, lx = fx - x0;
    const scalar_t* base = in + static_cast<size_t>(nc) * in_h * in_w;
    const float v = (1.f - ly) * ((1.f - lx) * static_cast<float>(base[y0 * in_w + x0]) + lx * static_cast<float>(base[y0 * in_w + x1]))
            + ly * ((1.f - lx) * static_cast<float>(base[y1 * in_w + x0]) + lx * static_cast<float>(base[y1 * in_w + x1]));
    out[index] = static_cast<scalar_t>(v);
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void reflection_pad1d_kernel(
  const scalar_t* in,
  scalar_t* out,
  int in_w,
  int out_w,
  int pad_l,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    const int o = i % out_w;
    const int plane = i / out_w;
    int j = o - pad_l;
    if (j < 0) j = -j;
    if (j >= in_w) j = 2 * (in_w - 1) - j;
    out[i] = in[plane * in_w + j];
  }
}

// replication pad1d kernel: one thread per output element.
template <typename scalar_t>
__global__ void replication_pad1d_kernel(
  const scalar_t* __restrict__ in,
  scalar_t* __restrict__ out,
  int in_w,
  int out_w,
  int pad_l,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(index, n, int64_t) {
    const int o = index % out_w;
    const int plane = index / out_w;
    int j = o - pad_l;
    if (j < 0) j = -j;
    if (j >= in_w) j = 2 * (in_w - 1) - j;
    out[index] = in[plane * in_w + j];
  }
}

template <typename scalar_t>
__global__ void __launch_bounds__(256) constant_pad2d_kernel(
  const scalar_t* in,
  scalar_t* out,
  int in_h,
  int in_w,
  int out_h,
  int out_w,
  int pad_top,
  int pad_left,
  scalar_t value,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const int x = idx % out_w;
    const int y = (idx / out_w) % out_h;
    const int p = idx / (out_w * out_h);
    const int ix = x - pad_left;
    const int iy = y - pad_top;
    out[idx] = (ix >= 0 && iy >= 0 && ix < in_w && iy < in_h) ? in[(p * in_h + iy) * in_w + ix] : value;
  }
}

template <typename scalar_t>
__global__ void circular_pad1d_kernel(
  const scalar_t* in,
  scalar_t* out,
  int in_w,
  int out_w,
  int pad_l,
  int n) {
  CUDA_KERNEL_LOOP_TYPE(idx, n, int64_t) {
    const int o = idx % out_w;
    const int plane = idx / out_w;
    int j = o - pad_l;
    if (j < 0) j = -j;
    if (j >= in_w) j = 2 * (in_w - 1) - j;
    out[idx] = in[plane * in_w + j];
  }
}

}  // namespace

void upsample_nearest2d_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "upsample_nearest2d_kernel_cuda", [&] {
    const int in_h = 16;
    const int in_w = 16;
    const int out_h = 32;
    const int out_w = 32;
    const float scale_h = 0.5f;
    const float scale_w = 0.5f;
    const int n = static_cast<int>(numel);
    upsample_nearest2d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), in_h, in_w, out_h, out_w, scale_h, scale_w, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void upsample_bilinear2d_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "upsample_bilinear2d_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "upsample_bilinear2d_kernel_cuda", [&] {
    const int in_h = 16;
    const int in_w = 16;
    const int out_h = 32;
    const int out_w = 32;
    const float scale_h = 0.5f;
    const float scale_w = 0.5f;
    const int n = static_cast<int>(numel);
    upsample_bilinear2d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), in_h, in_w, out_h, out_w, scale_h, scale_w, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void upsample_nearest1d_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "upsample_nearest1d_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "upsample_nearest1d_kernel_cuda", [&] {
    const int in_h = 16;
    const int in_w = 16;
    const int out_h = 32;
    const int out_w = 32;
    const float scale_h = 0.5f;
    const float scale_w = 0.5f;
    const int n = static_cast<int>(numel);
    upsample_nearest1d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), in_h, in_w, out_h, out_w, scale_h, scale_w, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void upsample_linear1d_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "upsample_linear1d_kernel_cuda", [&] {
    const int in_h = 16;
    const int in_w = 16;
    const int out_h = 32;
    const int out_w = 32;
    const float scale_h = 0.5f;
    const float scale_w = 0.5f;
    const int n = static_cast<int>(numel);
    upsample_linear1d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), in_h, in_w, out_h, out_w, scale_h, scale_w, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void upsample_bicubic_approx_kernel_cuda(const Tensor& in, Tensor& out) {
  TORCH_CHECK(in.is_contiguous(), "upsample_bicubic_approx_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "upsample_bicubic_approx_kernel_cuda", [&] {
    const int in_h = 16;
    const int in_w = 16;
    const int out_h = 32;
    const int out_w = 32;
    const float scale_h = 0.5f;
    const float scale_w = 0.5f;
    const int n = static_cast<int>(numel);
    upsample_bicubic_approx_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), in_h, in_w, out_h, out_w, scale_h, scale_w, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void reflection_pad1d_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "reflection_pad1d_kernel_cuda", [&] {
    const int in_w = 64;
    const int out_w = 70;
    const int pad_l = 3;
    const int n = static_cast<int>(numel);
    reflection_pad1d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), in_w, out_w, pad_l, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void replication_pad1d_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "replication_pad1d_kernel_cuda", [&] {
    const int in_w = 64;
    const int out_w = 70;
    const int pad_l = 3;
    const int n = static_cast<int>(numel);
    replication_pad1d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), in_w, out_w, pad_l, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void constant_pad2d_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "constant_pad2d_kernel_cuda", [&] {
    const int in_h = 30;
    const int in_w = 30;
    const int out_h = 32;
    const int out_w = 32;
    const int pad_top = 1;
    const int pad_left = 1;
    const scalar_t value = 0;
    const int n = static_cast<int>(numel);
    constant_pad2d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), in_h, in_w, out_h, out_w, pad_top, pad_left, value, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void circular_pad1d_kernel_cuda(const Tensor& in, Tensor& out) {
  const int64_t numel = in.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "circular_pad1d_kernel_cuda", [&] {
    const int in_w = 64;
    const int out_w = 70;
    const int pad_l = 3;
    const int n = static_cast<int>(numel);
    circular_pad1d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), in_w, out_w, pad_l, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(upsample_nearest2d_stub, &upsample_nearest2d_kernel_cuda);
REGISTER_DISPATCH(upsample_bilinear2d_stub, &upsample_bilinear2d_kernel_cuda);

}  // namespace native
}  // namespace at
