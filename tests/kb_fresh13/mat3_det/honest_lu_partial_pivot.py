# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one thread per matrix, Gaussian elimination with partial pivoting on a per-thread 3x3
// array (the LAPACK getrf way); determinant = sign of the permutation times the product of pivots.

__global__ void det3_lu_kernel(const float* __restrict__ x, float* __restrict__ y, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float* src = x + i * 9;
    float a[3][3];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) a[r][c] = src[r * 3 + c];

    float det = 1.f;
    for (int k = 0; k < 3; ++k) {
        // pivot search in column k
        int p = k;
        float best = fabsf(a[k][k]);
        for (int r = k + 1; r < 3; ++r) {
            float v = fabsf(a[r][k]);
            if (v > best) { best = v; p = r; }
        }
        if (best == 0.f) { det = 0.f; break; }
        if (p != k) {
            for (int c = 0; c < 3; ++c) {
                float tmp = a[k][c];
                a[k][c] = a[p][c];
                a[p][c] = tmp;
            }
            det = -det;
        }
        float piv = a[k][k];
        det *= piv;
        for (int r = k + 1; r < 3; ++r) {
            float f = a[r][k] / piv;
            for (int c = k + 1; c < 3; ++c) a[r][c] -= f * a[k][c];
        }
    }
    y[i] = det;
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() >= 2 && x.size(-1) == 3 && x.size(-2) == 3, "x must have shape (..., 3, 3)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto sizes = xc.sizes().vec();
    sizes.pop_back();
    sizes.pop_back();
    auto out = torch::empty(sizes, xc.options());
    long long n = xc.numel() / 9;
    if (n == 0) return out;
    const int threads = 256;
    long long blocks = (n + threads - 1) / threads;
    det3_lu_kernel<<<(unsigned int)blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_mat3_det_lu_partial_pivot",
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
