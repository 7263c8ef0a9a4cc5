# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gram_cuda(torch::Tensor X);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Gram matrix G = X^T X with register blocking: 256 threads own a 64x64 tile of G, each thread a 4x4
// micro-tile held in registers. Per chunk of BK=16 rows, the two 16x64 column panels of X are loaded
// with float4 loads into shared memory and each thread does 16 outer-product steps (float4 smem reads,
// 16 FMAs per step). Split-K over the rows (gridDim.z), partial tiles atomically added into zeroed G.

#define BM 64
#define BK 16
#define NT 256

__device__ __forceinline__ float4 load4(const float* __restrict__ row, int c, int N, bool ok, bool vec) {
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    if (!ok) return v;
    if (vec && c + 3 < N) {
        v = __ldg(reinterpret_cast<const float4*>(row + c));
    } else {
        if (c + 0 < N) v.x = __ldg(row + c + 0);
        if (c + 1 < N) v.y = __ldg(row + c + 1);
        if (c + 2 < N) v.z = __ldg(row + c + 2);
        if (c + 3 < N) v.w = __ldg(row + c + 3);
    }
    return v;
}

__global__ void __launch_bounds__(NT)
gram_reg4_kernel(const float* __restrict__ X, float* __restrict__ G, int M, int N, int rows_per_split, bool vec) {
    __shared__ float4 As4[BK][BM / 4];   // As[k][ii] = X[m0+k][i0+ii]
    __shared__ float4 Bs4[BK][BM / 4];   // Bs[k][jj] = X[m0+k][j0+jj]
    const int tid = threadIdx.x;
    const int tx = tid % 16, ty = tid / 16;
    const int i0 = blockIdx.y * BM, j0 = blockIdx.x * BM;
    const int mbeg = blockIdx.z * rows_per_split;
    const int mend = min(mbeg + rows_per_split, M);
    if (mbeg >= mend) return;
    const int lk = tid / 16;          // row within chunk this thread loads
    const int lc = (tid % 16) * 4;    // column offset within panel

    float acc[4][4];
#pragma unroll
    for (int a = 0; a < 4; ++a)
#pragma unroll
        for (int b = 0; b < 4; ++b) acc[a][b] = 0.f;

    for (int m0 = mbeg; m0 < mend; m0 += BK) {
        const int m = m0 + lk;
        const bool ok = m < mend;
        const float* row = X + (long long)m * N;
        As4[lk][tid % 16] = load4(row, i0 + lc, N, ok, vec);
        Bs4[lk][tid % 16] = load4(row, j0 + lc, N, ok, vec);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float4 av = As4[k][ty];
            const float4 bv = Bs4[k][tx];
            const float ar[4] = {av.x, av.y, av.z, av.w};
            const float br[4] = {bv.x, bv.y, bv.z, bv.w};
#pragma unroll
            for (int a = 0; a < 4; ++a)
#pragma unroll
                for (int b = 0; b < 4; ++b) acc[a][b] += ar[a] * br[b];
        }
        __syncthreads();
    }

#pragma unroll
    for (int a = 0; a < 4; ++a) {
        const int i = i0 + ty * 4 + a;
        if (i >= N) continue;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
            const int j = j0 + tx * 4 + b;
            if (j < N) atomicAdd(G + (long long)i * N + j, acc[a][b]);
        }
    }
}

torch::Tensor gram_cuda(torch::Tensor X) {
    TORCH_CHECK(X.is_cuda(), "X must be a CUDA tensor");
    TORCH_CHECK(X.dim() == 2, "X must be 2-D");
    TORCH_CHECK(X.scalar_type() == torch::kFloat32, "X must be float32");
    auto Xc = X.contiguous();
    const int M = (int)Xc.size(0), N = (int)Xc.size(1);
    auto out = torch::zeros({N, N}, Xc.options());
    if (N == 0 || M == 0) return out;
    const float* xp = Xc.data_ptr<float>();
    const bool vec = (N % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int tiles = (N + BM - 1) / BM;
    int ksplit = (sms * 4 + tiles * tiles - 1) / (tiles * tiles);
    if (ksplit < 1) ksplit = 1;
    int rows_per_split = (M + ksplit - 1) / ksplit;
    rows_per_split = ((rows_per_split + BK - 1) / BK) * BK;
    ksplit = (M + rows_per_split - 1) / rows_per_split;
    dim3 grid(tiles, tiles, ksplit);
    gram_reg4_kernel<<<grid, NT>>>(xp, out.data_ptr<float>(), M, N, rows_per_split, vec);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_gram_matrix_regblock_4x4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gram_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        return my_mod.gram_cuda(X)
