# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor integral_image_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Row pass: one block per image row. The row is consumed in tiles of TB elements; each tile is scanned
// with a Hillis-Steele scan in double-buffered shared memory and the tile total is carried forward.
// Column pass: one thread per column walks down the column (coalesced across the warp), in place.

#define TB 256

__global__ void __launch_bounds__(TB) ii_hs_row_kernel(const float* __restrict__ x,
                                                       float* __restrict__ out, int W) {
    __shared__ float buf[2][TB];
    const long long r = blockIdx.x;
    const float* xp = x + r * (long long)W;
    float* op = out + r * (long long)W;
    const int t = threadIdx.x;
    float carry = 0.f;
    for (int base = 0; base < W; base += TB) {
        const int j = base + t;
        buf[0][t] = (j < W) ? xp[j] : 0.f;
        __syncthreads();
        int src = 0;
        for (int off = 1; off < TB; off <<= 1) {
            float v = buf[src][t];
            if (t >= off) v += buf[src][t - off];
            buf[src ^ 1][t] = v;
            src ^= 1;
            __syncthreads();
        }
        if (j < W) op[j] = carry + buf[src][t];
        carry += buf[src][TB - 1];   // out-of-range slots hold 0, so this is the tile total
        __syncthreads();             // everyone has read buf before the next tile overwrites it
    }
}

__global__ void ii_col_serial_kernel(float* __restrict__ out, long long ncols, int H, int W) {
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

    const long long nrows = B * H;
    TORCH_CHECK(nrows < 2147483647LL, "too many rows");
    ii_hs_row_kernel<<<(unsigned)nrows, TB>>>(xc.data_ptr<float>(), out.data_ptr<float>(), W);

    const int threads = 256;
    const long long ncols = B * W;
    ii_col_serial_kernel<<<(unsigned)((ncols + threads - 1) / threads), threads>>>(
        out.data_ptr<float>(), ncols, H, W);
    return out;
}
"""

my_mod = load_inline(
    name="ii_smem_hillis_steele_s44",
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
