# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor tiny_bmm_cuda(torch::Tensor a, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Naive first attempt: one thread per output element C[b][i][j], inner loop over k with
// scalar loads straight from global memory (no reuse beyond what the caches give).

__global__ void bmm_thread_per_output_kernel(const float* __restrict__ a,
                                             const float* __restrict__ b,
                                             float* __restrict__ c,
                                             long long total, int M, int K, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long mn = (long long)M * N;
    long long bi = idx / mn;
    int r = (int)(idx - bi * mn);
    int i = r / N;
    int j = r - i * N;
    const float* ap = a + bi * M * K + (long long)i * K;
    const float* bp = b + bi * K * N + j;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
        acc += ap[k] * bp[(long long)k * N];
    }
    c[idx] = acc;
}

torch::Tensor tiny_bmm_cuda(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(a.dim() == 3 && b.dim() == 3, "inputs must be 3-D");
    TORCH_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1), "shape mismatch");
    auto ac = a.contiguous();
    auto bc = b.contiguous();
    long long batch = ac.size(0);
    int M = (int)ac.size(1), K = (int)ac.size(2), N = (int)bc.size(2);
    auto out = torch::empty({batch, (long long)M, (long long)N}, ac.options());
    long long total = batch * M * N;
    if (total == 0) return out;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    bmm_thread_per_output_kernel<<<(unsigned int)blocks, threads>>>(
        ac.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), total, M, K, N);
    return out;
}
"""

bmm_mod = load_inline(
    name="s46_tinybmm_naive_thread_per_output",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["tiny_bmm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return bmm_mod.tiny_bmm_cuda(a, b)
