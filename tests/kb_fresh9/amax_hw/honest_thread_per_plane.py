# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cmath>

// Naive: one thread per (b, c) plane, serial loop over the H*W elements.
// Neighbouring threads read addresses H*W floats apart (uncoalesced).
__global__ void amax_hw_thread_kernel(const float* x, float* out,
                                      long long planes, int hw) {
    long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= planes) return;
    const float* xp = x + p * hw;
    float m = -INFINITY;
    for (int k = 0; k < hw; ++k) {
        m = fmaxf(m, xp[k]);
    }
    out[p] = m;
}

torch::Tensor amax_hw_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be 4-D (B, C, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    const long long B = x.size(0), C = x.size(1);
    const long long hw = x.size(2) * x.size(3);
    TORCH_CHECK(hw > 0, "amax over an empty plane is undefined");
    TORCH_CHECK(hw <= 2147483647LL, "plane too large");
    auto out = torch::empty({B, C}, x.options());
    const long long planes = B * C;
    if (planes == 0) return out;
    const int threads = 256;
    const long long blocks = (planes + threads - 1) / threads;
    amax_hw_thread_kernel<<<(unsigned int)blocks, threads>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), planes, (int)hw);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "amax_hw_thread_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_src = "torch::Tensor amax_hw_forward(torch::Tensor x);"

amax_ext = load_inline(
    name="amax_hw_thread_per_plane",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["amax_hw_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return amax_ext.amax_hw_forward(x.contiguous())
