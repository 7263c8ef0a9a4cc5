# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cross_entropy_float4_cuda(torch::Tensor logits, torch::Tensor targets);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#define V4_WARPS 4
#define V4_THREADS (V4_WARPS * 32)

__device__ __forceinline__ float wmax(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float wsum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// One warp per row. VEC path: rows are 16-byte aligned and C % 4 == 0, so each lane
// loads float4s; the second (exp-sum) pass re-reads the 4 KB row, which is hot in L1.
template <bool VEC>
__global__ void ce_v4_kernel(const float* __restrict__ logits,
                             const int64_t* __restrict__ targets,
                             float* __restrict__ block_partials,
                             int N, int C) {
    __shared__ float wl[V4_WARPS];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int row = blockIdx.x * V4_WARPS + warp;

    float loss = 0.0f;
    if (row < N) {
        const float* x = logits + (size_t)row * C;
        float m = -INFINITY;
        if (VEC) {
            const float4* x4 = reinterpret_cast<const float4*>(x);
            const int C4 = C >> 2;
            for (int i = lane; i < C4; i += 32) {
                const float4 v = __ldg(x4 + i);
                m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
            }
            m = wmax(m);
            float s = 0.0f;
            for (int i = lane; i < C4; i += 32) {
                const float4 v = __ldg(x4 + i);
                s += __expf(v.x - m) + __expf(v.y - m) + __expf(v.z - m) + __expf(v.w - m);
            }
            s = wsum(s);
            if (lane == 0) loss = __logf(s) + m - __ldg(x + targets[row]);
        } else {
            for (int c = lane; c < C; c += 32) m = fmaxf(m, __ldg(x + c));
            m = wmax(m);
            float s = 0.0f;
            for (int c = lane; c < C; c += 32) s += __expf(__ldg(x + c) - m);
            s = wsum(s);
            if (lane == 0) loss = __logf(s) + m - __ldg(x + targets[row]);
        }
    }
    if (lane == 0) wl[warp] = loss;
    __syncthreads();
    if (threadIdx.x == 0) {
        float b = 0.0f;
        #pragma unroll
        for (int w = 0; w < V4_WARPS; ++w) b += wl[w];
        block_partials[blockIdx.x] = b;
    }
}

// Stage 2: one block, warp-shuffle reduction of the block partials.
__global__ void ce_v4_finalize(const float* __restrict__ partials, int P,
                               float* __restrict__ out, float inv_n) {
    __shared__ float ws[32];
    float a = 0.0f;
    for (int i = threadIdx.x; i < P; i += blockDim.x) a += partials[i];
    a = wsum(a);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) ws[warp] = a;
    __syncthreads();
    if (warp == 0) {
        const int nw = blockDim.x >> 5;
        a = (lane < nw) ? ws[lane] : 0.0f;
        a = wsum(a);
        if (lane == 0) out[0] = a * inv_n;
    }
}

torch::Tensor cross_entropy_float4_cuda(torch::Tensor logits, torch::Tensor targets) {
    TORCH_CHECK(logits.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(logits.dim() == 2, "logits must be (N, C)");
    TORCH_CHECK(logits.scalar_type() == torch::kFloat32, "logits must be float32");
    TORCH_CHECK(targets.scalar_type() == torch::kInt64, "targets must be int64");
    auto x = logits.contiguous();
    auto t = targets.contiguous();
    const int N = (int)x.size(0);
    const int C = (int)x.size(1);
    TORCH_CHECK(t.numel() == N, "targets must have N elements");
    TORCH_CHECK(N > 0 && C > 0, "empty input");

    const int blocks = (N + V4_WARPS - 1) / V4_WARPS;
    auto partials = torch::empty({blocks}, x.options());
    auto out = torch::empty({}, x.options());

    const float* xp = x.data_ptr<float>();
    const bool vec = (C % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
    if (vec) {
        ce_v4_kernel<true><<<blocks, V4_THREADS>>>(xp, t.data_ptr<int64_t>(), partials.data_ptr<float>(), N, C);
    } else {
        ce_v4_kernel<false><<<blocks, V4_THREADS>>>(xp, t.data_ptr<int64_t>(), partials.data_ptr<float>(), N, C);
    }
    ce_v4_finalize<<<1, 1024>>>(partials.data_ptr<float>(), blocks, out.data_ptr<float>(), 1.0f / (float)N);
    return out;
}
"""

ce_v4 = load_inline(
    name="cross_entropy_float4_warp_two_stage",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cross_entropy_float4_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return ce_v4.cross_entropy_float4_cuda(predictions, targets)
