# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor vec3_normalize_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: shared-memory staging of the array-of-structures tile. A block of T threads owns T rows
// (3T floats): it loads them with unit-stride (coalesced) accesses into shared memory, each thread then
// normalises one row in place (stride-3 shared accesses are bank-conflict free), and the block stores
// the tile back with unit-stride accesses. Grid-stride over tiles.

#define ROWS_PER_TILE 256

__global__ void vec3_norm_smem_kernel(const float* __restrict__ x, float* __restrict__ out,
                                      int64_t n, float eps) {
    __shared__ float tile[3 * ROWS_PER_TILE];
    const int64_t total = n * 3;
    const int64_t num_tiles = (n + ROWS_PER_TILE - 1) / ROWS_PER_TILE;
    for (int64_t t = blockIdx.x; t < num_tiles; t += gridDim.x) {
        const int64_t base = t * (3 * ROWS_PER_TILE);
#pragma unroll
        for (int k = 0; k < 3; ++k) {
            const int e = threadIdx.x + k * ROWS_PER_TILE;
            const int64_t g = base + e;
            tile[e] = (g < total) ? __ldg(x + g) : 0.0f;
        }
        __syncthreads();
        {
            const int r = threadIdx.x;
            float a = tile[3 * r + 0];
            float b = tile[3 * r + 1];
            float c = tile[3 * r + 2];
            float inv = 1.0f / fmaxf(sqrtf(a * a + b * b + c * c), eps);
            tile[3 * r + 0] = a * inv;
            tile[3 * r + 1] = b * inv;
            tile[3 * r + 2] = c * inv;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 3; ++k) {
            const int e = threadIdx.x + k * ROWS_PER_TILE;
            const int64_t g = base + e;
            if (g < total) out[g] = tile[e];
        }
        __syncthreads();   // tile is reused by the next iteration
    }
}

torch::Tensor vec3_normalize_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && x.size(1) == 3, "x must have shape (n, 3)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int64_t n = xc.size(0);
    if (n == 0) return out;
    int dev = 0;
    cudaGetDevice(&dev);
    int sms = 1;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    int64_t tiles = (n + ROWS_PER_TILE - 1) / ROWS_PER_TILE;
    int64_t cap = (int64_t)sms * 16;
    int blocks = (int)(tiles < cap ? tiles : cap);
    vec3_norm_smem_kernel<<<blocks, ROWS_PER_TILE>>>(xc.data_ptr<float>(), out.data_ptr<float>(), n, 1e-12f);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_vec3_norm_smem_staged",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["vec3_normalize_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.vec3_normalize_cuda(x)
