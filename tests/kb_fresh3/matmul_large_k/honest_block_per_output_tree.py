# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# K is huge (131072) while the output is only 256 x 256, so treat every output element as a long
# dot product: one block per output, threads stride over k, then a shared-memory tree reduction.
dot_reduce_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define BLOCK_SIZE 256

__global__ void matmul_dot_reduce_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                         float* __restrict__ C, int M, int N, int K) {
    __shared__ float sdata[BLOCK_SIZE];
    const int n = blockIdx.x;
    const int m = blockIdx.y;
    const int tid = threadIdx.x;

    const float* a_row = A + (size_t)m * K;
    float partial = 0.0f;
    for (int k = tid; k < K; k += BLOCK_SIZE) {
        partial += a_row[k] * B[(size_t)k * N + n];
    }
    sdata[tid] = partial;
    __syncthreads();

    for (int s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) C[(size_t)m * N + n] = sdata[0];
}

torch::Tensor matmul_large_k_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "A and B must be 2D");
    TORCH_CHECK(A.size(1) == B.size(0), "inner dimensions must match");
    const int M = A.size(0);
    const int K = A.size(1);
    const int N = B.size(1);
    auto C = torch::empty({M, N}, A.options());

    dim3 grid(N, M);
    matmul_dot_reduce_kernel<<<grid, BLOCK_SIZE, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, N, K);
    return C;
}
"""

dot_reduce_cpp_source = "torch::Tensor matmul_large_k_cuda(torch::Tensor A, torch::Tensor B);"

matmul_dot_reduce = load_inline(
    name="large_k_block_per_output_tree",
    cpp_sources=dot_reduce_cpp_source,
    cuda_sources=dot_reduce_source,
    functions=["matmul_large_k_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return matmul_dot_reduce.matmul_large_k_cuda(A.contiguous(), B.contiguous())
