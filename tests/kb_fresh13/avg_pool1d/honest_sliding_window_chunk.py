# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor avg_pool1d_cuda(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// AvgPool1d with a running (sliding-window) sum: each thread owns a chunk of CHUNK consecutive outputs
// of one row, computes the first window fully and then updates the sum by removing the S elements that
// leave the window and adding the S elements that enter it (when S < K; otherwise it sums directly).

#define CHUNK 32

__device__ __forceinline__ float range_sum(const float* __restrict__ xr, int a, int b, int L) {
    // sum of xr[i] for i in [a, b) intersected with [0, L)
    a = max(a, 0);
    b = min(b, L);
    float s = 0.f;
    for (int i = a; i < b; ++i) s += __ldg(xr + i);
    return s;
}

__global__ void avgpool1d_sliding_kernel(const float* __restrict__ x, float* __restrict__ y,
                                         long long rows, int L, int Lout, int K, int S, int P,
                                         int chunks_per_row) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = rows * (long long)chunks_per_row;
    if (t >= total) return;
    long long r = t / chunks_per_row;
    int c = (int)(t - r * chunks_per_row);
    int o_begin = c * CHUNK;
    int o_end = min(o_begin + CHUNK, Lout);
    const float* xr = x + r * (long long)L;
    float* yr = y + r * (long long)Lout;

    int ws = o_begin * S - P;              // unclipped window start
    float s = range_sum(xr, ws, ws + K, L);
    for (int o = o_begin; o < o_end; ++o) {
        int he = min(ws + K, L + P);
        int pool = he - ws;
        yr[o] = s / (float)pool;
        if (o + 1 < o_end) {
            if (S < K) {
                s -= range_sum(xr, ws, ws + S, L);       // elements leaving the window
                s += range_sum(xr, ws + K, ws + K + S, L); // elements entering it
            } else {
                s = range_sum(xr, ws + S, ws + S + K, L);
            }
            ws += S;
        }
    }
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
    const int chunks_per_row = (Lout + CHUNK - 1) / CHUNK;
    const long long total = rows * (long long)chunks_per_row;
    const int threads = 256;
    const long long blocks = (total + threads - 1) / threads;
    avgpool1d_sliding_kernel<<<(unsigned)blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                            rows, L, Lout, K, S, P, chunks_per_row);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_avg_pool1d_sliding_window",
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
