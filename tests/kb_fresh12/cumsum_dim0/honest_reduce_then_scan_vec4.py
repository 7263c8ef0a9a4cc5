# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cumsum0_rts_vec4_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Strategy: reduce-then-scan in two kernels with float4 column groups.
//   kernel 1: one thread per (row chunk, 4-column group) sums the chunk -> sums[chunk][group]
//   kernel 2: same decomposition; each thread adds up the sums of all earlier chunks of its group
//             (a short loop over L2-resident data) and then rescans its chunk from that offset.
// Falls back to a scalar column-serial kernel if C % 4 != 0 or pointers are not 16-byte aligned.

#define CHUNK 128
#define BATCH 8

__device__ __forceinline__ void add4(float4& a, const float4& b) {
    a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}

__global__ void rts_reduce_kernel(const float4* __restrict__ x, float4* __restrict__ sums,
                                  int R, int C4) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    int k = blockIdx.y;
    if (q >= C4) return;
    int r0 = k * CHUNK;
    int r1 = min(r0 + CHUNK, R);
    float4 s0 = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 s1 = s0;
    int r = r0;
    for (; r + BATCH <= r1; r += BATCH) {
        float4 v[BATCH];
#pragma unroll
        for (int j = 0; j < BATCH; ++j) v[j] = __ldg(&x[(size_t)(r + j) * C4 + q]);
#pragma unroll
        for (int j = 0; j < BATCH; j += 2) { add4(s0, v[j]); add4(s1, v[j + 1]); }
    }
    for (; r < r1; ++r) add4(s0, __ldg(&x[(size_t)r * C4 + q]));
    add4(s0, s1);
    sums[(size_t)k * C4 + q] = s0;
}

__global__ void rts_scan_kernel(const float4* __restrict__ x, const float4* __restrict__ sums,
                                float4* __restrict__ y, int R, int C4) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    int k = blockIdx.y;
    if (q >= C4) return;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int j = 0; j < k; ++j) add4(acc, sums[(size_t)j * C4 + q]);
    int r0 = k * CHUNK;
    int r1 = min(r0 + CHUNK, R);
    int r = r0;
    for (; r + BATCH <= r1; r += BATCH) {
        float4 v[BATCH];
#pragma unroll
        for (int j = 0; j < BATCH; ++j) v[j] = __ldg(&x[(size_t)(r + j) * C4 + q]);
#pragma unroll
        for (int j = 0; j < BATCH; ++j) {
            add4(acc, v[j]);
            y[(size_t)(r + j) * C4 + q] = acc;
        }
    }
    for (; r < r1; ++r) {
        add4(acc, __ldg(&x[(size_t)r * C4 + q]));
        y[(size_t)r * C4 + q] = acc;
    }
}

__global__ void scalar_col_scan_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       int R, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float acc = 0.f;
    for (int r = 0; r < R; ++r) {
        size_t i = (size_t)r * C + c;
        acc += x[i];
        y[i] = acc;
    }
}

torch::Tensor cumsum0_rts_vec4_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    if (R == 0 || C == 0) return out;
    const float* xp = xc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    int nchunks = (R + CHUNK - 1) / CHUNK;
    bool vec_ok = (C % 4 == 0) && nchunks <= 65535 &&
                  ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
                  ((reinterpret_cast<uintptr_t>(yp) & 15) == 0);
    if (!vec_ok) {
        scalar_col_scan_kernel<<<(C + 255) / 256, 256>>>(xp, yp, R, C);
        return out;
    }
    int C4 = C / 4;
    auto sums = torch::empty({(long)nchunks * C4 * 4}, xc.options());
    const int threads = 128;
    dim3 grid((C4 + threads - 1) / threads, nchunks);
    float4* sp = reinterpret_cast<float4*>(sums.data_ptr<float>());
    rts_reduce_kernel<<<grid, threads>>>(reinterpret_cast<const float4*>(xp), sp, R, C4);
    rts_scan_kernel<<<grid, threads>>>(reinterpret_cast<const float4*>(xp), sp,
                                       reinterpret_cast<float4*>(yp), R, C4);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_cumsum0_reduce_then_scan_vec4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cumsum0_rts_vec4_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.cumsum0_rts_vec4_cuda(x)
