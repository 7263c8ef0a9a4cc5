# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

smooth_l1_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

// Step 1: elementwise loss into a temporary buffer.
__global__ void smooth_l1_elementwise_kernel(const float* pred, const float* targ, float* loss, long long n) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float diff = pred[idx] - targ[idx];
        float abs_diff = fabsf(diff);
        loss[idx] = abs_diff < 1.0f ? 0.5f * diff * diff : abs_diff - 0.5f;
    }
}

// Step 2: classic shared-memory reduction; each block sums 2*blockDim.x inputs
// (first add during load) and writes one value. Called repeatedly until one value is left.
__global__ void reduce_sum_kernel(const float* in, float* out, long long n) {
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = 0.0f;
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Step 3: divide by the element count.
__global__ void scale_kernel(const float* in, float* out, float inv_n) {
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = in[0] * inv_n;
}

torch::Tensor smooth_l1_loss_cuda(torch::Tensor pred, torch::Tensor targ) {
    TORCH_CHECK(pred.is_cuda() && targ.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(pred.numel() == targ.numel(), "inputs must have the same number of elements");
    pred = pred.contiguous();
    targ = targ.contiguous();
    const long long n = pred.numel();
    TORCH_CHECK(n > 0, "empty input");
    auto stream = at::cuda::getCurrentCUDAStream();

    auto loss = torch::empty({n}, pred.options());
    const int ew_threads = 256;
    const long long ew_blocks = (n + ew_threads - 1) / ew_threads;
    smooth_l1_elementwise_kernel<<<(unsigned int)ew_blocks, ew_threads, 0, stream>>>(
        pred.data_ptr<float>(), targ.data_ptr<float>(), loss.data_ptr<float>(), n);

    const int threads = 512;
    torch::Tensor current = loss;
    long long len = n;
    while (len > 1) {
        long long blocks = (len + threads * 2 - 1) / (threads * 2);
        auto next = torch::empty({blocks}, pred.options());
        reduce_sum_kernel<<<(unsigned int)blocks, threads, threads * sizeof(float), stream>>>(
            current.data_ptr<float>(), next.data_ptr<float>(), len);
        current = next;
        len = blocks;
    }

    auto out = torch::empty({}, pred.options());
    scale_kernel<<<1, 32, 0, stream>>>(current.data_ptr<float>(), out.data_ptr<float>(), 1.0f / (float)n);
    return out;
}
"""

smooth_l1_cpp_source = "torch::Tensor smooth_l1_loss_cuda(torch::Tensor pred, torch::Tensor targ);"

smooth_l1_split = load_inline(
    name="smooth_l1_elementwise_then_tree_passes",
    cpp_sources=smooth_l1_cpp_source,
    cuda_sources=smooth_l1_source,
    functions=["smooth_l1_loss_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return smooth_l1_split.smooth_l1_loss_cuda(predictions, targets)
