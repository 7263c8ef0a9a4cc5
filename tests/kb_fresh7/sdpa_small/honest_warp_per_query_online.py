# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sdpa_warp_cpp = "torch::Tensor sdpa_warp_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v);"

sdpa_warp_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

// One warp per query row, online (streaming) softmax over chunks of 32 keys:
// lane l scores key j0+l against the query held in shared memory, the chunk max and
// the rescaling factor come from __shfl_xor_sync, and each probability is broadcast
// with __shfl_sync while lanes accumulate the output dims lane, lane+32, ... (coalesced V reads).
#define WARPS 8
#define MAXD 128
#define DPL (MAXD / 32)

__global__ void __launch_bounds__(WARPS * 32)
sdpa_warp_kernel(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                 float* __restrict__ o, long long rows, int S, int D, float scale) {
    __shared__ float qs[WARPS][MAXD];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const long long row = (long long)blockIdx.x * WARPS + w;
    if (row >= rows) return;                    // whole warp exits together
    const long long bh = row / S;
    const float* kb = k + bh * S * D;
    const float* vb = v + bh * S * D;

    for (int d = lane; d < D; d += 32) qs[w][d] = q[row * D + d] * scale;
    __syncwarp();

    float m = -INFINITY, l = 0.0f;
    float acc[DPL];
#pragma unroll
    for (int r = 0; r < DPL; ++r) acc[r] = 0.0f;

    for (int j0 = 0; j0 < S; j0 += 32) {
        const int j = j0 + lane;
        float s = -INFINITY;
        if (j < S) {
            const float* kr = kb + (long long)j * D;
            float t = 0.0f;
            for (int d = 0; d < D; ++d) t += qs[w][d] * __ldg(kr + d);
            s = t;
        }
        float cmax = s;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) cmax = fmaxf(cmax, __shfl_xor_sync(0xffffffffu, cmax, off));
        const float mnew = fmaxf(m, cmax);          // finite: chunk has at least one valid key
        const float corr = __expf(m - mnew);         // exp(-inf) = 0 on the first chunk
        const float p = (j < S) ? __expf(s - mnew) : 0.0f;
        float psum = p;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) psum += __shfl_xor_sync(0xffffffffu, psum, off);
        l = l * corr + psum;
        m = mnew;
#pragma unroll
        for (int r = 0; r < DPL; ++r) acc[r] *= corr;
        const int cnt = min(32, S - j0);
        for (int jj = 0; jj < cnt; ++jj) {
            const float pj = __shfl_sync(0xffffffffu, p, jj);
            const float* vr = vb + (long long)(j0 + jj) * D;
#pragma unroll
            for (int r = 0; r < DPL; ++r) {
                const int d = lane + 32 * r;
                if (d < D) acc[r] += pj * __ldg(vr + d);
            }
        }
    }
    const float inv = 1.0f / l;
#pragma unroll
    for (int r = 0; r < DPL; ++r) {
        const int d = lane + 32 * r;
        if (d < D) o[row * D + d] = acc[r] * inv;
    }
}

torch::Tensor sdpa_warp_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
    TORCH_CHECK(q.is_cuda() && k.is_cuda() && v.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(q.scalar_type() == torch::kFloat32 && k.scalar_type() == torch::kFloat32 &&
                v.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(q.dim() == 4 && q.sizes() == k.sizes() && q.sizes() == v.sizes(), "expected equal (B,H,S,D) shapes");
    q = q.contiguous(); k = k.contiguous(); v = v.contiguous();
    const long long BH = q.size(0) * q.size(1);
    const int S = q.size(2), D = q.size(3);
    TORCH_CHECK(D <= MAXD, "head_dim must be <= 128");
    auto out = torch::empty_like(q);
    if (BH == 0 || S == 0 || D == 0) return out;
    const float scale = 1.0f / sqrtf((float)D);
    const long long rows = BH * S;
    const unsigned blocks = (unsigned)((rows + WARPS - 1) / WARPS);
    sdpa_warp_kernel<<<blocks, WARPS * 32>>>(q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(),
                                            out.data_ptr<float>(), rows, S, D, scale);
    return out;
}
"""

sdpa_warp_mod = load_inline(
    name="sdpa_small_warp_per_query_online_kb7",
    cpp_sources=sdpa_warp_cpp,
    cuda_sources=sdpa_warp_cuda,
    functions=["sdpa_warp_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return sdpa_warp_mod.sdpa_warp_forward(q, k, v)
