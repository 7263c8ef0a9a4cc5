# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_relu_smem(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad);"

cuda_src = r"""
#include <cuda_runtime.h>

#define TILE 16   // 16 x 16 output pixels per block, one per thread
#define OCB 8     // output channels per block (accumulated in registers by every thread)

// For each input channel: stage the (TILE+K-1)^2 input halo tile and the OCB x K x K filter slice in shared
// memory, then every thread accumulates OCB outputs for its pixel.
template <int K>
__global__ void __launch_bounds__(TILE * TILE)
conv2d_relu_smem_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                        float* __restrict__ y, int Cin, int H, int W, int Cout, int OH, int OW, int pad,
                        int ocGroups) {
    constexpr int IT = TILE + K - 1;
    __shared__ float s_in[IT][IT + 1];
    __shared__ float s_w[OCB][K * K];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * TILE + tx;
    const int ow0 = blockIdx.x * TILE, oh0 = blockIdx.y * TILE;
    const int ocg = blockIdx.z % ocGroups;
    const int n = blockIdx.z / ocGroups;
    const int oc0 = ocg * OCB;
    const int ih0 = oh0 - pad, iw0 = ow0 - pad;

    float acc[OCB];
#pragma unroll
    for (int o = 0; o < OCB; ++o) acc[o] = 0.f;

    for (int ci = 0; ci < Cin; ++ci) {
        const float* xp = x + ((long long)n * Cin + ci) * H * W;
        for (int e = tid; e < IT * IT; e += TILE * TILE) {
            const int r = e / IT, c = e % IT;
            const int ih = ih0 + r, iw = iw0 + c;
            s_in[r][c] = (ih >= 0 && ih < H && iw >= 0 && iw < W) ? __ldg(xp + (long long)ih * W + iw) : 0.f;
        }
        for (int e = tid; e < OCB * K * K; e += TILE * TILE) {
            const int o = e / (K * K), kk = e % (K * K);
            const int oc = oc0 + o;
            s_w[o][kk] = (oc < Cout) ? __ldg(w + ((long long)oc * Cin + ci) * K * K + kk) : 0.f;
        }
        __syncthreads();

#pragma unroll
        for (int kh = 0; kh < K; ++kh) {
#pragma unroll
            for (int kw = 0; kw < K; ++kw) {
                const float v = s_in[ty + kh][tx + kw];
#pragma unroll
                for (int o = 0; o < OCB; ++o) acc[o] = fmaf(v, s_w[o][kh * K + kw], acc[o]);
            }
        }
        __syncthreads();
    }

    const int oh = oh0 + ty, ow = ow0 + tx;
    if (oh < OH && ow < OW) {
#pragma unroll
        for (int o = 0; o < OCB; ++o) {
            const int oc = oc0 + o;
            if (oc < Cout) {
                const float v = acc[o] + __ldg(b + oc);
                y[(((long long)n * Cout + oc) * OH + oh) * OW + ow] = fmaxf(v, 0.f);
            }
        }
    }
}

torch::Tensor conv2d_relu_smem(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "tensors must be CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "tensors must be float32");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "bad ranks");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    const int N = xc.size(0), Cin = xc.size(1), H = xc.size(2), W = xc.size(3);
    const int Cout = wc.size(0), K = wc.size(2);
    TORCH_CHECK(wc.size(1) == Cin && wc.size(3) == K, "weight shape mismatch");
    TORCH_CHECK(bc.numel() == Cout, "bias shape mismatch");
    TORCH_CHECK(K == 3 || K == 5 || K == 7, "kernel size must be 3, 5 or 7");
    const int OH = H + 2 * (int)pad - K + 1;
    const int OW = W + 2 * (int)pad - K + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "empty output");
    const int ocGroups = (Cout + OCB - 1) / OCB;
    TORCH_CHECK((long long)N * ocGroups <= 65535, "grid z too large");
    auto y = torch::empty({N, Cout, OH, OW}, xc.options());
    if (y.numel() == 0) return y;

    dim3 block(TILE, TILE);
    dim3 grid((OW + TILE - 1) / TILE, (OH + TILE - 1) / TILE, N * ocGroups);
    const float* xp = xc.data_ptr<float>();
    const float* wp = wc.data_ptr<float>();
    const float* bp = bc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    if (K == 5)
        conv2d_relu_smem_kernel<5><<<grid, block>>>(xp, wp, bp, yp, Cin, H, W, Cout, OH, OW, (int)pad, ocGroups);
    else if (K == 3)
        conv2d_relu_smem_kernel<3><<<grid, block>>>(xp, wp, bp, yp, Cin, H, W, Cout, OH, OW, (int)pad, ocGroups);
    else
        conv2d_relu_smem_kernel<7><<<grid, block>>>(xp, wp, bp, yp, Cin, H, W, Cout, OH, OW, (int)pad, ocGroups);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "conv2d_relu_smem launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

ext = load_inline(
    name="conv2d_5x5_relu_smem_tile_oc_block",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_relu_smem"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.conv2d_relu_smem(x, self.conv.weight, self.conv.bias, self.conv.padding[0])
