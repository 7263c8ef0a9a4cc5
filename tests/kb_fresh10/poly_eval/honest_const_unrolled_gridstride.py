# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor poly_const_cuda(torch::Tensor x, torch::Tensor coeffs);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Coefficients copied to __constant__ memory; Horner's rule fully unrolled for the common degree-31
// case (template on the coefficient count, so each FMA takes its coefficient straight from the constant
// bank) with a runtime loop for other degrees; grid-stride loop over the elements.

#define MAX_COEF 4096
__constant__ float c_coef[MAX_COEF];

template <int NC>
__device__ __forceinline__ float horner_fixed(float x) {
    float acc = c_coef[NC - 1];
#pragma unroll
    for (int k = NC - 2; k >= 0; --k) acc = fmaf(acc, x, c_coef[k]);
    return acc;
}

__device__ __forceinline__ float horner_dyn(float x, const float* c, int nc, bool use_const) {
    float acc = 0.0f;
    for (int k = nc - 1; k >= 0; --k) acc = fmaf(acc, x, use_const ? c_coef[k] : __ldg(c + k));
    return acc;
}

template <int NC>
__global__ void __launch_bounds__(256)
poly_const_kernel(const float* __restrict__ x, const float* __restrict__ cg, float* __restrict__ out,
                  long long n, int nc, int use_const) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float xv = __ldg(x + i);
        out[i] = (NC > 0) ? horner_fixed<(NC > 0 ? NC : 1)>(xv) : horner_dyn(xv, cg, nc, use_const != 0);
    }
}

torch::Tensor poly_const_cuda(torch::Tensor x, torch::Tensor coeffs) {
    TORCH_CHECK(x.is_cuda() && coeffs.is_cuda(), "x and coeffs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && coeffs.scalar_type() == torch::kFloat32, "float32 only");
    auto xc = x.contiguous();
    auto cc = coeffs.contiguous();
    auto out = torch::empty_like(xc);
    const long long n = xc.numel();
    const int nc = (int)cc.numel();
    if (n == 0) return out;
    if (nc == 0) return torch::zeros(xc.sizes(), xc.options());

    const bool use_const = nc <= MAX_COEF;
    if (use_const)
        cudaMemcpyToSymbolAsync(c_coef, cc.data_ptr<float>(), nc * sizeof(float), 0, cudaMemcpyDeviceToDevice, 0);

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 132;
    const int threads = 256;
    long long want = (n + threads - 1) / threads;
    long long cap = (long long)sms * 8;
    const unsigned int blocks = (unsigned int)(want < cap ? want : cap);

    if (nc == 32 && use_const)
        poly_const_kernel<32><<<blocks, threads>>>(xc.data_ptr<float>(), cc.data_ptr<float>(), out.data_ptr<float>(), n, nc, 1);
    else
        poly_const_kernel<0><<<blocks, threads>>>(xc.data_ptr<float>(), cc.data_ptr<float>(), out.data_ptr<float>(), n, nc,
                                                  use_const ? 1 : 0);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "poly_const_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

poly_mod = load_inline(
    name="s44_poly_const_unrolled_gridstride",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["poly_const_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, degree: int):
        super().__init__()
        k = torch.arange(degree + 1, dtype=torch.float32)
        self.register_buffer("coeffs", torch.cos(k) / (k + 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return poly_mod.poly_const_cuda(x, self.coeffs)
