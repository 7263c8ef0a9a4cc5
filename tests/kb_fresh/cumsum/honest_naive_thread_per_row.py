# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cumsum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

// One thread per row: a plain serial running sum over the row.
__global__ void cumsum_row_serial_kernel(const float* __restrict__ x, float* __restrict__ y,
                                         int rows, int len) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* xr = x + (int64_t)row * len;
    float* yr = y + (int64_t)row * len;
    float acc = 0.0f;
    for (int i = 0; i < len; ++i) {
        acc += xr[i];
        yr[i] = acc;
    }
}

torch::Tensor cumsum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int len = xc.size(-1);
    const int rows = xc.numel() / len;
    auto y = torch::empty_like(xc);
    const int threads = 256;
    const int blocks = (rows + threads - 1) / threads;
    cumsum_row_serial_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), rows, len);
    return y;
}
"""

cumsum_cpp_source = "torch::Tensor cumsum_cuda(torch::Tensor x);"

cumsum_ext = load_inline(
    name="kbf_cumsum_naive_thread_per_row",
    cpp_sources=cumsum_cpp_source,
    cuda_sources=cumsum_source,
    functions=["cumsum_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim % x.dim()
        if dim == x.dim() - 1:
            return cumsum_ext.cumsum_cuda(x)
        # scan axis is not the innermost one: move it last, scan, move it back
        xt = x.movedim(dim, -1).contiguous()
        return cumsum_ext.cumsum_cuda(xt).movedim(-1, dim)
