# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_matvec_f4(torch::Tensor a, torch::Tensor v);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

// Vector path: one warp per row, float4 __ldg loads of both the row of a and
// v[b] (read-only cache), loop unrolled by 4 so several 16-byte loads are in
// flight per lane, two independent accumulators, __shfl_xor_sync reduction.
// Needs K % 4 == 0 and 16-byte aligned a / v (then every row is aligned).
__global__ void batched_matvec_f4_kernel(const float4* __restrict__ a4,
                                         const float4* __restrict__ v4,
                                         float* __restrict__ out,
                                         long long R, int M, int K4) {
    const int lane = threadIdx.x & 31;
    const long long r = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (r >= R) return;                         // whole warp exits together
    const int b = (int)(r / M);
    const float4* row = a4 + (size_t)r * K4;
    const float4* vb = v4 + (size_t)b * K4;
    float acc0 = 0.0f, acc1 = 0.0f;
    #pragma unroll 4
    for (int k = lane; k < K4; k += 32) {
        const float4 x = __ldg(row + k);
        const float4 y = __ldg(vb + k);
        acc0 = fmaf(x.x, y.x, acc0);
        acc1 = fmaf(x.y, y.y, acc1);
        acc0 = fmaf(x.z, y.z, acc0);
        acc1 = fmaf(x.w, y.w, acc1);
    }
    float acc = acc0 + acc1;
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0) out[r] = acc;
}

// Scalar fallback for odd K or unaligned pointers: same warp-per-row scheme.
__global__ void batched_matvec_scalar_kernel(const float* __restrict__ a,
                                             const float* __restrict__ v,
                                             float* __restrict__ out,
                                             long long R, int M, int K) {
    const int lane = threadIdx.x & 31;
    const long long r = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (r >= R) return;
    const int b = (int)(r / M);
    const float* row = a + (size_t)r * K;
    const float* vb = v + (size_t)b * K;
    float acc = 0.0f;
    for (int k = lane; k < K; k += 32) acc = fmaf(__ldg(row + k), __ldg(vb + k), acc);
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0) out[r] = acc;
}

static inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

torch::Tensor batched_matvec_f4(torch::Tensor a, torch::Tensor v) {
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
    const int threads = 256;                         // 8 rows per block
    const unsigned blocks = (unsigned)((R + 7) / 8);
    const float* ap = ac.data_ptr<float>();
    const float* vp = vc.data_ptr<float>();
    if ((K % 4) == 0 && aligned16(ap) && aligned16(vp)) {
        batched_matvec_f4_kernel<<<blocks, threads>>>(reinterpret_cast<const float4*>(ap),
                                                      reinterpret_cast<const float4*>(vp),
                                                      out.data_ptr<float>(), R, M, K / 4);
    } else {
        batched_matvec_scalar_kernel<<<blocks, threads>>>(ap, vp, out.data_ptr<float>(), R, M, K);
    }
    return out;
}
"""

_mod = load_inline(
    name="batched_matvec_honest_warp_float4_ldg",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_matvec_f4"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return _mod.batched_matvec_f4(a, v)
