# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Persistent grid-stride transpose: a grid sized to the SM count walks over all
// 64x64 tiles of all batches. Each 32x8 block moves a 64x64 tile through padded
// shared memory (64 x 65 floats = 16.6 KB), 16 elements per thread, with the
// loads of one tile issued back to back for ILP.
#define TILE 64
#define TX 32
#define TY 8

__global__ void __launch_bounds__(TX * TY)
permute021_tile64_persistent_kernel(const float* __restrict__ x,
                                    float* __restrict__ out,
                                    int M, int N, int tiles_m, int tiles_n,
                                    long long total_tiles) {
    __shared__ float tile[TILE][TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const long long tiles_per_batch = (long long)tiles_m * tiles_n;
    const long long plane = (long long)M * N;

    for (long long t = blockIdx.x; t < total_tiles; t += gridDim.x) {
        const long long b = t / tiles_per_batch;
        const int rem = (int)(t - b * tiles_per_batch);
        const int i0 = (rem / tiles_n) * TILE;   // row offset in x
        const int j0 = (rem % tiles_n) * TILE;   // column offset in x
        const float* xb = x + b * plane;
        float* ob = out + b * plane;

        // tile[r][c] = x[i0 + r][j0 + c]
#pragma unroll
        for (int r = ty; r < TILE; r += TY) {
            const int i = i0 + r;
#pragma unroll
            for (int c = tx; c < TILE; c += TX) {
                const int j = j0 + c;
                if (i < M && j < N) tile[r][c] = __ldg(&xb[(long long)i * N + j]);
            }
        }
        __syncthreads();
        // out[j0 + r][i0 + c] = tile[c][r]
#pragma unroll
        for (int r = ty; r < TILE; r += TY) {
            const int j = j0 + r;
#pragma unroll
            for (int c = tx; c < TILE; c += TX) {
                const int i = i0 + c;
                if (j < N && i < M) ob[(long long)j * M + i] = tile[c][r];
            }
        }
        __syncthreads();   // tile is reused by the next iteration
    }
}

torch::Tensor permute021_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be 3-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    const int B = (int)x.size(0), M = (int)x.size(1), N = (int)x.size(2);
    auto out = torch::empty({B, N, M}, x.options());
    if (B == 0 || M == 0 || N == 0) return out;

    const int tiles_m = (M + TILE - 1) / TILE;
    const int tiles_n = (N + TILE - 1) / TILE;
    const long long total_tiles = (long long)B * tiles_m * tiles_n;

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 132;
    long long grid = (long long)sms * 8;      // 8 resident 256-thread blocks per SM
    if (grid > total_tiles) grid = total_tiles;

    dim3 block(TX, TY);
    permute021_tile64_persistent_kernel<<<(unsigned int)grid, block>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), M, N, tiles_m, tiles_n, total_tiles);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "permute021_tile64_persistent_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_src = "torch::Tensor permute021_forward(torch::Tensor x);"

permute_ext = load_inline(
    name="permute_021_tile64_persistent",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["permute021_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return permute_ext.permute021_forward(x.contiguous())
