# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor argmin_dim_two_pass_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>
#include <climits>

#define THREADS 256

// Pass 1: the reduced axis is cut into S chunks of `chunk` rows; thread (column i, pair (o, s))
// scans its chunk and stores the chunk's first minimum (value, global row index).
__global__ void argmin_dim_partial_kernel(const float* __restrict__ x, float* __restrict__ pval,
                                          int* __restrict__ pidx, int64_t outer, int64_t R,
                                          int64_t inner, int64_t S, int64_t chunk) {
    const int64_t i = (int64_t)blockIdx.x * THREADS + threadIdx.x;
    if (i >= inner) return;
    const int64_t pairs = outer * S;
    for (int64_t os = blockIdx.y; os < pairs; os += gridDim.y) {
        const int64_t o = os / S;
        const int64_t s = os - o * S;
        const int r_begin = (int)(s * chunk);
        const int r_end = (int)min(R, (int64_t)r_begin + chunk);
        const float* p = x + ((int64_t)o * R + r_begin) * inner + i;
        float best = __ldg(p);
        int best_i = r_begin;
        for (int r = r_begin + 1; r < r_end; ++r) {
            p += inner;
            const float v = __ldg(p);
            if (v < best || (isnan(v) && !isnan(best))) { best = v; best_i = r; }
        }
        pval[os * inner + i] = best;
        pidx[os * inner + i] = best_i;
    }
}

// Pass 2: one thread per output scans its S chunk winners in increasing chunk order; strict
// comparison keeps the earliest chunk on ties, which preserves first-occurrence semantics.
__global__ void argmin_dim_finalize_kernel(const float* __restrict__ pval, const int* __restrict__ pidx,
                                           int64_t* __restrict__ out, int64_t outer, int64_t inner,
                                           int64_t S) {
    const int64_t total = outer * inner;
    for (int64_t idx = (int64_t)blockIdx.x * THREADS + threadIdx.x; idx < total;
         idx += (int64_t)gridDim.x * THREADS) {
        const int64_t o = idx / inner;
        const int64_t i = idx - o * inner;
        const int64_t base = o * S * inner + i;
        float best = pval[base];
        int best_i = pidx[base];
        for (int64_t s = 1; s < S; ++s) {
            const float v = pval[base + s * inner];
            if (v < best || (isnan(v) && !isnan(best))) { best = v; best_i = pidx[base + s * inner]; }
        }
        out[idx] = (int64_t)best_i;
    }
}

torch::Tensor argmin_dim_two_pass_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int64_t nd = xc.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");

    int64_t outer = 1, inner = 1;
    const int64_t R = xc.size(dim);
    TORCH_CHECK(R > 0, "argmin over an empty dimension");
    TORCH_CHECK(R < INT_MAX, "reduced dimension too large for int indices");
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d) {
        if (d < dim) outer *= xc.size(d);
        if (d > dim) inner *= xc.size(d);
        if (d != dim) out_shape.push_back(xc.size(d));
    }
    auto out = torch::empty(out_shape, xc.options().dtype(torch::kInt64));
    if (outer * inner == 0) return out;

    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    const int64_t chunk = 64;
    const int64_t S = (R + chunk - 1) / chunk;   // every chunk is non-empty
    auto pval = torch::empty({outer * S * inner}, xc.options());
    auto pidx = torch::empty({outer * S * inner}, xc.options().dtype(torch::kInt32));

    const int64_t gx = (inner + THREADS - 1) / THREADS;
    TORCH_CHECK(gx <= 2147483647LL, "inner dimension too large");
    const int64_t gy = std::min<int64_t>(outer * S, 65535);
    dim3 grid1((unsigned int)gx, (unsigned int)gy);
    argmin_dim_partial_kernel<<<grid1, THREADS, 0, stream>>>(
        xc.data_ptr<float>(), pval.data_ptr<float>(), pidx.data_ptr<int>(), outer, R, inner, S, chunk);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "argmin_dim_partial_kernel launch failed: ", cudaGetErrorString(err));

    const int64_t total = outer * inner;
    const int64_t g2 = std::min<int64_t>((total + THREADS - 1) / THREADS, 65535LL * 16);
    argmin_dim_finalize_kernel<<<(unsigned int)g2, THREADS, 0, stream>>>(
        pval.data_ptr<float>(), pidx.data_ptr<int>(), out.data_ptr<int64_t>(), outer, inner, S);
    err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "argmin_dim_finalize_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

argmin_module = load_inline(
    name="argmin_dim_kb5_two_pass_split_r",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["argmin_dim_two_pass_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return argmin_module.argmin_dim_two_pass_forward(x, self.dim, stream)
