# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv3d_cl_vec4_cuda(torch::Tensor x, torch::Tensor w);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Channels-last direct convolution. Kernel 1 transposes the input NCDHW -> NDHWC (channels padded to
// a multiple of 16 with zeros) through a shared-memory tile. Kernel 2: one thread per output voxel and
// 8 output channels; for every tap it reads the 16 input channels of the neighbour voxel with four
// float4 loads and contracts them against [tap][ci][co] weights staged in shared memory.

#define CI_CH 16
#define COB 8
#define CONV_THREADS 128

// x: [N][C][S]  ->  xt: [N][S][Cpad]
__global__ void to_channels_last_kernel(const float* __restrict__ x, float* __restrict__ xt,
                                        int C, int Cpad, int S) {
    __shared__ float tile[32][33];
    const int n = blockIdx.z;
    const int s0 = blockIdx.x * 32;
    const int c0 = blockIdx.y * 32;
    const float* xn = x + (long long)n * C * S;
    float* xtn = xt + (long long)n * S * Cpad;
    for (int r = threadIdx.y; r < 32; r += blockDim.y) {
        const int c = c0 + r, s = s0 + threadIdx.x;
        tile[r][threadIdx.x] = (c < C && s < S) ? __ldg(xn + (long long)c * S + s) : 0.0f;
    }
    __syncthreads();
    for (int r = threadIdx.y; r < 32; r += blockDim.y) {
        const int s = s0 + r, c = c0 + threadIdx.x;
        if (s < S && c < Cpad) xtn[(long long)s * Cpad + c] = tile[threadIdx.x][r];
    }
}

__global__ void __launch_bounds__(CONV_THREADS)
conv3d_cl_kernel(const float* __restrict__ xt, const float* __restrict__ w, float* __restrict__ y,
                 int N, int Cin, int Cpad, int Cout, int D, int H, int W) {
    __shared__ __align__(16) float s_w[27][CI_CH][COB];

    const int S = D * H * W;
    const long long m = (long long)blockIdx.x * CONV_THREADS + threadIdx.x;
    const bool active = m < (long long)N * S;
    const int n = active ? (int)(m / S) : 0;
    const int s = active ? (int)(m % S) : 0;
    const int ow = s % W;
    const int oh = (s / W) % H;
    const int od = s / (W * H);
    const int co0 = blockIdx.y * COB;
    const float* xtn = xt + (long long)n * S * Cpad;

    float acc[COB];
#pragma unroll
    for (int j = 0; j < COB; ++j) acc[j] = 0.0f;

    for (int ci0 = 0; ci0 < Cpad; ci0 += CI_CH) {
        // stage weights of this channel chunk as [tap][ci][co]
        for (int i = threadIdx.x; i < 27 * CI_CH * COB; i += CONV_THREADS) {
            const int j = i % COB;
            const int c = (i / COB) % CI_CH;
            const int t = i / (COB * CI_CH);
            const int co = co0 + j, ci = ci0 + c;
            s_w[t][c][j] = (co < Cout && ci < Cin) ? __ldg(w + ((long long)co * Cin + ci) * 27 + t) : 0.0f;
        }
        __syncthreads();

        if (active) {
            for (int kd = 0; kd < 3; ++kd) {
                const int id = od + kd - 1;
                if (id < 0 || id >= D) continue;
                for (int kh = 0; kh < 3; ++kh) {
                    const int ih = oh + kh - 1;
                    if (ih < 0 || ih >= H) continue;
#pragma unroll
                    for (int kw = 0; kw < 3; ++kw) {
                        const int iw = ow + kw - 1;
                        if (iw < 0 || iw >= W) continue;
                        const int t = kd * 9 + kh * 3 + kw;
                        const float4* src = reinterpret_cast<const float4*>(
                            xtn + ((long long)(id * H + ih) * W + iw) * Cpad + ci0);
#pragma unroll
                        for (int q = 0; q < CI_CH / 4; ++q) {
                            const float4 v = __ldg(src + q);
                            const float vv[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
                            for (int e = 0; e < 4; ++e) {
                                const float4 wa = *reinterpret_cast<const float4*>(&s_w[t][q * 4 + e][0]);
                                const float4 wb = *reinterpret_cast<const float4*>(&s_w[t][q * 4 + e][4]);
                                acc[0] = fmaf(vv[e], wa.x, acc[0]);
                                acc[1] = fmaf(vv[e], wa.y, acc[1]);
                                acc[2] = fmaf(vv[e], wa.z, acc[2]);
                                acc[3] = fmaf(vv[e], wa.w, acc[3]);
                                acc[4] = fmaf(vv[e], wb.x, acc[4]);
                                acc[5] = fmaf(vv[e], wb.y, acc[5]);
                                acc[6] = fmaf(vv[e], wb.z, acc[6]);
                                acc[7] = fmaf(vv[e], wb.w, acc[7]);
                            }
                        }
                    }
                }
            }
        }
        __syncthreads();
    }

    if (active) {
#pragma unroll
        for (int j = 0; j < COB; ++j) {
            const int co = co0 + j;
            if (co < Cout) y[((long long)n * Cout + co) * S + s] = acc[j];
        }
    }
}

torch::Tensor conv3d_cl_vec4_cuda(torch::Tensor x, torch::Tensor w) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "x and w must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 5 && w.dim() == 5, "expected 5-D input and weight");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    int N = xc.size(0), Cin = xc.size(1), D = xc.size(2), H = xc.size(3), W = xc.size(4);
    int Cout = wc.size(0);
    TORCH_CHECK(wc.size(1) == Cin && wc.size(2) == 3 && wc.size(3) == 3 && wc.size(4) == 3,
                "this kernel implements a 3x3x3 convolution with padding 1");
    auto y = torch::empty({N, Cout, D, H, W}, xc.options());
    if (y.numel() == 0) return y;
    const int S = D * H * W;
    const int Cpad = ((Cin + CI_CH - 1) / CI_CH) * CI_CH;
    TORCH_CHECK(N <= 65535, "batch too large for the transpose grid");
    auto xt = torch::empty({(long long)N * S * Cpad}, xc.options());

    dim3 tb(32, 8);
    dim3 tg((S + 31) / 32, (Cpad + 31) / 32, N);
    to_channels_last_kernel<<<tg, tb>>>(xc.data_ptr<float>(), xt.data_ptr<float>(), Cin, Cpad, S);

    long long M = (long long)N * S;
    int ncb = (Cout + COB - 1) / COB;
    TORCH_CHECK(ncb <= 65535, "too many output channels");
    dim3 grid((unsigned int)((M + CONV_THREADS - 1) / CONV_THREADS), ncb);
    conv3d_cl_kernel<<<grid, CONV_THREADS>>>(xt.data_ptr<float>(), wc.data_ptr<float>(), y.data_ptr<float>(),
                                             N, Cin, Cpad, Cout, D, H, W);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "conv3d_cl_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

conv_mod = load_inline(
    name="s44_conv3d_channels_last_vec4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv3d_cl_vec4_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=kernel_size // 2, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv_mod.conv3d_cl_vec4_cuda(x, self.conv.weight)
