# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

conv_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define TILE 16

// Step 1 (per image): unfold the input into a column matrix col[Cin*K*K][Ho*Wo].
__global__ void im2col_kernel(const float* __restrict__ x, float* __restrict__ col,
                              int Cin, int H, int W, int K, int pad, int Ho, int Wo) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long P = (long long)Ho * Wo;
    const long long total = (long long)Cin * K * K * P;
    if (idx >= total) return;
    const long long p = idx % P;
    const int row = (int)(idx / P);          // (ci * K + kh) * K + kw
    const int kw = row % K;
    const int kh = (row / K) % K;
    const int ci = row / (K * K);
    const int oh = (int)(p / Wo), ow = (int)(p % Wo);
    const int ih = oh - pad + kh, iw = ow - pad + kw;
    col[idx] = (ih >= 0 && ih < H && iw >= 0 && iw < W) ? x[((long long)ci * H + ih) * W + iw] : 0.0f;
}

// Step 2 (per image): out[Cout][P] = weight[Cout][Kd] x col[Kd][P], classic 16x16 shared-memory tiling.
__global__ void gemm_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                  float* __restrict__ C, int M, int Kd, long long P) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int m = blockIdx.y * TILE + ty;
    const long long p = (long long)blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int k0 = 0; k0 < Kd; k0 += TILE) {
        As[ty][tx] = (m < M && k0 + tx < Kd) ? A[(long long)m * Kd + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < Kd && p < P) ? B[(long long)(k0 + ty) * P + p] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (m < M && p < P) C[(long long)m * P + p] = acc;
}

torch::Tensor conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda(), "tensors must be CUDA");
    const int N = x.size(0), Cin = x.size(1), H = x.size(2), W = x.size(3);
    const int Cout = weight.size(0), K = weight.size(2);
    const int pad = (int)padding;
    const int Ho = H + 2 * pad - K + 1;
    const int Wo = W + 2 * pad - K + 1;
    const int Kd = Cin * K * K;
    const long long P = (long long)Ho * Wo;
    auto y = torch::empty({N, Cout, Ho, Wo}, x.options());
    auto col = torch::empty({Kd, P}, x.options());
    auto stream = at::cuda::getCurrentCUDAStream();

    const float* xptr = x.data_ptr<float>();
    const float* wptr = weight.data_ptr<float>();
    float* yptr = y.data_ptr<float>();
    float* cptr = col.data_ptr<float>();

    const long long col_elems = (long long)Kd * P;
    const int threads = 256;
    const long long col_blocks = (col_elems + threads - 1) / threads;
    dim3 gblock(TILE, TILE);
    dim3 ggrid((unsigned int)((P + TILE - 1) / TILE), (Cout + TILE - 1) / TILE);

    for (int n = 0; n < N; ++n) {
        im2col_kernel<<<(unsigned int)col_blocks, threads, 0, stream>>>(
            xptr + (long long)n * Cin * H * W, cptr, Cin, H, W, K, pad, Ho, Wo);
        gemm_tiled_kernel<<<ggrid, gblock, 0, stream>>>(wptr, cptr, yptr + (long long)n * Cout * P, Cout, Kd, P);
    }
    return y;
}
"""

conv_cpp_source = "torch::Tensor conv2d_cuda(torch::Tensor x, torch::Tensor weight, int64_t padding);"

conv = load_inline(
    name="kbf3_conv3x3_im2col_gemm",
    cpp_sources=conv_cpp_source,
    cuda_sources=conv_source,
    functions=["conv2d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2, bias=False)
        self.padding = kernel_size // 2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv.conv2d_cuda(x.contiguous(), self.conv.weight.contiguous(), self.padding)
