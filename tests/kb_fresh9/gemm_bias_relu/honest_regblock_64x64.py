# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gemm_bias_relu_regblock(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define NTHREADS 256   // 16 x 16 threads, each owns a 4x4 register tile

// 64x64 block tile, K step 16, 4x4 outputs per thread held in registers.
// Thread (ty, tx) owns rows ty + 16*i and columns tx + 16*j so that the
// shared-memory reads of Ws are 16 consecutive words (conflict free) and the
// final stores are coalesced. Tiles are stored k-major (transposed) in shared
// memory; the +1 padding removes bank conflicts of the transposing stores.
// Bias and ReLU are fused into the epilogue.
__global__ void __launch_bounds__(NTHREADS)
gemm_bias_relu_regblock_kernel(const float* __restrict__ x,
                               const float* __restrict__ w,
                               const float* __restrict__ b,
                               float* __restrict__ out,
                               int M, int N, int K) {
    __shared__ float Xs[BK][BM + 1];
    __shared__ float Ws[BK][BN + 1];
    const int tid = threadIdx.x;
    const int tx = tid & 15;
    const int ty = tid >> 4;
    const int bm = blockIdx.y * BM;
    const int bn = blockIdx.x * BN;

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        // 64 rows x 16 k = 1024 elements per tile, 4 per thread.
        #pragma unroll
        for (int l = 0; l < (BM * BK) / NTHREADS; ++l) {
            const int idx = tid + l * NTHREADS;
            const int r = idx / BK;
            const int c = idx % BK;
            const int gk = k0 + c;
            const int gm = bm + r;
            const int gn = bn + r;
            Xs[c][r] = (gm < M && gk < K) ? __ldg(x + (size_t)gm * K + gk) : 0.0f;
            Ws[c][r] = (gn < N && gk < K) ? __ldg(w + (size_t)gn * K + gk) : 0.0f;
        }
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM], bb[TN];
            #pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = Xs[kk][ty + 16 * i];
            #pragma unroll
            for (int j = 0; j < TN; ++j) bb[j] = Ws[kk][tx + 16 * j];
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], bb[j], acc[i][j]);
        }
        __syncthreads();
    }

    #pragma unroll
    for (int j = 0; j < TN; ++j) {
        const int n = bn + tx + 16 * j;
        if (n >= N) continue;
        const float bias = __ldg(b + n);
        #pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int m = bm + ty + 16 * i;
            if (m < M) {
                const float v = acc[i][j] + bias;
                out[(size_t)m * N + n] = v > 0.0f ? v : 0.0f;
            }
        }
    }
}

torch::Tensor gemm_bias_relu_regblock(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(x.dim() == 2 && w.dim() == 2 && b.dim() == 1, "bad ranks");
    TORCH_CHECK(x.size(1) == w.size(1) && w.size(0) == b.size(0), "shape mismatch");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    const int M = (int)xc.size(0);
    const int K = (int)xc.size(1);
    const int N = (int)wc.size(0);
    auto out = torch::empty({M, N}, xc.options());
    if (M == 0 || N == 0) return out;
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    gemm_bias_relu_regblock_kernel<<<grid, NTHREADS>>>(xc.data_ptr<float>(), wc.data_ptr<float>(),
                                                       bc.data_ptr<float>(), out.data_ptr<float>(), M, N, K);
    return out;
}
"""

_mod = load_inline(
    name="gemm_bias_relu_honest_regblock_64x64",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gemm_bias_relu_regblock"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.gemm_bias_relu_regblock(x, self.linear.weight, self.linear.bias)
