# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor var_naive(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per row, straightforward two-pass variance (mean first, then the
// sum of squared deviations). Adjacent threads read addresses a whole row apart,
// so every load is uncoalesced.
__global__ void var_naive_kernel(const float* __restrict__ x, float* __restrict__ out,
                                 long long rows, long long cols) {
    long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + r * cols;
    float sum = 0.0f;
    for (long long c = 0; c < cols; ++c) sum += xr[c];
    float mean = sum / (float)cols;
    float ss = 0.0f;
    for (long long c = 0; c < cols; ++c) {
        float d = xr[c] - mean;
        ss += d * d;
    }
    out[r] = ss / (float)(cols - 1);   // unbiased (Bessel's correction)
}

torch::Tensor var_naive(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto sizes = x.sizes().vec();
    long long cols = sizes.back();
    sizes.back() = 1;                              // keepdim
    auto out = torch::empty(sizes, x.options());
    if (out.numel() == 0) return out;
    long long rows = out.numel();
    if (cols == 0) { out.fill_(NAN); return out; }
    const int threads = 128;
    long long blocks = (rows + threads - 1) / threads;
    var_naive_kernel<<<(unsigned int)blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "var_naive_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_mod = load_inline(
    name="var_lastdim_naive_thread_per_row",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["var_naive"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.var_naive(x.contiguous())
