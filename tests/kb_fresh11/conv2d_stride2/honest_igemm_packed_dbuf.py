# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_s2_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: implicit GEMM (pixels x C_out, reduction over C_in*9) tuned further:
//  * a small pre-pass repacks the weight to [C_in*9][C_out] so the B tile loads are coalesced rows;
//  * 128 x 64 block tile, BK = 8, 256 threads each owning an 8 (pixels) x 4 (c_out) register tile,
//    fed by float4 shared-memory reads;
//  * double-buffered shared memory with register prefetch of the next K slice (one barrier/slice);
//  * each thread's gathered pixel is decoded once, and results are stored as float4 when the
//    plane size allows it.

#define BM 128
#define BN 64
#define BK 8

__global__ void pack_weight_kernel(const float* __restrict__ w, float* __restrict__ wp, int K, int Kd) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;   // i = r * K + k
    if (i >= K * Kd) return;
    int r = i / K;
    int k = i - r * K;
    wp[i] = w[(long long)k * Kd + r];
}

__global__ void __launch_bounds__(256)
conv2d_s2_igemm_db_kernel(const float* __restrict__ x, const float* __restrict__ wp,
                          const float* __restrict__ b, float* __restrict__ y,
                          int N, int C, int H, int W, int K, int Ho, int Wo, int vec_store) {
    __shared__ __align__(16) float As[2][BK][BM];
    __shared__ __align__(16) float Bs[2][BK][BN];

    const int tid = threadIdx.x;
    const int tx = tid & 15, ty = tid >> 4;
    const int HoWo = Ho * Wo;
    const int M = N * HoWo;
    const int Kd = C * 9;
    const int HW = H * W;
    const int m0 = blockIdx.x * BM;
    const int n0 = blockIdx.y * BN;

    // A gather: thread owns pixel column a_mm and rows a_kk0 + 2*l (l = 0..3)
    const int a_mm = tid & (BM - 1);
    const int a_kk0 = tid >> 7;            // 0 or 1
    const int a_m = m0 + a_mm;
    const bool a_valid = a_m < M;
    int a_ih0 = 0, a_iw0 = 0;
    const float* a_base = x;
    if (a_valid) {
        int img = a_m / HoWo;
        int p = a_m - img * HoWo;
        int oh = p / Wo;
        int ow = p - oh * Wo;
        a_ih0 = oh * 2 - 1;
        a_iw0 = ow * 2 - 1;
        a_base = x + (long long)img * C * HW;
    }
    // B load: thread owns column b_nn and rows b_kk0 + 4*l (l = 0..1)
    const int b_nn = tid & (BN - 1);
    const int b_kk0 = tid >> 6;            // 0..3
    const int b_k = n0 + b_nn;
    const bool b_valid = b_k < K;

    float ra[4], rb[2];

    auto load_global = [&](int k0) {
        #pragma unroll
        for (int l = 0; l < 4; ++l) {
            int r = k0 + a_kk0 + 2 * l;
            float v = 0.f;
            if (a_valid && r < Kd) {
                int ci = r / 9;
                int tap = r - ci * 9;
                int kh = tap / 3;
                int kw = tap - kh * 3;
                int ih = a_ih0 + kh, iw = a_iw0 + kw;
                if ((unsigned)ih < (unsigned)H && (unsigned)iw < (unsigned)W)
                    v = __ldg(&a_base[(long long)ci * HW + ih * W + iw]);
            }
            ra[l] = v;
        }
        #pragma unroll
        for (int l = 0; l < 2; ++l) {
            int r = k0 + b_kk0 + 4 * l;
            rb[l] = (b_valid && r < Kd) ? __ldg(&wp[(long long)r * K + b_k]) : 0.f;
        }
    };
    auto store_shared = [&](int buf) {
        #pragma unroll
        for (int l = 0; l < 4; ++l) As[buf][a_kk0 + 2 * l][a_mm] = ra[l];
        #pragma unroll
        for (int l = 0; l < 2; ++l) Bs[buf][b_kk0 + 4 * l][b_nn] = rb[l];
    };

    float acc[8][4];
    #pragma unroll
    for (int i = 0; i < 8; ++i)
        #pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;

    const int ntiles = (Kd + BK - 1) / BK;
    load_global(0);
    store_shared(0);
    __syncthreads();

    int cur = 0;
    for (int t = 0; t < ntiles; ++t) {
        const bool has_next = (t + 1) < ntiles;
        if (has_next) load_global((t + 1) * BK);   // global loads in flight during the math below

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float4 a0 = *reinterpret_cast<const float4*>(&As[cur][kk][tx * 4]);
            float4 a1 = *reinterpret_cast<const float4*>(&As[cur][kk][64 + tx * 4]);
            float4 bv = *reinterpret_cast<const float4*>(&Bs[cur][kk][ty * 4]);
            float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float bb[4] = {bv.x, bv.y, bv.z, bv.w};
            #pragma unroll
            for (int i = 0; i < 8; ++i)
                #pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], bb[j], acc[i][j]);
        }

        if (has_next) store_shared(cur ^ 1);   // buffer cur^1 was released by the previous barrier
        __syncthreads();
        cur ^= 1;
    }

    // epilogue: pixel columns m0 + h*64 + tx*4 + {0..3}, channels n0 + ty*4 + j
    #pragma unroll
    for (int j = 0; j < 4; ++j) {
        const int k = n0 + ty * 4 + j;
        if (k >= K) continue;
        const float bias = __ldg(&b[k]);
        #pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int mb = m0 + h * 64 + tx * 4;
            if (vec_store) {
                // HoWo % 4 == 0: the 4 pixels are in one image, in range, and 16-byte aligned
                if (mb < M) {
                    int img = mb / HoWo;
                    int p = mb - img * HoWo;
                    float4 o;
                    o.x = acc[h * 4 + 0][j] + bias;
                    o.y = acc[h * 4 + 1][j] + bias;
                    o.z = acc[h * 4 + 2][j] + bias;
                    o.w = acc[h * 4 + 3][j] + bias;
                    *reinterpret_cast<float4*>(&y[((long long)img * K + k) * HoWo + p]) = o;
                }
            } else {
                #pragma unroll
                for (int q = 0; q < 4; ++q) {
                    int m = mb + q;
                    if (m < M) {
                        int img = m / HoWo;
                        int p = m - img * HoWo;
                        y[((long long)img * K + k) * HoWo + p] = acc[h * 4 + q][j] + bias;
                    }
                }
            }
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
    TORCH_CHECK((long long)H * W < (1LL << 31), "image too large");
    int Kd = C * 9;

    auto wp = torch::empty({Kd, K}, wc.options());
    int tot = Kd * K;
    pack_weight_kernel<<<(tot + 255) / 256, 256>>>(wc.data_ptr<float>(), wp.data_ptr<float>(), K, Kd);

    int M = N * Ho * Wo;
    int vec_store = ((Ho * Wo) % 4 == 0) &&
                    ((reinterpret_cast<uintptr_t>(y.data_ptr<float>()) & 15) == 0);
    dim3 grid((M + BM - 1) / BM, (K + BN - 1) / BN);
    TORCH_CHECK(grid.y <= 65535, "too many output channels");
    conv2d_s2_igemm_db_kernel<<<grid, 256>>>(
        xc.data_ptr<float>(), wp.data_ptr<float>(), bc.data_ptr<float>(), y.data_ptr<float>(),
        N, C, H, W, K, Ho, Wo, vec_store);
    return y;
}
"""

my_mod = load_inline(
    name="conv2d_s2_igemm_packed_dbuf_s45",
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
