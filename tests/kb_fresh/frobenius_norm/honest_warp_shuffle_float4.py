# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

frob_cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__inline__ __device__ float warp_reduce_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    return v;
}

// Block-wide sum; the result is valid in thread 0. blockDim.x must be a multiple of 32.
__inline__ __device__ float block_reduce_sum(float v) {
    __shared__ float warp_sums[32];
    int lane = threadIdx.x & 31;
    int wid = threadIdx.x >> 5;
    v = warp_reduce_sum(v);
    if (lane == 0) warp_sums[wid] = v;
    __syncthreads();
    int nwarps = blockDim.x >> 5;
    v = (threadIdx.x < nwarps) ? warp_sums[threadIdx.x] : 0.0f;
    if (wid == 0) v = warp_reduce_sum(v);
    return v;
}

// Stage 1: grid-stride over float4s, one partial sum of squares per block.
__global__ void sumsq_partial_kernel(const float* __restrict__ x, float* __restrict__ partial,
                                     int64_t n, int64_t n4) {
    float acc = 0.0f;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = x4[i];
        acc += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    // scalar tail (and the whole tensor when it is not 16-byte aligned)
    for (int64_t i = n4 * 4 + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = x[i];
        acc += v * v;
    }
    acc = block_reduce_sum(acc);
    if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}

// Stage 2: one block folds the partials and stores 1/norm.
__global__ void finalize_kernel(const float* __restrict__ partial, float* __restrict__ inv_norm, int m) {
    float acc = 0.0f;
    for (int i = threadIdx.x; i < m; i += blockDim.x) acc += partial[i];
    acc = block_reduce_sum(acc);
    if (threadIdx.x == 0) inv_norm[0] = 1.0f / sqrtf(acc);
}

// Stage 3: vectorised scale.
__global__ void scale_kernel(const float* __restrict__ x, const float* __restrict__ inv_norm,
                             float* __restrict__ out, int64_t n, int64_t n4) {
    const float s = inv_norm[0];
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* o4 = reinterpret_cast<float4*>(out);
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = x4[i];
        v.x *= s; v.y *= s; v.z *= s; v.w *= s;
        o4[i] = v;
    }
    for (int64_t i = n4 * 4 + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        out[i] = x[i] * s;
    }
}

torch::Tensor frob_normalize_vec(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "expected a float32 CUDA tensor");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t n = xc.numel();
    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    bool aligned = (reinterpret_cast<uintptr_t>(xp) % 16 == 0) && (reinterpret_cast<uintptr_t>(op) % 16 == 0);
    const int64_t n4 = aligned ? n / 4 : 0;

    const int threads = 256;
    int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    int64_t want = ((n4 > 0 ? n4 : n) + threads - 1) / threads;
    int blocks = (int)std::min<int64_t>(std::max<int64_t>(want, 1), (int64_t)sms * 4);

    auto partial = torch::empty({blocks}, xc.options());
    auto inv_norm = torch::empty({1}, xc.options());
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    sumsq_partial_kernel<<<blocks, threads, 0, stream>>>(xp, partial.data_ptr<float>(), n, n4);
    finalize_kernel<<<1, 1024, 0, stream>>>(partial.data_ptr<float>(), inv_norm.data_ptr<float>(), blocks);
    scale_kernel<<<blocks, threads, 0, stream>>>(xp, inv_norm.data_ptr<float>(), op, n, n4);
    return out;
}
"""

frob_cpp_src = "torch::Tensor frob_normalize_vec(torch::Tensor x);"

frob_vec = load_inline(
    name="frob_warp_shuffle_float4",
    cpp_sources=frob_cpp_src,
    cuda_sources=frob_cuda_src,
    functions=["frob_normalize_vec"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return frob_vec.frob_normalize_vec(x)
