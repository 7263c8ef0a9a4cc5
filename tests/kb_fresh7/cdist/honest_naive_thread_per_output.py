# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cdist_naive_cpp = "torch::Tensor cdist_naive_forward(torch::Tensor x, torch::Tensor y);"

cdist_naive_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per output element. threadIdx.x runs over rows of x, so the
// output writes and the x loads are strided (uncoalesced) - the simplest mapping.
__global__ void cdist_naive_kernel(const float* __restrict__ x, const float* __restrict__ y,
                                   float* __restrict__ out, int M, int N, int D) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N) return;
    const float* xr = x + (long long)i * D;
    const float* yr = y + (long long)j * D;
    float acc = 0.0f;
    for (int k = 0; k < D; ++k) {
        float d = xr[k] - yr[k];
        acc += d * d;
    }
    out[(long long)i * N + j] = sqrtf(acc);
}

torch::Tensor cdist_naive_forward(torch::Tensor x, torch::Tensor y) {
    TORCH_CHECK(x.is_cuda() && y.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && y.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 2 && y.dim() == 2 && x.size(1) == y.size(1), "shape mismatch");
    x = x.contiguous();
    y = y.contiguous();
    int M = x.size(0), N = y.size(0), D = x.size(1);
    auto out = torch::empty({M, N}, x.options());
    if (M == 0 || N == 0) return out;
    dim3 block(16, 16);
    dim3 grid((M + 15) / 16, (N + 15) / 16);
    cdist_naive_kernel<<<grid, block>>>(x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(), M, N, D);
    return out;
}
"""

cdist_naive_mod = load_inline(
    name="cdist_naive_thread_per_output_kb7",
    cpp_sources=cdist_naive_cpp,
    cuda_sources=cdist_naive_cuda,
    functions=["cdist_naive_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return cdist_naive_mod.cdist_naive_forward(x, y)
