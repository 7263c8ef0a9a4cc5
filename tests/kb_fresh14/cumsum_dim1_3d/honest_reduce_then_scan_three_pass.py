# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Reduce-then-scan in three kernels. The length axis is cut into chunks of CH rows:
//  1) one thread per (batch, chunk, column) sums its chunk,
//  2) one thread per (batch, column) turns the chunk sums into exclusive offsets,
//  3) one thread per (batch, chunk, column) rescans its chunk starting from its offset.
// Much more parallelism than one thread per column, at the cost of reading x twice.

#define CH 64

__global__ void chunk_sum_kernel(const float* __restrict__ x, float* __restrict__ sums,
                                 long long total, int T, int D, int nch) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;   // over (b, chunk, d)
    if (idx >= total) return;
    int d = (int)(idx % D);
    long long rest = idx / D;
    int ch = (int)(rest % nch);
    long long b = rest / nch;
    int t0 = ch * CH;
    int t1 = min(T, t0 + CH);
    const float* xp = x + (b * T + t0) * (long long)D + d;
    float s = 0.f;
    for (int t = t0; t < t1; ++t) { s += *xp; xp += D; }
    sums[idx] = s;
}

__global__ void chunk_offsets_kernel(float* __restrict__ sums, long long ncols, int D, int nch) {
    long long col = (long long)blockIdx.x * blockDim.x + threadIdx.x;   // over (b, d)
    if (col >= ncols) return;
    long long b = col / D;
    int d = (int)(col - b * D);
    float* sp = sums + b * (long long)nch * D + d;
    float run = 0.f;
    for (int c = 0; c < nch; ++c) {
        float v = sp[(long long)c * D];
        sp[(long long)c * D] = run;        // exclusive prefix
        run += v;
    }
}

__global__ void chunk_scan_kernel(const float* __restrict__ x, const float* __restrict__ offs,
                                  float* __restrict__ y, long long total, int T, int D, int nch) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int d = (int)(idx % D);
    long long rest = idx / D;
    int ch = (int)(rest % nch);
    long long b = rest / nch;
    int t0 = ch * CH;
    int t1 = min(T, t0 + CH);
    long long off = (b * T + t0) * (long long)D + d;
    const float* xp = x + off;
    float* yp = y + off;
    float s = offs[idx];
    for (int t = t0; t < t1; ++t) {
        s += *xp;
        *yp = s;
        xp += D;
        yp += D;
    }
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 expected");
    TORCH_CHECK(x.dim() == 3, "expected a 3-D tensor");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    long long Bn = xc.size(0);
    int T = (int)xc.size(1);
    int D = (int)xc.size(2);
    if (Bn == 0 || T == 0 || D == 0) return out;
    int nch = (T + CH - 1) / CH;
    auto sums = torch::empty({Bn, (long long)nch, (long long)D}, xc.options());
    long long total = Bn * nch * (long long)D;
    long long ncols = Bn * (long long)D;
    const int threads = 256;
    chunk_sum_kernel<<<(unsigned)((total + threads - 1) / threads), threads>>>(
        xc.data_ptr<float>(), sums.data_ptr<float>(), total, T, D, nch);
    chunk_offsets_kernel<<<(unsigned)((ncols + threads - 1) / threads), threads>>>(
        sums.data_ptr<float>(), ncols, D, nch);
    chunk_scan_kernel<<<(unsigned)((total + threads - 1) / threads), threads>>>(
        xc.data_ptr<float>(), sums.data_ptr<float>(), out.data_ptr<float>(), total, T, D, nch);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_cumsum_dim1_3d_reduce_then_scan_three_pass",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x)
