# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor upsample_vec4(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

// Each thread writes 4 consecutive outputs (one float4) of an output row.
// Output columns 4k..4k+3 come from input columns 2k and 2k+1 (plus clamped 2k-1, 2k+2).
// The vertical mix (two input rows) is done first, then the fixed 2x horizontal weights.
__global__ void upsample_vec4_kernel(const float* __restrict__ x, float4* __restrict__ y4,
                                     long long total4, int H, int W) {
    const int OH = 2 * H;
    const int Q = W / 2;                 // float4 groups per output row (OW / 4)
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x; g < total4; g += stride) {
        int k = (int)(g % Q);
        long long t = g / Q;
        int oy = (int)(t % OH);
        long long nc = t / OH;

        int i = oy >> 1;
        int in_ = (oy & 1) ? min(i + 1, H - 1) : max(i - 1, 0);
        const float* p = x + nc * (long long)H * W;
        const float* ra = p + (long long)i * W;
        const float* rb = p + (long long)in_ * W;

        int j = 2 * k;
        int jm = max(j - 1, 0);
        int jp = min(j + 2, W - 1);
        // j is even and W is even => 8-byte aligned float2 loads
        float2 a = __ldg(reinterpret_cast<const float2*>(ra + j));
        float2 b = __ldg(reinterpret_cast<const float2*>(rb + j));
        float c0 = 0.75f * a.x + 0.25f * b.x;
        float c1 = 0.75f * a.y + 0.25f * b.y;
        float cm = 0.75f * __ldg(ra + jm) + 0.25f * __ldg(rb + jm);
        float cp = 0.75f * __ldg(ra + jp) + 0.25f * __ldg(rb + jp);

        float4 o;
        o.x = 0.75f * c0 + 0.25f * cm;
        o.y = 0.75f * c0 + 0.25f * c1;
        o.z = 0.75f * c1 + 0.25f * c0;
        o.w = 0.75f * c1 + 0.25f * cp;
        y4[g] = o;
    }
}

// Scalar fallback for odd widths or misaligned pointers (general PyTorch formula).
__global__ void upsample_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       long long total, int H, int W) {
    const int OH = 2 * H, OW = 2 * W;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        int ox = (int)(idx % OW);
        long long t = idx / OW;
        int oy = (int)(t % OH);
        long long nc = t / OH;
        float sy = fmaxf((oy + 0.5f) * 0.5f - 0.5f, 0.f);
        float sx = fmaxf((ox + 0.5f) * 0.5f - 0.5f, 0.f);
        int y0 = (int)sy, x0 = (int)sx;
        int y1 = min(y0 + 1, H - 1), x1 = min(x0 + 1, W - 1);
        float ly = sy - y0, lx = sx - x0;
        const float* p = x + nc * (long long)H * W;
        float top = (1.f - lx) * p[y0 * W + x0] + lx * p[y0 * W + x1];
        float bot = (1.f - lx) * p[y1 * W + x0] + lx * p[y1 * W + x1];
        y[idx] = (1.f - ly) * top + ly * bot;
    }
}

static int grid_for(long long work, int threads) {
    long long b = (work + threads - 1) / threads;
    long long cap = 132LL * 32;
    return (int)(b < cap ? (b > 0 ? b : 1) : cap);
}

torch::Tensor upsample_vec4(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4-D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    auto y = torch::empty({N, C, 2 * H, 2 * W}, x.options());
    long long total = (long long)N * C * 4 * H * W;
    if (total == 0) return y;
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    bool vec_ok = (W % 2 == 0) &&
                  ((reinterpret_cast<uintptr_t>(yp) & 15) == 0) &&
                  ((reinterpret_cast<uintptr_t>(xp) & 7) == 0);
    const int threads = 256;
    if (vec_ok) {
        long long total4 = total / 4;
        upsample_vec4_kernel<<<grid_for(total4, threads), threads>>>(xp, reinterpret_cast<float4*>(yp), total4, H, W);
    } else {
        upsample_scalar_kernel<<<grid_for(total, threads), threads>>>(xp, yp, total, H, W);
    }
    return y;
}
"""

upsample_vec4_mod = load_inline(
    name="upsample_bilinear2x_vec4_rows",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["upsample_vec4"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return upsample_vec4_mod.upsample_vec4(x)
