# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Classic SIMT SGEMM structure adapted to M = 32: a block computes a 32 x 128 tile of C, A and B tiles
// (BK = 16) are staged in shared memory (A transposed, B with float4 loads), and each of the 256 threads
// accumulates a 4 x 4 register micro-tile from float4 shared-memory reads.  K is split into slices
// (grid.y) written to a partial buffer, which a second kernel sums deterministically.

#define BM 32
#define BN 128
#define BK 16
#define TM 4
#define TN 4
#define NT 256
#define AS_LD (BM + 4)

__global__ void __launch_bounds__(NT)
mm_regblock_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ ws,
                   int M, int K, int N, int KS, int vecB) {
    __shared__ __align__(16) float As[BK][AS_LD];
    __shared__ __align__(16) float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int tx = tid & 31;   // column group: columns tx*4 .. tx*4+3
    const int ty = tid >> 5;   // row group:    rows    ty*4 .. ty*4+3
    const int n0 = blockIdx.x * BN;
    const int m0 = blockIdx.z * BM;
    const int kbeg = blockIdx.y * KS;
    const int kend = min(K, kbeg + KS);

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;

    for (int kt = kbeg; kt < kend; kt += BK) {
        // A tile (BM x BK = 512 values, 2 per thread) -> As[k][m]
        #pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int idx = tid + i * NT;
            const int r = idx / BK;
            const int c = idx - r * BK;
            const int gm = m0 + r, gk = kt + c;
            As[c][r] = (gm < M && gk < kend) ? __ldg(A + (size_t)gm * K + gk) : 0.f;
        }
        // B tile (BK x BN = 512 float4, 2 per thread) -> Bs[k][n]
        #pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int idx = tid + i * NT;
            const int r = idx >> 5;           // 0..15
            const int c4 = (idx & 31) * 4;    // 0..124
            const int gk = kt + r, gn = n0 + c4;
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (gk < kend) {
                const float* src = B + (size_t)gk * N + gn;
                if (vecB && gn + 3 < N) {
                    v = __ldg(reinterpret_cast<const float4*>(src));
                } else {
                    if (gn + 0 < N) v.x = __ldg(src + 0);
                    if (gn + 1 < N) v.y = __ldg(src + 1);
                    if (gn + 2 < N) v.z = __ldg(src + 2);
                    if (gn + 3 < N) v.w = __ldg(src + 3);
                }
            }
            *reinterpret_cast<float4*>(&Bs[r][c4]) = v;
        }
        __syncthreads();

        #pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float4 a = *reinterpret_cast<const float4*>(&As[k][ty * TM]);
            const float4 b = *reinterpret_cast<const float4*>(&Bs[k][tx * TN]);
            const float av[4] = {a.x, a.y, a.z, a.w};
            const float bv[4] = {b.x, b.y, b.z, b.w};
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }

    // partial tile -> ws[slice][m][n]
    float* dst = ws + (size_t)blockIdx.y * M * N;
    const int gn = n0 + tx * TN;
    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int gm = m0 + ty * TM + i;
        if (gm >= M) continue;
        float* row = dst + (size_t)gm * N;
        if (vecB && gn + 3 < N) {
            *reinterpret_cast<float4*>(row + gn) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        } else {
            #pragma unroll
            for (int j = 0; j < TN; ++j)
                if (gn + j < N) row[gn + j] = acc[i][j];
        }
    }
}

// C = sum over slices of ws[s]
__global__ void splitk_reduce_kernel(const float* __restrict__ ws, float* __restrict__ C,
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
    const int vecB = ((N & 3) == 0) && ((reinterpret_cast<uintptr_t>(Bp) & 15) == 0);

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int ntiles = (N + BN - 1) / BN;
    const int mtiles = (M + BM - 1) / BM;
    // split K so that there are roughly 4 blocks per SM
    int S = (4 * sms + ntiles * mtiles - 1) / (ntiles * mtiles);
    const int max_s = (K + BK - 1) / BK;
    if (S > max_s) S = max_s;
    if (S > 65535) S = 65535;
    if (S < 1) S = 1;
    int KS = (K + S - 1) / S;
    KS = (KS + BK - 1) / BK * BK;
    S = (K + KS - 1) / KS;

    auto ws = torch::empty({S, M, N}, Ac.options());
    dim3 grid(ntiles, S, mtiles);
    mm_regblock_kernel<<<grid, NT>>>(Ac.data_ptr<float>(), Bp, ws.data_ptr<float>(), M, K, N, KS, vecB);

    const long long MN = (long long)M * N;
    const int rvec = vecB;  // N % 4 == 0 -> M*N % 4 == 0; ws / out are fresh allocations (aligned)
    const long long work = rvec ? (MN >> 2) : MN;
    long long blocks = (work + 255) / 256;
    if (blocks > (long long)sms * 16) blocks = (long long)sms * 16;
    if (blocks < 1) blocks = 1;
    splitk_reduce_kernel<<<(unsigned)blocks, 256>>>(ws.data_ptr<float>(), out.data_ptr<float>(), MN, S, rvec);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_matmul_skinny_regblock_2d_splitk",
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
