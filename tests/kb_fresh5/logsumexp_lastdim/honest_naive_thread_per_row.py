# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor logsumexp_thread_per_row(torch::Tensor x);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>

// Naive: one thread per row. Pass 1 finds the row max, pass 2 sums exp(x - max).
// Neighbouring threads read addresses `cols` floats apart, so nothing is coalesced.
__global__ void logsumexp_thread_per_row_kernel(const float* x, float* y, long long rows, long long cols) {
    long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + r * cols;
    float m = -INFINITY;
    for (long long c = 0; c < cols; ++c) m = fmaxf(m, xr[c]);
    // an infinite max would give inf - inf = nan below; shift by 0 instead (same as torch)
    const float shift = (m == INFINITY || m == -INFINITY) ? 0.0f : m;
    float s = 0.0f;
    for (long long c = 0; c < cols; ++c) s += expf(xr[c] - shift);
    y[r] = logf(s) + shift;
}

torch::Tensor logsumexp_thread_per_row(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    const long long cols = xc.size(-1);
    TORCH_CHECK(cols > 0, "last dimension must be non-empty");
    const long long rows = xc.numel() / cols;
    auto out_sizes = xc.sizes().vec();
    out_sizes.pop_back();
    auto y = torch::empty(out_sizes, xc.options());
    if (rows == 0) return y;
    const int threads = 128;
    const long long blocks = (rows + threads - 1) / threads;
    logsumexp_thread_per_row_kernel<<<(unsigned)blocks, threads>>>(xc.data_ptr<float>(), y.data_ptr<float>(),
                                                                 rows, cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

logsumexp_thread_per_row_mod = load_inline(
    name="logsumexp_lastdim_naive_thread_per_row_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["logsumexp_thread_per_row"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return logsumexp_thread_per_row_mod.logsumexp_thread_per_row(x)
