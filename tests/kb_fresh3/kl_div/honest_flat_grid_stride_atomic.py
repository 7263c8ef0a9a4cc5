# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

kl_div_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define BLOCK_SIZE 256

// Treat both inputs as flat arrays. A fixed-size grid walks them with a
// grid-stride loop, each block tree-reduces in shared memory and issues a
// single atomicAdd of (block_sum / batch).
__global__ void kl_div_grid_stride_kernel(const float* __restrict__ pred,
                                          const float* __restrict__ targ,
                                          float* __restrict__ out,
                                          long long n, float inv_batch) {
    __shared__ float sdata[BLOCK_SIZE];
    const int tid = threadIdx.x;
    const long long stride = (long long)gridDim.x * BLOCK_SIZE;
    float acc = 0.0f;
    for (long long i = (long long)blockIdx.x * BLOCK_SIZE + tid; i < n; i += stride) {
        float t = targ[i];
        float p = pred[i];
        if (t > 0.0f) acc += t * (logf(t) - logf(p));
    }
    sdata[tid] = acc;
    __syncthreads();
    for (int s = BLOCK_SIZE / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        // last warp: finish with shuffles (values for tid < 64 are in sdata)
        float v = sdata[tid] + sdata[tid + 32];
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffff, v, offset);
        if (tid == 0) atomicAdd(out, v * inv_batch);
    }
}

torch::Tensor kl_div_cuda(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(predictions.sizes() == targets.sizes(), "shape mismatch");
    TORCH_CHECK(predictions.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32, "float32 only");
    const long long n = predictions.numel();
    const long long batch = predictions.size(0);
    auto out = torch::zeros({}, predictions.options());

    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    long long blocks = (long long)sms * 4;
    const long long needed = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    if (blocks > needed) blocks = needed;
    if (blocks < 1) blocks = 1;

    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    kl_div_grid_stride_kernel<<<(unsigned int)blocks, BLOCK_SIZE, 0, stream>>>(
        predictions.data_ptr<float>(), targets.data_ptr<float>(), out.data_ptr<float>(), n,
        1.0f / (float)batch);
    return out;
}
"""

kl_div_cpp_source = "torch::Tensor kl_div_cuda(torch::Tensor predictions, torch::Tensor targets);"

kl_div = load_inline(
    name="kl_div_flat_grid_stride_atomic",
    cpp_sources=kl_div_cpp_source,
    cuda_sources=kl_div_source,
    functions=["kl_div_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.kl_div = kl_div

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return self.kl_div.kl_div_cuda(predictions.contiguous(), targets.contiguous())
