# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per OUTPUT element. Writes are coalesced, reads stride by N floats
// between neighbouring threads (uncoalesced) - the straightforward translation.
__global__ void permute021_naive_kernel(const float* x, float* out,
                                        int B, int M, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)B * M * N;
    if (idx >= total) return;
    // out is (B, N, M): idx = (b * N + j) * M + i
    int i = (int)(idx % M);
    long long t = idx / M;
    int j = (int)(t % N);
    long long b = t / N;
    out[idx] = x[(b * M + i) * (long long)N + j];
}

torch::Tensor permute021_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be 3-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    const int B = (int)x.size(0), M = (int)x.size(1), N = (int)x.size(2);
    auto out = torch::empty({B, N, M}, x.options());
    long long total = (long long)B * M * N;
    if (total == 0) return out;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    permute021_naive_kernel<<<(unsigned int)blocks, threads>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), B, M, N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "permute021_naive_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_src = "torch::Tensor permute021_forward(torch::Tensor x);"

permute_ext = load_inline(
    name="permute_021_naive_out_order",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["permute021_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return permute_ext.permute021_forward(x.contiguous())
