# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sdpa_gemm_cpp = "torch::Tensor sdpa_gemm_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v);"

sdpa_gemm_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

// Three-stage pipeline mirroring the reference, each stage a custom kernel:
//  1) batched register-blocked SGEMM  S = scale * Q K^T   (64x64 tiles, BK=16, 4x4 per thread);
//  2) in-place row softmax, one warp per row with __shfl_xor_sync max / sum reductions;
//  3) batched SGEMM  O = P V  with the same tiled kernel (B operand not transposed).
#define TBM 64
#define TBN 64
#define TBK 16

template <bool TRANS_B>
__global__ void __launch_bounds__(256)
bgemm_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
             int Mr, int Nc, int K, float alpha) {
    __shared__ float As[TBK][TBM + 4];
    __shared__ float Bs[TBK][TBN + 4];
    const long long bz = blockIdx.z;
    A += bz * (long long)Mr * K;
    B += bz * (long long)Nc * K;
    C += bz * (long long)Mr * Nc;
    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
    const int m0 = blockIdx.y * TBM, n0 = blockIdx.x * TBN;
    float acc[4][4];
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[r][c] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TBK) {
#pragma unroll
        for (int l = 0; l < 4; ++l) {
            const int e = tid + l * 256;
            {   // A tile: 64 rows x 16 k, row-major in global memory
                const int row = e >> 4, kk = e & 15;
                const int gr = m0 + row, gk = k0 + kk;
                As[kk][row] = (gr < Mr && gk < K) ? __ldg(A + (long long)gr * K + gk) : 0.0f;
            }
            if (TRANS_B) {   // B is (Nc, K): element (k, n) at B[n*K + k]
                const int col = e >> 4, kk = e & 15;
                const int gc = n0 + col, gk = k0 + kk;
                Bs[kk][col] = (gc < Nc && gk < K) ? __ldg(B + (long long)gc * K + gk) : 0.0f;
            } else {         // B is (K, Nc): element (k, n) at B[k*Nc + n]
                const int kk = e >> 6, col = e & 63;
                const int gc = n0 + col, gk = k0 + kk;
                Bs[kk][col] = (gc < Nc && gk < K) ? __ldg(B + (long long)gk * Nc + gc) : 0.0f;
            }
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TBK; ++kk) {
            float a[4], b[4];
#pragma unroll
            for (int r = 0; r < 4; ++r) a[r] = As[kk][ty * 4 + r];
#pragma unroll
            for (int c = 0; c < 4; ++c) b[c] = Bs[kk][tx * 4 + c];
#pragma unroll
            for (int r = 0; r < 4; ++r)
#pragma unroll
                for (int c = 0; c < 4; ++c) acc[r][c] = fmaf(a[r], b[c], acc[r][c]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const int gr = m0 + ty * 4 + r;
        if (gr >= Mr) continue;
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            const int gc = n0 + tx * 4 + c;
            if (gc < Nc) C[(long long)gr * Nc + gc] = alpha * acc[r][c];
        }
    }
}

__global__ void row_softmax_warp_kernel(float* __restrict__ s, long long rows, int S) {
    const long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float* r = s + row * S;
    float m = -INFINITY;
    for (int j = lane; j < S; j += 32) m = fmaxf(m, r[j]);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    float sum = 0.0f;
    for (int j = lane; j < S; j += 32) {
        const float e = __expf(r[j] - m);
        r[j] = e;
        sum += e;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
    const float inv = 1.0f / sum;
    for (int j = lane; j < S; j += 32) r[j] *= inv;
}

torch::Tensor sdpa_gemm_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
    TORCH_CHECK(q.is_cuda() && k.is_cuda() && v.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(q.scalar_type() == torch::kFloat32 && k.scalar_type() == torch::kFloat32 &&
                v.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(q.dim() == 4 && q.sizes() == k.sizes() && q.sizes() == v.sizes(), "expected equal (B,H,S,D) shapes");
    q = q.contiguous(); k = k.contiguous(); v = v.contiguous();
    const long long BH = q.size(0) * q.size(1);
    const int S = q.size(2), D = q.size(3);
    auto out = torch::empty_like(q);
    if (BH == 0 || S == 0 || D == 0) return out;
    TORCH_CHECK(BH <= 65535, "too many (batch, head) pairs for grid.z");
    auto scores = torch::empty({BH, (long long)S, (long long)S}, q.options());
    const float scale = 1.0f / sqrtf((float)D);

    dim3 g1((S + TBN - 1) / TBN, (S + TBM - 1) / TBM, (unsigned)BH);
    bgemm_kernel<true><<<g1, 256>>>(q.data_ptr<float>(), k.data_ptr<float>(), scores.data_ptr<float>(), S, S, D, scale);

    const long long rows = BH * S;
    const int nt = 256;
    row_softmax_warp_kernel<<<(unsigned)((rows * 32 + nt - 1) / nt), nt>>>(scores.data_ptr<float>(), rows, S);

    dim3 g2((D + TBN - 1) / TBN, (S + TBM - 1) / TBM, (unsigned)BH);
    bgemm_kernel<false><<<g2, 256>>>(scores.data_ptr<float>(), v.data_ptr<float>(), out.data_ptr<float>(), S, D, S, 1.0f);
    return out;
}
"""

sdpa_gemm_mod = load_inline(
    name="sdpa_small_tiled_gemm_softmax_pipeline_kb7",
    cpp_sources=sdpa_gemm_cpp,
    cuda_sources=sdpa_gemm_cuda,
    functions=["sdpa_gemm_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return sdpa_gemm_mod.sdpa_gemm_forward(q, k, v)
