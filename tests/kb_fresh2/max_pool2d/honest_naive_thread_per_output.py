# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

maxpool_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cmath>

// One thread per output element; the window is scanned with a plain double loop.
__global__ void maxpool2d_naive_kernel(const float* __restrict__ input, float* __restrict__ output,
                                       int H, int W, int OH, int OW,
                                       int kernel_size, int stride, int padding, long long total) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;

    int ow = (int)(idx % OW);
    long long t = idx / OW;
    int oh = (int)(t % OH);
    long long nc = t / OH;

    const float* plane = input + nc * (long long)H * W;
    int h_start = oh * stride - padding;
    int w_start = ow * stride - padding;

    float max_val = -INFINITY;
    for (int kh = 0; kh < kernel_size; ++kh) {
        int h = h_start + kh;
        if (h < 0 || h >= H) continue;
        for (int kw = 0; kw < kernel_size; ++kw) {
            int w = w_start + kw;
            if (w < 0 || w >= W) continue;
            float v = plane[h * W + w];
            if (v > max_val) max_val = v;
        }
    }
    output[idx] = max_val;
}

torch::Tensor maxpool2d_cuda(torch::Tensor input, int kernel_size, int stride, int padding) {
    TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(input.dim() == 4, "input must be NCHW");
    TORCH_CHECK(input.scalar_type() == torch::kFloat32, "input must be float32");
    auto x = input.contiguous();
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    const int OH = (H + 2 * padding - kernel_size) / stride + 1;
    const int OW = (W + 2 * padding - kernel_size) / stride + 1;
    auto output = torch::empty({N, C, OH, OW}, x.options());

    long long total = (long long)N * C * OH * OW;
    const int threads = 256;
    const long long blocks = (total + threads - 1) / threads;
    maxpool2d_naive_kernel<<<(unsigned int)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), output.data_ptr<float>(), H, W, OH, OW,
        kernel_size, stride, padding, total);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return output;
}
"""

maxpool_cpp_source = "torch::Tensor maxpool2d_cuda(torch::Tensor input, int kernel_size, int stride, int padding);"

maxpool_naive = load_inline(
    name="maxpool2d_naive_thread_per_output",
    cpp_sources=maxpool_cpp_source,
    cuda_sources=maxpool_source,
    functions=["maxpool2d_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return maxpool_naive.maxpool2d_cuda(x, self.kernel_size, self.stride, self.padding)
