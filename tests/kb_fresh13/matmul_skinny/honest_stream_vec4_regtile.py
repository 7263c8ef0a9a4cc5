# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Streaming kernel for a short-and-wide product: B is never staged in shared memory; each thread streams
// 4 adjacent columns of its K-slice of B with float4 __ldg loads (4 rows in flight) and keeps the full
// 32 x 4 output tile in registers.  The K-slice of A is staged transposed in shared memory and read as
// broadcast float4s (8 LDS.128 per 128 FMAs).  The number of K-slices is chosen from the occupancy so the
// grid is a single wave; slices go to a partial buffer that a second kernel sums deterministically.

#define SV_THREADS 128
#define SV_MT 32
#define SV_LD (SV_MT + 4)
#define SV_KS_MAX 256

template <int VEC>
__device__ __forceinline__ void load_b(const float* __restrict__ p, float (&b)[VEC]) {
    if constexpr (VEC == 4) {
        const float4 t = __ldg(reinterpret_cast<const float4*>(p));
        b[0] = t.x; b[1] = t.y; b[2] = t.z; b[3] = t.w;
    } else {
        b[0] = __ldg(p);
    }
}

template <int VEC>
__device__ __forceinline__ void fma_krow(float (&acc)[SV_MT][VEC], const float* arow, const float (&b)[VEC]) {
    const float4* a4 = reinterpret_cast<const float4*>(arow);
    #pragma unroll
    for (int j = 0; j < SV_MT / 4; ++j) {
        const float4 a = a4[j];
        #pragma unroll
        for (int v = 0; v < VEC; ++v) {
            acc[4 * j + 0][v] += a.x * b[v];
            acc[4 * j + 1][v] += a.y * b[v];
            acc[4 * j + 2][v] += a.z * b[v];
            acc[4 * j + 3][v] += a.w * b[v];
        }
    }
}

template <int VEC>
__global__ void __launch_bounds__(SV_THREADS, 3)
mm_stream_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ ws,
                 int M, int K, int N, int KS) {
    __shared__ __align__(16) float As[SV_KS_MAX * SV_LD];
    const int tid = threadIdx.x;
    const int n = (blockIdx.x * SV_THREADS + tid) * VEC;
    const int kbeg = blockIdx.y * KS;
    const int klen = min(KS, K - kbeg);   // KS <= SV_KS_MAX (host guarantees)
    const int m0 = blockIdx.z * SV_MT;

    // stage A[m0 : m0+32, kbeg : kbeg+klen] transposed into As[kk][m], zero padded
    for (int idx = tid; idx < SV_MT * KS; idx += SV_THREADS) {
        const int m = idx / KS;
        const int kk = idx - m * KS;
        float v = 0.f;
        if (m0 + m < M && kk < klen) v = A[(size_t)(m0 + m) * K + kbeg + kk];
        As[kk * SV_LD + m] = v;
    }
    __syncthreads();
    if (n >= N) return;  // VEC == 4 implies N % 4 == 0, so n < N means all 4 columns are valid

    float acc[SV_MT][VEC];
    #pragma unroll
    for (int m = 0; m < SV_MT; ++m)
        #pragma unroll
        for (int v = 0; v < VEC; ++v) acc[m][v] = 0.f;

    const float* bp = B + (size_t)kbeg * N + n;
    int kk = 0;
    for (; kk + 4 <= klen; kk += 4) {
        float b[4][VEC];
        #pragma unroll
        for (int u = 0; u < 4; ++u) load_b<VEC>(bp + (size_t)(kk + u) * N, b[u]);
        #pragma unroll
        for (int u = 0; u < 4; ++u) fma_krow<VEC>(acc, As + (kk + u) * SV_LD, b[u]);
    }
    for (; kk < klen; ++kk) {
        float b[VEC];
        load_b<VEC>(bp + (size_t)kk * N, b);
        fma_krow<VEC>(acc, As + kk * SV_LD, b);
    }

    float* dst = ws + ((size_t)blockIdx.y * M + m0) * N + n;
    #pragma unroll
    for (int m = 0; m < SV_MT; ++m) {
        if (m0 + m < M) {
            if constexpr (VEC == 4) {
                *reinterpret_cast<float4*>(dst + (size_t)m * N) = make_float4(acc[m][0], acc[m][1], acc[m][2], acc[m][3]);
            } else {
                dst[(size_t)m * N] = acc[m][0];
            }
        }
    }
}

__global__ void splitk_sum_kernel(const float* __restrict__ ws, float* __restrict__ C,
                                  long long MN, int S, int vec) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (vec) {
        const long long MN4 = MN >> 2;
        const float4* w4 = reinterpret_cast<const float4*>(ws);
        float4* c4 = reinterpret_cast<float4*>(C);
        for (; i < MN4; i += stride) {
            float4 s = w4[i];
            for (int k = 1; k < S; ++k) {
                const float4 t = w4[(size_t)k * MN4 + i];
                s.x += t.x; s.y += t.y; s.z += t.z; s.w += t.w;
            }
            c4[i] = s;
        }
    } else {
        for (; i < MN; i += stride) {
            float s = ws[i];
            for (int k = 1; k < S; ++k) s += ws[(size_t)k * MN + i];
            C[i] = s;
        }
    }
}

torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(1) == B.size(0), "shape mismatch");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    auto Ac = A.contiguous();
    auto Bc = B.contiguous();
    const int M = (int)Ac.size(0), K = (int)Ac.size(1), N = (int)Bc.size(1);
    if (M == 0 || N == 0 || K == 0) return torch::zeros({M, N}, Ac.options());
    auto out = torch::empty({M, N}, Ac.options());

    const float* Bp = Bc.data_ptr<float>();
    const int vec = ((N & 3) == 0) && ((reinterpret_cast<uintptr_t>(Bp) & 15) == 0);
    const int cols_per_block = SV_THREADS * (vec ? 4 : 1);
    const int ntiles = (N + cols_per_block - 1) / cols_per_block;
    const int mtiles = (M + SV_MT - 1) / SV_MT;

    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (vec) cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mm_stream_kernel<4>, SV_THREADS, 0);
    else     cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mm_stream_kernel<1>, SV_THREADS, 0);
    if (per_sm < 1) per_sm = 1;

    // one wave of blocks: split K into S slices of at most SV_KS_MAX rows
    long long S = ((long long)sms * per_sm) / ((long long)ntiles * mtiles);
    const long long min_s = (K + SV_KS_MAX - 1) / SV_KS_MAX;
    if (S < min_s) S = min_s;
    if (S > K) S = K;
    if (S < 1) S = 1;
    int KS = (int)((K + S - 1) / S);
    KS = (KS + 3) & ~3;
    if (KS > SV_KS_MAX) KS = SV_KS_MAX;
    S = (K + KS - 1) / KS;
    TORCH_CHECK(S <= 65535, "K too large for this kernel");

    auto ws = torch::empty({(long long)S, M, N}, Ac.options());
    dim3 grid(ntiles, (unsigned)S, mtiles);
    if (vec) mm_stream_kernel<4><<<grid, SV_THREADS>>>(Ac.data_ptr<float>(), Bp, ws.data_ptr<float>(), M, K, N, KS);
    else     mm_stream_kernel<1><<<grid, SV_THREADS>>>(Ac.data_ptr<float>(), Bp, ws.data_ptr<float>(), M, K, N, KS);

    const long long MN = (long long)M * N;
    const long long work = vec ? (MN >> 2) : MN;
    long long blocks = (work + 255) / 256;
    if (blocks > (long long)sms * 16) blocks = (long long)sms * 16;
    if (blocks < 1) blocks = 1;
    splitk_sum_kernel<<<(unsigned)blocks, 256>>>(ws.data_ptr<float>(), out.data_ptr<float>(), MN, (int)S, vec);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_matmul_skinny_stream_vec4_regtile",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["matmul_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return my_mod.matmul_cuda(A, B)
