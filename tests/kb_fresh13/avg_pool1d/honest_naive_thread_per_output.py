# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor avg_pool1d_cuda(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Naive AvgPool1d: one thread per output element, reads its window straight from global memory.
// count_include_pad=True semantics: divisor = window size clipped to [-pad, L+pad).

__global__ void avgpool1d_naive_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       long long rows, int L, int Lout, int K, int S, int P) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = rows * (long long)Lout;
    if (idx >= total) return;
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
    const long long total = rows * (long long)Lout;
    if (total == 0) return out;
    const int threads = 256;
    const long long blocks = (total + threads - 1) / threads;
    avgpool1d_naive_kernel<<<(unsigned)blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                          rows, L, Lout, K, S, P);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_avg_pool1d_naive",
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
