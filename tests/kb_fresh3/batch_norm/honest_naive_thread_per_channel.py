# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

bn_naive_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

// One thread per channel: a serial loop over every (n, h, w) of the channel,
// accumulating the sum and the sum of squares in double precision.
__global__ void bn_channel_stats_kernel(const float* __restrict__ x,
                                        float* __restrict__ mean,
                                        float* __restrict__ invstd,
                                        int N, int C, int HW, float eps) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    double sum = 0.0;
    double sumsq = 0.0;
    for (int n = 0; n < N; ++n) {
        const float* plane = x + ((int64_t)n * C + c) * HW;
        for (int i = 0; i < HW; ++i) {
            double v = (double)plane[i];
            sum += v;
            sumsq += v * v;
        }
    }
    double count = (double)N * (double)HW;
    double m = sum / count;
    double var = sumsq / count - m * m;
    if (var < 0.0) var = 0.0;
    mean[c] = (float)m;
    invstd[c] = (float)(1.0 / sqrt(var + (double)eps));
}

// One thread per output element.
__global__ void bn_normalize_kernel(const float* __restrict__ x,
                                    const float* __restrict__ mean,
                                    const float* __restrict__ invstd,
                                    const float* __restrict__ weight,
                                    const float* __restrict__ bias,
                                    float* __restrict__ y,
                                    int64_t total, int C, int HW) {
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int c = (int)((idx / HW) % C);
    y[idx] = (x[idx] - mean[c]) * invstd[c] * weight[c] + bias[c];
}

torch::Tensor batch_norm_naive_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    const int N = x.size(0);
    const int C = x.size(1);
    const int HW = x.size(2) * x.size(3);
    auto y = torch::empty_like(x);
    auto mean = torch::empty({C}, x.options());
    auto invstd = torch::empty({C}, x.options());
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    const int stat_threads = 64;
    bn_channel_stats_kernel<<<(C + stat_threads - 1) / stat_threads, stat_threads, 0, stream>>>(
        x.data_ptr<float>(), mean.data_ptr<float>(), invstd.data_ptr<float>(), N, C, HW, (float)eps);

    const int64_t total = x.numel();
    const int threads = 256;
    const int64_t blocks = (total + threads - 1) / threads;
    bn_normalize_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
        x.data_ptr<float>(), mean.data_ptr<float>(), invstd.data_ptr<float>(),
        weight.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(), total, C, HW);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "batch_norm_naive kernel failed: ", cudaGetErrorString(err));
    return y;
}
"""

bn_naive_cpp = "torch::Tensor batch_norm_naive_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

bn_naive = load_inline(
    name="kbf3_bn_naive_thread_per_channel",
    cpp_sources=bn_naive_cpp,
    cuda_sources=bn_naive_source,
    functions=["batch_norm_naive_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        return bn_naive.batch_norm_naive_cuda(
            x, self.bn.weight.contiguous(), self.bn.bias.contiguous(), self.bn.eps)
