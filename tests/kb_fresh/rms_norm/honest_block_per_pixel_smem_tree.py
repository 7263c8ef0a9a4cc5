# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_norm_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define MAX_THREADS 256

// One block per (batch, pixel). Each thread takes channels tid, tid + blockDim, ...,
// squares are summed in shared memory with a tree reduction, then every thread
// normalises its channels. blockDim.x must be a power of two.
__global__ void rms_norm_block_kernel(const float* __restrict__ x, float* __restrict__ y,
                                      int64_t C, int64_t S, float eps) {
    __shared__ float sdata[MAX_THREADS];
    const int tid = threadIdx.x;
    const int64_t pix = blockIdx.x;        // n * S + s
    const int64_t n = pix / S;
    const int64_t s = pix % S;
    const int64_t offset = n * C * S + s;

    float local = 0.0f;
    for (int64_t c = tid; c < C; c += blockDim.x) {
        const float v = x[offset + c * S];
        local += v * v;
    }
    sdata[tid] = local;
    __syncthreads();

    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) sdata[tid] += sdata[tid + stride];
        __syncthreads();
    }
    const float rms = sqrtf(sdata[0] / (float)C + eps);

    for (int64_t c = tid; c < C; c += blockDim.x) {
        y[offset + c * S] = x[offset + c * S] / rms;
    }
}

torch::Tensor rms_norm_cuda(torch::Tensor x, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 2, "x must have a feature dimension");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    if (x.numel() == 0) return y;
    const int64_t N = x.size(0);
    const int64_t C = x.size(1);
    const int64_t S = x.numel() / (N * C);

    // threads = next power of two >= C, between 32 and MAX_THREADS
    int threads = 32;
    while (threads < C && threads < MAX_THREADS) threads <<= 1;

    const int64_t blocks = N * S;
    TORCH_CHECK(blocks < 2147483647LL, "too many pixels for a 1D grid");
    rms_norm_block_kernel<<<(unsigned int)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), C, S, (float)eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

rms_norm_cpp_source = "torch::Tensor rms_norm_cuda(torch::Tensor x, double eps);"

rms_norm_ext = load_inline(
    name="rms_norm_block_per_pixel_smem_tree_ext",
    cpp_sources=rms_norm_cpp_source,
    cuda_sources=rms_norm_source,
    functions=["rms_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm_ext.rms_norm_cuda(x, self.eps)
