# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor laplacian3d_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Vectorised grid-stride kernel: each iteration produces 4 consecutive x outputs from five float4 loads
// (centre, y-1, y+1, z-1, z+1 rows) plus the two scalar x-neighbours at the ends, and one float4 store.
// Shapes with W % 4 != 0 (or unaligned data) use a scalar grid-stride kernel.

__global__ void laplacian3d_vec4_kernel(const float4* __restrict__ in4, float4* __restrict__ out4,
                                        long long total4, int D, int H, int W4) {
    const float* in = reinterpret_cast<const float*>(in4);
    const long long sy4 = W4, sz4 = (long long)H * W4;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);
    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < total4; q += stride) {
        const int x4 = (int)(q % W4);
        const long long t = q / W4;
        const int y = (int)(t % H);
        const int z = (int)(t / H);
        const float4 c  = __ldg(in4 + q);
        const float4 zm = (z > 0)     ? __ldg(in4 + q - sz4) : zero;
        const float4 zp = (z < D - 1) ? __ldg(in4 + q + sz4) : zero;
        const float4 ym = (y > 0)     ? __ldg(in4 + q - sy4) : zero;
        const float4 yp = (y < H - 1) ? __ldg(in4 + q + sy4) : zero;
        const float l = (x4 > 0)      ? __ldg(in + q * 4 - 1) : 0.0f;
        const float r = (x4 < W4 - 1) ? __ldg(in + q * 4 + 4) : 0.0f;
        float4 o;
        o.x = zm.x + zp.x + ym.x + yp.x + l   + c.y - 6.0f * c.x;
        o.y = zm.y + zp.y + ym.y + yp.y + c.x + c.z - 6.0f * c.y;
        o.z = zm.z + zp.z + ym.z + yp.z + c.y + c.w - 6.0f * c.z;
        o.w = zm.w + zp.w + ym.w + yp.w + c.z + r   - 6.0f * c.w;
        out4[q] = o;
    }
}

__global__ void laplacian3d_scalar_kernel(const float* __restrict__ in, float* __restrict__ out,
                                          long long total, int D, int H, int W) {
    const long long sy = W, sz = (long long)H * W;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        const int x = (int)(i % W);
        const long long t = i / W;
        const int y = (int)(t % H);
        const int z = (int)(t / H);
        float s = 0.0f;
        if (z > 0)     s += __ldg(in + i - sz);
        if (z < D - 1) s += __ldg(in + i + sz);
        if (y > 0)     s += __ldg(in + i - sy);
        if (y < H - 1) s += __ldg(in + i + sy);
        if (x > 0)     s += __ldg(in + i - 1);
        if (x < W - 1) s += __ldg(in + i + 1);
        out[i] = s - 6.0f * __ldg(in + i);
    }
}

torch::Tensor laplacian3d_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 3, "x must be 3-D (D, H, W)");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int D = (int)xc.size(0), H = (int)xc.size(1), W = (int)xc.size(2);
    long long total = xc.numel();
    if (total == 0) return out;
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    const int threads = 256;
    const long long max_blocks = (long long)sms * 8;
    const float* iptr = xc.data_ptr<float>();
    float* optr = out.data_ptr<float>();
    bool vec_ok = (W % 4 == 0) && ((reinterpret_cast<uintptr_t>(iptr) & 15) == 0) &&
                  ((reinterpret_cast<uintptr_t>(optr) & 15) == 0);
    if (vec_ok) {
        long long total4 = total / 4;
        long long blocks = (total4 + threads - 1) / threads;
        if (blocks > max_blocks) blocks = max_blocks;
        laplacian3d_vec4_kernel<<<(unsigned)blocks, threads>>>(
            reinterpret_cast<const float4*>(iptr), reinterpret_cast<float4*>(optr), total4, D, H, W / 4);
    } else {
        long long blocks = (total + threads - 1) / threads;
        if (blocks > max_blocks) blocks = max_blocks;
        laplacian3d_scalar_kernel<<<(unsigned)blocks, threads>>>(iptr, optr, total, D, H, W);
    }
    return out;
}
"""

lap_mod = load_inline(
    name="s45_laplacian3d_float4_gridstride",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["laplacian3d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return lap_mod.laplacian3d_cuda(x)
