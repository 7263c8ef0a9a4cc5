# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor softmax_thread_row_forward(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>

// One thread per row, three sequential passes over the row (max, sum of exp, normalise).
// Simple and correct for any row length, but neighbouring threads read addresses `cols` floats
// apart, so global accesses are uncoalesced.
__global__ void softmax_thread_row_kernel(const float* __restrict__ x, float* __restrict__ y,
                                          long long rows, int cols)
{
    long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + r * cols;
    float* yr = y + r * cols;

    float m = -FLT_MAX;
    for (int j = 0; j < cols; ++j) m = fmaxf(m, xr[j]);

    float sum = 0.f;
    for (int j = 0; j < cols; ++j) sum += expf(xr[j] - m);

    const float inv = 1.0f / sum;
    for (int j = 0; j < cols; ++j) yr[j] = expf(xr[j] - m) * inv;
}

torch::Tensor softmax_thread_row_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int cols = (int)xc.size(-1);
    if (xc.numel() == 0 || cols == 0) return y;
    const long long rows = xc.numel() / cols;
    const int threads = 256;
    const long long blocks = (rows + threads - 1) / threads;
    softmax_thread_row_kernel<<<(unsigned)blocks, threads>>>(xc.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "softmax_thread_row_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

softmax_thread_row_ext = load_inline(
    name="softmax_short_rows_thread_per_row_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["softmax_thread_row_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax_thread_row_ext.softmax_thread_row_forward(x)
