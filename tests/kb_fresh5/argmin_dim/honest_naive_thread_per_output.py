# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor argmin_dim_naive_forward(torch::Tensor x, int64_t dim);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>

// One thread per output (o, i): sequential scan of the reduced axis, keeping the first minimum.
// NaN is treated as smaller than everything (torch.argmin returns the first NaN).
__global__ void argmin_dim_naive_kernel(const float* __restrict__ x, int64_t* __restrict__ out,
                                        int64_t outer, int64_t R, int64_t inner) {
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t total = outer * inner;
    if (idx >= total) return;
    int64_t o = idx / inner;
    int64_t i = idx - o * inner;
    const float* p = x + o * R * inner + i;
    float best = p[0];
    int64_t best_idx = 0;
    for (int64_t r = 1; r < R; ++r) {
        float v = p[r * inner];
        if (v < best || (isnan(v) && !isnan(best))) {
            best = v;
            best_idx = r;
        }
    }
    out[idx] = best_idx;
}

torch::Tensor argmin_dim_naive_forward(torch::Tensor x, int64_t dim) {
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
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d) {
        if (d < dim) outer *= xc.size(d);
        if (d > dim) inner *= xc.size(d);
        if (d != dim) out_shape.push_back(xc.size(d));
    }
    auto out = torch::empty(out_shape, xc.options().dtype(torch::kInt64));
    const int64_t total = outer * inner;
    if (total == 0) return out;

    const int threads = 256;
    const int64_t blocks = (total + threads - 1) / threads;
    argmin_dim_naive_kernel<<<(unsigned int)blocks, threads>>>(
        xc.data_ptr<float>(), out.data_ptr<int64_t>(), outer, R, inner);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "argmin_dim_naive_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

argmin_module = load_inline(
    name="argmin_dim_kb5_naive_thread_per_output",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["argmin_dim_naive_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return argmin_module.argmin_dim_naive_forward(x, self.dim)
