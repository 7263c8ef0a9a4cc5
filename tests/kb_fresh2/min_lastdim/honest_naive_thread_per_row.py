# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

min_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cfloat>

// One thread per output element: serial scan over the reduced (last) dimension.
__global__ void min_lastdim_naive_kernel(const float* __restrict__ x, float* __restrict__ out,
                                         int64_t rows, int64_t len) {
    int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* xr = x + row * len;
    float m = xr[0];
    for (int64_t i = 1; i < len; ++i) {
        float v = xr[i];
        if (v < m) m = v;
    }
    out[row] = m;
}

torch::Tensor min_lastdim_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2D (rows, len)");
    TORCH_CHECK(x.size(1) > 0, "cannot reduce over an empty dimension");
    x = x.contiguous();
    const int64_t rows = x.size(0);
    const int64_t len = x.size(1);
    auto out = torch::empty({rows}, x.options());
    if (rows == 0) return out;
    const int threads = 256;
    const unsigned int blocks = (unsigned int)((rows + threads - 1) / threads);
    min_lastdim_naive_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), rows, len);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

min_cpp = "torch::Tensor min_lastdim_cuda(torch::Tensor x);"

min_ext = load_inline(
    name="min_lastdim_naive_thread_per_row",
    cpp_sources=min_cpp,
    cuda_sources=min_source,
    functions=["min_lastdim_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        xt = x.movedim(d, -1).contiguous()
        out_shape = xt.shape[:-1]
        out = min_ext.min_lastdim_cuda(xt.view(-1, xt.shape[-1]))
        return out.view(out_shape)
