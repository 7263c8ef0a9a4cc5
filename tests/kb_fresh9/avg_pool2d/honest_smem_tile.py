# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor avg_pool2d_tile_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE_OW 32
#define TILE_OH 8
#define KS 3
#define ST 2
#define IN_TH ((TILE_OH - 1) * ST + KS)   // 17 input rows
#define IN_TW ((TILE_OW - 1) * ST + KS)   // 65 input columns

// Each 32x8 block produces a 32x8 output tile of one (n, c) plane. The block first stages the
// 17x65 input halo (zero-filled outside the image = the padding) in shared memory with coalesced
// loads, then every thread sums its 3x3 window from shared memory and divides by 9.
__global__ void avg_pool2d_tile_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       int H, int W, int OH, int OW, int P)
{
    __shared__ float tile[IN_TH][IN_TW];

    const int nc = blockIdx.z;
    const int oh0 = blockIdx.y * TILE_OH;
    const int ow0 = blockIdx.x * TILE_OW;
    const int ih0 = oh0 * ST - P;
    const int iw0 = ow0 * ST - P;
    const float* xp = x + (long long)nc * H * W;

    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int nthreads = blockDim.x * blockDim.y;
    for (int i = tid; i < IN_TH * IN_TW; i += nthreads) {
        int r = i / IN_TW;
        int c = i - r * IN_TW;
        int h = ih0 + r;
        int w = iw0 + c;
        float v = 0.f;
        if (h >= 0 && h < H && w >= 0 && w < W) v = xp[(long long)h * W + w];
        tile[r][c] = v;
    }
    __syncthreads();

    const int oh = oh0 + threadIdx.y;
    const int ow = ow0 + threadIdx.x;
    if (oh < OH && ow < OW) {
        const int r0 = threadIdx.y * ST;
        const int c0 = threadIdx.x * ST;
        float sum = 0.f;
#pragma unroll
        for (int i = 0; i < KS; ++i)
#pragma unroll
            for (int j = 0; j < KS; ++j)
                sum += tile[r0 + i][c0 + j];
        y[((long long)nc * OH + oh) * OW + ow] = sum * (1.0f / (KS * KS));
    }
}

torch::Tensor avg_pool2d_tile_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be 4-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(k == KS && s == ST, "this kernel is specialised for kernel_size=3, stride=2");
    TORCH_CHECK(p >= 0 && p <= 1, "padding must be 0 or 1 for kernel_size=3");
    auto xc = x.contiguous();
    const int N = xc.size(0), C = xc.size(1), H = xc.size(2), W = xc.size(3);
    const int OH = (int)((H + 2 * p - k) / s + 1);
    const int OW = (int)((W + 2 * p - k) / s + 1);
    TORCH_CHECK(OH > 0 && OW > 0, "output would be empty");
    TORCH_CHECK((long long)N * C <= 65535, "N*C too large for gridDim.z");
    auto y = torch::empty({N, C, OH, OW}, xc.options());
    if (N * C == 0) return y;
    dim3 block(TILE_OW, TILE_OH);
    dim3 grid((OW + TILE_OW - 1) / TILE_OW, (OH + TILE_OH - 1) / TILE_OH, N * C);
    avg_pool2d_tile_kernel<<<grid, block>>>(xc.data_ptr<float>(), y.data_ptr<float>(), H, W, OH, OW, (int)p);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "avg_pool2d_tile_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

avg_pool2d_tile_ext = load_inline(
    name="avg_pool2d_smem_tile_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["avg_pool2d_tile_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return avg_pool2d_tile_ext.avg_pool2d_tile_forward(x, self.kernel_size, self.stride, self.padding)
