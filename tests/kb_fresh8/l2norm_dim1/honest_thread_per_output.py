# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# One thread per output element (b, l).  Each thread walks the C axis with stride L;
# because neighbouring threads own neighbouring l, every load of the loop is coalesced.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void l2norm_dim1_thread_kernel(const float* __restrict__ x,
                                          float* __restrict__ out,
                                          int B, int C, int L) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)B * L;
    if (idx >= total) return;
    int b = (int)(idx / L);
    int l = (int)(idx % L);
    const float* p = x + (long long)b * C * L + l;
    float s = 0.0f;
    for (int c = 0; c < C; ++c) {
        float v = p[(long long)c * L];
        s += v * v;
    }
    out[idx] = sqrtf(s);
}

torch::Tensor l2norm_dim1_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be (B, C, L)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    const int B = (int)x.size(0), C = (int)x.size(1), L = (int)x.size(2);
    auto out = torch::empty({B, L}, x.options());
    long long total = (long long)B * L;
    if (total == 0) return out;
    const int threads = 256;
    const long long blocks = (total + threads - 1) / threads;
    l2norm_dim1_thread_kernel<<<(unsigned int)blocks, threads>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), B, C, L);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "l2norm_dim1_thread_kernel launch failed");
    return out;
}
"""

cpp_source = "torch::Tensor l2norm_dim1_cuda(torch::Tensor x);"

l2norm_ext = load_inline(
    name="l2norm_dim1_thread_per_output",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["l2norm_dim1_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l2norm_ext.l2norm_dim1_cuda(x)
