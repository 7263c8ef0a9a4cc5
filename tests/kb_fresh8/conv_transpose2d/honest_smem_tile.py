# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv_transpose2d_smem_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Specialised for kernel 4, stride 2, padding 1:  oy = 2*iy - 1 + ky.
// A 16x16 output tile needs input rows/cols [oy0/2 - 1, oy0/2 + 8] (10 values).
#define TILE 16
#define IN_T 10
#define CI_CH 16

__global__ void conv_t2d_smem_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                     const float* __restrict__ bias, float* __restrict__ out,
                                     int Ci, int Co, int H, int W, int OH, int OW) {
    __shared__ float s_x[CI_CH][IN_T][IN_T + 1];
    __shared__ float s_w[CI_CH][16];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * TILE + tx;
    const int ox0 = blockIdx.x * TILE, oy0 = blockIdx.y * TILE;
    const int co = blockIdx.z % Co;
    const int b = blockIdx.z / Co;
    const int iy0 = oy0 / 2 - 1, ix0 = ox0 / 2 - 1;
    const int oy = oy0 + ty, ox = ox0 + tx;
    // taps contributing to this output have ky == (oy + 1) mod 2 (and +2)
    const int py = (oy + 1) & 1, px = (ox + 1) & 1;

    float acc = 0.f;
    const float* xb = x + (long long)b * Ci * H * W;
    for (int ci0 = 0; ci0 < Ci; ci0 += CI_CH) {
        const int nci = min(CI_CH, Ci - ci0);
        for (int i = tid; i < CI_CH * IN_T * IN_T; i += TILE * TILE) {
            int c = i / (IN_T * IN_T);
            int r = (i / IN_T) % IN_T;
            int col = i % IN_T;
            int iy = iy0 + r, ix = ix0 + col;
            float v = 0.f;
            if (c < nci && iy >= 0 && iy < H && ix >= 0 && ix < W)
                v = xb[((long long)(ci0 + c) * H + iy) * W + ix];
            s_x[c][r][col] = v;
        }
        for (int i = tid; i < CI_CH * 16; i += TILE * TILE) {
            int c = i / 16, k = i % 16;
            s_w[c][k] = (c < nci) ? w[((long long)(ci0 + c) * Co + co) * 16 + k] : 0.f;
        }
        __syncthreads();

#pragma unroll 4
        for (int c = 0; c < CI_CH; ++c) {
#pragma unroll
            for (int t = 0; t < 2; ++t) {
                const int ky = py + 2 * t;
                const int ly = (oy + 1 - ky) / 2 - iy0;    // exact division (even numerator)
#pragma unroll
                for (int s = 0; s < 2; ++s) {
                    const int kx = px + 2 * s;
                    const int lx = (ox + 1 - kx) / 2 - ix0;
                    acc = fmaf(s_x[c][ly][lx], s_w[c][ky * 4 + kx], acc);
                }
            }
        }
        __syncthreads();
    }
    if (oy < OH && ox < OW)
        out[(((long long)b * Co + co) * OH + oy) * OW + ox] = acc + bias[co];
}

torch::Tensor conv_transpose2d_smem_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "expected 4-D input and weight");
    x = x.contiguous(); w = w.contiguous(); b = b.contiguous();
    int B = x.size(0), Ci = x.size(1), H = x.size(2), W = x.size(3);
    TORCH_CHECK(w.size(0) == Ci, "weight in_channels mismatch");
    int Co = w.size(1);
    TORCH_CHECK(w.size(2) == 4 && w.size(3) == 4, "kernel specialised for 4x4 taps");
    TORCH_CHECK(b.numel() == Co, "bias size mismatch");
    const int OH = (H - 1) * 2 - 2 + 4;   // = 2H
    const int OW = (W - 1) * 2 - 2 + 4;
    TORCH_CHECK((long long)B * Co <= 65535, "grid too large");
    auto out = torch::empty({B, Co, OH, OW}, x.options());
    dim3 block(TILE, TILE);
    dim3 grid((OW + TILE - 1) / TILE, (OH + TILE - 1) / TILE, B * Co);
    conv_t2d_smem_kernel<<<grid, block>>>(x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(),
                                          out.data_ptr<float>(), Ci, Co, H, W, OH, OW);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="conv_transpose2d_smem_tile",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv_transpose2d_smem_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.conv_t = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding)
        assert kernel_size == 4 and stride == 2 and padding == 1, "specialised kernel"

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.conv_transpose2d_smem_forward(x, self.conv_t.weight, self.conv_t.bias)
