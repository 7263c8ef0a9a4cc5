# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_matvec_warp(torch::Tensor a, torch::Tensor v);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One warp per output row: the 32 lanes stride over K so each load
// instruction reads 128 contiguous bytes; per-lane partial sums are combined
// with a __shfl_down_sync tree. A grid-stride loop over the B*M rows keeps the
// grid at a fixed size.
__global__ void batched_matvec_warp_kernel(const float* __restrict__ a,
                                           const float* __restrict__ v,
                                           float* __restrict__ out,
                                           int B, int M, int K) {
    const int lane = threadIdx.x & 31;
    const int wpb = blockDim.x >> 5;
    const long long R = (long long)B * M;
    const long long nwarps = (long long)gridDim.x * wpb;
    for (long long r = (long long)blockIdx.x * wpb + (threadIdx.x >> 5); r < R; r += nwarps) {
        const int b = (int)(r / M);
        const float* row = a + (size_t)r * K;
        const float* vb = v + (size_t)b * K;
        float acc = 0.0f;
        for (int k = lane; k < K; k += 32) acc = fmaf(row[k], vb[k], acc);
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
        if (lane == 0) out[r] = acc;
    }
}

torch::Tensor batched_matvec_warp(torch::Tensor a, torch::Tensor v) {
    TORCH_CHECK(a.is_cuda() && v.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && v.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(a.dim() == 3 && v.dim() == 2, "a must be (B, M, K), v must be (B, K)");
    TORCH_CHECK(a.size(0) == v.size(0) && a.size(2) == v.size(1), "shape mismatch");
    auto ac = a.contiguous();
    auto vc = v.contiguous();
    const int B = (int)ac.size(0), M = (int)ac.size(1), K = (int)ac.size(2);
    auto out = torch::empty({B, M}, ac.options());
    const long long R = (long long)B * M;
    if (R == 0) return out;
    const int threads = 256;                       // 8 warps per block
    long long blocks = (R + 7) / 8;
    if (blocks > 4096) blocks = 4096;
    batched_matvec_warp_kernel<<<(unsigned)blocks, threads>>>(ac.data_ptr<float>(), vc.data_ptr<float>(),
                                                              out.data_ptr<float>(), B, M, K);
    return out;
}
"""

_mod = load_inline(
    name="batched_matvec_honest_warp_gridstride",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_matvec_warp"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return _mod.batched_matvec_warp(a, v)
