# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor integral_image_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Naive two-pass summed-area table: one thread walks a whole row serially (row prefix sums),
// then one thread walks a whole column serially and accumulates in place (column prefix sums).

__global__ void ii_naive_row_kernel(const float* __restrict__ x, float* __restrict__ out,
                                    long long nrows, int W) {
    long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows) return;
    const float* xp = x + r * (long long)W;
    float* op = out + r * (long long)W;
    float acc = 0.f;
    for (int j = 0; j < W; ++j) {
        acc += xp[j];
        op[j] = acc;
    }
}

__global__ void ii_naive_col_kernel(float* __restrict__ out, long long ncols, int H, int W) {
    long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= ncols) return;
    long long b = c / W;
    int j = (int)(c - b * W);
    float* p = out + b * (long long)H * W + j;
    float acc = 0.f;
    for (int i = 0; i < H; ++i) {
        acc += p[(long long)i * W];
        p[(long long)i * W] = acc;
    }
}

torch::Tensor integral_image_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 2, "x must have at least 2 dims");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    if (xc.numel() == 0) return out;
    const int H = (int)xc.size(-2);
    const int W = (int)xc.size(-1);
    const long long B = xc.numel() / ((long long)H * W);

    const int threads = 256;
    long long nrows = B * H;
    ii_naive_row_kernel<<<(unsigned)((nrows + threads - 1) / threads), threads>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), nrows, W);
    long long ncols = B * W;
    ii_naive_col_kernel<<<(unsigned)((ncols + threads - 1) / threads), threads>>>(
        out.data_ptr<float>(), ncols, H, W);
    return out;
}
"""

my_mod = load_inline(
    name="ii_naive_serial_lines_s44",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["integral_image_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.integral_image_cuda(x)
