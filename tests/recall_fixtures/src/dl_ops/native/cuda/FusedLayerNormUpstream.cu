// Copyright (c) 2019-2022 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/AccumulateType.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/native/cuda/block_reduce.cuh>
#include <c10/cuda/CUDAMathCompat.h>

namespace at::native {
namespace {

constexpr int kCUDANumThreads = 256;
constexpr int kColwiseReduceTileSize = 32;
C10_DIAGNOSTIC_PUSH_AND_IGNORED_IF_DEFINED("-Wunused-function")

DECLARE_VEC_ACCESSORS(float, 4)
DECLARE_VEC_ACCESSORS(double, 2)

template <typename T>
C10_LAUNCH_BOUNDS_1(kCUDANumThreads)
__global__ void RowwiseMomentsCUDAKernel(
    const T* __restrict__ x,
    const T* __restrict__ gamma,
    const T* __restrict__ beta,
    T* __restrict__ y,
    float* mean,
    float* inv_std,
    int rows,
    int cols,
    float eps) {
    const int row = blockIdx.x;
    if (row >= rows) return;
    const size_t base = static_cast<size_t>(row) * cols;
    __shared__ float scratch[32];
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        s += static_cast<float>(x[base + c]);
    }
    const float mu = blk_sum(s, scratch) / cols;
    float ss = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float d = static_cast<float>(x[base + c]) - mu;
        ss += d * d;
    }
    const float rstd = rsqrtf(blk_sum(ss, scratch) / cols + eps);
    if (threadIdx.x == 0) {
        mean[row] = mu;
        inv_std[row] = rstd;
    }
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float xh = (static_cast<float>(x[base + c]) - mu) * rstd;
        y[base + c] = static_cast<T>(xh * static_cast<float>(gamma[c]) + static_cast<float>(beta[c]));
    }
}

template <typename T, typename T_ACC>
__global__ void LayerNormForwardCUDAKernel(
    const T* __restrict__ x,
    const T* __restrict__ gamma,
    const T* __restrict__ beta,
    T* __restrict__ y,
    float* mean,
    float* inv_std,
    int rows,
    int cols,
    float eps) {
    const int row = blockIdx.x;
    if (row >= rows) return;
    const size_t base = static_cast<size_t>(row) * cols;
    __shared__ float scratch[32];
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        s += static_cast<float>(x[base + c]);
    }
    const float mu = blk_sum(s, scratch) / cols;
    float ss = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float d = static_cast<float>(x[base + c]) - mu;
        ss += d * d;
    }
    const float rstd = rsqrtf(blk_sum(ss, scratch) / cols + eps);
    if (threadIdx.x == 0) {
        mean[row] = mu;
        inv_std[row] = rstd;
    }
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float xh = (static_cast<float>(x[base + c]) - mu) * rstd;
        y[base + c] = static_cast<T>(xh * static_cast<float>(gamma[c]) + static_cast<float>(beta[c]));
    }
}

template <typename T>
C10_LAUNCH_BOUNDS_1(kCUDANumThreads)
__global__ void ComputeInternalGradientsCUDAKernel(
    const T* __restrict__ grad_output,
    const T* __restrict__ output,
    T* __restrict__ grad_input,
    int rows,
    int cols) {
    const int row = blockIdx.x;
    if (row >= rows) return;
    const size_t base = static_cast<size_t>(row) * cols;
    __shared__ float scratch[32];
    float dot = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        dot += static_cast<float>(grad_output[base + c]) * static_cast<float>(output[base + c]);
    }
    dot = blk_sum(dot, scratch);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float o = static_cast<float>(output[base + c]);
        grad_input[base + c] = static_cast<T>(o * (static_cast<float>(grad_output[base + c]) - dot));
    }
}

template <typename T, typename T_ACC>
__global__ void ComputeGradientFusedParamsCUDAKernel(
    const T* __restrict__ x,
    const T* __restrict__ y,
    T* __restrict__ out,
    float alpha,
    float beta,
    int n) {
    CUDA_KERNEL_LOOP(i, n) {
        out[i] = static_cast<T>(alpha * static_cast<float>(x[i]) + beta * static_cast<float>(y[i]));
    }
}

WELFORD_STRUCT_BOILERPLATE(T_ACC)
DEFINE_WELFORD_OPS(float)

template <typename T>
__global__ void LayerNormBackwardCUDAKernel(
    const T* __restrict__ grad_output,
    const T* __restrict__ self,
    T* __restrict__ grad_input,
    int n) {
    CUDA_KERNEL_LOOP(i, n) {
        const float g = static_cast<float>(grad_output[i]);
        const float v = static_cast<float>(self[i]);
        grad_input[i] = static_cast<T>(v > 0.f ? g : 0.f);
    }
}

template <typename T, typename T_ACC, int BLOCK>
C10_LAUNCH_BOUNDS_2(256, 2)
__global__ void GammaBetaBackwardSimpleCUDAKernel(
    const T* __restrict__ in,
    float* partial,
    int n) {
    __shared__ float smem[BLOCK];
    const int tid = threadIdx.x;
    float acc = 0.f;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
        const float v = static_cast<float>(in[i]);
        acc = acc + v;
    }
    smem[tid] = acc;
    __syncthreads();
    #pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) smem[tid] = smem[tid] + smem[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = smem[0];
}

template <typename T, int BLOCK>
__global__ void GammaBetaBackwardCUDAKernel_32x32(
    const T* __restrict__ in,
    float* partial,
    int n) {
    __shared__ float smem[BLOCK];
    const int tid = threadIdx.x;
    float acc = 0.f;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
        const float v = static_cast<float>(in[i]);
        acc = acc + v * v;
    }
    smem[tid] = acc;
    __syncthreads();
    #pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) smem[tid] = smem[tid] + smem[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = smem[0];
}

template <typename T, typename T_ACC>
__global__ void layer_norm_grad_input_kernel_vectorized(
    const T* __restrict__ grad_output,
    const T* __restrict__ self,
    T* __restrict__ grad_input,
    int n) {
    CUDA_KERNEL_LOOP(i, n) {
        const float g = static_cast<float>(grad_output[i]);
        const float v = static_cast<float>(self[i]);
        grad_input[i] = static_cast<T>(g * (0.5f * (1.f + erff(v * 0.70710678f)) + v * 0.39894228f * expf(-0.5f * v * v)));
    }
}

}  // namespace

void LayerNormKernelImplInternal(
    const Tensor& X,
    const Tensor& gamma,
    const Tensor& beta,
    int64_t M,
    int64_t N,
    T eps,
    Tensor* Y,
    Tensor* mean,
    Tensor* rstd) {
  AT_DISPATCH_FLOATING_TYPES_AND2(at::ScalarType::Half, at::ScalarType::BFloat16,
      X.scalar_type(), "LayerNormKernelImpl", [&]() {
    using T_ACC = acc_type<scalar_t, true>;
    cudaStream_t cuda_stream = at::cuda::getCurrentCUDAStream();
    RowwiseMomentsCUDAKernel<scalar_t, T_ACC>
        <<<M, cuda_utils::kCUDABlockReduceNumThreads, 0, cuda_stream>>>(
            N, eps, X.const_data_ptr<scalar_t>(), mean->mutable_data_ptr<T_ACC>(), rstd->mutable_data_ptr<T_ACC>());
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

REGISTER_DISPATCH(LayerNormKernel, &LayerNormKernelImpl)
REGISTER_DISPATCH(LayerNormBackwardKernel, &LayerNormBackwardKernelImpl)
C10_DIAGNOSTIC_POP()

} // namespace at::native
