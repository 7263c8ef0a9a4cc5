# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor poly_smem_vec4_cuda(torch::Tensor x, torch::Tensor coeffs);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Each block stages the coefficients in shared memory; each thread loads one float4 (4 elements),
// runs 4 interleaved Horner chains (one shared-memory broadcast read per step feeds 4 FMAs) and
// writes one float4. The n % 4 tail (or the whole array if the pointers are not 16-byte aligned)
// is handled element by element.

__global__ void __launch_bounds__(256)
poly_smem_vec4_kernel(const float* __restrict__ x, const float* __restrict__ c, float* __restrict__ out,
                      long long n4, long long tail_start, long long n, int nc) {
    extern __shared__ float s_c[];
    for (int k = threadIdx.x; k < nc; k += blockDim.x) s_c[k] = c[k];
    __syncthreads();

    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        const float4 v = reinterpret_cast<const float4*>(x)[i];
        float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
        for (int k = nc - 1; k >= 0; --k) {
            const float ck = s_c[k];
            a0 = fmaf(a0, v.x, ck);
            a1 = fmaf(a1, v.y, ck);
            a2 = fmaf(a2, v.z, ck);
            a3 = fmaf(a3, v.w, ck);
        }
        reinterpret_cast<float4*>(out)[i] = make_float4(a0, a1, a2, a3);
    }
    const long long j = tail_start + i;
    if (j < n) {
        const float xv = x[j];
        float a = 0.0f;
        for (int k = nc - 1; k >= 0; --k) a = fmaf(a, xv, s_c[k]);
        out[j] = a;
    }
}

torch::Tensor poly_smem_vec4_cuda(torch::Tensor x, torch::Tensor coeffs) {
    TORCH_CHECK(x.is_cuda() && coeffs.is_cuda(), "x and coeffs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && coeffs.scalar_type() == torch::kFloat32, "float32 only");
    auto xc = x.contiguous();
    auto cc = coeffs.contiguous();
    auto out = torch::empty_like(xc);
    const long long n = xc.numel();
    const int nc = (int)cc.numel();
    if (n == 0) return out;
    TORCH_CHECK((long long)nc * sizeof(float) <= 48 * 1024, "too many coefficients for shared memory");

    const bool aligned = ((reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) |
                           reinterpret_cast<uintptr_t>(out.data_ptr<float>())) & 15) == 0;
    const long long n4 = aligned ? n / 4 : 0;
    const long long tail_start = 4 * n4;
    const long long tail = n - tail_start;
    const long long work = n4 > tail ? n4 : tail;
    const int threads = 256;
    const long long blocks = (work + threads - 1) / threads;
    const size_t smem = (size_t)(nc > 0 ? nc : 1) * sizeof(float);
    poly_smem_vec4_kernel<<<(unsigned int)blocks, threads, smem>>>(xc.data_ptr<float>(), cc.data_ptr<float>(),
                                                                   out.data_ptr<float>(), n4, tail_start, n, nc);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "poly_smem_vec4_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

poly_mod = load_inline(
    name="s44_poly_smem_coeffs_vec4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["poly_smem_vec4_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, degree: int):
        super().__init__()
        k = torch.arange(degree + 1, dtype=torch.float32)
        self.register_buffer("coeffs", torch.cos(k) / (k + 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return poly_mod.poly_smem_vec4_cuda(x, self.coeffs)
