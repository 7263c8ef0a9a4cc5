# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sdpa_row_cpp = "torch::Tensor sdpa_row_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v);"

sdpa_row_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

// One 128-thread block per query row. The query row and the full score row live in
// shared memory; the row max and the exp-sum are block reductions (warp shuffles +
// a small shared array). Finally threads split the head dimension (and, when D is
// small, the key range in two halves) to form P.V.
#define NT 128
#define NWARP (NT / 32)

__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__global__ void __launch_bounds__(NT)
sdpa_row_kernel(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                float* __restrict__ o, int S, int D, float scale) {
    extern __shared__ float sm[];
    float* qs = sm;            // D
    float* ps = sm + D;        // S
    float* part = ps + S;      // NT (partial P.V sums for the split-key path)
    __shared__ float red[NWARP];
    __shared__ float bcast;

    const long long row = blockIdx.x;          // bh * S + i
    const long long bh = row / S;
    const float* kb = k + bh * S * D;
    const float* vb = v + bh * S * D;
    const int tid = threadIdx.x, lane = tid & 31, wid = tid >> 5;

    for (int d = tid; d < D; d += NT) qs[d] = q[row * D + d] * scale;
    __syncthreads();

    float lmax = -INFINITY;
    for (int j = tid; j < S; j += NT) {
        const float* kr = kb + (long long)j * D;
        float acc = 0.0f;
        for (int d = 0; d < D; ++d) acc += qs[d] * __ldg(kr + d);
        ps[j] = acc;
        lmax = fmaxf(lmax, acc);
    }
    lmax = warp_max(lmax);
    if (lane == 0) red[wid] = lmax;
    __syncthreads();
    if (tid == 0) {
        float m = red[0];
        for (int w = 1; w < NWARP; ++w) m = fmaxf(m, red[w]);
        bcast = m;
    }
    __syncthreads();
    const float m = bcast;

    float lsum = 0.0f;
    for (int j = tid; j < S; j += NT) {
        float e = __expf(ps[j] - m);
        ps[j] = e;
        lsum += e;
    }
    lsum = warp_sum(lsum);
    __syncthreads();                 // everyone has read bcast / red before reuse
    if (lane == 0) red[wid] = lsum;
    __syncthreads();
    if (tid == 0) {
        float s = 0.0f;
        for (int w = 0; w < NWARP; ++w) s += red[w];
        bcast = s;
    }
    __syncthreads();
    const float inv = 1.0f / bcast;

    if (2 * D <= NT) {
        // two halves of the key range, combined through shared memory
        const int half = tid / D;         // 0 or 1 for tid < 2D
        const int d = tid - half * D;
        float acc = 0.0f;
        if (tid < 2 * D) {
            const int mid = (S + 1) / 2;
            const int jb = half ? mid : 0, je = half ? S : mid;
            for (int j = jb; j < je; ++j) acc += ps[j] * __ldg(vb + (long long)j * D + d);
            part[tid] = acc;
        }
        __syncthreads();
        if (tid < D) o[row * D + tid] = (part[tid] + part[tid + D]) * inv;
    } else {
        for (int d = tid; d < D; d += NT) {
            float acc = 0.0f;
            for (int j = 0; j < S; ++j) acc += ps[j] * __ldg(vb + (long long)j * D + d);
            o[row * D + d] = acc * inv;
        }
    }
}

torch::Tensor sdpa_row_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
    TORCH_CHECK(q.is_cuda() && k.is_cuda() && v.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(q.scalar_type() == torch::kFloat32 && k.scalar_type() == torch::kFloat32 &&
                v.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(q.dim() == 4 && q.sizes() == k.sizes() && q.sizes() == v.sizes(), "expected equal (B,H,S,D) shapes");
    q = q.contiguous(); k = k.contiguous(); v = v.contiguous();
    const long long BH = q.size(0) * q.size(1);
    const int S = q.size(2), D = q.size(3);
    auto out = torch::empty_like(q);
    if (BH == 0 || S == 0 || D == 0) return out;
    size_t smem = (size_t)(D + S + NT) * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "sequence too long for the shared-memory score row");
    const float scale = 1.0f / sqrtf((float)D);
    long long rows = BH * S;
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    sdpa_row_kernel<<<(unsigned)rows, NT, smem>>>(q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(),
                                                 out.data_ptr<float>(), S, D, scale);
    return out;
}
"""

sdpa_row_mod = load_inline(
    name="sdpa_small_block_per_row_smem_kb7",
    cpp_sources=sdpa_row_cpp,
    cuda_sources=sdpa_row_cuda,
    functions=["sdpa_row_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return sdpa_row_mod.sdpa_row_forward(q, k, v)
