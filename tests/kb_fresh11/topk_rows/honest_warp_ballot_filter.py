# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor topk_rows_cuda(torch::Tensor x, int64_t k);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
// Strategy: persistent grid of warps, grid-striding over rows. The running top-k of a row is kept
// as a sorted list spread across the warp (lane i holds the i-th largest). The row is streamed
// with software-pipelined float4 loads; a __ballot_sync against the current k-th value filters
// each batch, and only the surviving values are inserted (position by ballot+popc, shift by
// __shfl_up_sync). Once the threshold has risen, most batches are rejected by one __any_sync.

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ void consider(float v, float& L, float& thr, int lane, int k) {
    unsigned int mask = __ballot_sync(FULL_MASK, v > thr);
    while (mask) {
        const int src = __ffs(mask) - 1;
        const float val = __shfl_sync(FULL_MASK, v, src);
        // val > thr == L[k-1], so the insert position p is in [0, k-1]
        const int p = __popc(__ballot_sync(FULL_MASK, lane < k && L >= val));
        const float up = __shfl_up_sync(FULL_MASK, L, 1);
        if (lane == p) L = val;
        else if (lane > p) L = up;
        thr = __shfl_sync(FULL_MASK, L, k - 1);
        mask &= ~(1u << src);
        mask &= __ballot_sync(FULL_MASK, v > thr);
    }
}

__device__ __forceinline__ void consider4(const float4& v, float& L, float& thr, int lane, int k) {
    const float m = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    if (__any_sync(FULL_MASK, m > thr)) {
        consider(v.x, L, thr, lane, k);
        consider(v.y, L, thr, lane, k);
        consider(v.z, L, thr, lane, k);
        consider(v.w, L, thr, lane, k);
    }
}

__global__ void topk_ballot_kernel(const float* __restrict__ x, float* __restrict__ out,
                                   int rows, int cols, int k, int vec) {
    const int lane = threadIdx.x & 31;
    const int wpb = blockDim.x >> 5;
    const int gwarp = blockIdx.x * wpb + (threadIdx.x >> 5);
    const int nwarps = gridDim.x * wpb;
    const float NEG = -INFINITY;
    const float4 NEG4 = make_float4(NEG, NEG, NEG, NEG);
    for (int r = gwarp; r < rows; r += nwarps) {
        float L = NEG;    // lane i (< k): i-th largest so far
        float thr = NEG;  // current k-th largest (L of lane k-1), warp-uniform
        const float* row = x + (size_t)r * cols;
        if (vec) {
            const float4* row4 = reinterpret_cast<const float4*>(row);
            const int n4 = cols >> 2;
            float4 cur = (lane < n4) ? __ldg(row4 + lane) : NEG4;
            for (int base = 0; base < n4; base += 32) {
                const int cn = base + 32 + lane;
                const float4 nxt = (cn < n4) ? __ldg(row4 + cn) : NEG4;
                consider4(cur, L, thr, lane, k);
                cur = nxt;
            }
        } else {
            for (int base = 0; base < cols; base += 32) {
                const int c = base + lane;
                const float v = (c < cols) ? __ldg(row + c) : NEG;
                consider(v, L, thr, lane, k);
            }
        }
        if (lane < k) out[(size_t)r * k + lane] = L;
    }
}

torch::Tensor topk_rows_cuda(torch::Tensor x, int64_t k) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int rows = (int)xc.size(0);
    const int cols = (int)xc.size(1);
    TORCH_CHECK(k >= 0 && k <= cols, "k out of range");
    TORCH_CHECK(k <= 32, "this kernel supports k <= 32");
    auto out = torch::empty({(int64_t)rows, k}, xc.options());
    if (rows == 0 || k == 0) return out;
    const float* xp = xc.data_ptr<float>();
    const int vec = ((cols % 4) == 0 && (reinterpret_cast<uintptr_t>(xp) % 16) == 0) ? 1 : 0;

    const int threads = 256;
    const int wpb = threads / 32;
    int dev = 0, num_sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, topk_ballot_kernel, threads, 0);
    if (per_sm < 1) per_sm = 1;
    if (num_sms < 1) num_sms = 1;
    int blocks = num_sms * per_sm;
    const int needed = (rows + wpb - 1) / wpb;
    if (blocks > needed) blocks = needed;
    topk_ballot_kernel<<<blocks, threads>>>(xp, out.data_ptr<float>(), rows, cols, (int)k, vec);
    return out;
}
"""

my_mod = load_inline(
    name="s45_topk_rows_warp_ballot_filter",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["topk_rows_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, k: int):
        super().__init__()
        self.k = k

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.topk_rows_cuda(x, int(self.k))
