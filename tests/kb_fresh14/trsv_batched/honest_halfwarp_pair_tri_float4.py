# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor L, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Specialised n == 32, k == 8 path: each warp solves TWO matrices at once, one per
// half-warp; half-lane hl owns rows hl and hl+16 (8 rhs columns each in registers).
//  * only the float4 chunks of L that intersect the lower triangle are loaded
//    (fully coalesced over the pair of matrices), through a padded shared tile,
//  * x_i is broadcast with width-16 shuffles, so one shuffle serves both matrices,
//    and for i >= 16 the upper-half rows need no work at all,
//  * B and X move as float4, warps loop persistently over matrix pairs.
// Any other shape / alignment uses a generic scalar kernel.

#define WPB 4
#define LDT 33
#define MSTRIDE (32 * LDT + 16)   // second matrix of a warp shifted by 16 banks

__global__ void __launch_bounds__(WPB * 32)
trsv_halfwarp_kernel(const float4* __restrict__ L4, const float4* __restrict__ B4,
                     float4* __restrict__ X4, long long batch) {
    __shared__ float Ls[WPB][2 * MSTRIDE];
    const int lane = threadIdx.x & 31;
    const int w = threadIdx.x >> 5;
    const int h = lane >> 4;          // which matrix of the pair
    const int hl = lane & 15;         // rows hl and hl + 16
    float* Lw = Ls[w];
    const float* Lmy = Lw + h * MSTRIDE;
    const long long npairs = (batch + 1) >> 1;
    const long long nwarps = (long long)gridDim.x * WPB;

    for (long long pair = (long long)blockIdx.x * WPB + w; pair < npairs; pair += nwarps) {
        const long long mbase = pair * 2;
        // ---- load lower-triangular float4 chunks of both matrices (512 float4 per pair)
#pragma unroll
        for (int t = 0; t < 16; ++t) {
            const int mat = t >> 3;
            const int ff = lane + 32 * (t & 7);      // float4 index within the matrix
            const int row = ff >> 3, q = ff & 7;
            if (4 * q <= row && mbase + mat < batch) {
                float4 v = __ldg(L4 + (mbase + mat) * 256 + ff);
                float* dst = Lw + mat * MSTRIDE + row * LDT + 4 * q;
                dst[0] = v.x; dst[1] = v.y; dst[2] = v.z; dst[3] = v.w;
            }
        }
        // ---- this lane's two rows of B (row = 8 floats = 2 float4)
        const long long m = mbase + h;
        const bool valid = m < batch;
        float b0[8], b1[8];
        if (valid) {
            const float4* Bm = B4 + m * 64;
            float4 u0 = __ldg(Bm + hl * 2), u1 = __ldg(Bm + hl * 2 + 1);
            float4 v0 = __ldg(Bm + (hl + 16) * 2), v1 = __ldg(Bm + (hl + 16) * 2 + 1);
            b0[0] = u0.x; b0[1] = u0.y; b0[2] = u0.z; b0[3] = u0.w;
            b0[4] = u1.x; b0[5] = u1.y; b0[6] = u1.z; b0[7] = u1.w;
            b1[0] = v0.x; b1[1] = v0.y; b1[2] = v0.z; b1[3] = v0.w;
            b1[4] = v1.x; b1[5] = v1.y; b1[6] = v1.z; b1[7] = v1.w;
        } else {
#pragma unroll
            for (int j = 0; j < 8; ++j) { b0[j] = 0.f; b1[j] = 0.f; }
        }
        __syncwarp();
        const float* row0 = Lmy + hl * LDT;          // row hl
        const float* row1 = Lmy + (hl + 16) * LDT;   // row hl + 16
        const float inv0 = valid ? 1.0f / row0[hl] : 0.f;
        const float inv1 = valid ? 1.0f / row1[hl + 16] : 0.f;

        // ---- steps 0..15: pivot rows live in slot 0, both slots may need updates
#pragma unroll
        for (int i = 0; i < 16; ++i) {
            if (hl == i) {
#pragma unroll
                for (int j = 0; j < 8; ++j) b0[j] *= inv0;
            }
            const float l0 = valid ? row0[i] : 0.f;
            const float l1 = valid ? row1[i] : 0.f;
            const bool upd0 = hl > i;
#pragma unroll
            for (int j = 0; j < 8; ++j) {
                const float xi = __shfl_sync(0xffffffffu, b0[j], i, 16);
                if (upd0) b0[j] = fmaf(-l0, xi, b0[j]);
                b1[j] = fmaf(-l1, xi, b1[j]);
            }
        }
        // ---- steps 16..31: pivot rows in slot 1, slot 0 rows are final
#pragma unroll
        for (int i = 16; i < 32; ++i) {
            if (hl == i - 16) {
#pragma unroll
                for (int j = 0; j < 8; ++j) b1[j] *= inv1;
            }
            const float l1 = valid ? row1[i] : 0.f;
            const bool upd1 = hl + 16 > i;
#pragma unroll
            for (int j = 0; j < 8; ++j) {
                const float xi = __shfl_sync(0xffffffffu, b1[j], i - 16, 16);
                if (upd1) b1[j] = fmaf(-l1, xi, b1[j]);
            }
        }
        if (valid) {
            float4* Xm = X4 + m * 64;
            Xm[hl * 2]            = make_float4(b0[0], b0[1], b0[2], b0[3]);
            Xm[hl * 2 + 1]        = make_float4(b0[4], b0[5], b0[6], b0[7]);
            Xm[(hl + 16) * 2]     = make_float4(b1[0], b1[1], b1[2], b1[3]);
            Xm[(hl + 16) * 2 + 1] = make_float4(b1[4], b1[5], b1[6], b1[7]);
        }
        __syncwarp();   // all lanes done reading the tile before it is overwritten
    }
}

__global__ void trsv_scalar_kernel(const float* __restrict__ L, const float* __restrict__ B,
                                   float* __restrict__ X, long long batch, int n, int k) {
    long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= batch * (long long)k) return;
    long long m = tid / k;
    int c = (int)(tid - m * k);
    const float* Lm = L + m * (long long)n * n;
    const float* Bm = B + m * (long long)n * k;
    float* Xm = X + m * (long long)n * k;
    for (int i = 0; i < n; ++i) {
        float s = Bm[(long long)i * k + c];
        for (int p = 0; p < i; ++p) s -= Lm[(long long)i * n + p] * Xm[(long long)p * k + c];
        Xm[(long long)i * k + c] = s / Lm[(long long)i * n + i];
    }
}

torch::Tensor my_op_cuda(torch::Tensor L, torch::Tensor B) {
    TORCH_CHECK(L.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(L.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 expected");
    TORCH_CHECK(L.dim() == 3 && B.dim() == 3, "expected L (batch, n, n) and B (batch, n, k)");
    TORCH_CHECK(L.size(0) == B.size(0) && L.size(1) == L.size(2) && B.size(1) == L.size(1), "shape mismatch");
    auto Lc = L.contiguous();
    auto Bc = B.contiguous();
    auto out = torch::empty_like(Bc);
    long long batch = Lc.size(0);
    int n = (int)Lc.size(1);
    int k = (int)Bc.size(2);
    if (batch == 0 || n == 0 || k == 0) return out;
    const float* Lp = Lc.data_ptr<float>();
    const float* Bp = Bc.data_ptr<float>();
    float* Xp = out.data_ptr<float>();
    bool aligned = ((reinterpret_cast<uintptr_t>(Lp) | reinterpret_cast<uintptr_t>(Bp) |
                     reinterpret_cast<uintptr_t>(Xp)) & 15) == 0;
    if (n == 32 && k == 8 && aligned) {
        int dev = 0, nsm = 0, per_sm = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, trsv_halfwarp_kernel, WPB * 32, 0);
        if (per_sm < 1) per_sm = 1;
        long long npairs = (batch + 1) / 2;
        long long need = (npairs + WPB - 1) / WPB;
        long long grid = (long long)nsm * per_sm;
        if (grid > need) grid = need;
        if (grid < 1) grid = 1;
        trsv_halfwarp_kernel<<<(unsigned)grid, WPB * 32>>>(reinterpret_cast<const float4*>(Lp),
                                                           reinterpret_cast<const float4*>(Bp),
                                                           reinterpret_cast<float4*>(Xp), batch);
    } else {
        const int threads = 256;
        long long total = batch * (long long)k;
        long long blocks = (total + threads - 1) / threads;
        trsv_scalar_kernel<<<(unsigned)blocks, threads>>>(Lp, Bp, Xp, batch, n, k);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_trsv_batched_halfwarp_pair_tri_float4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, L: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(L, B)
