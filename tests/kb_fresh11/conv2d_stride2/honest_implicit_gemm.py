# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_s2_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: implicit GEMM. Output[m][k] = sum_r A[m][r] * B[r][k] with m = (n, oh, ow) pixels,
// k = output channel, r = (ci, kh, kw) of length C_in*9. A is gathered on the fly from the
// NCHW input (im2col never materialised), B is read from the [C_out][C_in*9] weight.
// 64x64 block tile, BK = 16, 256 threads each holding a 4x4 register tile, single-buffered
// shared memory.

#define BM 64
#define BN 64
#define BK 16

__global__ void __launch_bounds__(256)
conv2d_s2_igemm_kernel(const float* __restrict__ x, const float* __restrict__ w,
                       const float* __restrict__ b, float* __restrict__ y,
                       int N, int C, int H, int W, int K, int Ho, int Wo) {
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN + 1];

    const int tid = threadIdx.x;
    const int tx = tid & 15, ty = tid >> 4;
    const int HoWo = Ho * Wo;
    const int M = N * HoWo;
    const int Kd = C * 9;
    const int m0 = blockIdx.x * BM;
    const int n0 = blockIdx.y * BN;

    // the pixel this thread gathers for A is fixed for the whole K loop
    const int a_mm = tid & (BM - 1);
    const int a_kk0 = tid >> 6;          // 0..3, rows a_kk0 + 4*l
    const int a_m = m0 + a_mm;
    const bool a_valid = a_m < M;
    int a_ih0 = 0, a_iw0 = 0;
    const float* a_base = x;
    if (a_valid) {
        int img = a_m / HoWo;
        int p = a_m - img * HoWo;
        int oh = p / Wo, ow = p - (p / Wo) * Wo;
        a_ih0 = oh * 2 - 1;
        a_iw0 = ow * 2 - 1;
        a_base = x + (long long)img * C * H * W;
    }

    float acc[4][4];
    #pragma unroll
    for (int i = 0; i < 4; ++i)
        #pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;

    for (int k0 = 0; k0 < Kd; k0 += BK) {
        // gather A tile (BK x BM)
        #pragma unroll
        for (int l = 0; l < 4; ++l) {
            int kk = a_kk0 + 4 * l;
            int r = k0 + kk;
            float v = 0.f;
            if (a_valid && r < Kd) {
                int ci = r / 9;
                int tap = r - ci * 9;
                int kh = tap / 3;
                int kw = tap - kh * 3;
                int ih = a_ih0 + kh, iw = a_iw0 + kw;
                if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                    v = __ldg(&a_base[((long long)ci * H + ih) * W + iw]);
            }
            As[kk][a_mm] = v;
        }
        // load B tile (BK x BN) from weight [K][Kd]; kk fastest for coalescing
        #pragma unroll
        for (int l = 0; l < 4; ++l) {
            int e = tid + 256 * l;
            int kk = e & (BK - 1);
            int nn = e >> 4;
            int r = k0 + kk, k = n0 + nn;
            Bs[kk][nn] = (r < Kd && k < K) ? __ldg(&w[(long long)k * Kd + r]) : 0.f;
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[4], bb[4];
            #pragma unroll
            for (int i = 0; i < 4; ++i) a[i] = As[kk][tx + 16 * i];
            #pragma unroll
            for (int j = 0; j < 4; ++j) bb[j] = Bs[kk][ty + 16 * j];
            #pragma unroll
            for (int i = 0; i < 4; ++i)
                #pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], bb[j], acc[i][j]);
        }
        __syncthreads();
    }

    #pragma unroll
    for (int i = 0; i < 4; ++i) {
        int m = m0 + tx + 16 * i;
        if (m >= M) continue;
        int img = m / HoWo;
        int p = m - img * HoWo;
        #pragma unroll
        for (int j = 0; j < 4; ++j) {
            int k = n0 + ty + 16 * j;
            if (k < K) y[((long long)img * K + k) * HoWo + p] = acc[i][j] + __ldg(&b[k]);
        }
    }
}

torch::Tensor conv2d_s2_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "tensors must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "expected 4D input and weight");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    int N = xc.size(0), C = xc.size(1), H = xc.size(2), W = xc.size(3);
    int K = wc.size(0);
    TORCH_CHECK(wc.size(1) == C && wc.size(2) == 3 && wc.size(3) == 3, "weight shape mismatch");
    int Ho = (H + 2 - 3) / 2 + 1;
    int Wo = (W + 2 - 3) / 2 + 1;
    auto y = torch::empty({N, K, Ho, Wo}, xc.options());
    if (y.numel() == 0) return y;
    TORCH_CHECK((long long)N * Ho * Wo < (1LL << 31), "too many output pixels");
    int M = N * Ho * Wo;
    dim3 grid((M + BM - 1) / BM, (K + BN - 1) / BN);
    TORCH_CHECK(grid.y <= 65535, "too many output channels");
    conv2d_s2_igemm_kernel<<<grid, 256>>>(
        xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        N, C, H, W, K, Ho, Wo);
    return y;
}
"""

my_mod = load_inline(
    name="conv2d_s2_implicit_gemm_s45",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_s2_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=2, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.conv2d_s2_cuda(x, self.conv.weight, self.conv.bias)
