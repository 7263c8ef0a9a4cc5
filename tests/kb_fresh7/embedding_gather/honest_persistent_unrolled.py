# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <vector>
#include <algorithm>

#define THREADS 256
#define UNROLL 4

// Persistent grid (sized from the occupancy calculator): each warp walks tokens with a
// grid-stride loop, prefetching the next token's index while copying the current row.
// Rows are copied UNROLL float4s per lane at a time (all loads issued before the stores,
// for memory-level parallelism) with streaming __stcs stores since the output is not re-read.
__global__ void __launch_bounds__(THREADS)
embedding_persistent_vec4_kernel(const int64_t* __restrict__ idx, const float4* __restrict__ w4,
                                 float4* __restrict__ out4, int64_t N, int64_t V, int64_t D4) {
    const int lane = threadIdx.x & 31;
    const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int64_t nwarps = ((int64_t)gridDim.x * blockDim.x) >> 5;
    int64_t t = warp;
    int64_t next_row = (t < N) ? __ldg(idx + t) : 0;
    for (; t < N; t += nwarps) {
        int64_t row = next_row;
        int64_t tn = t + nwarps;
        if (tn < N) next_row = __ldg(idx + tn);
        float4* dst = out4 + t * D4;
        if (row < 0 || row >= V) {
            for (int64_t c = lane; c < D4; c += 32) __stcs(dst + c, make_float4(0.f, 0.f, 0.f, 0.f));
            continue;
        }
        const float4* src = w4 + row * D4;
        int64_t c = lane;
        for (; c + 32 * (UNROLL - 1) < D4; c += 32 * UNROLL) {
            float4 v[UNROLL];
            #pragma unroll
            for (int u = 0; u < UNROLL; ++u) v[u] = __ldg(src + c + 32 * u);
            #pragma unroll
            for (int u = 0; u < UNROLL; ++u) __stcs(dst + c + 32 * u, v[u]);
        }
        for (; c < D4; c += 32) __stcs(dst + c, __ldg(src + c));
    }
}

// Scalar fallback with the same persistent warp-per-row structure.
__global__ void __launch_bounds__(THREADS)
embedding_persistent_scalar_kernel(const int64_t* __restrict__ idx, const float* __restrict__ w,
                                   float* __restrict__ out, int64_t N, int64_t V, int64_t D) {
    const int lane = threadIdx.x & 31;
    const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int64_t nwarps = ((int64_t)gridDim.x * blockDim.x) >> 5;
    for (int64_t t = warp; t < N; t += nwarps) {
        int64_t row = __ldg(idx + t);
        bool ok = row >= 0 && row < V;
        const float* src = w + (ok ? row : 0) * D;
        float* dst = out + t * D;
        for (int64_t c = lane; c < D; c += 32) dst[c] = ok ? __ldg(src + c) : 0.0f;
    }
}

torch::Tensor embedding_forward(torch::Tensor indices, torch::Tensor weight) {
    TORCH_CHECK(indices.is_cuda() && weight.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(indices.scalar_type() == torch::kLong, "indices must be int64");
    TORCH_CHECK(weight.scalar_type() == torch::kFloat32, "weight must be float32");
    TORCH_CHECK(weight.dim() == 2, "weight must be 2-D");
    auto idx = indices.contiguous();
    auto w = weight.contiguous();
    int64_t V = w.size(0);
    int64_t D = w.size(1);
    int64_t N = idx.numel();
    std::vector<int64_t> out_shape(idx.sizes().begin(), idx.sizes().end());
    out_shape.push_back(D);
    auto out = torch::empty(out_shape, w.options());
    if (N == 0 || D == 0) return out;
    const float* wp = w.data_ptr<float>();
    float* op = out.data_ptr<float>();
    bool vec = (D % 4 == 0) &&
               ((reinterpret_cast<uintptr_t>(wp) & 15) == 0) &&
               ((reinterpret_cast<uintptr_t>(op) & 15) == 0);
    int dev = w.get_device();
    int sm_count = 0;
    cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev);
    if (sm_count <= 0) sm_count = 132;
    int per_sm = 0;
    if (vec) {
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, embedding_persistent_vec4_kernel, THREADS, 0);
    } else {
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, embedding_persistent_scalar_kernel, THREADS, 0);
    }
    if (per_sm <= 0) per_sm = 4;
    const int warps_per_block = THREADS / 32;
    int64_t needed = (N + warps_per_block - 1) / warps_per_block;
    int64_t blocks = std::min<int64_t>(needed, (int64_t)sm_count * per_sm);
    if (blocks < 1) blocks = 1;
    if (vec) {
        embedding_persistent_vec4_kernel<<<(unsigned)blocks, THREADS>>>(idx.data_ptr<int64_t>(),
            reinterpret_cast<const float4*>(wp), reinterpret_cast<float4*>(op), N, V, D / 4);
    } else {
        embedding_persistent_scalar_kernel<<<(unsigned)blocks, THREADS>>>(idx.data_ptr<int64_t>(), wp, op, N, V, D);
    }
    return out;
}
"""

cpp_src = "torch::Tensor embedding_forward(torch::Tensor indices, torch::Tensor weight);"

embedding_persistent_ext = load_inline(
    name="embedding_gather_persistent_unrolled",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["embedding_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_embeddings: int, embedding_dim: int):
        super().__init__()
        self.embedding = nn.Embedding(num_embeddings, embedding_dim)

    def forward(self, indices: torch.Tensor) -> torch.Tensor:
        return embedding_persistent_ext.embedding_forward(indices, self.embedding.weight)
