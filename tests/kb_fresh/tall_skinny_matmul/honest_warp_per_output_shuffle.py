# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

#define WARP_SIZE 32

__inline__ __device__ float warp_reduce_sum(float val) {
    #pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

// Each output element is a dot product of length K. K is small (32), so assign one warp per
// output element: lane k multiplies A[row][k] * B[k][col], then a warp shuffle reduction sums them.
__global__ void warp_dot_matmul_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                       float* __restrict__ C, int M, int K, int N) {
    const int lane = threadIdx.x & (WARP_SIZE - 1);
    const int warps_per_block = blockDim.x / WARP_SIZE;
    const long long out_idx = (long long)blockIdx.x * warps_per_block + (threadIdx.x / WARP_SIZE);
    const long long total = (long long)M * N;
    if (out_idx >= total) return;   // whole warp exits together
    const int row = (int)(out_idx / N);
    const int col = (int)(out_idx % N);

    float partial = 0.0f;
    for (int k = lane; k < K; k += WARP_SIZE) {
        partial += A[(long long)row * K + k] * B[(long long)k * N + col];
    }
    float sum = warp_reduce_sum(partial);
    if (lane == 0) C[out_idx] = sum;
}

torch::Tensor warp_matmul(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "expected 2D matrices");
    TORCH_CHECK(A.size(1) == B.size(0), "shape mismatch");
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());

    const int threads = 256;                       // 8 warps -> 8 outputs per block
    const int warps_per_block = threads / WARP_SIZE;
    const long long total = (long long)M * N;
    const long long blocks = (total + warps_per_block - 1) / warps_per_block;
    warp_dot_matmul_kernel<<<(unsigned int)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, N);
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

cpp_src = "torch::Tensor warp_matmul(torch::Tensor A, torch::Tensor B);"

warp_matmul_ext = load_inline(
    name="tsm_warp_dot_matmul",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["warp_matmul"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return warp_matmul_ext.warp_matmul(A.contiguous(), B.contiguous())
