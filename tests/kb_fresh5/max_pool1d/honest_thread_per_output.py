# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor max_pool1d_per_output(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>

// One thread per output element over the flattened (N*C*Lout) output; neighbouring threads handle
// neighbouring windows of the same row, so loads are (stride-)coalesced.
__global__ void max_pool1d_per_output_kernel(const float* __restrict__ x, float* __restrict__ y, long long total,
                                             int L, int Lout, int k, int s, int p) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long row = idx / Lout;
    int o = (int)(idx - row * Lout);
    const float* xr = x + row * (long long)L;
    int start = o * s - p;
    int lo = start < 0 ? 0 : start;
    int hi = start + k < L ? start + k : L;   // exclusive
    float m = -INFINITY;
    for (int i = lo; i < hi; ++i) {
        float v = xr[i];
        if (v > m || v != v) m = v;
    }
    y[idx] = m;
}

torch::Tensor max_pool1d_per_output(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be (N, C, L)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(kernel_size > 0 && stride > 0 && padding >= 0 && 2 * padding <= kernel_size, "bad pooling params");
    auto xc = x.contiguous();
    const int64_t N = xc.size(0), C = xc.size(1), L = xc.size(2);
    const int64_t Lout = (L + 2 * padding - kernel_size) / stride + 1;
    TORCH_CHECK(Lout > 0, "output length must be positive");
    auto y = torch::empty({N, C, Lout}, xc.options());
    const long long total = N * C * Lout;
    if (total == 0) return y;
    const int threads = 256;
    const long long blocks = (total + threads - 1) / threads;
    TORCH_CHECK(blocks < 2147483647LL, "tensor too large");
    max_pool1d_per_output_kernel<<<(unsigned)blocks, threads>>>(xc.data_ptr<float>(), y.data_ptr<float>(), total,
                                                             (int)L, (int)Lout, (int)kernel_size, (int)stride,
                                                             (int)padding);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

max_pool1d_per_output_mod = load_inline(
    name="max_pool1d_thread_per_output_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["max_pool1d_per_output"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return max_pool1d_per_output_mod.max_pool1d_per_output(x, self.kernel_size, self.stride, self.padding)
