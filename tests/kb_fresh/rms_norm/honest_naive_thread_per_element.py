# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rms_norm_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

// One thread per output element: each thread computes the RMS over the channels of
// its (batch, pixel) position and then normalises its own element.
__global__ void rms_norm_naive_kernel(const float* __restrict__ x, float* __restrict__ y,
                                      int64_t total, int64_t C, int64_t S, float eps) {
    const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    const int64_t s = idx % S;
    const int64_t n = idx / (C * S);
    const float* base = x + n * C * S + s;

    float sum_sq = 0.0f;
    for (int64_t c = 0; c < C; ++c) {
        float v = base[c * S];
        sum_sq += v * v;
    }
    const float rms = sqrtf(sum_sq / (float)C + eps);
    y[idx] = x[idx] / rms;
}

torch::Tensor rms_norm_cuda(torch::Tensor x, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 2, "x must have a feature dimension");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const int64_t total = x.numel();
    if (total == 0) return y;
    const int64_t N = x.size(0);
    const int64_t C = x.size(1);
    const int64_t S = total / (N * C);

    const int threads = 256;
    const int64_t blocks = (total + threads - 1) / threads;
    rms_norm_naive_kernel<<<(unsigned int)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), total, C, S, (float)eps);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

rms_norm_cpp_source = "torch::Tensor rms_norm_cuda(torch::Tensor x, double eps);"

rms_norm_ext = load_inline(
    name="rms_norm_naive_thread_per_element_ext",
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
