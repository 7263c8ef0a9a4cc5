# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

frobenius_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define BLOCK_SIZE 256

// Each block squares BLOCK_SIZE elements, reduces them in shared memory and
// adds its partial sum to a single global accumulator.
__global__ void sum_of_squares_kernel(const float* __restrict__ input, float* __restrict__ sum, int64_t n) {
    __shared__ float cache[BLOCK_SIZE];
    int tid = threadIdx.x;
    int64_t idx = (int64_t)blockIdx.x * BLOCK_SIZE + tid;
    float v = 0.0f;
    if (idx < n) {
        float a = input[idx];
        v = a * a;
    }
    cache[tid] = v;
    __syncthreads();
    for (int stride = BLOCK_SIZE / 2; stride > 0; stride >>= 1) {
        if (tid < stride) cache[tid] += cache[tid + stride];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(sum, cache[0]);
}

__global__ void normalize_kernel(const float* __restrict__ input, const float* __restrict__ sum,
                                 float* __restrict__ output, int64_t n) {
    int64_t idx = (int64_t)blockIdx.x * BLOCK_SIZE + threadIdx.x;
    if (idx < n) {
        float norm = sqrtf(*sum);
        output[idx] = input[idx] / norm;
    }
}

torch::Tensor frobenius_norm_cuda(torch::Tensor input) {
    auto x = input.contiguous();
    const int64_t n = x.numel();
    auto sum = torch::zeros({1}, x.options());
    auto output = torch::empty_like(x);
    const int64_t blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    sum_of_squares_kernel<<<(unsigned int)blocks, BLOCK_SIZE, 0, stream>>>(x.data_ptr<float>(), sum.data_ptr<float>(), n);
    normalize_kernel<<<(unsigned int)blocks, BLOCK_SIZE, 0, stream>>>(x.data_ptr<float>(), sum.data_ptr<float>(),
                                                                      output.data_ptr<float>(), n);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) printf("CUDA error: %s\\n", cudaGetErrorString(err));
    return output;
}
"""

frobenius_cpp_source = "torch::Tensor frobenius_norm_cuda(torch::Tensor input);"

frobenius_norm = load_inline(
    name="frob_shared_tree_atomic",
    cpp_sources=frobenius_cpp_source,
    cuda_sources=frobenius_source,
    functions=["frobenius_norm_cuda"],
    verbose=False,
    extra_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.frobenius_norm = frobenius_norm

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.frobenius_norm.frobenius_norm_cuda(x)
