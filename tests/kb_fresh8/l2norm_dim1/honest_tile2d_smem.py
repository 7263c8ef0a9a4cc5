# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# 2-D thread blocks (32 along L x 8 along C).  Each warp reads 32 consecutive floats of one
# channel row (coalesced); the 8 warps of a block split the C axis, and their partial sums
# are combined through a padded shared-memory tile.  Grid = (ceil(L/32), B).

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TX 32
#define TY 8

__global__ void l2norm_dim1_tile2d_kernel(const float* __restrict__ x,
                                          float* __restrict__ out,
                                          int C, int L) {
    __shared__ float partial[TY][TX + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int b = blockIdx.y;
    const int l = blockIdx.x * TX + tx;

    float s = 0.0f;
    if (l < L) {
        const float* p = x + (long long)b * C * L + l;
        for (int c = ty; c < C; c += TY) {
            float v = __ldg(p + (long long)c * L);
            s = fmaf(v, v, s);
        }
    }
    partial[ty][tx] = s;
    __syncthreads();
    if (ty == 0 && l < L) {
        float t = 0.0f;
#pragma unroll
        for (int i = 0; i < TY; ++i) t += partial[i][tx];
        out[(long long)b * L + l] = sqrtf(t);
    }
}

torch::Tensor l2norm_dim1_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be (B, C, L)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    const int B = (int)x.size(0), C = (int)x.size(1), L = (int)x.size(2);
    auto out = torch::empty({B, L}, x.options());
    if (B == 0 || L == 0) return out;
    TORCH_CHECK(B <= 65535, "batch too large for grid.y");
    dim3 block(TX, TY);
    dim3 grid((L + TX - 1) / TX, B);
    l2norm_dim1_tile2d_kernel<<<grid, block>>>(x.data_ptr<float>(), out.data_ptr<float>(), C, L);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "l2norm_dim1_tile2d_kernel launch failed");
    return out;
}
"""

cpp_source = "torch::Tensor l2norm_dim1_cuda(torch::Tensor x);"

l2norm_ext = load_inline(
    name="l2norm_dim1_tile2d_smem",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["l2norm_dim1_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l2norm_ext.l2norm_dim1_cuda(x)
