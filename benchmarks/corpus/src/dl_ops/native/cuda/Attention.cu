// Copyright (c) 2012-2022 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include <cmath>
#include <cstdint>
#include "../../include/aten_lite.cuh"

namespace at::native {

namespace {

__device__ __forceinline__ float wrp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

__device__ __forceinline__ float wrp_max(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
}

// Reduces across the block; `scratch` must hold 32 floats.  All threads get the result.
__device__ __forceinline__ float blk_sum(float v, float* scratch) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    v = wrp_sum(v);
    __syncthreads();
    if (lane == 0) scratch[wid] = v;
    __syncthreads();
    const int nwarps = (blockDim.x + 31) >> 5;
    v = (threadIdx.x < nwarps) ? scratch[lane] : 0.f;
    if (wid == 0) v = wrp_sum(v);
    if (threadIdx.x == 0) scratch[0] = v;
    __syncthreads();
    return scratch[0];
}

__device__ __forceinline__ float blk_max(float v, float* scratch) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    v = wrp_max(v);
    __syncthreads();
    if (lane == 0) scratch[wid] = v;
    __syncthreads();
    const int nwarps = (blockDim.x + 31) >> 5;
    v = (threadIdx.x < nwarps) ? scratch[lane] : -3.402823466e+38f;
    if (wid == 0) v = wrp_max(v);
    if (threadIdx.x == 0) scratch[0] = v;
    __syncthreads();
    return scratch[0];
}

template <typename scalar_t>
__global__ void __launch_bounds__(256) attention_scores_kernel(
    const scalar_t* A,
    const scalar_t* B,
    scalar_t* C,
    int M,
    int N,
    int K) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k) {
        acc += static_cast<float>(A[row * K + k]) * static_cast<float>(B[k * N + col]);
    }
    C[row * N + col] = static_cast<scalar_t>(acc);
}

template <typename scalar_t, typename accscalar_t>
__global__ void attention_softmax_kernel(
    const scalar_t* __restrict__ input,
    scalar_t* __restrict__ output,
    int rows,
    int cols) {
    const int row = blockIdx.x;
    if (row >= rows) return;
    const scalar_t* x = input + static_cast<size_t>(row) * cols;
    scalar_t* y = output + static_cast<size_t>(row) * cols;
    __shared__ float scratch[32];
    float m = -3.402823466e+38f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        m = fmaxf(m, static_cast<float>(x[c]));
    }
    m = blk_max(m, scratch);
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        s += expf(static_cast<float>(x[c]) - m);
    }
    s = blk_sum(s, scratch);
    const float inv = 1.f / s;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        y[c] = static_cast<scalar_t>(expf(static_cast<float>(x[c]) - m) * inv);
    }
}

// attention context kernel: one thread per output element.
template <typename scalar_t, int TILE>
__global__ void __launch_bounds__(256) attention_context_kernel(
    const scalar_t* __restrict__ A,
    const scalar_t* __restrict__ B,
    scalar_t* __restrict__ C,
    int M,
    int N,
    int K,
    float alpha,
    float beta) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int row = blockIdx.y * TILE + threadIdx.y;
    const int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        const int ac = t * TILE + threadIdx.x;
        const int br = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ac < K) ? static_cast<float>(A[row * K + ac]) : 0.f;
        Bs[threadIdx.y][threadIdx.x] = (br < K && col < N) ? static_cast<float>(B[br * N + col]) : 0.f;
        __syncthreads();
    #pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = static_cast<scalar_t>(alpha * acc + beta * static_cast<float>(C[row * N + col]));
}

template <typename scalar_t>
__global__ void qkv_bias_add_kernel(
    scalar_t* out,
    const scalar_t* bias,
    int channels,
    int spatial,
    int n) {
    CUDA_KERNEL_LOOP(i, n) {
        const int c = (i / spatial) % channels;
        out[i] = static_cast<scalar_t>(static_cast<float>(out[i]) + static_cast<float>(bias[c]));
    }
}

// rotary embedding kernel: one thread per output element.
template <typename scalar_t>
C10_LAUNCH_BOUNDS_1(256)
__global__ void rotary_embedding_kernel(
    const scalar_t* __restrict__ a,
    const scalar_t* __restrict__ b,
    scalar_t* __restrict__ out,
    int n) {
    CUDA_KERNEL_LOOP(i, n) {
        const float x = static_cast<float>(a[i]);
        const float y = static_cast<float>(b[i]);
        out[i] = static_cast<scalar_t>(x * y);
    }
}

template <typename scalar_t>
C10_LAUNCH_BOUNDS_2(256, 4)
__global__ void causal_mask_fill_kernel(
    const bool* cond,
    const scalar_t* a,
    const scalar_t* b,
    scalar_t* out,
    int n) {
    CUDA_KERNEL_LOOP(index, n) {
        out[index] = cond[index] ? a[index] : b[index];
    }
}

}  // namespace

void attention_scores_kernel_cuda(const Tensor& A, const Tensor& B, Tensor& C) {
    const int64_t numel = A.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(A.scalar_type(), "attention_scores_kernel_cuda", [&] {
        const int M = 128;
        const int N = 128;
        const int K = 128;
        attention_scores_kernel<scalar_t><<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16), 0, stream>>>(A.data_ptr<scalar_t>(), B.data_ptr<scalar_t>(), C.data_ptr<scalar_t>(), M, N, K);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void attention_softmax_kernel_cuda(const Tensor& input, Tensor& output) {
    TORCH_CHECK(input.is_contiguous(), "attention_softmax_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = input.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "attention_softmax_kernel_cuda", [&] {
        const int rows = static_cast<int>(input.size(0));
        const int cols = static_cast<int>(input.size(1));
        attention_softmax_kernel<scalar_t, at::acc_type<scalar_t, true>><<<rows, 256, 0, stream>>>(input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), rows, cols);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void attention_context_kernel_cuda(const Tensor& A, const Tensor& B, Tensor& C) {
    TORCH_CHECK(A.is_contiguous(), "attention_context_kernel_cuda: expected a contiguous tensor");
    const int64_t numel = A.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(A.scalar_type(), "attention_context_kernel_cuda", [&] {
        const int M = 128;
        const int N = 128;
        const int K = 128;
        const float alpha = 1.0f;
        const float beta = 0.0f;
        attention_context_kernel<scalar_t, 16><<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16), 0, stream>>>(A.data_ptr<scalar_t>(), B.data_ptr<scalar_t>(), C.data_ptr<scalar_t>(), M, N, K, alpha, beta);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void qkv_bias_add_kernel_cuda(Tensor& out, const Tensor& bias) {
    const int64_t numel = out.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(out.scalar_type(), "qkv_bias_add_kernel_cuda", [&] {
        const int channels = 64;
        const int spatial = 196;
        const int n = static_cast<int>(numel);
        qkv_bias_add_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(out.data_ptr<scalar_t>(), bias.data_ptr<scalar_t>(), channels, spatial, n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void rotary_embedding_kernel_cuda(const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = a.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "rotary_embedding_kernel_cuda", [&] {
        const int n = static_cast<int>(numel);
        rotary_embedding_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void causal_mask_fill_kernel_cuda(const Tensor& cond, const Tensor& a, const Tensor& b, Tensor& out) {
    const int64_t numel = cond.numel();
    if (numel == 0) {
        return;
    }
    auto stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES(cond.scalar_type(), "causal_mask_fill_kernel_cuda", [&] {
        const int n = static_cast<int>(numel);
        causal_mask_fill_kernel<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(cond.data_ptr<bool>(), a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

REGISTER_DISPATCH(attention_scores_stub, &attention_scores_kernel_cuda);

}  // namespace at::native
