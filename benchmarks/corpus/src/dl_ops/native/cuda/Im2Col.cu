// Copyright (c) 2018-2023 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at {
namespace native {

template <typename scalar_t>
__global__ void im2col_kernel(
  const scalar_t* data_im,
  int height,
  int width,
  int kernel_h,
  int kernel_w,
  int pad_h,
  int pad_w,
  int stride_h,
  int stride_w,
  int height_col,
  int width_col,
  scalar_t* data_col,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const int w_out = i % width_col;
    const int h_index = i / width_col;
    const int h_out = h_index % height_col;
    const int channel_in = h_index / height_col;
    const int channel_out = channel_in * kernel_h * kernel_w;
    const int h_in = h_out * stride_h - pad_h;
    const int w_in = w_out * stride_w - pad_w;
    scalar_t* col_ptr = data_col + (channel_out * height_col + h_out) * width_col + w_out;
    const scalar_t* im_ptr = data_im + (channel_in * height + h_in) * width + w_in;
    for (int a = 0; a < kernel_h; ++a) {
      for (int b = 0; b < kernel_w; ++b) {
        const int hh = h_in + a;
        const int ww = w_in + b;
        *col_ptr = (hh >= 0 && ww >= 0 && hh < height && ww < width) ? im_ptr[a * width + b] : static_cast<scalar_t>(0.f);
        col_ptr += height_col * width_col;
      }
    }
  }
}

template <typename scalar_t>
__global__ void col2im_kernel(
  const scalar_t* data_col,
  int height,
  int width,
  int kernel_h,
  int kernel_w,
  int pad_h,
  int pad_w,
  int stride_h,
  int stride_w,
  int height_col,
  int width_col,
  scalar_t* data_im,
  int n) {
  CUDA_KERNEL_LOOP(index, n) {
    float val = 0.f;
    const int w_im = index % width + pad_w;
    const int h_im = (index / width) % height + pad_h;
    const int c_im = index / (width * height);
    const int w_col_start = (w_im < kernel_w) ? 0 : (w_im - kernel_w) / stride_w + 1;
    const int w_col_end = min(w_im / stride_w + 1, width_col);
    const int h_col_start = (h_im < kernel_h) ? 0 : (h_im - kernel_h) / stride_h + 1;
    const int h_col_end = min(h_im / stride_h + 1, height_col);
    for (int h_col = h_col_start; h_col < h_col_end; ++h_col) {
      for (int w_col = w_col_start; w_col < w_col_end; ++w_col) {
        const int h_k = h_im - h_col * stride_h;
        const int w_k = w_im - w_col * stride_w;
        const int c_col = (c_im * kernel_h + h_k) * kernel_w + w_k;
        val += static_cast<float>(data_col[(c_col * height_col + h_col) * width_col + w_col]);
      }
    }
    data_im[index] = static_cast<scalar_t>(val);
  }
}

// vol2col slice kernel: one thread per output element.
template <typename scalar_t>
__global__ void vol2col_slice_kernel(
  const scalar_t* data_im,
  int height,
  int width,
  int kernel_h,
  int kernel_w,
  int pad_h,
  int pad_w,
  int stride_h,
  int stride_w,
  int height_col,
  int width_col,
  scalar_t* data_col,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    const int w_out = i % width_col;
    const int h_index = i / width_col;
    const int h_out = h_index % height_col;
    const int channel_in = h_index / height_col;
    const int channel_out = channel_in * kernel_h * kernel_w;
    const int h_in = h_out * stride_h - pad_h;
    const int w_in = w_out * stride_w - pad_w;
    scalar_t* col_ptr = data_col + (channel_out * height_col + h_out) * width_col + w_out;
    const scalar_t* im_ptr = data_im + (channel_in * height + h_in) * width + w_in;
    for (int a = 0; a < kernel_h; ++a) {
      for (int b = 0; b < kernel_w; ++b) {
        const int hh = h_in + a;
        const int ww = w_in + b;
        *col_ptr = (hh >= 0 && ww >= 0 && hh < height && ww < width) ? im_ptr[a * width + b] : static_cast<scalar_t>(0.f);
        col_ptr += height_col * width_col;
      }
    }
  }
}

// col2vol slice kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void col2vol_slice_kernel(
  const scalar_t* data_col,
  int height,
  int width,
  int kernel_h,
  int kernel_w,
  int pad_h,
  int pad_w,
  int stride_h,
  int stride_w,
  int height_col,
  int width_col,
  scalar_t* data_im,
  int n) {
  CUDA_KERNEL_LOOP(i, n) {
    float val = 0.f;
    const int w_im = i % width + pad_w;
    const int h_im = (i / width) % height + pad_h;
    const int c_im = i / (width * height);
    const int w_col_start = (w_im < kernel_w) ? 0 : (w_im - kernel_w) / stride_w + 1;
    const int w_col_end = min(w_im / stride_w + 1, width_col);
    const int h_col_start = (h_im < kernel_h) ? 0 : (h_im - kernel_h) / stride_h + 1;
    const int h_col_end = min(h_im / stride_h + 1, height_col);
    for (int h_col = h_col_start; h_col < h_col_end; ++h_col) {
      for (int w_col = w_col_start; w_col < w_col_end; ++w_col) {
        const int h_k = h_im - h_col * stride_h;
        const int w_k = w_im - w_col * stride_w;
        const int c_col = (c_im * kernel_h + h_k) * kernel_w + w_k;
        val += static_cast<float>(data_col[(c_col * height_col + h_col) * width_col + w_col]);
      }
    }
    data_im[i] = static_cast<scalar_t>(val);
  }
}

void im2col_kernel_cuda(const Tensor& data_im, Tensor& data_col) {
  TORCH_CHECK(data_im.is_contiguous(), "im2col_kernel_cuda: expected a contiguous tensor");
  const int64_t numel = data_im.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(data_im.scalar_type(), "im2col_kernel_cuda", [&] {
    const int height = 32;
    const int width = 32;
    const int kernel_h = 3;
    const int kernel_w = 3;
    const int pad_h = 1;
    const int pad_w = 1;
    const int stride_h = 1;
    const int stride_w = 1;
    const int height_col = 32;
    const int width_col = 32;
    const int n = static_cast<int>(numel);
    im2col_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(data_im.data_ptr<scalar_t>(), height, width, kernel_h, kernel_w, pad_h, pad_w, stride_h, stride_w, height_col, width_col, data_col.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void col2im_kernel_cuda(const Tensor& data_col, Tensor& data_im) {
  const int64_t numel = data_col.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(data_col.scalar_type(), "col2im_kernel_cuda", [&] {
    const int height = 32;
    const int width = 32;
    const int kernel_h = 3;
    const int kernel_w = 3;
    const int pad_h = 1;
    const int pad_w = 1;
    const int stride_h = 1;
    const int stride_w = 1;
    const int height_col = 32;
    const int width_col = 32;
    const int n = static_cast<int>(numel);
    col2im_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(data_col.data_ptr<scalar_t>(), height, width, kernel_h, kernel_w, pad_h, pad_w, stride_h, stride_w, height_col, width_col, data_im.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void vol2col_slice_kernel_cuda(const Tensor& data_im, Tensor& data_col) {
  const int64_t numel = data_im.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(data_im.scalar_type(), "vol2col_slice_kernel_cuda", [&] {
    const int height = 32;
    const int width = 32;
    const int kernel_h = 3;
    const int kernel_w = 3;
    const int pad_h = 1;
    const int pad_w = 1;
    const int stride_h = 1;
    const int stride_w = 1;
    const int height_col = 32;
    const int width_col = 32;
    const int n = static_cast<int>(numel);
    vol2col_slice_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(data_im.data_ptr<scalar_t>(), height, width, kernel_h, kernel_w, pad_h, pad_w, stride_h, stride_w, height_col, width_col, data_col.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void col2vol_slice_kernel_cuda(const Tensor& data_col, Tensor& data_im) {
  const int64_t numel = data_col.numel();
  if (numel == 0) {
    return;
  }
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(data_col.scalar_type(), "col2vol_slice_kernel_cuda", [&] {
    const int height = 32;
    const int width = 32;
    const int kernel_h = 3;
    const int kernel_w = 3;
    const int pad_h = 1;
    const int pad_w = 1;
    const int stride_h = 1;
    const int stride_w = 1;
    const int height_col = 32;
    const int width_col = 32;
    const int n = static_cast<int>(numel);
    col2vol_slice_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(data_col.data_ptr<scalar_t>(), height, width, kernel_h, kernel_w, pad_h, pad_w, stride_h, stride_w, height_col, width_col, data_im.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(im2col_stub, &im2col_kernel_cuda);
REGISTER_DISPATCH(col2im_stub, &col2im_kernel_cuda);
REGISTER_DISPATCH(vol2col_slice_stub, &vol2col_slice_kernel_cuda);
REGISTER_DISPATCH(col2vol_slice_stub, &col2vol_slice_kernel_cuda);

}  // namespace native
}  // namespace at
