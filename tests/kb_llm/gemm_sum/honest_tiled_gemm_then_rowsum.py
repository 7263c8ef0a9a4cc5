# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>
#define TILE 32

__global__ void gemm_nt_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    // C[M, N] = A[M, K] @ B[N, K]^T
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[threadIdx.y][threadIdx.x] = (row < M && t + threadIdx.x < K) ? A[row * K + t + threadIdx.x] : 0.0f;
        int brow = blockIdx.x * TILE + threadIdx.y;
        Bs[threadIdx.y][threadIdx.x] = (brow < N && t + threadIdx.x < K) ? B[brow * K + t + threadIdx.x] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[threadIdx.x][k];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

__global__ void row_sum_scale_kernel(const float* C, float* out, int N, float factor) {
    __shared__ float s[256];
    float acc = 0.0f;
    for (int j = threadIdx.x; j < N; j += 256) acc += C[blockIdx.x * N + j];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] * factor;
}

torch::Tensor gemm_div_sum_scale(torch::Tensor x, torch::Tensor w, float scaling_factor) {
    int M = x.size(0), K = x.size(1), N = w.size(0);
    auto C = torch::empty({M, N}, x.options());
    auto out = torch::empty({M, 1}, x.options());
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    gemm_nt_kernel<<<grid, block>>>(x.data_ptr<float>(), w.data_ptr<float>(), C.data_ptr<float>(), M, N, K);
    row_sum_scale_kernel<<<M, 256>>>(C.data_ptr<float>(), out.data_ptr<float>(), N, scaling_factor / 2.0f);
    return out;
}
"""

cpp = "torch::Tensor gemm_div_sum_scale(torch::Tensor x, torch::Tensor w, float scaling_factor);"

gemm_ops = load_inline(name="gemm_then_rowsum", cpp_sources=cpp, cuda_sources=source,
                       functions=["gemm_div_sum_scale"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super(ModelNew, self).__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        return gemm_ops.gemm_div_sum_scale(x.contiguous(), self.weight.contiguous(), self.scaling_factor)
