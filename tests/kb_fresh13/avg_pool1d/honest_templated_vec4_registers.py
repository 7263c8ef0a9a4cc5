# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor avg_pool1d_cuda(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// AvgPool1d specialised at compile time for (K, S) = (8, 2) and the padding's alignment offset:
// grid-stride loop, each thread makes 4 consecutive outputs. Their whole input span is fetched with
// aligned float4 loads straight into registers (fully unrolled, no shared memory), the 4 window sums
// are formed from registers, and the 4 results are written with one float4 store. Other shapes, or
// rows that are not 16-byte aligned, go to a generic one-thread-per-output kernel.

template <int K, int S, int OFF>
__global__ void __launch_bounds__(256)
avgpool1d_reg_kernel(const float* __restrict__ x, float* __restrict__ y,
                     long long rows, int L, int Lout, int P, int quads_per_row, bool out_vec) {
    constexpr int NEED = OFF + 3 * S + K;    // local elements [0, NEED) are read
    constexpr int NV = (NEED + 3) / 4;       // float4 loads per thread
    const long long total = rows * (long long)quads_per_row;
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += step) {
        const long long r = q / quads_per_row;
        const int o0 = (int)(q - r * quads_per_row) * 4;
        const int a0 = o0 * S - P - OFF;     // multiple of 4 by choice of OFF
        const float* xr = x + r * (long long)L;

        float v[NV * 4];
        if (a0 >= 0 && a0 + 4 * NV <= L) {
            const float4* p4 = reinterpret_cast<const float4*>(xr + a0);
#pragma unroll
            for (int i = 0; i < NV; ++i) {
                float4 t = __ldg(p4 + i);
                v[4 * i + 0] = t.x; v[4 * i + 1] = t.y; v[4 * i + 2] = t.z; v[4 * i + 3] = t.w;
            }
        } else {
#pragma unroll
            for (int e = 0; e < NV * 4; ++e) {
                const int g = a0 + e;
                v[e] = (g >= 0 && g < L) ? __ldg(xr + g) : 0.f;
            }
        }

        float res[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            float s = 0.f;
#pragma unroll
            for (int t = 0; t < K; ++t) s += v[OFF + j * S + t];
            const int hs = (o0 + j) * S - P;
            const int he = min(hs + K, L + P);
            res[j] = s / (float)(he - hs);
        }

        float* yr = y + r * (long long)Lout;
        if (out_vec && o0 + 3 < Lout) {
            *reinterpret_cast<float4*>(yr + o0) = make_float4(res[0], res[1], res[2], res[3]);
        } else {
#pragma unroll
            for (int j = 0; j < 4; ++j)
                if (o0 + j < Lout) yr[o0 + j] = res[j];
        }
    }
}

__global__ void avgpool1d_generic_kernel(const float* __restrict__ x, float* __restrict__ y,
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
    for (int i = hs; i < he; ++i) s += __ldg(xr + i);
    y[idx] = s / (float)pool;
}

template <int K, int S, int OFF>
static void launch_reg(const float* xp, float* yp, long long rows, int L, int Lout, int P) {
    const int quads_per_row = (Lout + 3) / 4;
    const long long total = rows * (long long)quads_per_row;
    const int threads = 256;
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    long long blocks = (total + threads - 1) / threads;
    const long long cap = (long long)sms * 8;
    if (blocks > cap) blocks = cap;
    if (blocks < 1) blocks = 1;
    const bool out_vec = (Lout % 4 == 0) && ((reinterpret_cast<uintptr_t>(yp) & 15) == 0);
    avgpool1d_reg_kernel<K, S, OFF><<<(unsigned)blocks, threads>>>(xp, yp, rows, L, Lout, P, quads_per_row, out_vec);
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
    const float* xp = xc.data_ptr<float>();
    float* yp = out.data_ptr<float>();

    const bool in_vec = (L % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
    if (K == 8 && S == 2 && in_vec) {
        const int off = (((-P) % 4) + 4) % 4;
        switch (off) {
            case 0: launch_reg<8, 2, 0>(xp, yp, rows, L, Lout, P); break;
            case 1: launch_reg<8, 2, 1>(xp, yp, rows, L, Lout, P); break;
            case 2: launch_reg<8, 2, 2>(xp, yp, rows, L, Lout, P); break;
            default: launch_reg<8, 2, 3>(xp, yp, rows, L, Lout, P); break;
        }
    } else {
        const long long total = rows * (long long)Lout;
        avgpool1d_generic_kernel<<<(unsigned)((total + 255) / 256), 256>>>(xp, yp, rows, L, Lout, K, S, P);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_avg_pool1d_templated_vec4_registers",
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
