# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor tiny_bmm_cuda(torch::Tensor a, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Register-only, no shared memory: each half-warp (16 lanes) owns one 8x16 @ 16x8 product.
// B[b] (32 float4) is loaded coalesced, two float4 per lane, and stays distributed across
// the half-warp's registers; lane t loads its A row (t/2) as 4 float4 and computes the
// 4 outputs C[t/2][4*(t%2) .. +3], fetching each needed B row-quarter with __shfl_sync.
// The result is one coalesced float4 store per lane. Other shapes / misaligned pointers
// use a generic kernel.

__global__ void bmm_halfwarp_shuffle_kernel(const float4* __restrict__ a4,
                                            const float4* __restrict__ b4,
                                            float4* __restrict__ c4,
                                            long long batch) {
    const int lane = threadIdx.x & 31;
    const int half = lane >> 4;
    const int t = lane & 15;
    const long long warp_global = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const long long m = warp_global * 2 + half;
    const bool valid = m < batch;

    // B: 16 rows x 2 float4 = 32 float4; float4 g covers row g/2, cols 4*(g%2)..+3.
    float4 b_lo = make_float4(0.f, 0.f, 0.f, 0.f);   // g = t       (rows 0..7)
    float4 b_hi = make_float4(0.f, 0.f, 0.f, 0.f);   // g = t + 16  (rows 8..15)
    // A: this lane's row i = t/2, 4 float4 covering k = 0..15.
    float4 ar[4];
    const int i = t >> 1;
    const int h = t & 1;
    if (valid) {
        b_lo = __ldg(b4 + m * 32 + t);
        b_hi = __ldg(b4 + m * 32 + 16 + t);
        #pragma unroll
        for (int q = 0; q < 4; ++q) ar[q] = __ldg(a4 + m * 32 + i * 4 + q);
    } else {
        #pragma unroll
        for (int q = 0; q < 4; ++q) ar[q] = make_float4(0.f, 0.f, 0.f, 0.f);
    }

    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    #pragma unroll
    for (int k = 0; k < 16; ++k) {
        // B[k][4h..4h+3] lives in lane (2k + h) % 16 of this half, register b_lo if k < 8.
        const int src = ((2 * k) + h) & 15;
        const float4 bsrc = (k < 8) ? b_lo : b_hi;
        float bx = __shfl_sync(0xffffffffu, bsrc.x, src, 16);
        float by = __shfl_sync(0xffffffffu, bsrc.y, src, 16);
        float bz = __shfl_sync(0xffffffffu, bsrc.z, src, 16);
        float bw = __shfl_sync(0xffffffffu, bsrc.w, src, 16);
        const float4 aq = ar[k >> 2];
        const float av = ((k & 3) == 0) ? aq.x : ((k & 3) == 1) ? aq.y : ((k & 3) == 2) ? aq.z : aq.w;
        acc.x += av * bx;
        acc.y += av * by;
        acc.z += av * bz;
        acc.w += av * bw;
    }
    // C[m] is 8 rows x 2 float4; float4 index i*2 + h == t.
    if (valid) c4[m * 16 + t] = acc;
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
        const int threads = 256;                       // 8 warps -> 16 matrices per block
        const long long mats_per_block = threads / 16;
        long long blocks = (batch + mats_per_block - 1) / mats_per_block;
        bmm_halfwarp_shuffle_kernel<<<(unsigned int)blocks, threads>>>(
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
    name="s46_tinybmm_halfwarp_shuffle",
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
