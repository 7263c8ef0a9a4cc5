# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <algorithm>

constexpr int THREADS = 256;
constexpr int MAX_BLOCKS = 1024;
constexpr int FINAL_THREADS = 1024;

__device__ __forceinline__ float huber(float p, float t) {
    float d = p - t;
    float a = fabsf(d);
    return a < 1.0f ? 0.5f * d * d : a - 0.5f;
}

// Pass 1: a fixed grid walks the data with a grid-stride loop; each block tree-reduces
// its per-thread sums in shared memory and writes one partial.
__global__ void smooth_l1_partial_kernel(const float* __restrict__ pred, const float* __restrict__ targ,
                                         float* __restrict__ partials, long long n) {
    __shared__ float cache[THREADS];
    float acc = 0.0f;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        acc += huber(pred[i], targ[i]);
    cache[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) partials[blockIdx.x] = cache[0];
}

// Pass 2: one block reduces the partials and writes the mean.
__global__ void smooth_l1_final_kernel(const float* __restrict__ partials, int num_partials,
                                       float* __restrict__ out, long long n) {
    __shared__ float cache[FINAL_THREADS];
    float acc = 0.0f;
    for (int i = threadIdx.x; i < num_partials; i += blockDim.x) acc += partials[i];
    cache[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = cache[0] / (float)n;
}

torch::Tensor smooth_l1_two_pass(torch::Tensor pred, torch::Tensor targ) {
    TORCH_CHECK(pred.is_cuda() && targ.is_cuda(), "CUDA tensors required");
    TORCH_CHECK(pred.sizes() == targ.sizes(), "shape mismatch");
    pred = pred.contiguous();
    targ = targ.contiguous();
    const long long n = pred.numel();
    auto out = torch::empty({}, pred.options());
    const int blocks = (int)std::max<long long>(1, std::min<long long>((n + THREADS - 1) / THREADS, MAX_BLOCKS));
    auto partials = torch::empty({blocks}, pred.options());
    auto stream = at::cuda::getCurrentCUDAStream();
    smooth_l1_partial_kernel<<<blocks, THREADS, 0, stream>>>(
        pred.data_ptr<float>(), targ.data_ptr<float>(), partials.data_ptr<float>(), n);
    smooth_l1_final_kernel<<<1, FINAL_THREADS, 0, stream>>>(
        partials.data_ptr<float>(), blocks, out.data_ptr<float>(), n);
    return out;
}
"""

cpp_source = "torch::Tensor smooth_l1_two_pass(torch::Tensor pred, torch::Tensor targ);"

smooth_l1_ext = load_inline(
    name="smooth_l1_two_pass_smem_tree",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["smooth_l1_two_pass"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return smooth_l1_ext.smooth_l1_two_pass(predictions, targets)
