// Copyright (c) 2016-2024 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at::native {

namespace {

template <typename scalar_t>
__global__ void add_kernel(const scalar_t* a, const scalar_t* b, scalar_t* out, int64_t n) {
    for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
         index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<scalar_t>(x + y);
    }
}

template <typename scalar_t>
__global__ void sub_kernel(const scalar_t* a, const scalar_t* b, scalar_t* out, int64_t n) {
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(b[i]);
        out[i] = static_cast<scalar_t>(x - y);
    }
}

template <typename scalar_t>
__global__ void mul_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
         index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<scalar_t>(x * y);
    }
}

template <typename scalar_t>
__global__ void div_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[idx]);
        const float y = static_cast<float>(b[idx]);
        out[idx] = static_cast<scalar_t>(x / y);
    }
}

template <typename scalar_t>
__global__ void maximum_kernel(
    const scalar_t* a,
    const scalar_t* b,
    scalar_t* out,
    int64_t n) {
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(b[i]);
        out[i] = static_cast<scalar_t>(fmaxf(x, y));
    }
}

template <typename scalar_t>
__global__ void minimum_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    for (int64_t linear_index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; linear_index < n;
         linear_index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[linear_index]);
        const float y = static_cast<float>(b[linear_index]);
        out[linear_index] = static_cast<scalar_t>(fminf(x, y));
    }
}

template <typename scalar_t>
__global__ void pow_kernel(
    const scalar_t* a,
    const scalar_t* b,
    scalar_t* out,
    int64_t n) {
    for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
         index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<scalar_t>(powf(x, y));
    }
}

template <typename scalar_t>
__global__ void atan2_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(b[i]);
        out[i] = static_cast<scalar_t>(atan2f(x, y));
    }
}

template <typename scalar_t>
__global__ void fmod_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(b[i]);
        out[i] = static_cast<scalar_t>(fmodf(x, y));
    }
}

// hypot kernel: one thread per output element.
template <typename scalar_t>
__global__ void hypot_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
         index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<scalar_t>(hypotf(x, y));
    }
}

template <typename scalar_t>
__global__ void copysign_kernel(
    const scalar_t* a,
    const scalar_t* b,
    scalar_t* out,
    int64_t n) {
    for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[idx]);
        const float y = static_cast<float>(b[idx]);
        out[idx] = static_cast<scalar_t>(copysignf(x, y));
    }
}

// remainder kernel: one thread per output element.
template <typename scalar_t>
__global__ void remainder_kernel(
    const scalar_t* a,
    const scalar_t* b,
    scalar_t* out,
    int64_t n) {
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(b[i]);
        out[i] = static_cast<scalar_t>(x - floorf(x / y) * y);
    }
}

template <typename scalar_t>
__global__ void logaddexp_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[idx]);
        const float y = static_cast<float>(b[idx]);
        out[idx] = static_cast<scalar_t>(fmaxf(x, y) + log1pf(expf(-fabsf(x - y))));
    }
}

template <typename scalar_t>
__global__ void xlogy_kernel(
    const scalar_t* a,
    const scalar_t* b,
    scalar_t* out,
    int64_t n) {
    for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
         index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<scalar_t>(x == 0.f ? 0.f : x * logf(y));
    }
}

template <typename scalar_t>
__global__ void heaviside_kernel(const scalar_t* a, const scalar_t* b, scalar_t* out, int64_t n) {
    for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
         index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<scalar_t>(x == 0.f ? y : static_cast<float>(x > 0.f));
    }
}

// squared diff kernel: one thread per output element.
template <typename scalar_t>
__global__ void squared_diff_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
         index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<scalar_t>((x - y) * (x - y));
    }
}

// smooth l1 kernel: one thread per output element.
template <typename scalar_t>
__global__ void smooth_l1_kernel(const scalar_t* a, const scalar_t* b, scalar_t* out, int64_t n) {
    for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
         index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<scalar_t>(fabsf(x - y) < 1.f ? 0.5f * (x - y) * (x - y) : fabsf(x - y) - 0.5f);
    }
}

template <typename scalar_t>
__global__ void huber_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    for (int64_t linear_index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; linear_index < n;
         linear_index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[linear_index]);
        const float y = static_cast<float>(b[linear_index]);
        out[linear_index] = static_cast<scalar_t>(fabsf(x - y) < 1.f ? 0.5f * (x - y) * (x - y) : (fabsf(x - y) - 0.5f));
    }
}

template <typename scalar_t>
__global__ void bce_kernel(
    const scalar_t* a,
    const scalar_t* b,
    scalar_t* out,
    int64_t n) {
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(b[i]);
        out[i] = static_cast<scalar_t>(-(y * logf(fmaxf(x, 1e-12f)) + (1.f - y) * logf(fmaxf(1.f - x, 1e-12f))));
    }
}

template <typename scalar_t>
__global__ void kl_div_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
         index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(b[index]);
        out[index] = static_cast<scalar_t>(y > 0.f ? y * (logf(y) - x) : 0.f);
    }
}

template <typename scalar_t>
__global__ void floor_divide_kernel(
    const scalar_t* a,
    const scalar_t* b,
    scalar_t* out,
    int64_t n) {
    for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[idx]);
        const float y = static_cast<float>(b[idx]);
        out[idx] = static_cast<scalar_t>(floorf(x / y));
    }
}

// fdim kernel: one thread per output element.
template <typename scalar_t>
__global__ void fdim_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int64_t n) {
    for (int64_t linear_index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; linear_index < n;
         linear_index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[linear_index]);
        const float y = static_cast<float>(b[linear_index]);
        out[linear_index] = static_cast<scalar_t>(fdimf(x, y));
    }
}

template <typename scalar_t>
__global__ void add_alpha_kernel(
    const scalar_t* self,
    const scalar_t* other,
    scalar_t* out,
    scalar_t alpha,
    int64_t n) {
    for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
         index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(self[index]);
        const float y = static_cast<float>(other[index]) * static_cast<float>(alpha);
        out[index] = static_cast<scalar_t>(x + y);
    }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void sub_alpha_kernel(
    const scalar_t* self,
    const scalar_t* other,
    scalar_t* out,
    scalar_t alpha,
    int64_t n) {
    for (int64_t linear_index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; linear_index < n;
         linear_index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(self[linear_index]);
        const float y = static_cast<float>(other[linear_index]) * static_cast<float>(alpha);
        out[linear_index] = static_cast<scalar_t>(x - y);
    }
}

// mul alpha kernel: one thread per output element.
template <typename scalar_t>
__global__ void mul_alpha_kernel(
    const scalar_t* self,
    const scalar_t* other,
    scalar_t* out,
    scalar_t alpha,
    int64_t n) {
    for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(self[idx]);
        const float y = static_cast<float>(other[idx]) * static_cast<float>(alpha);
        out[idx] = static_cast<scalar_t>(x * y);
    }
}

template <typename scalar_t>
__global__ void div_alpha_kernel(
    const scalar_t* __restrict__ self,
    const scalar_t* __restrict__ other,
    scalar_t* __restrict__ out,
    scalar_t alpha,
    int64_t n) {
    for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(self[idx]);
        const float y = static_cast<float>(other[idx]) * static_cast<float>(alpha);
        out[idx] = static_cast<scalar_t>(x / y);
    }
}

template <typename scalar_t>
__global__ void add_row_broadcast_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ row,
    scalar_t* __restrict__ out,
    int cols,
    int64_t n) {
    for (int64_t index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; index < n;
         index += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[index]);
        const float y = static_cast<float>(row[index % cols]);
        out[index] = static_cast<scalar_t>(x + y);
    }
}

template <typename scalar_t>
__global__ void sub_row_broadcast_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ row,
    scalar_t* __restrict__ out,
    int cols,
    int64_t n) {
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(row[i % cols]);
        out[i] = static_cast<scalar_t>(x - y);
    }
}

// mul row broadcast kernel: one thread per output element.
template <typename scalar_t>
__global__ void mul_row_broadcast_kernel(
    const scalar_t* a,
    const scalar_t* row,
    scalar_t* out,
    int cols,
    int64_t n) {
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(row[i % cols]);
        out[i] = static_cast<scalar_t>(x * y);
    }
}

template <typename scalar_t>
__global__ void div_row_broadcast_kernel(
    const scalar_t* a,
    const scalar_t* row,
    scalar_t* out,
    int cols,
    int64_t n) {
    for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < n;
         idx += static_cast<int64_t>(blockDim.x) * gridDim.x) {
        const float x = static_cast<float>(a[idx]);
        const float y = static_cast<float>(row[idx % cols]);
        out[idx] = static_cast<scalar_t>(x / y);
    }
}

}  // namespace

void add_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "add_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        add_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sub_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "sub_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        sub_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void mul_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "mul_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        mul_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void div_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "div_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        div_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void maximum_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "maximum_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        maximum_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void minimum_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    TORCH_CHECK(a.is_contiguous(), "minimum_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "minimum_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        minimum_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void pow_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    TORCH_CHECK(a.is_contiguous(), "pow_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "pow_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        pow_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void atan2_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "atan2_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        atan2_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void fmod_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "fmod_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        fmod_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void hypot_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "hypot_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        hypot_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void copysign_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "copysign_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        copysign_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void remainder_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    TORCH_CHECK(a.is_contiguous(), "remainder_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "remainder_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        remainder_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void logaddexp_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "logaddexp_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        logaddexp_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void xlogy_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    TORCH_CHECK(a.is_contiguous(), "xlogy_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "xlogy_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        xlogy_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void heaviside_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "heaviside_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        heaviside_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void squared_diff_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "squared_diff_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        squared_diff_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void smooth_l1_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "smooth_l1_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        smooth_l1_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void huber_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    TORCH_CHECK(a.is_contiguous(), "huber_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "huber_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        huber_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void bce_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "bce_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        bce_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void kl_div_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "kl_div_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        kl_div_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void floor_divide_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    TORCH_CHECK(a.is_contiguous(), "floor_divide_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "floor_divide_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        floor_divide_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void fdim_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "fdim_kernel_cuda", [&] {
        const int64_t n = static_cast<int64_t>(numel);
        fdim_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void add_alpha_kernel_cuda(const Tensor& self, const Tensor& other, Tensor& out) {
    const int64_t numel = self.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "add_alpha_kernel_cuda", [&] {
        const scalar_t alpha = 0.5;
        const int64_t n = static_cast<int64_t>(numel);
        add_alpha_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(self.data_ptr<scalar_t>(), other.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), alpha, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sub_alpha_kernel_cuda(const Tensor& self, const Tensor& other, Tensor& out) {
    const int64_t numel = self.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "sub_alpha_kernel_cuda", [&] {
        const scalar_t alpha = 0.5;
        const int64_t n = static_cast<int64_t>(numel);
        sub_alpha_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(self.data_ptr<scalar_t>(), other.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), alpha, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void mul_alpha_kernel_cuda(const Tensor& self, const Tensor& other, Tensor& out) {
    const int64_t numel = self.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "mul_alpha_kernel_cuda", [&] {
        const scalar_t alpha = 0.5;
        const int64_t n = static_cast<int64_t>(numel);
        mul_alpha_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(self.data_ptr<scalar_t>(), other.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), alpha, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void div_alpha_kernel_cuda(const Tensor& self, const Tensor& other, Tensor& out) {
    const int64_t numel = self.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "div_alpha_kernel_cuda", [&] {
        const scalar_t alpha = 0.5;
        const int64_t n = static_cast<int64_t>(numel);
        div_alpha_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(self.data_ptr<scalar_t>(), other.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), alpha, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void add_row_broadcast_kernel_cuda(const Tensor& a, const Tensor& row, Tensor& out) {
    TORCH_CHECK(a.is_contiguous(), "add_row_broadcast_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "add_row_broadcast_kernel_cuda", [&] {
        const int cols = static_cast<int>(a.size(1));
        const int64_t n = static_cast<int64_t>(numel);
        add_row_broadcast_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), row.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), cols, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void sub_row_broadcast_kernel_cuda(const Tensor& a, const Tensor& row, Tensor& out) {
    TORCH_CHECK(a.is_contiguous(), "sub_row_broadcast_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "sub_row_broadcast_kernel_cuda", [&] {
        const int cols = static_cast<int>(a.size(1));
        const int64_t n = static_cast<int64_t>(numel);
        sub_row_broadcast_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), row.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), cols, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void mul_row_broadcast_kernel_cuda(const Tensor& a, const Tensor& row, Tensor& out) {
    TORCH_CHECK(a.is_contiguous(), "mul_row_broadcast_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "mul_row_broadcast_kernel_cuda", [&] {
        const int cols = static_cast<int>(a.size(1));
        const int64_t n = static_cast<int64_t>(numel);
        mul_row_broadcast_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), row.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), cols, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void div_row_broadcast_kernel_cuda(const Tensor& a, const Tensor& row, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "div_row_broadcast_kernel_cuda", [&] {
        const int cols = static_cast<int>(a.size(1));
        const int64_t n = static_cast<int64_t>(numel);
        div_row_broadcast_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), row.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), cols, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(add_stub, &add_kernel_cuda);

}  // namespace at::native
