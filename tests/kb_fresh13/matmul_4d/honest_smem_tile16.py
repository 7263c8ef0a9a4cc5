# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: classic shared-memory tiled GEMM. The 4-D A is viewed as an (M = b*i*j) x K matrix.
// Each 16x16 thread block stages a 16x16 tile of A and of B in shared memory per K-step and
// every thread computes one output from the staged tiles.

#define TS 16

__global__ void matmul4d_tile16_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                       float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.x * TS + ty;   // M tiles on grid.x (can be large)
    const int col = blockIdx.y * TS + tx;   // N tiles on grid.y
    float acc = 0.0f;
    for (int t = 0; t < K; t += TS) {
        const int ak = t + tx;
        As[ty][tx] = (row < M && ak < K) ? A[(size_t)row * K + ak] : 0.0f;
        const int bk = t + ty;
        Bs[ty][tx] = (bk < K && col < N) ? B[(size_t)bk * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TS; ++kk) {
            acc += As[ty][kk] * Bs[kk][tx];
        }
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

torch::Tensor my_op_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.dim() == 4 && B.dim() == 2, "A must be 4-D, B must be 2-D");
    TORCH_CHECK(A.size(3) == B.size(0), "inner dimensions must match");
    auto Ac = A.contiguous();
    auto Bc = B.contiguous();
    int64_t K = Ac.size(3);
    int64_t N = Bc.size(1);
    int64_t M = Ac.size(0) * Ac.size(1) * Ac.size(2);
    auto out = torch::empty({Ac.size(0), Ac.size(1), Ac.size(2), N}, Ac.options());
    if (M == 0 || N == 0) return out;
    TORCH_CHECK(M < INT_MAX && N < INT_MAX && K < INT_MAX, "sizes too large");
    dim3 block(TS, TS);
    dim3 grid((unsigned)((M + TS - 1) / TS), (unsigned)((N + TS - 1) / TS));
    TORCH_CHECK(grid.y <= 65535, "N too large for this kernel");
    matmul4d_tile16_kernel<<<grid, block>>>(Ac.data_ptr<float>(), Bc.data_ptr<float>(),
                                            out.data_ptr<float>(), (int)M, (int)N, (int)K);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_matmul_4d_smem_tile16",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(A, B)
