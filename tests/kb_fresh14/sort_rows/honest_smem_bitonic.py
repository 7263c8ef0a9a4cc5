# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
// Strategy: one thread block per row; the row (padded with +inf to a power of two) is held in
// dynamic shared memory and the full bitonic network runs there, each thread doing compare-exchange
// pairs, with a __syncthreads() after every stage.
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void smem_bitonic_kernel(const float* __restrict__ x, float* __restrict__ out,
                                    int cols, int P) {
    extern __shared__ float s[];
    const long long row = blockIdx.x;
    const float* xr = x + row * cols;
    float* orow = out + row * cols;
    const float INF = __int_as_float(0x7f800000);

    for (int i = threadIdx.x; i < P; i += blockDim.x)
        s[i] = (i < cols) ? xr[i] : INF;
    __syncthreads();

    const int half = P >> 1;
    for (int k = 2; k <= P; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int p = threadIdx.x; p < half; p += blockDim.x) {
                int i = ((p & ~(j - 1)) << 1) | (p & (j - 1));
                int l = i | j;
                float a = s[i];
                float b = s[l];
                bool asc = (i & k) == 0;
                if (asc ? (a > b) : (a < b)) {
                    s[i] = b;
                    s[l] = a;
                }
            }
            __syncthreads();
        }
    }

    for (int i = threadIdx.x; i < cols; i += blockDim.x)
        orow[i] = s[i];
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    long long rows = xc.size(0);
    long long cols64 = xc.size(1);
    if (rows == 0 || cols64 == 0) return out;
    TORCH_CHECK(cols64 <= 8192, "this kernel supports rows of at most 8192 elements");
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    int cols = (int)cols64;
    int P = 2;
    while (P < cols) P <<= 1;
    int threads = P / 2;
    if (threads > 512) threads = 512;
    if (threads < 32) threads = 32;
    size_t smem = (size_t)P * sizeof(float);
    smem_bitonic_kernel<<<(unsigned)rows, threads, smem>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), cols, P);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_sort_rows_smem_bitonic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x)
