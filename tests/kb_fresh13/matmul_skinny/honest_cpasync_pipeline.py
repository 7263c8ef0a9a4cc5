# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <stdint.h>
// Multi-stage asynchronous-copy pipeline (cp.async via the __pipeline_* intrinsics, 4 stages of BK = 16):
// while the block computes on one stage, the next three A/B tiles are already in flight to shared memory.
// Block tile 32 x 128, 128 threads, each thread an 8 x 4 register micro-tile fed by two broadcast float4
// reads of A (stored transposed by 4-byte async copies) and one float4 read of B per k.  K is split so
// that the grid fills the GPU once; slices are combined with atomicAdd into a zeroed output.

#define PB_BM 32
#define PB_BN 128
#define PB_BK 16
#define PB_STAGES 4
#define PB_NT 128
#define PB_TM 8
#define PB_TN 4
#define PB_ALD (PB_BM + 4)

struct PBSmem {
    float a[PB_STAGES][PB_BK][PB_ALD];   // A tile stored transposed: a[k][m]
    float b[PB_STAGES][PB_BK][PB_BN];    // B tile: b[k][n]
};

__device__ __forceinline__ void pb_load_tile(PBSmem& sm, int stage, const float* __restrict__ A,
                                             const float* __restrict__ B, int M, int K, int N,
                                             int m0, int n0, int kt, int kend, int vecB, int tid) {
    // A: 32 x 16 values, 4 per thread, 4-byte async copies into the transposed layout
    #pragma unroll
    for (int i = 0; i < (PB_BM * PB_BK) / PB_NT; ++i) {
        const int idx = tid + i * PB_NT;
        const int r = idx / PB_BK;      // m within tile
        const int c = idx % PB_BK;      // k within tile
        const int gm = m0 + r, gk = kt + c;
        float* dst = &sm.a[stage][c][r];
        if (gm < M && gk < kend) __pipeline_memcpy_async(dst, A + (size_t)gm * K + gk, sizeof(float));
        else *dst = 0.f;
    }
    // B: 16 x 128 values = 512 float4, 4 per thread, 16-byte async copies
    #pragma unroll
    for (int i = 0; i < (PB_BK * PB_BN) / (4 * PB_NT); ++i) {
        const int idx = tid + i * PB_NT;
        const int r = idx >> 5;           // k within tile, 0..15
        const int c4 = (idx & 31) * 4;    // n within tile
        const int gk = kt + r, gn = n0 + c4;
        float* dst = &sm.b[stage][r][c4];
        if (gk < kend && vecB && gn + 3 < N) {
            __pipeline_memcpy_async(dst, B + (size_t)gk * N + gn, 16);
        } else {
            #pragma unroll
            for (int j = 0; j < 4; ++j)
                dst[j] = (gk < kend && gn + j < N) ? __ldg(B + (size_t)gk * N + gn + j) : 0.f;
        }
    }
}

__global__ void __launch_bounds__(PB_NT)
mm_cpasync_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                  int M, int K, int N, int KS, int vecB) {
    __shared__ __align__(16) PBSmem sm;
    const int tid = threadIdx.x;
    const int tx = tid & 31;   // columns tx*4 .. tx*4+3
    const int ty = tid >> 5;   // rows    ty*8 .. ty*8+7
    const int n0 = blockIdx.x * PB_BN;
    const int m0 = blockIdx.z * PB_BM;
    const int kbeg = blockIdx.y * KS;
    const int kend = min(K, kbeg + KS);
    const int ntk = (kend - kbeg + PB_BK - 1) / PB_BK;

    float acc[PB_TM][PB_TN];
    #pragma unroll
    for (int i = 0; i < PB_TM; ++i)
        #pragma unroll
        for (int j = 0; j < PB_TN; ++j) acc[i][j] = 0.f;

    // prologue: tiles 0 .. STAGES-2
    #pragma unroll
    for (int s = 0; s < PB_STAGES - 1; ++s) {
        if (s < ntk) pb_load_tile(sm, s, A, B, M, K, N, m0, n0, kbeg + s * PB_BK, kend, vecB, tid);
        __pipeline_commit();
    }

    for (int t = 0; t < ntk; ++t) {
        __pipeline_wait_prior(PB_STAGES - 2);  // this thread's copies for tile t are done
        __syncthreads();                       // ... everyone's, and stage (t-1) is no longer being read
        const int nt = t + PB_STAGES - 1;
        if (nt < ntk) pb_load_tile(sm, nt % PB_STAGES, A, B, M, K, N, m0, n0, kbeg + nt * PB_BK, kend, vecB, tid);
        __pipeline_commit();

        const int st = t % PB_STAGES;
        #pragma unroll
        for (int k = 0; k < PB_BK; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(&sm.a[st][k][ty * PB_TM]);
            const float4 a1 = *reinterpret_cast<const float4*>(&sm.a[st][k][ty * PB_TM + 4]);
            const float4 b = *reinterpret_cast<const float4*>(&sm.b[st][k][tx * PB_TN]);
            const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bv[4] = {b.x, b.y, b.z, b.w};
            #pragma unroll
            for (int i = 0; i < PB_TM; ++i)
                #pragma unroll
                for (int j = 0; j < PB_TN; ++j) acc[i][j] += av[i] * bv[j];
        }
    }
    __pipeline_wait_prior(0);

    const int gn = n0 + tx * PB_TN;
    #pragma unroll
    for (int i = 0; i < PB_TM; ++i) {
        const int gm = m0 + ty * PB_TM + i;
        if (gm >= M) continue;
        float* row = C + (size_t)gm * N;
        #pragma unroll
        for (int j = 0; j < PB_TN; ++j)
            if (gn + j < N) atomicAdd(row + gn + j, acc[i][j]);
    }
}

torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(1) == B.size(0), "shape mismatch");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    auto Ac = A.contiguous();
    auto Bc = B.contiguous();
    const int M = (int)Ac.size(0), K = (int)Ac.size(1), N = (int)Bc.size(1);
    auto out = torch::zeros({M, N}, Ac.options());
    if (M == 0 || N == 0 || K == 0) return out;

    const float* Bp = Bc.data_ptr<float>();
    const int vecB = ((N & 3) == 0) && ((reinterpret_cast<uintptr_t>(Bp) & 15) == 0);

    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mm_cpasync_kernel, PB_NT, 0);
    if (per_sm < 1) per_sm = 1;

    const int ntiles = (N + PB_BN - 1) / PB_BN;
    const int mtiles = (M + PB_BM - 1) / PB_BM;
    long long S = ((long long)sms * per_sm) / ((long long)ntiles * mtiles);
    const long long max_s = (K + PB_BK - 1) / PB_BK;
    if (S > max_s) S = max_s;
    if (S > 65535) S = 65535;
    if (S < 1) S = 1;
    int KS = (int)((K + S - 1) / S);
    KS = (KS + PB_BK - 1) / PB_BK * PB_BK;
    S = (K + KS - 1) / KS;

    dim3 grid(ntiles, (unsigned)S, mtiles);
    mm_cpasync_kernel<<<grid, PB_NT>>>(Ac.data_ptr<float>(), Bp, out.data_ptr<float>(), M, K, N, KS, vecB);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_matmul_skinny_cpasync_pipeline",
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
