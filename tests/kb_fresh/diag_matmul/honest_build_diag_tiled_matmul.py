# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

#define TILE 32

// Writes A[i] onto the diagonal of a zero-initialised N x N matrix.
__global__ void set_diagonal_kernel(const float* __restrict__ A, float* __restrict__ D, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) D[(long long)i * N + i] = A[i];
}

// Shared-memory tiled GEMM: C (N x M) = D (N x N) @ B (N x M).
__global__ void tiled_gemm_kernel(const float* __restrict__ D, const float* __restrict__ B,
                                  float* __restrict__ C, int N, int K, int M) {
    __shared__ float Ds[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;

    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        const int dk = t * TILE + tx;
        const int bk = t * TILE + ty;
        Ds[ty][tx] = (row < N && dk < K) ? D[(long long)row * K + dk] : 0.0f;
        Bs[ty][tx] = (bk < K && col < M) ? B[(long long)bk * M + col] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TILE; ++k) acc += Ds[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < N && col < M) C[(long long)row * M + col] = acc;
}

torch::Tensor diag_matmul(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.dim() == 1 && B.dim() == 2, "A must be 1-D and B 2-D");
    TORCH_CHECK(A.size(0) == B.size(0), "size mismatch");
    const int N = A.size(0);
    const int M = B.size(1);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    auto D = torch::zeros({N, N}, B.options());
    set_diagonal_kernel<<<(N + 255) / 256, 256, 0, stream>>>(A.data_ptr<float>(), D.data_ptr<float>(), N);

    auto C = torch::empty({N, M}, B.options());
    dim3 block(TILE, TILE);
    dim3 grid((M + TILE - 1) / TILE, (N + TILE - 1) / TILE);
    tiled_gemm_kernel<<<grid, block, 0, stream>>>(D.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(),
                                                  N, N, M);
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

cpp_source = "torch::Tensor diag_matmul(torch::Tensor A, torch::Tensor B);"

ext = load_inline(
    name="diag_build_tiled_matmul",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["diag_matmul"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return ext.diag_matmul(A.contiguous(), B.contiguous())
