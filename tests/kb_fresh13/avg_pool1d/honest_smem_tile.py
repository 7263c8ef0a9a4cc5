# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor avg_pool1d_cuda(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// AvgPool1d with shared-memory staging: each block owns TILE consecutive outputs of one row, loads the
// input span they need (zero-filled outside [0, L), i.e. the padding) into shared memory with coalesced
// loads, then every thread sums its window out of shared memory.

#define TILE 256

__global__ void avgpool1d_smem_kernel(const float* __restrict__ x, float* __restrict__ y,
                                      int L, int Lout, int K, int S, int P,
                                      int tiles_per_row, int span) {
    extern __shared__ float sm[];
    const long long b = blockIdx.x;
    const long long r = b / tiles_per_row;
    const int tile = (int)(b - r * tiles_per_row);
    const int o0 = tile * TILE;
    const int g0 = o0 * S - P;   // input index of sm[0]
    const float* xr = x + r * (long long)L;

    for (int i = threadIdx.x; i < span; i += blockDim.x) {
        int g = g0 + i;
        sm[i] = (g >= 0 && g < L) ? xr[g] : 0.f;
    }
    __syncthreads();

    const int o = o0 + threadIdx.x;
    if (o < Lout) {
        const float* w = sm + threadIdx.x * S;
        float s = 0.f;
        for (int t = 0; t < K; ++t) s += w[t];
        int hs = o * S - P;
        int he = min(hs + K, L + P);
        y[r * (long long)Lout + o] = s / (float)(he - hs);
    }
}

__global__ void avgpool1d_fallback_kernel(const float* __restrict__ x, float* __restrict__ y,
                                          long long rows, int L, int Lout, int K, int S, int P) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= rows * (long long)Lout) return;
    long long r = idx / Lout;
    int o = (int)(idx - r * Lout);
    int hs = o * S - P;
    int he = min(hs + K, L + P);
    int pool = he - hs;
    hs = max(hs, 0);
    he = min(he, L);
    const float* xr = x + r * (long long)L;
    float s = 0.f;
    for (int i = hs; i < he; ++i) s += xr[i];
    y[idx] = s / (float)pool;
}

torch::Tensor avg_pool1d_cuda(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have a length dimension");
    auto xc = x.contiguous();
    const int K = (int)kernel_size, S = (int)stride, P = (int)padding;
    const int L = (int)xc.size(-1);
    const int Lout = (L + 2 * P - K) / S + 1;
    TORCH_CHECK(Lout > 0, "output length must be positive");
    std::vector<int64_t> osz(xc.sizes().begin(), xc.sizes().end());
    osz.back() = Lout;
    auto out = torch::empty(osz, xc.options());
    const long long rows = (L > 0) ? xc.numel() / L : 0;
    if (rows == 0) return out;

    const int span = (TILE - 1) * S + K;
    const size_t smem = (size_t)span * sizeof(float);
    if (smem <= 48 * 1024) {
        const int tiles_per_row = (Lout + TILE - 1) / TILE;
        const long long blocks = rows * (long long)tiles_per_row;
        avgpool1d_smem_kernel<<<(unsigned)blocks, TILE, smem>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                                L, Lout, K, S, P, tiles_per_row, span);
    } else {
        const long long total = rows * (long long)Lout;
        const long long blocks = (total + 255) / 256;
        avgpool1d_fallback_kernel<<<(unsigned)blocks, 256>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                             rows, L, Lout, K, S, P);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_avg_pool1d_smem_tile",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["avg_pool1d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = int(kernel_size)
        self.stride = int(stride) if stride else int(kernel_size)
        self.padding = int(padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.avg_pool1d_cuda(x, self.kernel_size, self.stride, self.padding)
