# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gemm_sigmoid_sum_naive(torch::Tensor x, torch::Tensor weight, torch::Tensor bias);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per (row, out_feature): plain dot product from global memory, bias, sigmoid.
// Neighbouring threads walk different weight rows, so the weight reads are strided by K (uncoalesced).
__global__ void linear_sigmoid_naive_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                            const float* __restrict__ b, float* __restrict__ act,
                                            int M, int N, int K) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long long)M * N) return;
    int row = (int)(idx / N);
    int col = (int)(idx % N);
    const float* xr = x + (long long)row * K;
    const float* wr = w + (long long)col * K;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += xr[k] * wr[k];
    acc += b[col];
    act[idx] = 1.0f / (1.0f + expf(-acc));
}

// One thread per row: sequential sum over the N activations.
__global__ void row_sum_naive_kernel(const float* __restrict__ act, float* __restrict__ out, int M, int N) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M) return;
    const float* a = act + (long long)row * N;
    float s = 0.0f;
    for (int j = 0; j < N; ++j) s += a[j];
    out[row] = s;
}

torch::Tensor gemm_sigmoid_sum_naive(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32 &&
                bias.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && weight.size(1) == x.size(1), "shape mismatch");
    TORCH_CHECK(bias.numel() == weight.size(0), "bias size mismatch");
    x = x.contiguous();
    weight = weight.contiguous();
    bias = bias.contiguous();
    const int M = (int)x.size(0);
    const int K = (int)x.size(1);
    const int N = (int)weight.size(0);
    auto out = torch::empty({M, 1}, x.options());
    if (M == 0) return out;
    auto act = torch::empty({M, N}, x.options());
    const int threads = 256;
    long long total = (long long)M * N;
    if (total > 0) {
        long long blocks = (total + threads - 1) / threads;
        linear_sigmoid_naive_kernel<<<(unsigned int)blocks, threads>>>(
            x.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(), act.data_ptr<float>(), M, N, K);
    }
    row_sum_naive_kernel<<<(M + threads - 1) / threads, threads>>>(act.data_ptr<float>(), out.data_ptr<float>(), M, N);
    return out;
}
"""

module = load_inline(
    name="gemm_sigmoid_sum_naive_two_kernels",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gemm_sigmoid_sum_naive"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return module.gemm_sigmoid_sum_naive(x, self.linear.weight, self.linear.bias)
