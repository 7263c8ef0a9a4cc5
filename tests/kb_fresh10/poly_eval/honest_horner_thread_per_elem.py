# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor poly_horner_cuda(torch::Tensor x, torch::Tensor coeffs);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Horner's rule, one thread per element, runtime degree; the coefficient of every step is loaded from
// global memory (the same address for the whole warp, so it is served by the cache).

__global__ void poly_horner_kernel(const float* __restrict__ x, const float* __restrict__ c,
                                   float* __restrict__ out, long long n, int ncoef) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float xv = x[i];
    float acc = 0.0f;
    for (int k = ncoef - 1; k >= 0; --k)
        acc = fmaf(acc, xv, c[k]);
    out[i] = acc;
}

torch::Tensor poly_horner_cuda(torch::Tensor x, torch::Tensor coeffs) {
    TORCH_CHECK(x.is_cuda() && coeffs.is_cuda(), "x and coeffs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && coeffs.scalar_type() == torch::kFloat32, "float32 only");
    auto xc = x.contiguous();
    auto cc = coeffs.contiguous();
    auto out = torch::empty_like(xc);
    const long long n = xc.numel();
    const int ncoef = (int)cc.numel();
    if (n == 0) return out;
    const int threads = 256;
    const long long blocks = (n + threads - 1) / threads;
    poly_horner_kernel<<<(unsigned int)blocks, threads>>>(xc.data_ptr<float>(), cc.data_ptr<float>(),
                                                          out.data_ptr<float>(), n, ncoef);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "poly_horner_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

poly_mod = load_inline(
    name="s44_poly_horner_thread_per_elem",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["poly_horner_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, degree: int):
        super().__init__()
        k = torch.arange(degree + 1, dtype=torch.float32)
        self.register_buffer("coeffs", torch.cos(k) / (k + 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return poly_mod.poly_horner_cuda(x, self.coeffs)
