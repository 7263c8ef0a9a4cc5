# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rev_cumsum_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

// One thread per row: walk the row from the end and accumulate the suffix sum serially.
__global__ void reverse_cumsum_naive_kernel(const float* __restrict__ x, float* __restrict__ y,
                                            int64_t rows, int64_t len) {
    int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* xr = x + row * len;
    float* yr = y + row * len;
    float acc = 0.0f;
    for (int64_t i = len - 1; i >= 0; --i) {
        acc += xr[i];
        yr[i] = acc;
    }
}

torch::Tensor reverse_cumsum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2D (rows, len)");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const int64_t rows = x.size(0);
    const int64_t len = x.size(1);
    if (rows == 0 || len == 0) return y;
    const int threads = 256;
    const int blocks = (int)((rows + threads - 1) / threads);
    reverse_cumsum_naive_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), rows, len);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

rev_cumsum_cpp_source = "torch::Tensor reverse_cumsum_cuda(torch::Tensor x);"

rev_cumsum = load_inline(
    name="reverse_cumsum_naive_thread_per_row",
    cpp_sources=rev_cumsum_cpp_source,
    cuda_sources=rev_cumsum_source,
    functions=["reverse_cumsum_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
        self.rev_cumsum = rev_cumsum

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        xt = x.movedim(d, -1).contiguous()
        shape = xt.shape
        out = self.rev_cumsum.reverse_cumsum_cuda(xt.view(-1, shape[-1]))
        return out.view(shape).movedim(-1, d)
