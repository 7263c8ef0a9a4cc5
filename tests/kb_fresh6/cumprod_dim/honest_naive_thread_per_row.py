# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cumprod_naive(torch::Tensor x, int64_t dim);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per independent scan line (outer, inner). Each thread walks the
// scanned dimension sequentially. For dim = last, neighbouring threads touch
// addresses L floats apart, so the loads are completely uncoalesced.
__global__ void cumprod_naive_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     long long outer, long long L, long long inner) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long lines = outer * inner;
    if (idx >= lines) return;
    long long o = idx / inner;
    long long i = idx - o * inner;
    const float* xp = x + o * L * inner + i;
    float* yp = y + o * L * inner + i;
    float acc = 1.0f;
    for (long long k = 0; k < L; ++k) {
        acc *= xp[k * inner];
        yp[k * inner] = acc;
    }
}

torch::Tensor cumprod_naive(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    int64_t nd = x.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");
    long long outer = 1, inner = 1, L = x.size(dim);
    for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
    for (int64_t d = dim + 1; d < nd; ++d) inner *= x.size(d);
    auto y = torch::empty_like(x);
    long long lines = outer * inner;
    if (lines == 0 || L == 0) return y;
    const int threads = 128;
    long long blocks = (lines + threads - 1) / threads;
    cumprod_naive_kernel<<<(unsigned int)blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(),
                                                           outer, L, inner);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "cumprod_naive_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

_mod = load_inline(
    name="cumprod_dim_naive_thread_per_row",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cumprod_naive"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.cumprod_naive(x.contiguous(), self.dim)
