# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define WARP_SIZE 32
#define WARPS_PER_BLOCK 8

__inline__ __device__ float warp_reduce_sum(float val) {
    #pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

// Each output C[m][n] is a dot product of column m of A and column n of B (length K).
// One warp computes one output: the lanes split the reduction over k, then combine with shuffles.
__global__ void at_b_warp_dot_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C, int K, int M, int N) {
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp_in_block = threadIdx.x / WARP_SIZE;
    const long long out_idx = (long long)blockIdx.x * WARPS_PER_BLOCK + warp_in_block;
    const long long total = (long long)M * N;
    if (out_idx >= total) return;   // whole warp exits together

    const int m = (int)(out_idx / N);
    const int n = (int)(out_idx % N);

    float partial = 0.0f;
    for (int k = lane; k < K; k += WARP_SIZE) {
        partial += A[(size_t)k * M + m] * B[(size_t)k * N + n];
    }
    float sum = warp_reduce_sum(partial);
    if (lane == 0) C[out_idx] = sum;
}

torch::Tensor at_b_warp_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "A and B must be 2D");
    TORCH_CHECK(A.size(0) == B.size(0), "reduction dimension mismatch");
    const int K = A.size(0);
    const int M = A.size(1);
    const int N = B.size(1);
    auto C = torch::empty({M, N}, A.options());

    const long long total = (long long)M * N;
    const int threads = WARPS_PER_BLOCK * WARP_SIZE;
    const long long blocks = (total + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    at_b_warp_dot_kernel<<<(unsigned int)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), K, M, N);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) printf("CUDA error: %s\n", cudaGetErrorString(err));
    return C;
}
"""

cpp_source = "torch::Tensor at_b_warp_cuda(torch::Tensor A, torch::Tensor B);"

at_b_warp = load_inline(
    name="at_b_warp_shuffle",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["at_b_warp_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return at_b_warp.at_b_warp_cuda(A.contiguous(), B.contiguous())
