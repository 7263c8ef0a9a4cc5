# expect: pass flag torch-tail
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>

__global__ void partial_dot_kernel(const float* A, const float* B, float* partials, int K, int chunks) {
    // grid: (chunks, M); each block writes one partial sum of one row
    extern __shared__ float buf[];
    int row = blockIdx.y, chunk = blockIdx.x;
    int per_chunk = (K + chunks - 1) / chunks;
    int begin = chunk * per_chunk;
    int end = min(begin + per_chunk, K);
    float acc = 0.0f;
    for (int k = begin + threadIdx.x; k < end; k += blockDim.x) acc += A[(long)row * K + k] * B[k];
    buf[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x >> 1; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) partials[row * chunks + chunk] = buf[0];
}

torch::Tensor partial_dots(torch::Tensor A, torch::Tensor B, int64_t chunks) {
    int M = A.size(0), K = A.size(1);
    auto partials = torch::empty({M, chunks}, A.options());
    int threads = 256;
    partial_dot_kernel<<<dim3(chunks, M), threads, threads * sizeof(float)>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), partials.data_ptr<float>(), K, (int)chunks);
    return partials;
}
"""

cpp_source = "torch::Tensor partial_dots(torch::Tensor A, torch::Tensor B, int64_t chunks);"

partial_dots = load_inline(name="partial_dots", cpp_sources=cpp_source, cuda_sources=cuda_source,
                           functions=["partial_dots"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.chunks = 32

    def forward(self, A, B):
        partials = partial_dots.partial_dots(A.contiguous(), B.contiguous(), self.chunks)
        # the final reduction over 32 partial sums per row is tiny; PyTorch finishes it
        return partials.sum(dim=1, keepdim=True)
