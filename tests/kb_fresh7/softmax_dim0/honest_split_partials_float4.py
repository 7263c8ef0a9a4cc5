# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#define CHUNK_ROWS 64

__device__ __forceinline__ void online_update(float& m, float& s, float v) {
    float mn = fmaxf(m, v);
    s = s * __expf(m - mn) + __expf(v - mn);
    m = mn;
}

// Phase 1 (vectorised): each thread owns 4 adjacent columns and one chunk of rows,
// producing per-chunk partial (max, sum) for those columns.
__global__ void partials_vec4_kernel(const float4* __restrict__ x4, float4* __restrict__ pm4, float4* __restrict__ ps4,
                                     int R, int C4) {
    int c4 = blockIdx.x * blockDim.x + threadIdx.x;
    if (c4 >= C4) return;
    int chunk = blockIdx.y;
    int r0 = chunk * CHUNK_ROWS;
    int r1 = min(R, r0 + CHUNK_ROWS);
    float4 m = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
    float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
    #pragma unroll 4
    for (int r = r0; r < r1; ++r) {
        float4 v = __ldg(x4 + (size_t)r * C4 + c4);
        online_update(m.x, s.x, v.x);
        online_update(m.y, s.y, v.y);
        online_update(m.z, s.z, v.z);
        online_update(m.w, s.w, v.w);
    }
    pm4[(size_t)chunk * C4 + c4] = m;
    ps4[(size_t)chunk * C4 + c4] = s;
}

// Phase 1 (scalar fallback).
__global__ void partials_scalar_kernel(const float* __restrict__ x, float* __restrict__ pm, float* __restrict__ ps,
                                       int R, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    int chunk = blockIdx.y;
    int r0 = chunk * CHUNK_ROWS;
    int r1 = min(R, r0 + CHUNK_ROWS);
    float m = -INFINITY, s = 0.0f;
    for (int r = r0; r < r1; ++r) online_update(m, s, __ldg(x + (size_t)r * C + c));
    pm[(size_t)chunk * C + c] = m;
    ps[(size_t)chunk * C + c] = s;
}

// Phase 2: per column, combine the chunk partials into the final max and 1/sum.
__global__ void combine_kernel(const float* __restrict__ pm, const float* __restrict__ ps,
                               float* __restrict__ colmax, float* __restrict__ colinv, int nchunks, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float M = -INFINITY;
    for (int k = 0; k < nchunks; ++k) M = fmaxf(M, pm[(size_t)k * C + c]);
    float S = 0.0f;
    for (int k = 0; k < nchunks; ++k) S += ps[(size_t)k * C + c] * __expf(pm[(size_t)k * C + c] - M);
    colmax[c] = M;
    colinv[c] = 1.0f / S;
}

// Phase 3 (vectorised): elementwise normalisation, grid-stride over float4s.
__global__ void normalize_vec4_kernel(const float4* __restrict__ x4, float4* __restrict__ y4,
                                      const float4* __restrict__ cm4, const float4* __restrict__ ci4,
                                      size_t n4, int C4) {
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        int c4 = (int)(i % (size_t)C4);
        float4 v = __ldg(x4 + i);
        float4 m = __ldg(cm4 + c4);
        float4 iv = __ldg(ci4 + c4);
        float4 o;
        o.x = __expf(v.x - m.x) * iv.x;
        o.y = __expf(v.y - m.y) * iv.y;
        o.z = __expf(v.z - m.z) * iv.z;
        o.w = __expf(v.w - m.w) * iv.w;
        y4[i] = o;
    }
}

// Phase 3 (scalar fallback).
__global__ void normalize_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                        const float* __restrict__ cm, const float* __restrict__ ci,
                                        size_t n, int C) {
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int c = (int)(i % (size_t)C);
        y[i] = __expf(__ldg(x + i) - cm[c]) * ci[c];
    }
}

torch::Tensor softmax_dim0_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    x = x.contiguous();
    int R = (int)x.size(0);
    int C = (int)x.size(1);
    auto y = torch::empty_like(x);
    if (R == 0 || C == 0) return y;

    int nchunks = (R + CHUNK_ROWS - 1) / CHUNK_ROWS;
    TORCH_CHECK(nchunks <= 65535, "too many row chunks");
    auto pm = torch::empty({nchunks, C}, x.options());
    auto ps = torch::empty({nchunks, C}, x.options());
    auto colmax = torch::empty({C}, x.options());
    auto colinv = torch::empty({C}, x.options());

    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    bool vec = (C % 4 == 0) &&
               ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
               ((reinterpret_cast<uintptr_t>(yp) & 15) == 0);
    const int threads = 256;
    size_t n = (size_t)R * C;
    int sm_count = 0;
    cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, x.get_device());
    if (sm_count <= 0) sm_count = 132;

    if (vec) {
        int C4 = C / 4;
        dim3 g1((C4 + threads - 1) / threads, nchunks);
        partials_vec4_kernel<<<g1, threads>>>(reinterpret_cast<const float4*>(xp),
                                              reinterpret_cast<float4*>(pm.data_ptr<float>()),
                                              reinterpret_cast<float4*>(ps.data_ptr<float>()), R, C4);
    } else {
        dim3 g1((C + threads - 1) / threads, nchunks);
        partials_scalar_kernel<<<g1, threads>>>(xp, pm.data_ptr<float>(), ps.data_ptr<float>(), R, C);
    }
    combine_kernel<<<(C + threads - 1) / threads, threads>>>(pm.data_ptr<float>(), ps.data_ptr<float>(),
                                                             colmax.data_ptr<float>(), colinv.data_ptr<float>(),
                                                             nchunks, C);
    if (vec) {
        size_t n4 = n / 4;
        size_t want = (n4 + threads - 1) / threads;
        int blocks = (int)std::min<size_t>(want, (size_t)sm_count * 16);
        normalize_vec4_kernel<<<blocks, threads>>>(reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp),
                                                   reinterpret_cast<const float4*>(colmax.data_ptr<float>()),
                                                   reinterpret_cast<const float4*>(colinv.data_ptr<float>()),
                                                   n4, C / 4);
    } else {
        size_t want = (n + threads - 1) / threads;
        int blocks = (int)std::min<size_t>(want, (size_t)sm_count * 16);
        normalize_scalar_kernel<<<blocks, threads>>>(xp, yp, colmax.data_ptr<float>(), colinv.data_ptr<float>(), n, C);
    }
    return y;
}
"""

cpp_src = "torch::Tensor softmax_dim0_forward(torch::Tensor x);"

softmax_dim0_split_ext = load_inline(
    name="softmax_dim0_split_partials_float4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["softmax_dim0_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax_dim0_split_ext.softmax_dim0_forward(x)
