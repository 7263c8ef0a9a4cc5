# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

kl_div_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

// Pass 1: pointwise KL term t * (log t - log p) into a full-size buffer.
__global__ void kl_pointwise_kernel(const float* __restrict__ pred,
                                    const float* __restrict__ targ,
                                    float* __restrict__ terms,
                                    long long n) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float t = targ[idx];
        float p = pred[idx];
        terms[idx] = t > 0.0f ? t * (logf(t) - logf(p)) : 0.0f;
    }
}

// Pass 2: grid-stride sum of the buffer; shared-memory tree per block,
// one partial sum per block.
__global__ void sum_reduce_kernel(const float* __restrict__ terms,
                                  float* __restrict__ partials,
                                  long long n) {
    extern __shared__ float sdata[];
    const int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    const long long stride = (long long)gridDim.x * blockDim.x;
    float acc = 0.0f;
    for (; i < n; i += stride) acc += terms[i];
    sdata[tid] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = sdata[0];
}

torch::Tensor kl_div_cuda(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(predictions.sizes() == targets.sizes(), "shape mismatch");
    TORCH_CHECK(predictions.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32, "float32 only");
    const long long n = predictions.numel();
    const long long batch = predictions.size(0);
    auto terms = torch::empty_like(predictions);

    const int threads = 256;
    const long long blocks1 = (n + threads - 1) / threads;
    kl_pointwise_kernel<<<(unsigned int)blocks1, threads>>>(predictions.data_ptr<float>(), targets.data_ptr<float>(),
                                                            terms.data_ptr<float>(), n);

    const int reduce_threads = 512;
    const int reduce_blocks = 1024;
    auto partials = torch::empty({reduce_blocks}, predictions.options());
    sum_reduce_kernel<<<reduce_blocks, reduce_threads, reduce_threads * sizeof(float)>>>(
        terms.data_ptr<float>(), partials.data_ptr<float>(), n);

    return partials.sum() / (double)batch;
}
"""

kl_div_cpp_source = "torch::Tensor kl_div_cuda(torch::Tensor predictions, torch::Tensor targets);"

kl_div = load_inline(
    name="kl_div_elementwise_then_reduce",
    cpp_sources=kl_div_cpp_source,
    cuda_sources=kl_div_source,
    functions=["kl_div_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.kl_div = kl_div

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return self.kl_div.kl_div_cuda(predictions.contiguous(), targets.contiguous())
