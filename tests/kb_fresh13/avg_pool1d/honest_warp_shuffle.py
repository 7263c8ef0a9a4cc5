# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor avg_pool1d_cuda(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// AvgPool1d with warp shuffles instead of shared memory: each warp owns 32 consecutive outputs of a
// row. The warp's input span (31*S + K elements) is loaded with fully coalesced loads into NR registers
// per lane (element q*32 + lane in register q), and each lane gathers its K window elements from the
// other lanes' registers with __shfl_sync. Spans that do not fit in MAXR registers use a plain kernel.

template <int MAXR>
__global__ void avgpool1d_warp_kernel(const float* __restrict__ x, float* __restrict__ y,
                                      long long rows, int L, int Lout, int K, int S, int P,
                                      int warps_per_row, int NR) {
    const unsigned FULL = 0xffffffffu;
    const int lane = threadIdx.x & 31;
    const long long gw = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (gw >= rows * (long long)warps_per_row) return;   // uniform per warp
    const long long r = gw / warps_per_row;
    const int wi = (int)(gw - r * warps_per_row);
    const int o0 = wi * 32;
    const int g0 = o0 * S - P;
    const float* xr = x + r * (long long)L;

    float v[MAXR];
#pragma unroll
    for (int q = 0; q < MAXR; ++q) {
        float val = 0.f;
        if (q < NR) {
            int g = g0 + q * 32 + lane;
            if (g >= 0 && g < L) val = __ldg(xr + g);
        }
        v[q] = val;
    }

    float s = 0.f;
    for (int t = 0; t < K; ++t) {
        const int idx = lane * S + t;      // position inside the warp span
        const int src = idx & 31;
        const int reg = idx >> 5;
#pragma unroll
        for (int q = 0; q < MAXR; ++q) {
            if (q < NR) {                  // NR is warp-uniform, so every lane joins the shuffle
                float w = __shfl_sync(FULL, v[q], src);
                if (q == reg) s += w;
            }
        }
    }

    const int o = o0 + lane;
    if (o < Lout) {
        int hs = o * S - P;
        int he = min(hs + K, L + P);
        y[r * (long long)Lout + o] = s / (float)(he - hs);
    }
}

__global__ void avgpool1d_fallback_kernel(const float* __restrict__ x, float* __restrict__ y,
                                          long long rows, int L, int Lout, int K, int S, int P) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= rows * (long long)Lout) return;
    long long r = idx / Lout;
    int o = (int)(idx - r * Lout);
    int hs = o * S - P;
    int he = min(hs + K, L + P);
    int pool = he - hs;
    hs = max(hs, 0);
    he = min(he, L);
    const float* xr = x + r * (long long)L;
    float s = 0.f;
    for (int i = hs; i < he; ++i) s += xr[i];
    y[idx] = s / (float)pool;
}

torch::Tensor avg_pool1d_cuda(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have a length dimension");
    auto xc = x.contiguous();
    const int K = (int)kernel_size, S = (int)stride, P = (int)padding;
    const int L = (int)xc.size(-1);
    const int Lout = (L + 2 * P - K) / S + 1;
    TORCH_CHECK(Lout > 0, "output length must be positive");
    std::vector<int64_t> osz(xc.sizes().begin(), xc.sizes().end());
    osz.back() = Lout;
    auto out = torch::empty(osz, xc.options());
    const long long rows = (L > 0) ? xc.numel() / L : 0;
    if (rows == 0) return out;

    const int span = 31 * S + K;
    const int NR = (span + 31) / 32;
    const int warps_per_row = (Lout + 31) / 32;
    const long long total_warps = rows * (long long)warps_per_row;
    const int threads = 256;
    const int wpb = threads / 32;
    const long long blocks = (total_warps + wpb - 1) / wpb;
    const float* xp = xc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    if (NR <= 4) {
        avgpool1d_warp_kernel<4><<<(unsigned)blocks, threads>>>(xp, yp, rows, L, Lout, K, S, P, warps_per_row, NR);
    } else if (NR <= 8) {
        avgpool1d_warp_kernel<8><<<(unsigned)blocks, threads>>>(xp, yp, rows, L, Lout, K, S, P, warps_per_row, NR);
    } else {
        const long long total = rows * (long long)Lout;
        avgpool1d_fallback_kernel<<<(unsigned)((total + 255) / 256), 256>>>(xp, yp, rows, L, Lout, K, S, P);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_avg_pool1d_warp_shuffle",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["avg_pool1d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = int(kernel_size)
        self.stride = int(stride) if stride else int(kernel_size)
        self.padding = int(padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.avg_pool1d_cuda(x, self.kernel_size, self.stride, self.padding)
