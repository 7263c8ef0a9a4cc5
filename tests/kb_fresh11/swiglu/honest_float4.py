# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor swiglu_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: vectorised elementwise kernel, one thread per 4 outputs using 128-bit float4 loads of
// both halves and a float4 store. Needs hidden % 4 == 0 and a 16-byte aligned input; otherwise a
// scalar kernel is used.

__global__ void swiglu_vec4_kernel(const float4* __restrict__ x, float4* __restrict__ y,
                                   long long total4, long long hid4) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total4) return;
    long long r = i / hid4;
    long long j = i - r * hid4;
    const float4* xr = x + r * 2 * hid4;
    float4 a = __ldg(xr + j);
    float4 g = __ldg(xr + hid4 + j);
    float4 o;
    o.x = a.x / (1.0f + expf(-a.x)) * g.x;
    o.y = a.y / (1.0f + expf(-a.y)) * g.y;
    o.z = a.z / (1.0f + expf(-a.z)) * g.z;
    o.w = a.w / (1.0f + expf(-a.w)) * g.w;
    y[i] = o;
}

__global__ void swiglu_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     long long total, long long hid) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    long long r = i / hid;
    long long j = i - r * hid;
    float a = x[r * 2 * hid + j];
    float g = x[r * 2 * hid + hid + j];
    y[i] = a / (1.0f + expf(-a)) * g;
}

torch::Tensor swiglu_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1 && x.size(-1) % 2 == 0, "last dim must be even");
    auto xc = x.contiguous();
    long long D = xc.size(-1);
    long long hid = D / 2;
    auto sizes = xc.sizes().vec();
    sizes.back() = hid;
    auto y = torch::empty(sizes, xc.options());
    long long total = y.numel();
    if (total == 0) return y;
    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    int threads = 256;
    bool vec = (hid % 4 == 0) &&
               ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
               ((reinterpret_cast<uintptr_t>(yp) & 15) == 0);
    if (vec) {
        long long total4 = total / 4;
        long long blocks = (total4 + threads - 1) / threads;
        swiglu_vec4_kernel<<<(unsigned int)blocks, threads>>>(
            reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp), total4, hid / 4);
    } else {
        long long blocks = (total + threads - 1) / threads;
        swiglu_scalar_kernel<<<(unsigned int)blocks, threads>>>(xp, yp, total, hid);
    }
    return y;
}
"""

my_mod = load_inline(
    name="swiglu_float4_s45",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["swiglu_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.swiglu_cuda(x)
