# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gemm_bias_relu_naive(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per output element. threadIdx.x walks the batch dimension, so
// neighbouring threads read rows K floats apart (uncoalesced), and every
// thread streams a full row of x and a full row of W from global memory.
__global__ void gemm_bias_relu_naive_kernel(const float* __restrict__ x,
                                            const float* __restrict__ w,
                                            const float* __restrict__ b,
                                            float* __restrict__ out,
                                            int M, int N, int K) {
    int m = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockIdx.y * blockDim.y + threadIdx.y;
    if (m >= M || n >= N) return;
    const float* xr = x + (size_t)m * K;
    const float* wr = w + (size_t)n * K;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
        acc += xr[k] * wr[k];
    }
    acc += b[n];
    out[(size_t)m * N + n] = acc > 0.0f ? acc : 0.0f;
}

torch::Tensor gemm_bias_relu_naive(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(x.dim() == 2 && w.dim() == 2 && b.dim() == 1, "bad ranks");
    TORCH_CHECK(x.size(1) == w.size(1) && w.size(0) == b.size(0), "shape mismatch");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    const int M = (int)xc.size(0);
    const int K = (int)xc.size(1);
    const int N = (int)wc.size(0);
    auto out = torch::empty({M, N}, xc.options());
    if (M == 0 || N == 0) return out;
    dim3 block(16, 16);
    dim3 grid((M + 15) / 16, (N + 15) / 16);
    gemm_bias_relu_naive_kernel<<<grid, block>>>(xc.data_ptr<float>(), wc.data_ptr<float>(),
                                                 bc.data_ptr<float>(), out.data_ptr<float>(), M, N, K);
    return out;
}
"""

_mod = load_inline(
    name="gemm_bias_relu_honest_naive_tpo",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gemm_bias_relu_naive"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.gemm_bias_relu_naive(x, self.linear.weight, self.linear.bias)
