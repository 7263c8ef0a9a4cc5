# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor max_pool1d_smem_tile(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>

#define TILE_OUT 256   // outputs per block == threads per block

// Each block stages the input span needed by TILE_OUT consecutive outputs of one row (plus halo) in
// dynamic shared memory, padding out-of-range positions with -inf, then every thread reduces its window
// from shared memory. Rows are walked with a grid-stride loop over blockIdx.y.
__global__ void max_pool1d_smem_tile_kernel(const float* __restrict__ x, float* __restrict__ y, long long rows,
                                            int L, int Lout, int k, int s, int p, int span) {
    extern __shared__ float tile[];
    const int o0 = blockIdx.x * TILE_OUT;
    const int in0 = o0 * s - p;
    const int o = o0 + threadIdx.x;
    for (long long row = blockIdx.y; row < rows; row += gridDim.y) {
        const float* xr = x + row * (long long)L;
        for (int i = threadIdx.x; i < span; i += blockDim.x) {
            int g = in0 + i;
            tile[i] = (g >= 0 && g < L) ? xr[g] : -INFINITY;
        }
        __syncthreads();
        if (o < Lout) {
            const float* w = tile + threadIdx.x * s;
            float m = -INFINITY;
            for (int j = 0; j < k; ++j) {
                float v = w[j];
                if (v > m || v != v) m = v;
            }
            y[row * (long long)Lout + o] = m;
        }
        __syncthreads();   // tile is overwritten by the next row
    }
}

// Plain fallback when the staged span would not fit in shared memory.
__global__ void max_pool1d_direct_kernel(const float* __restrict__ x, float* __restrict__ y, long long total,
                                         int L, int Lout, int k, int s, int p) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long row = idx / Lout;
    int o = (int)(idx - row * Lout);
    const float* xr = x + row * (long long)L;
    int start = o * s - p;
    float m = -INFINITY;
    for (int j = 0; j < k; ++j) {
        int i = start + j;
        if (i >= 0 && i < L) {
            float v = xr[i];
            if (v > m || v != v) m = v;
        }
    }
    y[idx] = m;
}

torch::Tensor max_pool1d_smem_tile(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be (N, C, L)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(kernel_size > 0 && stride > 0 && padding >= 0 && 2 * padding <= kernel_size, "bad pooling params");
    auto xc = x.contiguous();
    const int64_t N = xc.size(0), C = xc.size(1), L = xc.size(2);
    const int64_t Lout = (L + 2 * padding - kernel_size) / stride + 1;
    TORCH_CHECK(Lout > 0, "output length must be positive");
    auto y = torch::empty({N, C, Lout}, xc.options());
    const long long rows = N * C;
    if (rows == 0) return y;

    const long long span = (long long)(TILE_OUT - 1) * stride + kernel_size;
    const size_t smem = (size_t)span * sizeof(float);
    if (smem <= 48 * 1024) {
        dim3 block(TILE_OUT);
        unsigned gy = (unsigned)(rows < 65535 ? rows : 65535);
        dim3 grid((unsigned)((Lout + TILE_OUT - 1) / TILE_OUT), gy);
        max_pool1d_smem_tile_kernel<<<grid, block, smem>>>(xc.data_ptr<float>(), y.data_ptr<float>(), rows,
                                                           (int)L, (int)Lout, (int)kernel_size, (int)stride,
                                                           (int)padding, (int)span);
    } else {
        const long long total = rows * Lout;
        const int threads = 256;
        max_pool1d_direct_kernel<<<(unsigned)((total + threads - 1) / threads), threads>>>(
            xc.data_ptr<float>(), y.data_ptr<float>(), total, (int)L, (int)Lout, (int)kernel_size, (int)stride,
            (int)padding);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

max_pool1d_smem_tile_mod = load_inline(
    name="max_pool1d_smem_tile_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["max_pool1d_smem_tile"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return max_pool1d_smem_tile_mod.max_pool1d_smem_tile(x, self.kernel_size, self.stride, self.padding)
