# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_norm_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define BX 64        // pixels per block (threadIdx.x, contiguous in memory)
#define BY 4         // channel groups per block (threadIdx.y)
#define MAX_PER_THREAD 16  // channels kept in registers per thread (BY * 16 = 64 channels)

// Block (BX, BY) covers BX consecutive pixels of one batch item. Thread (tx, ty) loads
// channels ty, ty + BY, ... of pixel tx (coalesced along tx), keeps up to MAX_PER_THREAD
// of them in registers, and the BY partial sums of squares are combined through shared
// memory. x is read from global memory once when C <= BY * MAX_PER_THREAD.
__global__ void rms_norm_tiled_kernel(const float* __restrict__ x, float* __restrict__ y,
                                      int64_t C, int64_t S, int64_t tiles_per_batch, float eps) {
    __shared__ float s_part[BY][BX];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int64_t n = blockIdx.x / tiles_per_batch;
    const int64_t tile = blockIdx.x % tiles_per_batch;
    const int64_t s = tile * BX + tx;
    const bool valid = s < S;
    const int64_t base = n * C * S + s;

    float vals[MAX_PER_THREAD];
    float sum_sq = 0.0f;
    #pragma unroll
    for (int k = 0; k < MAX_PER_THREAD; ++k) {
        const int64_t c = ty + (int64_t)k * BY;
        float v = 0.0f;
        if (valid && c < C) v = x[base + c * S];
        vals[k] = v;
        sum_sq += v * v;
    }
    // channels that do not fit in registers (only when C > BY * MAX_PER_THREAD)
    if (valid) {
        for (int64_t c = ty + (int64_t)MAX_PER_THREAD * BY; c < C; c += BY) {
            const float v = x[base + c * S];
            sum_sq += v * v;
        }
    }
    s_part[ty][tx] = sum_sq;
    __syncthreads();

    float total = 0.0f;
    #pragma unroll
    for (int j = 0; j < BY; ++j) total += s_part[j][tx];
    const float inv = rsqrtf(total / (float)C + eps);

    if (!valid) return;
    #pragma unroll
    for (int k = 0; k < MAX_PER_THREAD; ++k) {
        const int64_t c = ty + (int64_t)k * BY;
        if (c < C) y[base + c * S] = vals[k] * inv;
    }
    for (int64_t c = ty + (int64_t)MAX_PER_THREAD * BY; c < C; c += BY) {
        y[base + c * S] = x[base + c * S] * inv;
    }
}

torch::Tensor rms_norm_cuda(torch::Tensor x, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 2, "x must have a feature dimension");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    if (x.numel() == 0) return y;
    const int64_t N = x.size(0);
    const int64_t C = x.size(1);
    const int64_t S = x.numel() / (N * C);

    const int64_t tiles_per_batch = (S + BX - 1) / BX;
    const int64_t blocks = N * tiles_per_batch;
    dim3 block(BX, BY);
    rms_norm_tiled_kernel<<<(unsigned int)blocks, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), C, S, tiles_per_batch, (float)eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

rms_norm_cpp_source = "torch::Tensor rms_norm_cuda(torch::Tensor x, double eps);"

rms_norm_ext = load_inline(
    name="rms_norm_tiled_2d_register_cache_ext",
    cpp_sources=rms_norm_cpp_source,
    cuda_sources=rms_norm_source,
    functions=["rms_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm_ext.rms_norm_cuda(x, self.eps)
