# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor laplacian3d_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Naive first attempt: one thread per voxel, flat index decomposed with div/mod, seven bounds-checked
// scalar global loads (zero outside the volume), no data reuse between threads.

__global__ void laplacian3d_naive_kernel(const float* __restrict__ in, float* __restrict__ out,
                                         long long total, int D, int H, int W) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int x = (int)(idx % W);
    long long t = idx / W;
    int y = (int)(t % H);
    int z = (int)(t / H);
    long long sy = W, sz = (long long)H * W;
    float c = in[idx];
    float s = 0.0f;
    if (z > 0)     s += in[idx - sz];
    if (z < D - 1) s += in[idx + sz];
    if (y > 0)     s += in[idx - sy];
    if (y < H - 1) s += in[idx + sy];
    if (x > 0)     s += in[idx - 1];
    if (x < W - 1) s += in[idx + 1];
    out[idx] = s - 6.0f * c;
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
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    laplacian3d_naive_kernel<<<(unsigned)blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                            total, D, H, W);
    return out;
}
"""

lap_mod = load_inline(
    name="s45_laplacian3d_naive_flat",
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
