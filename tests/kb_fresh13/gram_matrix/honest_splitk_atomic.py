# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gram_cuda(torch::Tensor X);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Gram matrix G = X^T X with split-K: still one thread per (i, j) and no data reuse, but the long row
// dimension is cut into KSPLIT slices (gridDim.z), so there are enough threads to fill the GPU; each
// slice's partial dot product is added into a zeroed G with atomicAdd.

__global__ void gram_splitk_kernel(const float* __restrict__ X, float* __restrict__ G,
                                   int M, int N, int rows_per_split) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y;
    if (j >= N) return;
    const int m0 = blockIdx.z * rows_per_split;
    const int m1 = min(m0 + rows_per_split, M);
    float acc = 0.f;
#pragma unroll 4
    for (int m = m0; m < m1; ++m) {
        const float* row = X + (long long)m * N;
        acc += __ldg(row + i) * __ldg(row + j);
    }
    if (m1 > m0) atomicAdd(G + (long long)i * N + j, acc);
}

torch::Tensor gram_cuda(torch::Tensor X) {
    TORCH_CHECK(X.is_cuda(), "X must be a CUDA tensor");
    TORCH_CHECK(X.dim() == 2, "X must be 2-D");
    TORCH_CHECK(X.scalar_type() == torch::kFloat32, "X must be float32");
    auto Xc = X.contiguous();
    const int M = (int)Xc.size(0), N = (int)Xc.size(1);
    auto out = torch::zeros({N, N}, Xc.options());
    if (N == 0 || M == 0) return out;
    const int threads = 256;
    int ksplit = 64;
    if (ksplit > M) ksplit = M;
    const int rows_per_split = (M + ksplit - 1) / ksplit;
    ksplit = (M + rows_per_split - 1) / rows_per_split;
    dim3 grid((N + threads - 1) / threads, N, ksplit);
    gram_splitk_kernel<<<grid, threads>>>(Xc.data_ptr<float>(), out.data_ptr<float>(), M, N, rows_per_split);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_gram_matrix_splitk_atomic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gram_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        return my_mod.gram_cuda(X)
