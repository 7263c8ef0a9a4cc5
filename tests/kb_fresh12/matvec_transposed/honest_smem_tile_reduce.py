# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matvec_t_tile_cuda(torch::Tensor A, torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: 2D thread blocks (TX columns x TY row-lanes) over a (TX-column, RC-row) tile.
// The RC-slice of x is staged in shared memory once per block; each warp reads one row
// segment (coalesced), thread (tx, ty) sums rows ty, ty+TY, ...; the TY partial sums of a
// column are combined in shared memory and a single atomicAdd per column per tile is issued.

#define TX 32
#define TY 8
#define RC 512

__global__ void __launch_bounds__(TX * TY)
matvec_t_tile_kernel(const float* __restrict__ A, const float* __restrict__ x,
                     float* __restrict__ y, int M, int N) {
    __shared__ float xs[RC];
    __shared__ float red[TY][TX + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r0 = blockIdx.y * RC;
    const int rows = min(RC, M - r0);
    for (int t = ty * TX + tx; t < rows; t += TX * TY) xs[t] = __ldg(x + r0 + t);
    __syncthreads();

    const int j = blockIdx.x * TX + tx;
    float acc = 0.f;
    if (j < N) {
        const float* a = A + (long long)r0 * N + j;
#pragma unroll 4
        for (int r = ty; r < rows; r += TY) acc += __ldg(a + (long long)r * N) * xs[r];
    }
    red[ty][tx] = acc;
    __syncthreads();
    if (ty == 0 && j < N) {
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < TY; ++k) s += red[k][tx];
        atomicAdd(y + j, s);
    }
}

torch::Tensor matvec_t_tile_cuda(torch::Tensor A, torch::Tensor x) {
    TORCH_CHECK(A.is_cuda() && x.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && x.dim() == 1, "A must be 2D and x 1D");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && x.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.size(0) == x.size(0), "size mismatch");
    auto Ac = A.contiguous();
    auto xc = x.contiguous();
    int M = (int)Ac.size(0), N = (int)Ac.size(1);
    auto y = torch::zeros({N}, Ac.options());
    if (N == 0 || M == 0) return y;
    dim3 block(TX, TY);
    dim3 grid((N + TX - 1) / TX, (M + RC - 1) / RC);
    matvec_t_tile_kernel<<<grid, block>>>(
        Ac.data_ptr<float>(), xc.data_ptr<float>(), y.data_ptr<float>(), M, N);
    return y;
}
"""

mv_mod = load_inline(
    name="kbf12_matvec_t_smem_tile_reduce",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["matvec_t_tile_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return mv_mod.matvec_t_tile_cuda(A, x)
