# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

l1_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per row: the thread sums |x| over its row, then divides every element
// of the row by the mean. Neighbouring threads touch addresses a full row apart.
__global__ void l1_norm_naive_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     long long rows, long long cols) {
    long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float s = 0.f;
    for (long long j = 0; j < cols; ++j) s += fabsf(xr[j]);
    const float mean = s / (float)cols;
    for (long long j = 0; j < cols; ++j) yr[j] = xr[j] / mean;
}

torch::Tensor l1_norm_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const long long rows = x.size(0), cols = x.size(1);
    if (rows == 0 || cols == 0) return y;
    const int threads = 256;
    const int blocks = (int)((rows + threads - 1) / threads);
    l1_norm_naive_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "l1_norm kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

l1_norm_cpp_source = "torch::Tensor l1_norm_cuda(torch::Tensor x);"

l1_norm = load_inline(
    name="l1_norm_naive_thread_per_row",
    cpp_sources=l1_norm_cpp_source,
    cuda_sources=l1_norm_source,
    functions=["l1_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l1_norm.l1_norm_cuda(x.contiguous())
