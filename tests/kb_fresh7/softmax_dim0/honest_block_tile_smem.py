# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

#define TILE_C 32
#define ROW_GROUPS 16

__device__ __forceinline__ void merge_ms(float& m, float& s, float m2, float s2) {
    float mn = fmaxf(m, m2);
    if (mn == -INFINITY) return;  // both empty
    s = s * __expf(m - mn) + s2 * __expf(m2 - mn);
    m = mn;
}

// Block = 32 columns x 16 row groups. Each thread runs an online max/sum over rows
// ty, ty+16, ...; the 16 partials per column are tree-reduced in shared memory,
// then every thread writes its rows of the output.
__global__ void softmax_dim0_tile_kernel(const float* __restrict__ x, float* __restrict__ y, int R, int C) {
    __shared__ float sm[ROW_GROUPS][TILE_C + 1];
    __shared__ float ss[ROW_GROUPS][TILE_C + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int c = blockIdx.x * TILE_C + tx;
    bool valid = c < C;

    float m = -INFINITY, s = 0.0f;
    if (valid) {
        for (int r = ty; r < R; r += ROW_GROUPS) {
            float v = __ldg(x + (size_t)r * C + c);
            float mn = fmaxf(m, v);
            s = s * __expf(m - mn) + __expf(v - mn);
            m = mn;
        }
    }
    sm[ty][tx] = m;
    ss[ty][tx] = s;
    __syncthreads();
    for (int stride = ROW_GROUPS / 2; stride > 0; stride >>= 1) {
        if (ty < stride) {
            float a = sm[ty][tx], b = ss[ty][tx];
            merge_ms(a, b, sm[ty + stride][tx], ss[ty + stride][tx]);
            sm[ty][tx] = a;
            ss[ty][tx] = b;
        }
        __syncthreads();
    }
    float M = sm[0][tx];
    float inv = 1.0f / ss[0][tx];
    if (!valid) return;
    for (int r = ty; r < R; r += ROW_GROUPS) {
        size_t i = (size_t)r * C + c;
        y[i] = __expf(__ldg(x + i) - M) * inv;
    }
}

torch::Tensor softmax_dim0_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    x = x.contiguous();
    int R = (int)x.size(0);
    int C = (int)x.size(1);
    auto y = torch::empty_like(x);
    if (R == 0 || C == 0) return y;
    dim3 block(TILE_C, ROW_GROUPS);
    dim3 grid((C + TILE_C - 1) / TILE_C);
    softmax_dim0_tile_kernel<<<grid, block>>>(x.data_ptr<float>(), y.data_ptr<float>(), R, C);
    return y;
}
"""

cpp_src = "torch::Tensor softmax_dim0_forward(torch::Tensor x);"

softmax_dim0_tile_ext = load_inline(
    name="softmax_dim0_block_tile_smem",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["softmax_dim0_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax_dim0_tile_ext.softmax_dim0_forward(x)
