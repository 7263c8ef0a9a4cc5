# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Grid-stride loop over a fixed grid sized from the SM count, read-only cache loads.
__global__ void leaky_relu_grid_stride_kernel(const float* __restrict__ x, float* __restrict__ y,
                                              long long n, float slope) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float v = __ldg(x + i);
        y[i] = v > 0.0f ? v : v * slope;
    }
}

torch::Tensor leaky_relu_cuda(torch::Tensor x, double negative_slope, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    auto y = torch::empty_like(x);
    const long long n = x.numel();
    if (n == 0) return y;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 256;
    long long blocks = (n + threads - 1) / threads;
    const long long cap = (long long)sms * 32;
    if (blocks > cap) blocks = cap;
    leaky_relu_grid_stride_kernel<<<(int)blocks, threads, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), n,
                                                                       (float)negative_slope);
    return y;
}
"""

cpp_src = "torch::Tensor leaky_relu_cuda(torch::Tensor x, double negative_slope, int64_t stream_ptr);"

leaky_mod = load_inline(
    name="leaky_relu_grid_stride_ldg",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["leaky_relu_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        stream = torch.cuda.current_stream().cuda_stream
        return leaky_mod.leaky_relu_cuda(x.contiguous(), float(self.negative_slope), stream)
