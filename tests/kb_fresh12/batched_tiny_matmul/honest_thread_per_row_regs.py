# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor tiny_bmm_cuda(torch::Tensor a, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// One thread per output row C[b][i][:]: the thread keeps row i of A (K values) in
// registers and the 8 row outputs in registers, streaming B[b] through the read-only
// cache. Sizes are compile-time (8x16x8) so everything unrolls; other shapes go to a
// generic one-thread-per-output kernel.

template <int M, int K, int N>
__global__ void bmm_row_kernel(const float* __restrict__ a,
                               const float* __restrict__ b,
                               float* __restrict__ c,
                               long long rows_total) {
    long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows_total) return;
    long long bi = row / M;
    const float* ap = a + row * K;          // row-major: (bi*M + i)*K
    const float* bp = b + bi * (K * N);
    float ar[K];
    #pragma unroll
    for (int k = 0; k < K; ++k) ar[k] = __ldg(ap + k);
    float acc[N];
    #pragma unroll
    for (int j = 0; j < N; ++j) acc[j] = 0.0f;
    #pragma unroll
    for (int k = 0; k < K; ++k) {
        #pragma unroll
        for (int j = 0; j < N; ++j) acc[j] += ar[k] * __ldg(bp + k * N + j);
    }
    float* cp = c + row * N;
    #pragma unroll
    for (int j = 0; j < N; ++j) cp[j] = acc[j];
}

__global__ void bmm_generic_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                   float* __restrict__ c, long long total, int M, int K, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long mn = (long long)M * N;
    long long bi = idx / mn;
    int r = (int)(idx - bi * mn);
    int i = r / N, j = r - (r / N) * N;
    const float* ap = a + bi * M * K + (long long)i * K;
    const float* bp = b + bi * K * N + j;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += ap[k] * bp[(long long)k * N];
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
    if (M == 8 && K == 16 && N == 8) {
        long long rows = batch * 8;
        long long blocks = (rows + threads - 1) / threads;
        bmm_row_kernel<8, 16, 8><<<(unsigned int)blocks, threads>>>(
            ac.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), rows);
    } else {
        long long blocks = (total + threads - 1) / threads;
        bmm_generic_kernel<<<(unsigned int)blocks, threads>>>(
            ac.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), total, M, K, N);
    }
    return out;
}
"""

bmm_mod = load_inline(
    name="s46_tinybmm_thread_per_row_regs",
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
