# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define THREADS 256
#define VEC_PER_THREAD 4

__device__ __forceinline__ float lrelu(float v, float slope) { return v > 0.0f ? v : v * slope; }

__device__ __forceinline__ float4 lrelu4(float4 v, float slope) {
    v.x = lrelu(v.x, slope); v.y = lrelu(v.y, slope);
    v.z = lrelu(v.z, slope); v.w = lrelu(v.w, slope);
    return v;
}

// Each block owns THREADS * VEC_PER_THREAD consecutive float4s; each thread loads its 4 float4s
// (strided by THREADS so every load instruction is fully coalesced) before storing any of them.
// Streaming hints (__ldcs / __stcs) since every byte is touched exactly once.
__global__ void __launch_bounds__(THREADS)
leaky_relu_unrolled_kernel(const float4* __restrict__ x4, float4* __restrict__ y4, long long n4, float slope) {
    const long long base = (long long)blockIdx.x * (THREADS * VEC_PER_THREAD) + threadIdx.x;
    if (base + (long long)(VEC_PER_THREAD - 1) * THREADS < n4) {
        float4 v[VEC_PER_THREAD];
        #pragma unroll
        for (int j = 0; j < VEC_PER_THREAD; ++j) v[j] = __ldcs(x4 + base + j * THREADS);
        #pragma unroll
        for (int j = 0; j < VEC_PER_THREAD; ++j) __stcs(y4 + base + j * THREADS, lrelu4(v[j], slope));
    } else {
        #pragma unroll
        for (int j = 0; j < VEC_PER_THREAD; ++j) {
            const long long k = base + (long long)j * THREADS;
            if (k < n4) __stcs(y4 + k, lrelu4(__ldcs(x4 + k), slope));
        }
    }
}

// Scalar kernel: used for the < 4 trailing elements, and for everything if misaligned.
__global__ void leaky_relu_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                         long long start, long long n, float slope) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = start + (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = lrelu(x[i], slope);
}

torch::Tensor leaky_relu_cuda(torch::Tensor x, double negative_slope, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    auto y = torch::empty_like(x);
    const long long n = x.numel();
    if (n == 0) return y;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    const float slope = (float)negative_slope;
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const bool aligned = ((reinterpret_cast<uintptr_t>(xp) | reinterpret_cast<uintptr_t>(yp)) & 15u) == 0;

    long long scalar_start = 0;
    if (aligned) {
        const long long n4 = n >> 2;
        if (n4 > 0) {
            const long long per_block = (long long)THREADS * VEC_PER_THREAD;
            const long long blocks = (n4 + per_block - 1) / per_block;
            leaky_relu_unrolled_kernel<<<(unsigned int)blocks, THREADS, 0, stream>>>(
                reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp), n4, slope);
        }
        scalar_start = n4 << 2;
    }
    const long long rem = n - scalar_start;
    if (rem > 0) {
        long long blocks = (rem + THREADS - 1) / THREADS;
        if (blocks > 65535) blocks = 65535;
        leaky_relu_scalar_kernel<<<(unsigned int)blocks, THREADS, 0, stream>>>(xp, yp, scalar_start, n, slope);
    }
    return y;
}
"""

cpp_src = "torch::Tensor leaky_relu_cuda(torch::Tensor x, double negative_slope, int64_t stream_ptr);"

leaky_mod = load_inline(
    name="leaky_relu_float4_unroll4_streaming",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["leaky_relu_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        stream = torch.cuda.current_stream().cuda_stream
        return leaky_mod.leaky_relu_cuda(x.contiguous(), float(self.negative_slope), stream)
