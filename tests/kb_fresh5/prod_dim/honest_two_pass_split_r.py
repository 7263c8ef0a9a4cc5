# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor prod_dim_two_pass_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>

#define THREADS 256

// Pass 1: the reduced axis is cut into S chunks of `chunk` rows.  grid.x covers inner columns,
// grid.y walks the flattened (outer, split) pairs.  Each thread writes one partial product to
// partial[(o * S + s) * inner + i] (coalesced over i).
__global__ void prod_dim_partial_kernel(const float* __restrict__ x, float* __restrict__ partial,
                                        int64_t outer, int64_t R, int64_t inner,
                                        int64_t S, int64_t chunk) {
    const int64_t i = (int64_t)blockIdx.x * THREADS + threadIdx.x;
    if (i >= inner) return;
    const int64_t pairs = outer * S;
    for (int64_t os = blockIdx.y; os < pairs; os += gridDim.y) {
        const int64_t o = os / S;
        const int64_t s = os - o * S;
        const int64_t r_begin = s * chunk;
        const int64_t r_end = min(R, r_begin + chunk);
        const float* p = x + (o * R + r_begin) * inner + i;
        float acc = 1.0f;
        int64_t r = r_begin;
        for (; r + 4 <= r_end; r += 4) {
            const float a = __ldg(p);
            const float b = __ldg(p + inner);
            const float c = __ldg(p + 2 * inner);
            const float d = __ldg(p + 3 * inner);
            acc *= (a * b) * (c * d);
            p += 4 * inner;
        }
        for (; r < r_end; ++r) { acc *= __ldg(p); p += inner; }
        partial[os * inner + i] = acc;
    }
}

// Pass 2: one thread per output multiplies its S partials.
__global__ void prod_dim_finalize_kernel(const float* __restrict__ partial, float* __restrict__ y,
                                         int64_t outer, int64_t inner, int64_t S) {
    const int64_t total = outer * inner;
    for (int64_t idx = (int64_t)blockIdx.x * THREADS + threadIdx.x; idx < total;
         idx += (int64_t)gridDim.x * THREADS) {
        const int64_t o = idx / inner;
        const int64_t i = idx - o * inner;
        const float* p = partial + o * S * inner + i;
        float acc = 1.0f;
        for (int64_t s = 0; s < S; ++s) acc *= p[s * inner];
        y[idx] = acc;
    }
}

torch::Tensor prod_dim_two_pass_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int64_t nd = xc.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");

    int64_t outer = 1, inner = 1;
    const int64_t R = xc.size(dim);
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d) {
        if (d < dim) outer *= xc.size(d);
        if (d > dim) inner *= xc.size(d);
        if (d != dim) out_shape.push_back(xc.size(d));
    }
    auto y = torch::empty(out_shape, xc.options());
    if (outer * inner == 0) return y;

    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    const int64_t chunk = 32;
    const int64_t S = std::max<int64_t>(1, (R + chunk - 1) / chunk);   // R == 0 -> one empty chunk (product 1)
    auto partial = torch::empty({outer * S * inner}, xc.options());

    const int64_t gx = (inner + THREADS - 1) / THREADS;
    TORCH_CHECK(gx <= 2147483647LL, "inner dimension too large");
    const int64_t gy = std::min<int64_t>(outer * S, 65535);
    dim3 grid1((unsigned int)gx, (unsigned int)gy);
    prod_dim_partial_kernel<<<grid1, THREADS, 0, stream>>>(
        xc.data_ptr<float>(), partial.data_ptr<float>(), outer, R, inner, S, chunk);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "prod_dim_partial_kernel launch failed: ", cudaGetErrorString(err));

    const int64_t total = outer * inner;
    const int64_t g2 = std::min<int64_t>((total + THREADS - 1) / THREADS, 65535LL * 16);
    prod_dim_finalize_kernel<<<(unsigned int)g2, THREADS, 0, stream>>>(
        partial.data_ptr<float>(), y.data_ptr<float>(), outer, inner, S);
    err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "prod_dim_finalize_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

prod_module = load_inline(
    name="prod_dim_kb5_two_pass_split_r",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["prod_dim_two_pass_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return prod_module.prod_dim_two_pass_forward(x, self.dim, stream)
