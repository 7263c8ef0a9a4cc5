# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

kernel_code = r'''
#include <torch/extension.h>

constexpr int THREADS = 256;
constexpr int CHUNK = 8192;   // K elements per block

// Split-K: each block reduces one chunk of one row and adds it to the output with atomicAdd.
__global__ void splitk_matvec_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C, int K) {
    const int row = blockIdx.y;
    const int start = blockIdx.x * CHUNK;
    const int end = min(start + CHUNK, K);
    float sum = 0.f;
    for (int k = start + threadIdx.x; k < end; k += THREADS) sum += A[(size_t)row * K + k] * B[k];
    __shared__ float smem[THREADS];
    smem[threadIdx.x] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) smem[threadIdx.x] += smem[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(&C[row], smem[0]);
}

torch::Tensor splitk_matvec(torch::Tensor A, torch::Tensor B) {
    int M = A.size(0), K = A.size(1);
    auto C = torch::zeros({M, 1}, A.options());
    dim3 grid((K + CHUNK - 1) / CHUNK, M);
    splitk_matvec_kernel<<<grid, THREADS>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), K);
    return C;
}
'''

ext = load_inline(
    name="splitk_matvec_ext",
    cpp_sources="torch::Tensor splitk_matvec(torch::Tensor A, torch::Tensor B);",
    cuda_sources=kernel_code,
    functions=["splitk_matvec"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A, B):
        A = A.contiguous()
        B = B.contiguous()
        return ext.splitk_matvec(A, B)
