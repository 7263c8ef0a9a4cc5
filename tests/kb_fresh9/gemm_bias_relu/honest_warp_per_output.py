# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gemm_bias_relu_warp(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Every output is the dot product of a contiguous row of x with a contiguous
// row of W, so one warp computes one output: lanes stride over K with
// coalesced __ldg loads, then a __shfl_xor_sync butterfly reduction.
// A grid-stride loop over the M*N outputs keeps the grid size bounded;
// consecutive warps share the same x row (n fastest) for cache reuse.
__global__ void gemm_bias_relu_warp_kernel(const float* __restrict__ x,
                                           const float* __restrict__ w,
                                           const float* __restrict__ b,
                                           float* __restrict__ out,
                                           int M, int N, int K) {
    const int lane = threadIdx.x & 31;
    const long long warps_per_block = blockDim.x >> 5;
    long long warp = (long long)blockIdx.x * warps_per_block + (threadIdx.x >> 5);
    const long long total_warps = (long long)gridDim.x * warps_per_block;
    const long long total = (long long)M * N;
    for (long long o = warp; o < total; o += total_warps) {
        const int m = (int)(o / N);
        const int n = (int)(o - (long long)m * N);
        const float* xr = x + (size_t)m * K;
        const float* wr = w + (size_t)n * K;
        float acc = 0.0f;
        for (int k = lane; k < K; k += 32) {
            acc = fmaf(__ldg(xr + k), __ldg(wr + k), acc);
        }
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
            acc += __shfl_xor_sync(0xffffffffu, acc, off);
        }
        if (lane == 0) {
            acc += __ldg(b + n);
            out[o] = fmaxf(acc, 0.0f);
        }
    }
}

torch::Tensor gemm_bias_relu_warp(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(x.dim() == 2 && w.dim() == 2 && b.dim() == 1, "bad ranks");
    TORCH_CHECK(x.size(1) == w.size(1) && w.size(0) == b.size(0), "shape mismatch");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    const int M = (int)xc.size(0);
    const int K = (int)xc.size(1);
    const int N = (int)wc.size(0);
    auto out = torch::empty({M, N}, xc.options());
    if (M == 0 || N == 0) return out;
    const int threads = 256;                 // 8 warps per block
    const long long total = (long long)M * N;
    long long blocks = (total + 7) / 8;
    if (blocks > 65536) blocks = 65536;      // grid-stride loop covers the rest
    gemm_bias_relu_warp_kernel<<<(unsigned)blocks, threads>>>(xc.data_ptr<float>(), wc.data_ptr<float>(),
                                                              bc.data_ptr<float>(), out.data_ptr<float>(),
                                                              M, N, K);
    return out;
}
"""

_mod = load_inline(
    name="gemm_bias_relu_honest_warp_per_output",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gemm_bias_relu_warp"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.gemm_bias_relu_warp(x, self.linear.weight, self.linear.bias)
