# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gemm_bias_relu_f4(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 8
#define SPAD 4          // row stride 132 floats: conflict-free transposing stores, keeps 16B alignment
#define NT 256

// ---------------------------------------------------------------------------
// Fast path: 128x128 block tile, BK = 8, 256 threads, 8x8 register tile per
// thread (two 4x4 quadrants 64 apart), float4 global loads (one per thread per
// operand per k-tile), double-buffered shared memory with register prefetch of
// the next k-tile so global latency overlaps the FMAs, one __syncthreads per
// k-tile. Requires K % 8 == 0, N % 4 == 0 and 16-byte aligned x / W / out.
// Rows beyond M or N are zero-filled and never stored.
// ---------------------------------------------------------------------------
__global__ void __launch_bounds__(NT)
gemm_bias_relu_f4_kernel(const float* __restrict__ x,
                         const float* __restrict__ w,
                         const float* __restrict__ b,
                         float* __restrict__ out,
                         int M, int N, int K) {
    __shared__ __align__(16) float As[2][BK][BM + SPAD];
    __shared__ __align__(16) float Bs[2][BK][BN + SPAD];

    const int tid = threadIdx.x;
    const int tx = tid & 15;
    const int ty = tid >> 4;
    const int bm = blockIdx.y * BM;
    const int bn = blockIdx.x * BN;

    // loader mapping: row 0..127, k quad 0 or 4
    const int lrow = tid >> 1;
    const int lk = (tid & 1) * 4;
    const bool a_ok = (bm + lrow) < M;
    const bool b_ok = (bn + lrow) < N;
    const float* a_ptr = x + (size_t)(a_ok ? bm + lrow : 0) * K + lk;
    const float* b_ptr = w + (size_t)(b_ok ? bn + lrow : 0) * K + lk;

    float acc[8][8];
    #pragma unroll
    for (int i = 0; i < 8; ++i)
        #pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

    const float4 zero4 = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 ra = a_ok ? __ldg(reinterpret_cast<const float4*>(a_ptr)) : zero4;
    float4 rb = b_ok ? __ldg(reinterpret_cast<const float4*>(b_ptr)) : zero4;
    As[0][lk + 0][lrow] = ra.x; As[0][lk + 1][lrow] = ra.y;
    As[0][lk + 2][lrow] = ra.z; As[0][lk + 3][lrow] = ra.w;
    Bs[0][lk + 0][lrow] = rb.x; Bs[0][lk + 1][lrow] = rb.y;
    Bs[0][lk + 2][lrow] = rb.z; Bs[0][lk + 3][lrow] = rb.w;
    __syncthreads();

    const int ktiles = K / BK;
    for (int t = 0; t < ktiles; ++t) {
        const int cur = t & 1;
        const bool has_next = (t + 1) < ktiles;
        if (has_next) {
            const int koff = (t + 1) * BK;
            ra = a_ok ? __ldg(reinterpret_cast<const float4*>(a_ptr + koff)) : zero4;
            rb = b_ok ? __ldg(reinterpret_cast<const float4*>(b_ptr + koff)) : zero4;
        }
        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][kk][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][kk][64 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][kk][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][kk][64 + tx * 4]);
            const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            #pragma unroll
            for (int i = 0; i < 8; ++i)
                #pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
        if (has_next) {
            // buffer cur^1 was last read in iteration t-1, which every thread
            // finished before the barrier at the end of that iteration.
            const int nxt = cur ^ 1;
            As[nxt][lk + 0][lrow] = ra.x; As[nxt][lk + 1][lrow] = ra.y;
            As[nxt][lk + 2][lrow] = ra.z; As[nxt][lk + 3][lrow] = ra.w;
            Bs[nxt][lk + 0][lrow] = rb.x; Bs[nxt][lk + 1][lrow] = rb.y;
            Bs[nxt][lk + 2][lrow] = rb.z; Bs[nxt][lk + 3][lrow] = rb.w;
        }
        __syncthreads();
    }

    // epilogue: bias + ReLU, float4 stores (N % 4 == 0 so col < N implies col + 3 < N)
    #pragma unroll
    for (int jh = 0; jh < 2; ++jh) {
        const int col = bn + jh * 64 + tx * 4;
        if (col >= N) continue;
        const float4 bias = make_float4(__ldg(b + col), __ldg(b + col + 1), __ldg(b + col + 2), __ldg(b + col + 3));
        #pragma unroll
        for (int i = 0; i < 8; ++i) {
            const int row = bm + (i >> 2) * 64 + ty * 4 + (i & 3);
            if (row >= M) continue;
            float4 v;
            v.x = fmaxf(acc[i][jh * 4 + 0] + bias.x, 0.0f);
            v.y = fmaxf(acc[i][jh * 4 + 1] + bias.y, 0.0f);
            v.z = fmaxf(acc[i][jh * 4 + 2] + bias.z, 0.0f);
            v.w = fmaxf(acc[i][jh * 4 + 3] + bias.w, 0.0f);
            *reinterpret_cast<float4*>(out + (size_t)row * N + col) = v;
        }
    }
}

// ---------------------------------------------------------------------------
// Scalar fallback for shapes / alignments the float4 path cannot take:
// 16x16 shared-memory tiles, fused bias + ReLU.
// ---------------------------------------------------------------------------
__global__ void gemm_bias_relu_scalar_kernel(const float* __restrict__ x,
                                             const float* __restrict__ w,
                                             const float* __restrict__ b,
                                             float* __restrict__ out,
                                             int M, int N, int K) {
    __shared__ float Xs[16][16];
    __shared__ float Ws[16][17];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int m = blockIdx.y * 16 + ty;
    const int n = blockIdx.x * 16 + tx;
    const int wrow = blockIdx.x * 16 + ty;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += 16) {
        const int k = k0 + tx;
        Xs[ty][tx] = (m < M && k < K) ? x[(size_t)m * K + k] : 0.0f;
        Ws[ty][tx] = (wrow < N && k < K) ? w[(size_t)wrow * K + k] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < 16; ++kk) acc = fmaf(Xs[ty][kk], Ws[tx][kk], acc);
        __syncthreads();
    }
    if (m < M && n < N) {
        const float v = acc + b[n];
        out[(size_t)m * N + n] = v > 0.0f ? v : 0.0f;
    }
}

static inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

torch::Tensor gemm_bias_relu_f4(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
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
    const float* xp = xc.data_ptr<float>();
    const float* wp = wc.data_ptr<float>();
    const float* bp = bc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool fast = K > 0 && (K % BK) == 0 && (N % 4) == 0 &&
                      aligned16(xp) && aligned16(wp) && aligned16(op);
    if (fast) {
        dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
        gemm_bias_relu_f4_kernel<<<grid, NT>>>(xp, wp, bp, op, M, N, K);
    } else {
        dim3 block(16, 16);
        dim3 grid((N + 15) / 16, (M + 15) / 16);
        gemm_bias_relu_scalar_kernel<<<grid, block>>>(xp, wp, bp, op, M, N, K);
    }
    return out;
}
"""

_mod = load_inline(
    name="gemm_bias_relu_honest_float4_128x128_dbuf",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gemm_bias_relu_f4"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.gemm_bias_relu_f4(x, self.linear.weight, self.linear.bias)
