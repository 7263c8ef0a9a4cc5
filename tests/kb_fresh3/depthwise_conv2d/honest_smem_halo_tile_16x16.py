# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

dwconv_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define TILE 16

// One 16x16 block per 16x16 output tile of one (n, c) plane.  The input tile plus its halo and the
// channel's filter are staged in shared memory, then every thread computes one output.
__global__ void depthwise_conv2d_tiled_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                              float* __restrict__ y, int C, int H, int W,
                                              int K, int pad, int Ho, int Wo) {
    extern __shared__ float smem[];
    const int TS = TILE + K - 1;             // tile side with halo
    float* s_in = smem;                      // TS * TS
    float* s_w = smem + TS * TS;             // K * K

    const int nc = blockIdx.z;
    const int c = nc % C;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * TILE + tx;
    const int ow0 = blockIdx.x * TILE;
    const int oh0 = blockIdx.y * TILE;

    const float* xp = x + (long long)nc * H * W;

    for (int i = tid; i < TS * TS; i += TILE * TILE) {
        int r = i / TS, col = i % TS;
        int ih = oh0 - pad + r;
        int iw = ow0 - pad + col;
        s_in[i] = (ih >= 0 && ih < H && iw >= 0 && iw < W) ? xp[(long long)ih * W + iw] : 0.0f;
    }
    for (int i = tid; i < K * K; i += TILE * TILE) s_w[i] = w[(long long)c * K * K + i];
    __syncthreads();

    const int oh = oh0 + ty, ow = ow0 + tx;
    if (oh < Ho && ow < Wo) {
        float acc = 0.0f;
        for (int kh = 0; kh < K; ++kh)
            for (int kw = 0; kw < K; ++kw)
                acc += s_in[(ty + kh) * TS + tx + kw] * s_w[kh * K + kw];
        y[((long long)nc * Ho + oh) * Wo + ow] = acc;
    }
}

torch::Tensor depthwise_conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda(), "tensors must be CUDA");
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    const int K = weight.size(2);
    const int pad = (int)padding;
    const int Ho = H + 2 * pad - K + 1;
    const int Wo = W + 2 * pad - K + 1;
    TORCH_CHECK((long long)N * C <= 65535, "too many planes for grid.z");
    auto y = torch::empty({N, C, Ho, Wo}, x.options());

    dim3 block(TILE, TILE);
    dim3 grid((Wo + TILE - 1) / TILE, (Ho + TILE - 1) / TILE, N * C);
    const int TS = TILE + K - 1;
    size_t shmem = (size_t)(TS * TS + K * K) * sizeof(float);
    depthwise_conv2d_tiled_kernel<<<grid, block, shmem, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), weight.data_ptr<float>(), y.data_ptr<float>(), C, H, W, K, pad, Ho, Wo);
    return y;
}
"""

dwconv_cpp_source = "torch::Tensor depthwise_conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding);"

dwconv = load_inline(
    name="kbf3_dwconv_smem_tile16",
    cpp_sources=dwconv_cpp_source,
    cuda_sources=dwconv_source,
    functions=["depthwise_conv2d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, in_channels, kernel_size, padding=kernel_size // 2,
                              groups=in_channels, bias=False)
        self.padding = kernel_size // 2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return dwconv.depthwise_conv2d_cuda(x.contiguous(), self.conv.weight.contiguous(), self.padding)
