# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor integral_image_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Single fused pass, one 1024-thread block per image: the block streams the image row by row,
// block-scans each row (warp shuffles, warp totals through double-buffered shared memory) and adds
// the row prefix into running column sums kept in shared memory, writing the SAT row immediately.
// x is read once and out written once, but parallelism is limited to one block per image.

#define NT 1024
#define FULL 0xffffffffu

__global__ void __launch_bounds__(NT) ii_fused_image_kernel(const float* __restrict__ x,
                                                            float* __restrict__ out, int H, int W) {
    extern __shared__ float colacc[];   // W running column sums
    __shared__ float wsum[2][NT / 32];
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const long long off = (long long)blockIdx.x * H * W;
    const float* xi = x + off;
    float* oi = out + off;
    for (int j = t; j < W; j += NT) colacc[j] = 0.f;   // each thread only ever touches its own columns
    int par = 0;
    for (int i = 0; i < H; ++i) {
        const float* xr = xi + (long long)i * W;
        float* orow = oi + (long long)i * W;
        float carry = 0.f;
        for (int base = 0; base < W; base += NT) {
            const int j = base + t;
            const float v = (j < W) ? __ldg(xr + j) : 0.f;
            float s = v;
            #pragma unroll
            for (int o = 1; o < 32; o <<= 1) {
                float n = __shfl_up_sync(FULL, s, o);
                if (lane >= o) s += n;
            }
            if (lane == 31) wsum[par][warp] = s;
            __syncthreads();
            // every warp scans the 32 warp totals itself; the other parity buffer is written next,
            // and this one only again after the next barrier, so no second barrier is needed
            const float w = wsum[par][lane];
            float wi = w;
            #pragma unroll
            for (int o = 1; o < 32; o <<= 1) {
                float n = __shfl_up_sync(FULL, wi, o);
                if (lane >= o) wi += n;
            }
            const float wex = __shfl_sync(FULL, wi - w, warp);   // exclusive prefix of my warp
            const float tot = __shfl_sync(FULL, wi, 31);
            if (j < W) {
                const float a = colacc[j] + carry + wex + s;
                colacc[j] = a;
                orow[j] = a;
            }
            carry += tot;
            par ^= 1;
        }
    }
}

torch::Tensor integral_image_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 2, "x must have at least 2 dims");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    if (xc.numel() == 0) return out;
    const int H = (int)xc.size(-2);
    const int W = (int)xc.size(-1);
    const long long B = xc.numel() / ((long long)H * W);
    TORCH_CHECK(B < 2147483647LL, "batch too large");
    const size_t smem = (size_t)W * sizeof(float);
    if (smem > 48 * 1024) {
        TORCH_CHECK(smem <= 200 * 1024, "image width too large for the shared-memory column buffer");
        cudaFuncSetAttribute(ii_fused_image_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    }
    ii_fused_image_kernel<<<(unsigned)B, NT, smem>>>(xc.data_ptr<float>(), out.data_ptr<float>(), H, W);
    return out;
}
"""

my_mod = load_inline(
    name="ii_fused_block_per_image_s44",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["integral_image_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.integral_image_cuda(x)
