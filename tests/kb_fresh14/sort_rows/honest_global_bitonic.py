# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
// Strategy: naive bitonic sort directly in global memory. Each row is copied into a buffer padded
// with +inf up to a power of two, then one kernel launch per (k, j) stage of the bitonic network,
// one thread per compare-exchange pair. No shared memory, no data reuse between stages.
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void pad_copy_kernel(const float* __restrict__ x, float* __restrict__ buf,
                                long long rows, int cols, int P) {
    long long total = rows * (long long)P;
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long r = idx / P;
    int c = (int)(idx - r * P);
    buf[idx] = (c < cols) ? x[r * cols + c] : __int_as_float(0x7f800000);
}

__global__ void unpad_copy_kernel(const float* __restrict__ buf, float* __restrict__ out,
                                  long long rows, int cols, int P) {
    long long total = rows * (long long)cols;
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long r = idx / cols;
    int c = (int)(idx - r * cols);
    out[idx] = buf[r * P + c];
}

// One compare-exchange per thread for stage (k, j). j is a power of two < k <= P.
__global__ void bitonic_step_kernel(float* __restrict__ data, long long rows, int P, int k, int j) {
    long long half = P >> 1;
    long long total = rows * half;
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total) return;
    long long r = t / half;
    int p = (int)(t - r * half);
    // p-th index whose bit j is clear, and its partner with bit j set
    int i = ((p & ~(j - 1)) << 1) | (p & (j - 1));
    int l = i | j;
    float* row = data + r * P;
    float a = row[i];
    float b = row[l];
    bool asc = (i & k) == 0;
    if (asc ? (a > b) : (a < b)) {
        row[i] = b;
        row[l] = a;
    }
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
    TORCH_CHECK(cols64 <= (1LL << 30), "row too long");
    int cols = (int)cols64;
    int P = 1;
    while (P < cols) P <<= 1;
    torch::Tensor buf = (P == cols) ? out : torch::empty({rows, (long long)P}, xc.options());
    float* bp = buf.data_ptr<float>();
    const int threads = 256;
    long long total = rows * (long long)P;
    pad_copy_kernel<<<(unsigned)((total + threads - 1) / threads), threads>>>(
        xc.data_ptr<float>(), bp, rows, cols, P);
    long long pairs = rows * (long long)(P / 2);
    if (pairs > 0) {
        unsigned blocks = (unsigned)((pairs + threads - 1) / threads);
        for (int k = 2; k <= P; k <<= 1) {
            for (int j = k >> 1; j > 0; j >>= 1) {
                bitonic_step_kernel<<<blocks, threads>>>(bp, rows, P, k, j);
            }
        }
    }
    if (P != cols) {
        long long tot = rows * (long long)cols;
        unpad_copy_kernel<<<(unsigned)((tot + threads - 1) / threads), threads>>>(
            bp, out.data_ptr<float>(), rows, cols, P);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_sort_rows_global_bitonic",
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
