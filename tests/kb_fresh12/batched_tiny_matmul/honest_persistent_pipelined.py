# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor tiny_bmm_cuda(torch::Tensor a, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Persistent, software-pipelined kernel: the grid is sized from the occupancy calculator
// and each 128-thread block walks tiles of 16 matrices with a grid stride. The next tile's
// A and B are prefetched into registers (streaming float4 loads) while the current tile is
// computed from a double-buffered shared-memory copy, so only one __syncthreads per tile
// is needed. Compute uses a 2x4 register block per thread (8 threads per matrix) and
// float4 streaming stores. Other shapes / misaligned pointers use a generic kernel.

#define MATS 16
#define THREADS 128
#define PER_THREAD ((MATS * 32) / THREADS)   // float4 per operand per thread = 4
#define A_ROW_STRIDE 20                      // 16 + 4 padding (floats)
#define A_MAT_STRIDE (8 * A_ROW_STRIDE)      // 160
#define B_MAT_STRIDE 128

__device__ __forceinline__ void prefetch_tile(const float4* __restrict__ a4,
                                              const float4* __restrict__ b4,
                                              long long tile, long long batch, int tid,
                                              float4 (&pa)[PER_THREAD], float4 (&pb)[PER_THREAD]) {
    const long long m0 = tile * MATS;
    const long long rem = batch - m0;
    const int nvec = (rem < MATS ? (int)rem : MATS) * 32;
    const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);
    #pragma unroll
    for (int u = 0; u < PER_THREAD; ++u) {
        const int f = u * THREADS + tid;
        pa[u] = (f < nvec) ? __ldcs(a4 + m0 * 32 + f) : zero;
        pb[u] = (f < nvec) ? __ldcs(b4 + m0 * 32 + f) : zero;
    }
}

__global__ void __launch_bounds__(THREADS)
bmm_persistent_pipelined_kernel(const float4* __restrict__ a4,
                                const float4* __restrict__ b4,
                                float4* __restrict__ c4,
                                long long batch) {
    __shared__ __align__(16) float sA[2][MATS * A_MAT_STRIDE];
    __shared__ __align__(16) float sB[2][MATS * B_MAT_STRIDE];
    const int tid = threadIdx.x;
    const long long ntiles = (batch + MATS - 1) / MATS;

    // Compute-role indices (fixed for the whole kernel).
    const int m = tid >> 3;      // matrix within tile
    const int s = tid & 7;
    const int r = s >> 1;        // output rows r and r + 4
    const int h = s & 1;         // output columns 4h .. 4h+3

    float4 pa[PER_THREAD], pb[PER_THREAD];
    long long tile = blockIdx.x;
    if (tile < ntiles) prefetch_tile(a4, b4, tile, batch, tid, pa, pb);

    int buf = 0;
    for (; tile < ntiles; tile += gridDim.x) {
        // Registers -> shared buffer `buf` (A rows padded).
        #pragma unroll
        for (int u = 0; u < PER_THREAD; ++u) {
            const int f = u * THREADS + tid;
            const int mm = f >> 5, row = (f >> 2) & 7, q = f & 3;
            *reinterpret_cast<float4*>(&sA[buf][mm * A_MAT_STRIDE + row * A_ROW_STRIDE + q * 4]) = pa[u];
            reinterpret_cast<float4*>(sB[buf])[f] = pb[u];
        }
        // One barrier per tile: buffer `buf` was last read two iterations ago, and every
        // thread has passed the previous iteration's barrier since then.
        __syncthreads();

        // Issue the next tile's global loads now; they complete while we compute.
        const long long next = tile + gridDim.x;
        if (next < ntiles) prefetch_tile(a4, b4, next, batch, tid, pa, pb);

        const float* sa0 = &sA[buf][m * A_MAT_STRIDE + r * A_ROW_STRIDE];
        const float* sa1 = sa0 + 4 * A_ROW_STRIDE;
        const float* sb = &sB[buf][m * B_MAT_STRIDE + h * 4];
        float4 acc0 = make_float4(0.f, 0.f, 0.f, 0.f);
        float4 acc1 = acc0;
        #pragma unroll
        for (int kq = 0; kq < 4; ++kq) {
            const float4 x0 = *reinterpret_cast<const float4*>(sa0 + kq * 4);
            const float4 x1 = *reinterpret_cast<const float4*>(sa1 + kq * 4);
            const float xa0[4] = {x0.x, x0.y, x0.z, x0.w};
            const float xa1[4] = {x1.x, x1.y, x1.z, x1.w};
            #pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
                const float4 bv = *reinterpret_cast<const float4*>(sb + (kq * 4 + kk) * 8);
                acc0.x = fmaf(xa0[kk], bv.x, acc0.x); acc0.y = fmaf(xa0[kk], bv.y, acc0.y);
                acc0.z = fmaf(xa0[kk], bv.z, acc0.z); acc0.w = fmaf(xa0[kk], bv.w, acc0.w);
                acc1.x = fmaf(xa1[kk], bv.x, acc1.x); acc1.y = fmaf(xa1[kk], bv.y, acc1.y);
                acc1.z = fmaf(xa1[kk], bv.z, acc1.z); acc1.w = fmaf(xa1[kk], bv.w, acc1.w);
            }
        }
        const long long gm = tile * MATS + m;
        if (gm < batch) {
            float4* cm = c4 + gm * 16;
            __stcs(cm + s, acc0);        // row r:   float4 index 2r + h == s
            __stcs(cm + 8 + s, acc1);    // row r+4: float4 index 8 + s
        }
        buf ^= 1;
    }
}

__global__ void bmm_generic_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                   float* __restrict__ c, long long total, int M, int K, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long mn = (long long)M * N;
    long long bi = idx / mn;
    int r = (int)(idx - bi * mn);
    int i = r / N, j = r - (r / N) * N;
    const float* ap = a + bi * M * K + (long long)i * K;
    const float* bp = b + bi * K * N + j;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += ap[k] * bp[(long long)k * N];
    c[idx] = acc;
}

torch::Tensor tiny_bmm_cuda(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(a.dim() == 3 && b.dim() == 3, "inputs must be 3-D");
    TORCH_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1), "shape mismatch");
    auto ac = a.contiguous();
    auto bc = b.contiguous();
    long long batch = ac.size(0);
    int M = (int)ac.size(1), K = (int)ac.size(2), N = (int)bc.size(2);
    auto out = torch::empty({batch, (long long)M, (long long)N}, ac.options());
    long long total = batch * M * N;
    if (total == 0) return out;
    const float* ap = ac.data_ptr<float>();
    const float* bp = bc.data_ptr<float>();
    float* cp = out.data_ptr<float>();
    bool aligned = ((reinterpret_cast<uintptr_t>(ap) | reinterpret_cast<uintptr_t>(bp) |
                     reinterpret_cast<uintptr_t>(cp)) & 15) == 0;
    if (M == 8 && K == 16 && N == 8 && aligned) {
        int dev = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bmm_persistent_pipelined_kernel, THREADS, 0);
        if (sms <= 0) sms = 132;
        if (per_sm <= 0) per_sm = 1;
        long long ntiles = (batch + MATS - 1) / MATS;
        long long blocks = (long long)sms * per_sm;
        if (blocks > ntiles) blocks = ntiles;
        bmm_persistent_pipelined_kernel<<<(unsigned int)blocks, THREADS>>>(
            reinterpret_cast<const float4*>(ap), reinterpret_cast<const float4*>(bp),
            reinterpret_cast<float4*>(cp), batch);
    } else {
        const int threads = 256;
        long long blocks = (total + threads - 1) / threads;
        bmm_generic_kernel<<<(unsigned int)blocks, threads>>>(ap, bp, cp, total, M, K, N);
    }
    return out;
}
"""

bmm_mod = load_inline(
    name="s46_tinybmm_persistent_pipelined",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["tiny_bmm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return bmm_mod.tiny_bmm_cuda(a, b)
