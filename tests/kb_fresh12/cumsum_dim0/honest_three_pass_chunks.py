# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cumsum0_three_pass_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: split the rows into chunks of CHUNK rows.
//   pass 1: one thread per (chunk, column) sums its chunk -> sums[chunk][col]
//   pass 2: one thread per column turns sums[.][col] into an exclusive prefix over chunks
//   pass 3: one thread per (chunk, column) rescans its chunk starting from that prefix.

#define CHUNK 64

__global__ void chunk_sum_kernel(const float* __restrict__ x, float* __restrict__ sums,
                                 int R, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int k = blockIdx.y;
    if (c >= C) return;
    int r0 = k * CHUNK;
    int r1 = min(r0 + CHUNK, R);
    float s = 0.f;
    for (int r = r0; r < r1; ++r) s += __ldg(&x[(size_t)r * C + c]);
    sums[(size_t)k * C + c] = s;
}

__global__ void chunk_prefix_kernel(float* __restrict__ sums, int nchunks, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float run = 0.f;
    for (int k = 0; k < nchunks; ++k) {
        size_t i = (size_t)k * C + c;
        float t = sums[i];
        sums[i] = run;
        run += t;
    }
}

__global__ void chunk_scan_kernel(const float* __restrict__ x, const float* __restrict__ offs,
                                  float* __restrict__ y, int R, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int k = blockIdx.y;
    if (c >= C) return;
    int r0 = k * CHUNK;
    int r1 = min(r0 + CHUNK, R);
    float acc = offs[(size_t)k * C + c];
    for (int r = r0; r < r1; ++r) {
        size_t i = (size_t)r * C + c;
        acc += __ldg(&x[i]);
        y[i] = acc;
    }
}

torch::Tensor cumsum0_three_pass_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    if (R == 0 || C == 0) return out;
    int nchunks = (R + CHUNK - 1) / CHUNK;
    TORCH_CHECK(nchunks <= 65535, "too many row chunks");
    auto sums = torch::empty({(long)nchunks, (long)C}, xc.options());
    const int threads = 256;
    dim3 grid((C + threads - 1) / threads, nchunks);
    chunk_sum_kernel<<<grid, threads>>>(xc.data_ptr<float>(), sums.data_ptr<float>(), R, C);
    chunk_prefix_kernel<<<(C + threads - 1) / threads, threads>>>(sums.data_ptr<float>(), nchunks, C);
    chunk_scan_kernel<<<grid, threads>>>(xc.data_ptr<float>(), sums.data_ptr<float>(),
                                         out.data_ptr<float>(), R, C);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_cumsum0_three_pass_chunks",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cumsum0_three_pass_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.cumsum0_three_pass_cuda(x)
