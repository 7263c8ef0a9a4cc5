# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matvec_t_splitk_cuda(torch::Tensor A, torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: split the reduction (row) dimension. Grid = (column blocks, row chunks); each
// thread owns one column and sums ROWS_PER_BLOCK rows of it (coalesced across the warp),
// then adds its partial sum into the zero-initialised output with one atomicAdd.

#define ROWS_PER_BLOCK 256

__global__ void matvec_t_splitk_kernel(const float* __restrict__ A, const float* __restrict__ x,
                                       float* __restrict__ y, int M, int N) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= N) return;
    const int r0 = blockIdx.y * ROWS_PER_BLOCK;
    const int r1 = min(r0 + ROWS_PER_BLOCK, M);
    const float* a = A + (long long)r0 * N + j;
    float acc = 0.f;
#pragma unroll 8
    for (int i = r0; i < r1; ++i) {
        acc += __ldg(a) * __ldg(x + i);
        a += N;
    }
    atomicAdd(y + j, acc);
}

torch::Tensor matvec_t_splitk_cuda(torch::Tensor A, torch::Tensor x) {
    TORCH_CHECK(A.is_cuda() && x.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && x.dim() == 1, "A must be 2D and x 1D");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && x.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.size(0) == x.size(0), "size mismatch");
    auto Ac = A.contiguous();
    auto xc = x.contiguous();
    int M = (int)Ac.size(0), N = (int)Ac.size(1);
    auto y = torch::zeros({N}, Ac.options());
    if (N == 0 || M == 0) return y;
    const int threads = 256;
    dim3 grid((N + threads - 1) / threads, (M + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    matvec_t_splitk_kernel<<<grid, threads>>>(
        Ac.data_ptr<float>(), xc.data_ptr<float>(), y.data_ptr<float>(), M, N);
    return y;
}
"""

mv_mod = load_inline(
    name="kbf12_matvec_t_split_rows_atomic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["matvec_t_splitk_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return mv_mod.matvec_t_splitk_cuda(A, x)
