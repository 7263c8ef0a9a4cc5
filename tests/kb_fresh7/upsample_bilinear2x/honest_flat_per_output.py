# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor upsample_flat(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per output element, flat grid-stride loop, PyTorch's
// area_pixel_compute_source_index formula (align_corners=False, scale = 1/2).
__global__ void upsample_flat_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     long long total, int H, int W, int OH, int OW,
                                     float scale_h, float scale_w) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        int ox = (int)(idx % OW);
        long long t = idx / OW;
        int oy = (int)(t % OH);
        long long nc = t / OH;

        float sy = fmaxf((oy + 0.5f) * scale_h - 0.5f, 0.f);
        int y0 = (int)sy;
        int y1 = min(y0 + 1, H - 1);
        float ly1 = sy - (float)y0, ly0 = 1.f - ly1;

        float sx = fmaxf((ox + 0.5f) * scale_w - 0.5f, 0.f);
        int x0 = (int)sx;
        int x1 = min(x0 + 1, W - 1);
        float lx1 = sx - (float)x0, lx0 = 1.f - lx1;

        const float* p = x + nc * (long long)H * W;
        float v00 = __ldg(p + y0 * W + x0);
        float v01 = __ldg(p + y0 * W + x1);
        float v10 = __ldg(p + y1 * W + x0);
        float v11 = __ldg(p + y1 * W + x1);
        y[idx] = ly0 * (lx0 * v00 + lx1 * v01) + ly1 * (lx0 * v10 + lx1 * v11);
    }
}

torch::Tensor upsample_flat(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4-D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    int OH = 2 * H, OW = 2 * W;
    auto y = torch::empty({N, C, OH, OW}, x.options());
    long long total = (long long)N * C * OH * OW;
    if (total == 0) return y;
    int threads = 256;
    long long want = (total + threads - 1) / threads;
    int blocks = (int)(want < 65535LL * 32 ? want : 65535LL * 32);
    upsample_flat_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), total,
                                              H, W, OH, OW, 0.5f, 0.5f);
    return y;
}
"""

upsample_flat_mod = load_inline(
    name="upsample_bilinear2x_flat",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["upsample_flat"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return upsample_flat_mod.upsample_flat(x)
