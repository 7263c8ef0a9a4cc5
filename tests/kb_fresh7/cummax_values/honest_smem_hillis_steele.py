# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cummax_hillis_steele(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

#define TILE 1024

// One block (1024 threads) per row. The row is processed in 1024-element tiles;
// each tile is scanned with the textbook double-buffered Hillis-Steele max-scan in
// shared memory, then combined with the running carry from earlier tiles.
__global__ void cummax_hs_kernel(const float* __restrict__ x, float* __restrict__ y, int L) {
    __shared__ float buf[2][TILE];
    __shared__ float s_carry;
    const int tid = threadIdx.x;
    const long long row = blockIdx.x;
    const float* xr = x + row * L;
    float* yr = y + row * L;
    if (tid == 0) s_carry = -INFINITY;
    for (int base = 0; base < L; base += TILE) {
        int i = base + tid;
        int cur = 0;
        buf[cur][tid] = (i < L) ? xr[i] : -INFINITY;
        __syncthreads();
        for (int off = 1; off < TILE; off <<= 1) {
            float v = buf[cur][tid];
            if (tid >= off) v = fmaxf(v, buf[cur][tid - off]);
            buf[cur ^ 1][tid] = v;
            cur ^= 1;
            __syncthreads();
        }
        float carry = s_carry;
        float v = fmaxf(buf[cur][tid], carry);
        if (i < L) yr[i] = v;
        __syncthreads();                      // everyone has read s_carry
        if (tid == TILE - 1) s_carry = v;     // last element of tile = new carry
        __syncthreads();
    }
}

torch::Tensor cummax_hillis_steele(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 2, "x must be a 2-D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    int B = x.size(0), L = x.size(1);
    auto y = torch::empty_like(x);
    if (B == 0 || L == 0) return y;
    TORCH_CHECK(B <= 2147483647, "too many rows");
    cummax_hs_kernel<<<B, TILE>>>(x.data_ptr<float>(), y.data_ptr<float>(), L);
    return y;
}
"""

cummax_hs_mod = load_inline(
    name="cummax_values_hillis_steele",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cummax_hillis_steele"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return cummax_hs_mod.cummax_hillis_steele(x)
