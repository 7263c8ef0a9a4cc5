# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_relu_regblock(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad, int64_t stream_ptr);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <stdint.h>

#define TW 32        // output tile width  (8 threads x 4 pixels)
#define TH 16        // output tile height (16 threads x 1 row)
#define PX 4         // consecutive output pixels per thread
#define OCB 8        // output channels per thread (register blocked)
#define CI_CH 4      // input channels staged in shared memory per step
#define NTHREADS ((TW / PX) * TH)   // 128

// Each thread owns a 1 x 4 strip of output pixels for 8 output channels (32 accumulators).
// Per input channel and filter row it loads a (4 + K - 1)-wide input window into registers once and reuses
// it for all 8 channels and all K taps; filter taps are warp-uniform shared-memory broadcasts.
template <int K>
__global__ void __launch_bounds__(NTHREADS)
conv2d_relu_regblock_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                            float* __restrict__ y, int Cin, int H, int W, int Cout, int OH, int OW, int pad,
                            int ocGroups, int vec_ok) {
    constexpr int IH_T = TH + K - 1;
    constexpr int IW_T = TW + K - 1;
    constexpr int RW = PX + K - 1;
    __shared__ float s_in[CI_CH][IH_T][IW_T];
    __shared__ float s_w[CI_CH][OCB][K * K];

    const int tx = threadIdx.x;   // 0..7
    const int ty = threadIdx.y;   // 0..15
    const int tid = ty * (TW / PX) + tx;
    const int ow0 = blockIdx.x * TW, oh0 = blockIdx.y * TH;
    const int ocg = blockIdx.z % ocGroups;
    const int n = blockIdx.z / ocGroups;
    const int oc0 = ocg * OCB;
    const int ih0 = oh0 - pad, iw0 = ow0 - pad;
    const float* xn = x + (long long)n * Cin * H * W;

    float acc[OCB][PX];
#pragma unroll
    for (int o = 0; o < OCB; ++o)
#pragma unroll
        for (int q = 0; q < PX; ++q) acc[o][q] = 0.f;

    for (int ci0 = 0; ci0 < Cin; ci0 += CI_CH) {
        // stage CI_CH input halo tiles (zero padding outside the image / beyond Cin)
        for (int e = tid; e < CI_CH * IH_T * IW_T; e += NTHREADS) {
            const int c = e / (IH_T * IW_T);
            const int rem = e % (IH_T * IW_T);
            const int r = rem / IW_T, col = rem % IW_T;
            const int ci = ci0 + c, ih = ih0 + r, iw = iw0 + col;
            float v = 0.f;
            if (ci < Cin && ih >= 0 && ih < H && iw >= 0 && iw < W)
                v = __ldg(xn + ((long long)ci * H + ih) * W + iw);
            s_in[c][r][col] = v;
        }
        // stage the matching filter taps
        for (int e = tid; e < CI_CH * OCB * K * K; e += NTHREADS) {
            const int c = e / (OCB * K * K);
            const int rem = e % (OCB * K * K);
            const int o = rem / (K * K), kk = rem % (K * K);
            const int ci = ci0 + c, oc = oc0 + o;
            s_w[c][o][kk] = (ci < Cin && oc < Cout) ? __ldg(w + ((long long)oc * Cin + ci) * K * K + kk) : 0.f;
        }
        __syncthreads();

#pragma unroll
        for (int c = 0; c < CI_CH; ++c) {
#pragma unroll
            for (int kh = 0; kh < K; ++kh) {
                float r[RW];
#pragma unroll
                for (int q = 0; q < RW; ++q) r[q] = s_in[c][ty + kh][tx * PX + q];
#pragma unroll
                for (int o = 0; o < OCB; ++o) {
#pragma unroll
                    for (int kw = 0; kw < K; ++kw) {
                        const float wv = s_w[c][o][kh * K + kw];
#pragma unroll
                        for (int q = 0; q < PX; ++q) acc[o][q] = fmaf(wv, r[q + kw], acc[o][q]);
                    }
                }
            }
        }
        __syncthreads();
    }

    const int oh = oh0 + ty;
    const int ow = ow0 + tx * PX;
    if (oh >= OH || ow >= OW) return;
#pragma unroll
    for (int o = 0; o < OCB; ++o) {
        const int oc = oc0 + o;
        if (oc >= Cout) break;
        const float bb = __ldg(b + oc);
        float* dst = y + (((long long)n * Cout + oc) * OH + oh) * OW + ow;
        float v[PX];
#pragma unroll
        for (int q = 0; q < PX; ++q) v[q] = fmaxf(acc[o][q] + bb, 0.f);
        if (vec_ok) {
            // OW % 4 == 0, ow % 4 == 0 and base 16-byte aligned -> aligned, fully in-bounds float4
            *reinterpret_cast<float4*>(dst) = make_float4(v[0], v[1], v[2], v[3]);
        } else {
#pragma unroll
            for (int q = 0; q < PX; ++q)
                if (ow + q < OW) dst[q] = v[q];
        }
    }
}

torch::Tensor conv2d_relu_regblock(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad, int64_t stream_ptr) {
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
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    float* yp = y.data_ptr<float>();
    const int vec_ok = ((OW % 4) == 0 && (reinterpret_cast<uintptr_t>(yp) % 16) == 0) ? 1 : 0;
    dim3 block(TW / PX, TH);
    dim3 grid((OW + TW - 1) / TW, (OH + TH - 1) / TH, N * ocGroups);
    const float* xp = xc.data_ptr<float>();
    const float* wp = wc.data_ptr<float>();
    const float* bp = bc.data_ptr<float>();
    if (K == 5)
        conv2d_relu_regblock_kernel<5><<<grid, block, 0, stream>>>(xp, wp, bp, yp, Cin, H, W, Cout, OH, OW, (int)pad, ocGroups, vec_ok);
    else if (K == 3)
        conv2d_relu_regblock_kernel<3><<<grid, block, 0, stream>>>(xp, wp, bp, yp, Cin, H, W, Cout, OH, OW, (int)pad, ocGroups, vec_ok);
    else
        conv2d_relu_regblock_kernel<7><<<grid, block, 0, stream>>>(xp, wp, bp, yp, Cin, H, W, Cout, OH, OW, (int)pad, ocGroups, vec_ok);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "conv2d_relu_regblock launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

ext = load_inline(
    name="conv2d_5x5_relu_register_blocked_float4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_relu_regblock"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return ext.conv2d_relu_regblock(x, self.conv.weight, self.conv.bias, self.conv.padding[0], stream)
