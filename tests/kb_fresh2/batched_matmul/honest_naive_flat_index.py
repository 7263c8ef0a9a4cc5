# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

bmm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

// One thread per output element, flat 1D index over (batch, row, col).
__global__ void bmm_naive_kernel(const float* __restrict__ A,
                                 const float* __restrict__ B,
                                 float* __restrict__ C,
                                 int batch, int M, int K, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)batch * M * N;
    if (idx >= total) return;

    int col = (int)(idx % N);
    int row = (int)((idx / N) % M);
    int b = (int)(idx / ((long long)M * N));

    const float* a = A + (long long)b * M * K + (long long)row * K;
    const float* bb = B + (long long)b * K * N + col;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
        sum += a[k] * bb[(long long)k * N];
    }
    C[idx] = sum;
}

torch::Tensor bmm_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 3 && B.dim() == 3, "inputs must be 3D");
    TORCH_CHECK(A.size(0) == B.size(0) && A.size(2) == B.size(1), "shape mismatch");
    const int batch = A.size(0);
    const int M = A.size(1);
    const int K = A.size(2);
    const int N = B.size(2);
    auto C = torch::empty({batch, M, N}, A.options());

    const long long total = (long long)batch * M * N;
    const int threads = 256;
    const long long blocks = (total + threads - 1) / threads;
    bmm_naive_kernel<<<(unsigned int)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), batch, M, K, N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "bmm_naive_kernel failed: ", cudaGetErrorString(err));
    return C;
}
"""

bmm_cpp_source = "torch::Tensor bmm_cuda(torch::Tensor A, torch::Tensor B);"

bmm = load_inline(
    name="bmm_naive_flat_index",
    cpp_sources=bmm_cpp_source,
    cuda_sources=bmm_source,
    functions=["bmm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.bmm = bmm

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return self.bmm.bmm_cuda(A.contiguous(), B.contiguous())
