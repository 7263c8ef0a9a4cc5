# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// 3-D grid: (column blocks, row blocks, batch). Each thread reads one INPUT
// element x[b, i, j] with coalesced __ldg loads and writes out[b, j, i]
// directly (strided, uncoalesced stores). Each thread handles ROWS_PER_THREAD rows.
#define TX 32
#define TY 8
#define ROWS_PER_THREAD 4

__global__ void permute021_in_order_kernel(const float* __restrict__ x,
                                           float* __restrict__ out,
                                           int M, int N) {
    const long long b = blockIdx.z;
    const float* xb = x + b * (long long)M * N;
    float* ob = out + b * (long long)M * N;
    const int j = blockIdx.x * TX + threadIdx.x;
    const int i_base = blockIdx.y * (TY * ROWS_PER_THREAD) + threadIdx.y;
    if (j >= N) return;
#pragma unroll
    for (int r = 0; r < ROWS_PER_THREAD; ++r) {
        int i = i_base + r * TY;
        if (i < M) {
            ob[(long long)j * M + i] = __ldg(&xb[(long long)i * N + j]);
        }
    }
}

torch::Tensor permute021_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be 3-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    const int B = (int)x.size(0), M = (int)x.size(1), N = (int)x.size(2);
    auto out = torch::empty({B, N, M}, x.options());
    if (B == 0 || M == 0 || N == 0) return out;
    TORCH_CHECK(B <= 65535, "batch too large for grid.z");
    dim3 block(TX, TY);
    dim3 grid((N + TX - 1) / TX, (M + TY * ROWS_PER_THREAD - 1) / (TY * ROWS_PER_THREAD), B);
    TORCH_CHECK(grid.y <= 65535, "too many rows for grid.y");
    permute021_in_order_kernel<<<grid, block>>>(x.data_ptr<float>(), out.data_ptr<float>(), M, N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "permute021_in_order_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_src = "torch::Tensor permute021_forward(torch::Tensor x);"

permute_ext = load_inline(
    name="permute_021_input_order_2d",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["permute021_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return permute_ext.permute021_forward(x.contiguous())
