# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matvec_t_warpcol_cuda(torch::Tensor A, torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one warp per output column (the classic "warp per dot product" matvec kernel).
// Lane l sums rows l, l+32, ... of column j, then the warp reduces with __shfl_down_sync.
// Because A is row-major, the lanes of a warp touch 32 different rows (strided access);
// neighbouring columns are handled by the other warps of the same block, so cache lines are
// mostly reused from L1/L2 rather than DRAM.

__global__ void matvec_t_warpcol_kernel(const float* __restrict__ A, const float* __restrict__ x,
                                        float* __restrict__ y, int M, int N) {
    const int lane = threadIdx.x & 31;
    const int warps_per_block = blockDim.x >> 5;
    const int j = blockIdx.x * warps_per_block + (threadIdx.x >> 5);
    if (j >= N) return;   // whole warp exits together
    float acc = 0.f;
    for (int i = lane; i < M; i += 32) acc += __ldg(A + (long long)i * N + j) * __ldg(x + i);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
    if (lane == 0) y[j] = acc;
}

torch::Tensor matvec_t_warpcol_cuda(torch::Tensor A, torch::Tensor x) {
    TORCH_CHECK(A.is_cuda() && x.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && x.dim() == 1, "A must be 2D and x 1D");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && x.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.size(0) == x.size(0), "size mismatch");
    auto Ac = A.contiguous();
    auto xc = x.contiguous();
    int M = (int)Ac.size(0), N = (int)Ac.size(1);
    auto y = torch::empty({N}, Ac.options());
    if (N == 0) return y;
    const int threads = 256;             // 8 warps = 8 columns per block
    const int cols_per_block = threads / 32;
    matvec_t_warpcol_kernel<<<(N + cols_per_block - 1) / cols_per_block, threads>>>(
        Ac.data_ptr<float>(), xc.data_ptr<float>(), y.data_ptr<float>(), M, N);
    return y;
}
"""

mv_mod = load_inline(
    name="kbf12_matvec_t_warp_per_col",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["matvec_t_warpcol_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return mv_mod.matvec_t_warpcol_cuda(A, x)
