# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor transpose_add_two_pass(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define TILE 32
#define BLOCK_ROWS 8

// Pass 1: out-of-place tiled transpose xt = x^T through padded shared memory.
__global__ void transpose_kernel(const float* __restrict__ x, float* __restrict__ xt, int N) {
    __shared__ float tile[TILE][TILE + 1];
    int col = blockIdx.x * TILE + threadIdx.x;
    for (int r = threadIdx.y; r < TILE; r += BLOCK_ROWS) {
        int row = blockIdx.y * TILE + r;
        if (row < N && col < N) tile[r][threadIdx.x] = x[(long long)row * N + col];
    }
    __syncthreads();
    // xt[c][r'] = x[r'][c]: write rows blockIdx.x*TILE.., cols blockIdx.y*TILE..
    int ocol = blockIdx.y * TILE + threadIdx.x;
    for (int r = threadIdx.y; r < TILE; r += BLOCK_ROWS) {
        int orow = blockIdx.x * TILE + r;
        if (orow < N && ocol < N) xt[(long long)orow * N + ocol] = tile[threadIdx.x][r];
    }
}

// Pass 2: element-wise y = x + xt, float4 grid-stride loop.
__global__ void add_vec4_kernel(const float4* __restrict__ a, const float4* __restrict__ b,
                                float4* __restrict__ y, long long n4) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 u = a[i];
        float4 v = b[i];
        y[i] = make_float4(u.x + v.x, u.y + v.y, u.z + v.z, u.w + v.w);
    }
}

// Scalar grid-stride add, used for the tail and for unaligned pointers.
__global__ void add_scalar_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                  float* __restrict__ y, long long start, long long n) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = start + (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a[i] + b[i];
}

torch::Tensor transpose_add_two_pass(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2 && x.size(0) == x.size(1), "x must be square");
    x = x.contiguous();
    const int N = (int)x.size(0);
    auto y = torch::empty_like(x);
    if (N == 0) return y;
    auto xt = torch::empty_like(x);

    const int tiles = (N + TILE - 1) / TILE;
    TORCH_CHECK(tiles <= 65535, "matrix too large for 2D grid");
    transpose_kernel<<<dim3(tiles, tiles), dim3(TILE, BLOCK_ROWS)>>>(x.data_ptr<float>(), xt.data_ptr<float>(), N);

    const long long n = (long long)N * N;
    const float* pa = x.data_ptr<float>();
    const float* pb = xt.data_ptr<float>();
    float* py = y.data_ptr<float>();
    const int threads = 256;
    const int max_blocks = 4096;
    bool aligned = ((reinterpret_cast<uintptr_t>(pa) | reinterpret_cast<uintptr_t>(pb) |
                     reinterpret_cast<uintptr_t>(py)) & 15) == 0;
    long long done = 0;
    if (aligned) {
        long long n4 = n / 4;
        if (n4 > 0) {
            long long blocks = (n4 + threads - 1) / threads;
            if (blocks > max_blocks) blocks = max_blocks;
            add_vec4_kernel<<<(int)blocks, threads>>>(reinterpret_cast<const float4*>(pa),
                                                      reinterpret_cast<const float4*>(pb),
                                                      reinterpret_cast<float4*>(py), n4);
        }
        done = n4 * 4;
    }
    if (done < n) {
        long long rem = n - done;
        long long blocks = (rem + threads - 1) / threads;
        if (blocks > max_blocks) blocks = max_blocks;
        add_scalar_kernel<<<(int)blocks, threads>>>(pa, pb, py, done, n);
    }
    return y;
}
"""

module = load_inline(
    name="transpose_add_two_pass_transpose",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["transpose_add_two_pass"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return module.transpose_add_two_pass(x)
