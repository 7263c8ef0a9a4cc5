// Copyright (c) 2014-2023 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

namespace {

template <typename scalar_t>
__global__ void max_pool2d_forward_kernel(
  const scalar_t* bottom,
  scalar_t* top,
  int* argmax,
  int channels,
  int height,
  int width,
  int pooled_h,
  int pooled_w,
  int kernel,
  int stride,
  int pad,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const int pw = i % pooled_w;
    const int ph = (i / pooled_w) % pooled_h;
    const int c = (i / pooled_w / pooled_h) % channels;
    const int b = i / pooled_w / pooled_h / channels;
    int hstart = ph * stride - pad;
    int wstart = pw * stride - pad;
    const int hend = min(hstart + kernel, height);
    const int wend = min(wstart + kernel, width);
    hstart = max(hstart, 0);
    wstart = max(wstart, 0);
    float best = -3.402823466e+38f;
    int best_idx = -1;
    const scalar_t* slice = bottom + (b * channels + c) * height * width;
    for (int h = hstart; h < hend; ++h) {
      for (int w = wstart; w < wend; ++w) {
        const float v = static_cast<float>(slice[h * width + w]);
        if (v > best) {
          best = v;
          best_idx = h * width + w;
        }
      }
    }
    top[i] = static_cast<scalar_t>(best);
    argmax[i] = best_idx;
  }
}

// avg pool2d forward kernel: one thread per output element.
template <typename scalar_t>
__global__ void avg_pool2d_forward_kernel(
  const scalar_t* __restrict__ bottom,
  scalar_t* __restrict__ top,
  int height,
  int width,
  int pooled_h,
  int pooled_w,
  int kernel,
  int stride,
  int pad,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const int pw = i % pooled_w;
    const int ph = (i / pooled_w) % pooled_h;
    const int bc = i / pooled_w / pooled_h;
    int hstart = ph * stride - pad;
    int wstart = pw * stride - pad;
    int hend = min(hstart + kernel, height + pad);
    int wend = min(wstart + kernel, width + pad);
    const int pool_size = (hend - hstart) * (wend - wstart);
    hstart = max(hstart, 0);
    wstart = max(wstart, 0);
    hend = min(hend, height);
    wend = min(wend, width);
    float acc = 0.f;
    for (int h = hstart; h < hend; ++h)
      for (int w = wstart; w < wend; ++w)
        acc += static_cast<float>(bottom[(bc * height + h) * width + w]);
    top[i] = static_cast<scalar_t>(acc / pool_size);
  }
}

// adaptive avg pool2d kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void adaptive_avg_pool2d_kernel(
  const scalar_t* __restrict__ bottom,
  scalar_t* __restrict__ top,
  int height,
  int width,
  int pooled_h,
  int pooled_w,
  int kernel,
  int stride,
  int pad,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const int pw = index % pooled_w;
    const int ph = (index / pooled_w) % pooled_h;
    const int bc = index / pooled_w / pooled_h;
    int hstart = ph * stride - pad;
    int wstart = pw * stride - pad;
    int hend = min(hstart + kernel, height + pad);
    int wend = min(wstart + kernel, width + pad);
    const int pool_size = (hend - hstart) * (wend - wstart);
    hstart = max(hstart, 0);
    wstart = max(wstart, 0);
    hend = min(hend, height);
    wend = min(wend, width);
    float acc = 0.f;
    for (int h = hstart; h < hend; ++h)
      for (int w = wstart; w < wend; ++w)
        acc += static_cast<float>(bottom[(bc * height + h) * width + w]);
    top[index] = static_cast<scalar_t>(acc / pool_size);
  }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(1024)
__global__ void max_pool2d_with_indices_kernel(
  const scalar_t* __restrict__ bottom,
  scalar_t* __restrict__ top,
  int* argmax,
  int channels,
  int height,
  int width,
  int pooled_h,
  int pooled_w,
  int kernel,
  int stride,
  int pad,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const int pw = i % pooled_w;
    const int ph = (i / pooled_w) % pooled_h;
    const int c = (i / pooled_w / pooled_h) % channels;
    const int b = i / pooled_w / pooled_h / channels;
    int hstart = ph * stride - pad;
    int wstart = pw * stride - pad;
    const int hend = min(hstart + kernel, height);
    const int wend = min(wstart + kernel, width);
    hstart = max(hstart, 0);
    wstart = max(wstart, 0);
    float best = -3.402823466e+38f;
    int best_idx = -1;
    const scalar_t* slice = bottom + (b * channels + c) * height * width;
    for (int h = hstart; h < hend; ++h) {
      for (int w = wstart; w < wend; ++w) {
        const float v = static_cast<float>(slice[h * width + w]);
        if (v > best) {
          best = v;
          best_idx = h * width + w;
        }
      }
    }
    top[i] = static_cast<scalar_t>(best);
    argmax[i] = best_idx;
  }
}

// lp pool2d kernel: one thread per output element.
template <typename scalar_t>
__global__ void lp_pool2d_kernel(
  const scalar_t* __restrict__ bottom,
  scalar_t* __restrict__ top,
  int height,
  int width,
  int pooled_h,
  int pooled_w,
  int kernel,
  int stride,
  int pad,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    const int pw = index % pooled_w;
    const int ph = (index / pooled_w) % pooled_h;
    const int bc = index / pooled_w / pooled_h;
    int hstart = ph * stride - pad;
    int wstart = pw * stride - pad;
    int hend = min(hstart + kernel, height + pad);
    int wend = min(wstart + kernel, width + pad);
    const int pool_size = (hend - hstart) * (wend - wstart);
    hstart = max(hstart, 0);
    wstart = max(wstart, 0);
    hend = min(hend, height);
    wend = min(wend, width);
    float acc = 0.f;
    for (int h = hstart; h < hend; ++h)
      for (int w = wstart; w < wend; ++w)
        acc += static_cast<float>(bottom[(bc * height + h) * width + w]);
    top[index] = static_cast<scalar_t>(acc / pool_size);
  }
}

template <typename scalar_t>
__global__ void fractional_max_pool2d_kernel(
  const scalar_t* bottom,
  scalar_t* top,
  int* argmax,
  int channels,
  int height,
  int width,
  int pooled_h,
  int pooled_w,
  int kernel,
  int stride,
  int pad,
  int n) {
  CUDA_KERNEL_LOOP(idx, n) {
    const int pw = idx % pooled_w;
    const int ph = (idx / pooled_w) % pooled_h;
    const int c = (idx / pooled_w / pooled_h) % channels;
    const int b = idx / pooled_w / pooled_h / channels;
    int hstart = ph * stride - pad;
    int wstart = pw * stride - pad;
    const int hend = min(hstart + kernel, height);
    const int wend = min(wstart + kernel, width);
    hstart = max(hstart, 0);
    wstart = max(wstart, 0);
    float best = -3.402823466e+38f;
    int best_idx = -1;
    const scalar_t* slice = bottom + (b * channels + c) * height * width;
    for (int h = hstart; h < hend; ++h) {
      for (int w = wstart; w < wend; ++w) {
        const float v = static_cast<float>(slice[h * width + w]);
        if (v > best) {
          best = v;
          best_idx = h * width + w;
        }
      }
    }
    top[idx] = static_cast<scalar_t>(best);
    argmax[idx] = best_idx;
  }
}

}  // namespace

void max_pool2d_forward_kernel_cuda(const Tensor& bottom, Tensor& top, Tensor& argmax) {
  TORCH_CHECK(bottom.is_contiguous(), "max_pool2d_forward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = bottom.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(bottom.scalar_type(), "max_pool2d_forward_kernel_cuda", [&] {
    const int channels = 16;
    const int height = 32;
    const int width = 32;
    const int pooled_h = 16;
    const int pooled_w = 16;
    const int kernel = 3;
    const int stride = 2;
    const int pad = 1;
    const int n = static_cast<int>(numel);
    max_pool2d_forward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(bottom.data_ptr<scalar_t>(), top.data_ptr<scalar_t>(), argmax.data_ptr<int>(), channels, height, width, pooled_h, pooled_w, kernel, stride, pad, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void avg_pool2d_forward_kernel_cuda(const Tensor& bottom, Tensor& top) {
  TORCH_CHECK(bottom.is_contiguous(), "avg_pool2d_forward_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = bottom.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(bottom.scalar_type(), "avg_pool2d_forward_kernel_cuda", [&] {
    const int height = 32;
    const int width = 32;
    const int pooled_h = 16;
    const int pooled_w = 16;
    const int kernel = 3;
    const int stride = 2;
    const int pad = 1;
    const int n = static_cast<int>(numel);
    avg_pool2d_forward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(bottom.data_ptr<scalar_t>(), top.data_ptr<scalar_t>(), height, width, pooled_h, pooled_w, kernel, stride, pad, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void adaptive_avg_pool2d_kernel_cuda(const Tensor& bottom, Tensor& top) {
  TORCH_CHECK(bottom.is_contiguous(), "adaptive_avg_pool2d_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = bottom.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(bottom.scalar_type(), "adaptive_avg_pool2d_kernel_cuda", [&] {
    const int height = 32;
    const int width = 32;
    const int pooled_h = 16;
    const int pooled_w = 16;
    const int kernel = 3;
    const int stride = 2;
    const int pad = 1;
    const int n = static_cast<int>(numel);
    adaptive_avg_pool2d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(bottom.data_ptr<scalar_t>(), top.data_ptr<scalar_t>(), height, width, pooled_h, pooled_w, kernel, stride, pad, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void max_pool2d_with_indices_kernel_cuda(const Tensor& bottom, Tensor& top, Tensor& argmax) {
  TORCH_CHECK(bottom.is_contiguous(), "max_pool2d_with_indices_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = bottom.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(bottom.scalar_type(), "max_pool2d_with_indices_kernel_cuda", [&] {
    const int channels = 16;
    const int height = 32;
    const int width = 32;
    const int pooled_h = 16;
    const int pooled_w = 16;
    const int kernel = 3;
    const int stride = 2;
    const int pad = 1;
    const int n = static_cast<int>(numel);
    max_pool2d_with_indices_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(bottom.data_ptr<scalar_t>(), top.data_ptr<scalar_t>(), argmax.data_ptr<int>(), channels, height, width, pooled_h, pooled_w, kernel, stride, pad, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void lp_pool2d_kernel_cuda(const Tensor& bottom, Tensor& top) {
  const int64_t numel = bottom.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(bottom.scalar_type(), "lp_pool2d_kernel_cuda", [&] {
    const int height = 32;
    const int width = 32;
    const int pooled_h = 16;
    const int pooled_w = 16;
    const int kernel = 3;
    const int stride = 2;
    const int pad = 1;
    const int n = static_cast<int>(numel);
    lp_pool2d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(bottom.data_ptr<scalar_t>(), top.data_ptr<scalar_t>(), height, width, pooled_h, pooled_w, kernel, stride, pad, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void fractional_max_pool2d_kernel_cuda(const Tensor& bottom, Tensor& top, Tensor& argmax) {
  TORCH_CHECK(bottom.is_contiguous(), "fractional_max_pool2d_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = bottom.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(bottom.scalar_type(), "fractional_max_pool2d_kernel_cuda", [&] {
    const int channels = 16;
    const int height = 32;
    const int width = 32;
    const int pooled_h = 16;
    const int pooled_w = 16;
    const int kernel = 3;
    const int stride = 2;
    const int pad = 1;
    const int n = static_cast<int>(numel);
    fractional_max_pool2d_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(bottom.data_ptr<scalar_t>(), top.data_ptr<scalar_t>(), argmax.data_ptr<int>(), channels, height, width, pooled_h, pooled_w, kernel, stride, pad, n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(max_pool2d_forward_stub, &max_pool2d_forward_kernel_cuda);
REGISTER_DISPATCH(avg_pool2d_forward_stub, &avg_pool2d_forward_kernel_cuda);

}  // namespace native
}  // namespace at
