# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

instance_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per (n, c) plane: the thread walks its whole plane three times
// (mean, biased variance, normalise). Simple, but only N*C threads are active
// and neighbouring threads read addresses HW floats apart (no coalescing).
__global__ void instance_norm_naive_kernel(const float* __restrict__ x,
                                           float* __restrict__ y,
                                           long long planes,
                                           long long hw,
                                           float eps) {
    long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= planes) return;
    const float* xp = x + p * hw;
    float* yp = y + p * hw;

    double sum = 0.0;
    for (long long i = 0; i < hw; ++i) sum += (double)xp[i];
    double mean = sum / (double)hw;

    double sq = 0.0;
    for (long long i = 0; i < hw; ++i) {
        double d = (double)xp[i] - mean;
        sq += d * d;
    }
    double var = sq / (double)hw;   // biased variance, as InstanceNorm uses
    float rstd = (float)(1.0 / sqrt(var + (double)eps));
    float m = (float)mean;

    for (long long i = 0; i < hw; ++i) yp[i] = (xp[i] - m) * rstd;
}

torch::Tensor instance_norm_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be 4D (N, C, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    long long planes = x.size(0) * x.size(1);
    long long hw = x.size(2) * x.size(3);
    if (planes == 0 || hw == 0) return y;
    const int threads = 128;
    const int blocks = (int)((planes + threads - 1) / threads);
    instance_norm_naive_kernel<<<blocks, threads>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), planes, hw, 1e-5f);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "instance_norm kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

instance_norm_cpp_source = "torch::Tensor instance_norm_cuda(torch::Tensor x);"

instance_norm = load_inline(
    name="instance_norm_naive_thread_per_plane",
    cpp_sources=instance_norm_cpp_source,
    cuda_sources=instance_norm_source,
    functions=["instance_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.num_features = num_features

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return instance_norm.instance_norm_cuda(x.contiguous())
