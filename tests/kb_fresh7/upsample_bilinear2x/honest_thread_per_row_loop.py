# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor upsample_rowloop(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per output row: the thread walks across every column of its row.
// Adjacent threads touch different rows, so global accesses are not coalesced.
__global__ void upsample_rowloop_kernel(const float* __restrict__ x, float* __restrict__ y,
                                        int NC, int H, int W, int OH, int OW,
                                        float scale_h, float scale_w) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;   // index over NC * OH
    if (row >= NC * OH) return;
    int oy = row % OH;
    int nc = row / OH;
    float sy = (oy + 0.5f) * scale_h - 0.5f;
    if (sy < 0.f) sy = 0.f;
    int y0 = (int)sy;
    int y1 = (y0 < H - 1) ? y0 + 1 : y0;
    float ly1 = sy - (float)y0;
    float ly0 = 1.f - ly1;
    const float* plane = x + (long long)nc * H * W;
    float* out = y + (long long)row * OW;
    for (int ox = 0; ox < OW; ++ox) {
        float sx = (ox + 0.5f) * scale_w - 0.5f;
        if (sx < 0.f) sx = 0.f;
        int x0 = (int)sx;
        int x1 = (x0 < W - 1) ? x0 + 1 : x0;
        float lx1 = sx - (float)x0;
        float lx0 = 1.f - lx1;
        float v = ly0 * (lx0 * plane[y0 * W + x0] + lx1 * plane[y0 * W + x1]) +
                  ly1 * (lx0 * plane[y1 * W + x0] + lx1 * plane[y1 * W + x1]);
        out[ox] = v;
    }
}

torch::Tensor upsample_rowloop(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be CUDA");
    TORCH_CHECK(x.dim() == 4, "x must be NCHW");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    int OH = 2 * H, OW = 2 * W;
    auto y = torch::empty({N, C, OH, OW}, x.options());
    int NC = N * C;
    int rows = NC * OH;
    int threads = 128;
    int blocks = (rows + threads - 1) / threads;
    upsample_rowloop_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(),
                                                 NC, H, W, OH, OW, 0.5f, 0.5f);
    return y;
}
"""

upsample_rowloop_mod = load_inline(
    name="upsample_bilinear2x_rowloop",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["upsample_rowloop"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return upsample_rowloop_mod.upsample_rowloop(x)
