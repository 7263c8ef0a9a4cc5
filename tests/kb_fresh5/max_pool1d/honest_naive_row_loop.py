# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor max_pool1d_row_loop(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>

// Naive: one thread owns a whole (n, c) row and walks over every output window of that row.
// Adjacent threads touch addresses L floats apart, so the loads are completely uncoalesced.
__global__ void max_pool1d_row_loop_kernel(const float* x, float* y, long long rows, int L, int Lout,
                                           int k, int s, int p) {
    long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + r * (long long)L;
    float* yr = y + r * (long long)Lout;
    for (int o = 0; o < Lout; ++o) {
        int start = o * s - p;
        float m = -INFINITY;               // padded positions behave like -inf
        for (int j = 0; j < k; ++j) {
            int i = start + j;
            if (i >= 0 && i < L) {
                float v = xr[i];
                if (v > m || v != v) m = v;  // propagate NaN like PyTorch
            }
        }
        yr[o] = m;
    }
}

torch::Tensor max_pool1d_row_loop(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be (N, C, L)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(kernel_size > 0 && stride > 0 && padding >= 0 && 2 * padding <= kernel_size, "bad pooling params");
    auto xc = x.contiguous();
    const int64_t N = xc.size(0), C = xc.size(1), L = xc.size(2);
    const int64_t Lout = (L + 2 * padding - kernel_size) / stride + 1;
    TORCH_CHECK(Lout > 0, "output length must be positive");
    auto y = torch::empty({N, C, Lout}, xc.options());
    const long long rows = N * C;
    if (rows == 0) return y;
    const int threads = 128;
    const long long blocks = (rows + threads - 1) / threads;
    max_pool1d_row_loop_kernel<<<(unsigned)blocks, threads>>>(xc.data_ptr<float>(), y.data_ptr<float>(), rows,
                                                           (int)L, (int)Lout, (int)kernel_size, (int)stride,
                                                           (int)padding);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

max_pool1d_row_loop_mod = load_inline(
    name="max_pool1d_naive_row_loop_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["max_pool1d_row_loop"],
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
        return max_pool1d_row_loop_mod.max_pool1d_row_loop(x, self.kernel_size, self.stride, self.padding)
