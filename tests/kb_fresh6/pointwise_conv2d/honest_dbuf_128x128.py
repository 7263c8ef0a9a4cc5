# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define BM 128   // output channels per block
#define BN 128   // pixels per block
#define BK 8     // input channels per stage
#define NT 256   // threads per block, each owns an 8x8 micro-tile

// Batched SGEMM  Y[n] (C_out x HW) = W (C_out x C_in) * X[n] (C_in x HW).
// 128x128 block tile, 8x8 register micro-tile split into two 4x4 quadrants (rows ty*4 and 64+ty*4,
// cols tx*4 and 64+tx*4) so shared-memory reads and global stores are float4 wide.
// The next BK slice is prefetched into registers while the current one is multiplied
// (double-buffered shared memory, one __syncthreads per stage).
// VEC: C_in % 4 == 0, HW % 4 == 0 and 16-byte aligned pointers -> float4 global loads/stores;
// otherwise every global access is scalar and bounds-checked.

template <bool VEC>
__device__ __forceinline__ void load_tile_regs(const float* __restrict__ w, const float* __restrict__ xn,
                                               int Cin, int Cout, int P, int co0, int p0, int k0, int t,
                                               float a[4], float b[4]) {
    // A slice: 128 rows (co) x 8 cols (ci); thread -> row t/2, cols (t%2)*4 .. +3
    const int am = t >> 1;
    const int ak = (t & 1) * 4;
    const int co = co0 + am;
    const int ci = k0 + ak;
    if (VEC && co < Cout && ci + 3 < Cin) {
        const float4 v = __ldg(reinterpret_cast<const float4*>(w + (long long)co * Cin + ci));
        a[0] = v.x; a[1] = v.y; a[2] = v.z; a[3] = v.w;
    } else {
#pragma unroll
        for (int q = 0; q < 4; ++q)
            a[q] = (co < Cout && ci + q < Cin) ? __ldg(w + (long long)co * Cin + ci + q) : 0.f;
    }
    // B slice: 8 rows (ci) x 128 cols (pixels); thread -> row t/32, cols (t%32)*4 .. +3
    const int bk = t >> 5;
    const int bc = (t & 31) * 4;
    const int cj = k0 + bk;
    const int p = p0 + bc;
    if (VEC && cj < Cin && p + 3 < P) {
        const float4 v = __ldg(reinterpret_cast<const float4*>(xn + (long long)cj * P + p));
        b[0] = v.x; b[1] = v.y; b[2] = v.z; b[3] = v.w;
    } else {
#pragma unroll
        for (int q = 0; q < 4; ++q)
            b[q] = (cj < Cin && p + q < P) ? __ldg(xn + (long long)cj * P + p + q) : 0.f;
    }
}

__device__ __forceinline__ void store_tile_smem(float (*As)[BM], float (*Bs)[BN], int t, const float a[4],
                                                const float b[4]) {
    const int am = t >> 1;
    const int ak = (t & 1) * 4;
#pragma unroll
    for (int q = 0; q < 4; ++q) As[ak + q][am] = a[q];
    const int bk = t >> 5;
    const int bc = (t & 31) * 4;
    *reinterpret_cast<float4*>(&Bs[bk][bc]) = make_float4(b[0], b[1], b[2], b[3]);
}

template <bool VEC>
__global__ void __launch_bounds__(NT) pw_sgemm128_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                                         float* __restrict__ y, int Cin, int Cout, int P) {
    __shared__ __align__(16) float As[2][BK][BM];
    __shared__ __align__(16) float Bs[2][BK][BN];

    const int t = threadIdx.x;
    const int tx = t & 15, ty = t >> 4;
    const int n = blockIdx.z;
    const int co0 = blockIdx.y * BM;
    const int p0 = blockIdx.x * BN;
    const float* xn = x + (long long)n * Cin * P;

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

    float ra[4], rb[4];
    const int nk = (Cin + BK - 1) / BK;
    load_tile_regs<VEC>(w, xn, Cin, Cout, P, co0, p0, 0, t, ra, rb);
    store_tile_smem(As[0], Bs[0], t, ra, rb);
    __syncthreads();

    for (int kt = 0; kt < nk; ++kt) {
        const int cur = kt & 1;
        const bool has_next = (kt + 1) < nk;
        if (has_next) load_tile_regs<VEC>(w, xn, Cin, Cout, P, co0, p0, (kt + 1) * BK, t, ra, rb);

#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][kk][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][kk][64 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][kk][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][kk][64 + tx * 4]);
            const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }

        if (has_next) store_tile_smem(As[cur ^ 1], Bs[cur ^ 1], t, ra, rb);
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int co = co0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        if (co >= Cout) continue;
        float* yr = y + ((long long)n * Cout + co) * P;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int p = p0 + h * 64 + tx * 4;
            const float* v = &acc[i][h * 4];
            if (VEC && p + 3 < P) {
                *reinterpret_cast<float4*>(yr + p) = make_float4(v[0], v[1], v[2], v[3]);
            } else {
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    if (p + q < P) yr[p + q] = v[q];
            }
        }
    }
}

torch::Tensor pointwise_conv2d_forward(torch::Tensor x, torch::Tensor w, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4, "x must be (N, C_in, H, W)");
    TORCH_CHECK(w.dim() == 4 && w.size(2) == 1 && w.size(3) == 1, "w must be (C_out, C_in, 1, 1)");
    x = x.contiguous();
    w = w.contiguous();
    const int N = x.size(0), Cin = x.size(1), H = x.size(2), W = x.size(3);
    const int Cout = w.size(0);
    TORCH_CHECK(w.size(1) == Cin, "weight C_in mismatch");
    const int P = H * W;
    TORCH_CHECK(N <= 65535, "batch too large for grid.z");
    auto y = torch::empty({N, Cout, H, W}, x.options());
    if (N == 0 || Cout == 0 || P == 0) return y;

    const float* xp = x.data_ptr<float>();
    const float* wp = w.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const bool vec = (Cin % 4 == 0) && (P % 4 == 0) &&
                     (reinterpret_cast<std::uintptr_t>(xp) % 16 == 0) &&
                     (reinterpret_cast<std::uintptr_t>(wp) % 16 == 0) &&
                     (reinterpret_cast<std::uintptr_t>(yp) % 16 == 0);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    dim3 grid((P + BN - 1) / BN, (Cout + BM - 1) / BM, N);
    if (vec) pw_sgemm128_kernel<true><<<grid, NT, 0, stream>>>(xp, wp, yp, Cin, Cout, P);
    else     pw_sgemm128_kernel<false><<<grid, NT, 0, stream>>>(xp, wp, yp, Cin, Cout, P);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_src = "torch::Tensor pointwise_conv2d_forward(torch::Tensor x, torch::Tensor w, int64_t stream_ptr);"

_ext = load_inline(
    name="pointwise_conv2d_dbuf_128x128",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["pointwise_conv2d_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return _ext.pointwise_conv2d_forward(x, self.conv.weight, stream)
