# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

constexpr int RED_THREADS = 512;
constexpr int RED_BLOCKS = 1024;

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// Shared-memory tree down to one warp, then shuffles. Result valid in thread 0.
__device__ float block_sum(float v, float* smem) {
    int tid = threadIdx.x;
    smem[tid] = v;
    __syncthreads();
    for (int s = RED_THREADS / 2; s >= 32; s >>= 1) {
        if (tid < s) smem[tid] += smem[tid + s];
        __syncthreads();
    }
    float r = 0.0f;
    if (tid < 32) r = warp_sum(smem[tid]);
    return r;
}

// Single-launch reduction: every block writes a partial, the last block to finish
// (detected with a global counter) sums the partials and writes 1/||x||.
__global__ void frob_reduce_kernel(const float* __restrict__ x, int64_t n, float* __restrict__ partials,
                                   unsigned int* __restrict__ counter, float* __restrict__ inv_norm) {
    __shared__ float smem[RED_THREADS];
    __shared__ bool is_last;
    const int64_t stride = (int64_t)gridDim.x * RED_THREADS;
    int64_t i = (int64_t)blockIdx.x * RED_THREADS + threadIdx.x;

    // four independent accumulators for memory-level parallelism
    float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
    for (; i + 3 * stride < n; i += 4 * stride) {
        float v0 = x[i];
        float v1 = x[i + stride];
        float v2 = x[i + 2 * stride];
        float v3 = x[i + 3 * stride];
        a0 += v0 * v0; a1 += v1 * v1; a2 += v2 * v2; a3 += v3 * v3;
    }
    for (; i < n; i += stride) {
        float v = x[i];
        a0 += v * v;
    }
    float total = block_sum((a0 + a1) + (a2 + a3), smem);

    if (threadIdx.x == 0) {
        partials[blockIdx.x] = total;
        __threadfence();
        unsigned int ticket = atomicAdd(counter, 1u);
        is_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();

    if (is_last) {
        __threadfence();
        float acc = 0.0f;
        for (int b = threadIdx.x; b < gridDim.x; b += RED_THREADS) acc += ((volatile float*)partials)[b];
        acc = block_sum(acc, smem);
        if (threadIdx.x == 0) {
            inv_norm[0] = rsqrtf(acc);
            *counter = 0u;
        }
    }
}

__global__ void frob_scale_kernel(const float* __restrict__ x, const float* __restrict__ inv_norm,
                                  float* __restrict__ y, int64_t n) {
    const float s = __ldg(inv_norm);
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        y[i] = x[i] * s;
    }
}

torch::Tensor frob_fused_reduce_scale(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat, "x must be float32");
    auto xc = x.contiguous();
    const int64_t n = xc.numel();
    auto y = torch::empty_like(xc);
    auto partials = torch::empty({RED_BLOCKS}, xc.options());
    auto counter = torch::zeros({1}, xc.options().dtype(torch::kInt32));
    auto inv_norm = torch::empty({1}, xc.options());
    auto stream = at::cuda::getCurrentCUDAStream();

    frob_reduce_kernel<<<RED_BLOCKS, RED_THREADS, 0, stream>>>(
        xc.data_ptr<float>(), n, partials.data_ptr<float>(),
        reinterpret_cast<unsigned int*>(counter.data_ptr<int>()), inv_norm.data_ptr<float>());

    const int threads = 1024;
    int64_t blocks64 = (n + threads - 1) / threads;
    int blocks = (int)std::min<int64_t>(std::max<int64_t>(blocks64, 1), 65535);
    frob_scale_kernel<<<blocks, threads, 0, stream>>>(xc.data_ptr<float>(), inv_norm.data_ptr<float>(),
                                                      y.data_ptr<float>(), n);
    return y;
}
"""

cpp_decl = "torch::Tensor frob_fused_reduce_scale(torch::Tensor x);"

frob_lastblock = load_inline(
    name="frob_last_block_threadfence",
    cpp_sources=cpp_decl,
    cuda_sources=source,
    functions=["frob_fused_reduce_scale"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return frob_lastblock.frob_fused_reduce_scale(x)
