# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gemm_bias_relu_tf32(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 16
#define LDS (BK + 4)   // 20-float row stride: conflict-free fragment reads, 16B aligned rows
#define NT 256         // 8 warps: 2 (M) x 4 (N), each warp owns a 64x32 sub-tile

// ---------------------------------------------------------------------------
// Tensor-core path: mma.sync.m16n8k8 TF32 (inputs rounded with cvt.rna),
// FP32 accumulation. Shared tiles are kept in the global K-contiguous layout
// (As[m][k], Bs[n][k]) and filled with 16-byte cp.async in a 2-stage pipeline
// (zero-fill for rows past M / N). Bias + ReLU are fused into the epilogue.
// Requires K % 16 == 0 and 16-byte aligned x / W.
//
// m16n8k8 fragment layout (g = lane / 4, t = lane % 4):
//   A: a0 = A[g][t], a1 = A[g+8][t], a2 = A[g][t+4], a3 = A[g+8][t+4]
//   B: b0 = B[k=t][n=g], b1 = B[k=t+4][n=g]
//   C: c0 = C[g][2t], c1 = C[g][2t+1], c2 = C[g+8][2t], c3 = C[g+8][2t+1]
// ---------------------------------------------------------------------------

__device__ __forceinline__ uint32_t to_tf32(float f) {
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(f));
    return r;
}

__device__ __forceinline__ void cp_async16(void* smem, const void* gmem, bool pred) {
    const uint32_t s = (uint32_t)__cvta_generic_to_shared(smem);
    const int src_bytes = pred ? 16 : 0;   // 0 -> the 16 bytes are zero-filled
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(s), "l"(gmem), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void cp_async_wait1() { asm volatile("cp.async.wait_group 1;\n" ::: "memory"); }

__device__ __forceinline__ void mma_tf32(float* c, const uint32_t* a, const uint32_t* b) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__global__ void __launch_bounds__(NT)
gemm_bias_relu_tf32_kernel(const float* __restrict__ x,
                           const float* __restrict__ w,
                           const float* __restrict__ bias,
                           float* __restrict__ out,
                           int M, int N, int K) {
    __shared__ __align__(16) float As[2][BM][LDS];
    __shared__ __align__(16) float Bs[2][BN][LDS];   // 2 * 2 * 128 * 20 * 4 B = 40 KB total

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int warp_m = warp >> 2;       // 0..1
    const int warp_n = warp & 3;        // 0..3
    const int g = lane >> 2;
    const int t = lane & 3;
    const int bm = blockIdx.y * BM;
    const int bn = blockIdx.x * BN;

    // loader: 128 rows x 16 k = 512 float4 per operand, 2 per thread
    auto load_tile = [&](int stage, int k0) {
        #pragma unroll
        for (int l = 0; l < 2; ++l) {
            const int idx = tid + l * NT;
            const int r = idx >> 2;
            const int kq = (idx & 3) * 4;
            const bool pa = (bm + r) < M;
            const bool pb = (bn + r) < N;
            const float* ga = x + (size_t)(pa ? bm + r : 0) * K + k0 + kq;
            const float* gb = w + (size_t)(pb ? bn + r : 0) * K + k0 + kq;
            cp_async16(&As[stage][r][kq], ga, pa);
            cp_async16(&Bs[stage][r][kq], gb, pb);
        }
    };

    float acc[4][4][4];
    #pragma unroll
    for (int i = 0; i < 4; ++i)
        #pragma unroll
        for (int j = 0; j < 4; ++j)
            #pragma unroll
            for (int c = 0; c < 4; ++c) acc[i][j][c] = 0.0f;

    const int ktiles = K / BK;
    load_tile(0, 0);
    cp_async_commit();

    for (int kt = 0; kt < ktiles; ++kt) {
        const int cur = kt & 1;
        if (kt + 1 < ktiles) load_tile(cur ^ 1, (kt + 1) * BK);
        cp_async_commit();          // possibly empty group, keeps the group count uniform
        cp_async_wait1();           // tile kt has landed (only the newest group may be pending)
        __syncthreads();

        #pragma unroll
        for (int ks = 0; ks < BK; ks += 8) {
            uint32_t af[4][4];
            uint32_t bf[4][2];
            #pragma unroll
            for (int mi = 0; mi < 4; ++mi) {
                const int r0 = warp_m * 64 + mi * 16 + g;
                af[mi][0] = to_tf32(As[cur][r0][ks + t]);
                af[mi][1] = to_tf32(As[cur][r0 + 8][ks + t]);
                af[mi][2] = to_tf32(As[cur][r0][ks + t + 4]);
                af[mi][3] = to_tf32(As[cur][r0 + 8][ks + t + 4]);
            }
            #pragma unroll
            for (int ni = 0; ni < 4; ++ni) {
                const int c0 = warp_n * 32 + ni * 8 + g;
                bf[ni][0] = to_tf32(Bs[cur][c0][ks + t]);
                bf[ni][1] = to_tf32(Bs[cur][c0][ks + t + 4]);
            }
            #pragma unroll
            for (int mi = 0; mi < 4; ++mi)
                #pragma unroll
                for (int ni = 0; ni < 4; ++ni) mma_tf32(acc[mi][ni], af[mi], bf[ni]);
        }
        __syncthreads();            // stage cur is overwritten by the loads of iteration kt + 1
    }

    #pragma unroll
    for (int ni = 0; ni < 4; ++ni) {
        const int col0 = bn + warp_n * 32 + ni * 8 + 2 * t;
        #pragma unroll
        for (int cc = 0; cc < 2; ++cc) {
            const int col = col0 + cc;
            if (col >= N) continue;
            const float bv = __ldg(bias + col);
            #pragma unroll
            for (int mi = 0; mi < 4; ++mi) {
                const int row = bm + warp_m * 64 + mi * 16 + g;
                if (row < M) out[(size_t)row * N + col] = fmaxf(acc[mi][ni][cc] + bv, 0.0f);
                if (row + 8 < M) out[(size_t)(row + 8) * N + col] = fmaxf(acc[mi][ni][2 + cc] + bv, 0.0f);
            }
        }
    }
}

// Scalar FP32 fallback (any shape / alignment): 16x16 shared-memory tiles.
__global__ void gemm_bias_relu_fallback_kernel(const float* __restrict__ x,
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
    if (m < M && n < N) out[(size_t)m * N + n] = fmaxf(acc + b[n], 0.0f);
}

static inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

torch::Tensor gemm_bias_relu_tf32(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
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
    if (K > 0 && (K % BK) == 0 && aligned16(xp) && aligned16(wp)) {
        dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
        gemm_bias_relu_tf32_kernel<<<grid, NT>>>(xp, wp, bp, op, M, N, K);
    } else {
        dim3 grid((N + 15) / 16, (M + 15) / 16);
        gemm_bias_relu_fallback_kernel<<<grid, dim3(16, 16)>>>(xp, wp, bp, op, M, N, K);
    }
    return out;
}
"""

_mod = load_inline(
    name="gemm_bias_relu_honest_tf32_mma_cpasync",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gemm_bias_relu_tf32"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.gemm_bias_relu_tf32(x, self.linear.weight, self.linear.bias)
