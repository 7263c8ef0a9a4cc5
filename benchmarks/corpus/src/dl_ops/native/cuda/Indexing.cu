// Copyright (c) 2014-2022 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at::native {

namespace {

// embedding forward kernel: one thread per output element.
template <typename scalar_t>
__global__ void __launch_bounds__(512, 2) embedding_forward_kernel(
    const int64_t* indices,
    const scalar_t* weight,
    scalar_t* out,
    int64_t dim,
    int64_t padding_idx,
    int n) {
    for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n; index += blockDim.x * gridDim.x) {
        const int64_t row = indices[index / dim];
        const int64_t col = index % dim;
        out[index] = (row == padding_idx) ? static_cast<scalar_t>(0.f) : weight[row * dim + col];
    }
}

template <typename scalar_t>
__global__ void embedding_backward_atomic_kernel(
    const int64_t* indices,
    const scalar_t* grad_output,
    float* grad_weight,
    int64_t dim,
    int n) {
    for (int linear_index = blockIdx.x * blockDim.x + threadIdx.x; linear_index < n; linear_index += blockDim.x * gridDim.x) {
        const int64_t row = indices[linear_index / dim];
        const int64_t col = linear_index % dim;
        atomicAdd(&grad_weight[row * dim + col], static_cast<float>(grad_output[linear_index]));
    }
}

template <typename scalar_t>
__global__ void embedding_bag_sum_kernel(
    const int64_t* indices,
    const scalar_t* weight,
    scalar_t* out,
    int64_t dim,
    int64_t padding_idx,
    int n) {
    for (int linear_index = blockIdx.x * blockDim.x + threadIdx.x; linear_index < n; linear_index += blockDim.x * gridDim.x) {
        const int64_t row = indices[linear_index / dim];
        const int64_t col = linear_index % dim;
        out[linear_index] = (row == padding_idx) ? static_cast<scalar_t>(0.f) : weight[row * dim + col];
    }
}

// index select kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void index_select_kernel(
    const scalar_t* src,
    const int* index_data,
    scalar_t* out,
    int inner,
    int n) {
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n; idx += blockDim.x * gridDim.x) {
        const int r = idx / inner;
        const int c = idx - r * inner;
        out[idx] = src[static_cast<int64_t>(index_data[r]) * inner + c];
    }
}

template <typename scalar_t>
__global__ void index_add_kernel(const scalar_t* src, const int* index_data, float* out, int inner, int n) {
    for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n; index += blockDim.x * gridDim.x) {
        const int r = index / inner;
        const int c = index - r * inner;
        atomicAdd(&out[static_cast<int64_t>(index_data[r]) * inner + c], static_cast<float>(src[index]));
    }
}

// gather kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void gather_kernel(
    const scalar_t* __restrict__ table,
    const int* row_ids,
    scalar_t* __restrict__ out,
    int cols,
    int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const int row = i / cols;
        const int col = i % cols;
        out[i] = table[static_cast<int64_t>(row_ids[row]) * cols + col];
    }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(CUDA_NUM_THREADS)
__global__ void scatter_add_kernel(
    const scalar_t* __restrict__ src,
    const int* index_data,
    float* out,
    int inner,
    int n) {
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n; idx += blockDim.x * gridDim.x) {
        const int r = idx / inner;
        const int c = idx - r * inner;
        atomicAdd(&out[static_cast<int64_t>(index_data[r]) * inner + c], static_cast<float>(src[idx]));
    }
}

template <typename scalar_t>
__global__ void take_kernel(
    const scalar_t* table,
    const int* row_ids,
    scalar_t* out,
    int cols,
    int n) {
    for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n; index += blockDim.x * gridDim.x) {
        const int row = index / cols;
        const int col = index % cols;
        out[index] = table[static_cast<int64_t>(row_ids[row]) * cols + col];
    }
}

// put accumulate kernel: one thread per output element.
template <typename scalar_t>
__global__ void put_accumulate_kernel(
    const scalar_t* __restrict__ src,
    const int* index_data,
    float* out,
    int inner,
    int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const int r = i / inner;
        const int c = i - r * inner;
        atomicAdd(&out[static_cast<int64_t>(index_data[r]) * inner + c], static_cast<float>(src[i]));
    }
}

}  // namespace

void embedding_forward_kernel_cuda(const Tensor& indices, const Tensor& weight, Tensor& out) {
    const int64_t numel = indices.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(indices.scalar_type(), "embedding_forward_kernel_cuda", [&] {
        const int64_t dim = 64;
        const int64_t padding_idx = -1;
        const int n = static_cast<int>(numel);
        embedding_forward_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(indices.data_ptr<int64_t>(), weight.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), dim, padding_idx, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void embedding_backward_atomic_kernel_cuda(const Tensor& indices, const Tensor& grad_output, Tensor& grad_weight) {
    const int64_t numel = indices.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(indices.scalar_type(), "embedding_backward_atomic_kernel_cuda", [&] {
        const int64_t dim = 64;
        const int n = static_cast<int>(numel);
        embedding_backward_atomic_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(indices.data_ptr<int64_t>(), grad_output.data_ptr<scalar_t>(), grad_weight.data_ptr<float>(), dim, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void embedding_bag_sum_kernel_cuda(const Tensor& indices, const Tensor& weight, Tensor& out) {
    TORCH_CHECK(indices.is_contiguous(), "embedding_bag_sum_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = indices.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(indices.scalar_type(), "embedding_bag_sum_kernel_cuda", [&] {
        const int64_t dim = 64;
        const int64_t padding_idx = -1;
        const int n = static_cast<int>(numel);
        embedding_bag_sum_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(indices.data_ptr<int64_t>(), weight.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), dim, padding_idx, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void index_select_kernel_cuda(const Tensor& src, const Tensor& index_data, Tensor& out) {
    TORCH_CHECK(src.is_contiguous(), "index_select_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = src.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(src.scalar_type(), "index_select_kernel_cuda", [&] {
        const int inner = 32;
        const int n = static_cast<int>(numel);
        index_select_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(src.data_ptr<scalar_t>(), index_data.data_ptr<int>(), out.data_ptr<scalar_t>(), inner, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void index_add_kernel_cuda(const Tensor& src, const Tensor& index_data, Tensor& out) {
    TORCH_CHECK(src.is_contiguous(), "index_add_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = src.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(src.scalar_type(), "index_add_kernel_cuda", [&] {
        const int inner = 32;
        const int n = static_cast<int>(numel);
        index_add_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(src.data_ptr<scalar_t>(), index_data.data_ptr<int>(), out.data_ptr<float>(), inner, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void gather_kernel_cuda(const Tensor& table, const Tensor& row_ids, Tensor& out) {
    TORCH_CHECK(table.is_contiguous(), "gather_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = table.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(table.scalar_type(), "gather_kernel_cuda", [&] {
        const int cols = static_cast<int>(table.size(1));
        const int n = static_cast<int>(numel);
        gather_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(table.data_ptr<scalar_t>(), row_ids.data_ptr<int>(), out.data_ptr<scalar_t>(), cols, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void scatter_add_kernel_cuda(const Tensor& src, const Tensor& index_data, Tensor& out) {
    TORCH_CHECK(src.is_contiguous(), "scatter_add_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = src.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(src.scalar_type(), "scatter_add_kernel_cuda", [&] {
        const int inner = 32;
        const int n = static_cast<int>(numel);
        scatter_add_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(src.data_ptr<scalar_t>(), index_data.data_ptr<int>(), out.data_ptr<float>(), inner, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void take_kernel_cuda(const Tensor& table, const Tensor& row_ids, Tensor& out) {
    const int64_t numel = table.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(table.scalar_type(), "take_kernel_cuda", [&] {
        const int cols = static_cast<int>(table.size(1));
        const int n = static_cast<int>(numel);
        take_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(table.data_ptr<scalar_t>(), row_ids.data_ptr<int>(), out.data_ptr<scalar_t>(), cols, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void put_accumulate_kernel_cuda(const Tensor& src, const Tensor& index_data, Tensor& out) {
    const int64_t numel = src.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(src.scalar_type(), "put_accumulate_kernel_cuda", [&] {
        const int inner = 32;
        const int n = static_cast<int>(numel);
        put_accumulate_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(src.data_ptr<scalar_t>(), index_data.data_ptr<int>(), out.data_ptr<float>(), inner, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(embedding_forward_stub, &embedding_forward_kernel_cuda);
REGISTER_DISPATCH(embedding_backward_atomic_stub, &embedding_backward_atomic_kernel_cuda);
REGISTER_DISPATCH(embedding_bag_sum_stub, &embedding_bag_sum_kernel_cuda);
REGISTER_DISPATCH(index_select_stub, &index_select_kernel_cuda);

}  // namespace at::native
