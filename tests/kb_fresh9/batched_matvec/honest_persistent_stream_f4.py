# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_matvec_persistent(torch::Tensor a, torch::Tensor v);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define THREADS 256

__device__ __forceinline__ float dot4(const float4 x, const float4 y, float acc) {
    acc = fmaf(x.x, y.x, acc);
    acc = fmaf(x.y, y.y, acc);
    acc = fmaf(x.z, y.z, acc);
    return fmaf(x.w, y.w, acc);
}

// Persistent grid sized to fill the GPU once (SM count x resident blocks per
// SM). Each warp walks rows with a grid-stride loop. The matrix is streamed
// exactly once, so its float4 loads use __ldcs (evict-first) while v[b]
// (reused by the M rows of batch b) goes through __ldg. The main loop keeps
// four independent 16-byte loads and four accumulators in flight per lane;
// the accumulators are combined pairwise before the shuffle reduction.
__global__ void __launch_bounds__(THREADS)
batched_matvec_persistent_kernel(const float4* __restrict__ a4,
                                 const float4* __restrict__ v4,
                                 float* __restrict__ out,
                                 long long R, int M, int K4) {
    const int lane = threadIdx.x & 31;
    const long long nwarps = (long long)gridDim.x * (THREADS / 32);
    for (long long r = (long long)blockIdx.x * (THREADS / 32) + (threadIdx.x >> 5); r < R; r += nwarps) {
        const int b = (int)(r / M);
        const float4* row = a4 + (size_t)r * K4;
        const float4* vb = v4 + (size_t)b * K4;
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        int k = lane;
        for (; k + 96 < K4; k += 128) {
            const float4 x0 = __ldcs(row + k);
            const float4 x1 = __ldcs(row + k + 32);
            const float4 x2 = __ldcs(row + k + 64);
            const float4 x3 = __ldcs(row + k + 96);
            s0 = dot4(x0, __ldg(vb + k), s0);
            s1 = dot4(x1, __ldg(vb + k + 32), s1);
            s2 = dot4(x2, __ldg(vb + k + 64), s2);
            s3 = dot4(x3, __ldg(vb + k + 96), s3);
        }
        for (; k < K4; k += 32) s0 = dot4(__ldcs(row + k), __ldg(vb + k), s0);
        float s = (s0 + s1) + (s2 + s3);
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
        if (lane == 0) out[r] = s;
    }
}

// Scalar fallback (K % 4 != 0 or unaligned data), same persistent scheme.
__global__ void __launch_bounds__(THREADS)
batched_matvec_persistent_scalar_kernel(const float* __restrict__ a,
                                        const float* __restrict__ v,
                                        float* __restrict__ out,
                                        long long R, int M, int K) {
    const int lane = threadIdx.x & 31;
    const long long nwarps = (long long)gridDim.x * (THREADS / 32);
    for (long long r = (long long)blockIdx.x * (THREADS / 32) + (threadIdx.x >> 5); r < R; r += nwarps) {
        const int b = (int)(r / M);
        const float* row = a + (size_t)r * K;
        const float* vb = v + (size_t)b * K;
        float s0 = 0.0f, s1 = 0.0f;
        int k = lane;
        for (; k + 32 < K; k += 64) {
            s0 = fmaf(__ldcs(row + k), __ldg(vb + k), s0);
            s1 = fmaf(__ldcs(row + k + 32), __ldg(vb + k + 32), s1);
        }
        if (k < K) s0 = fmaf(__ldcs(row + k), __ldg(vb + k), s0);
        float s = s0 + s1;
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
        if (lane == 0) out[r] = s;
    }
}

static inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

torch::Tensor batched_matvec_persistent(torch::Tensor a, torch::Tensor v) {
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
    const float* ap = ac.data_ptr<float>();
    const float* vp = vc.data_ptr<float>();
    const bool vec = (K % 4) == 0 && aligned16(ap) && aligned16(vp);

    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (vec) {
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, batched_matvec_persistent_kernel, THREADS, 0);
    } else {
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, batched_matvec_persistent_scalar_kernel, THREADS, 0);
    }
    if (sms <= 0) sms = 1;
    if (per_sm <= 0) per_sm = 1;
    long long blocks = (long long)sms * per_sm;
    const long long needed = (R + THREADS / 32 - 1) / (THREADS / 32);
    if (blocks > needed) blocks = needed;

    if (vec) {
        batched_matvec_persistent_kernel<<<(unsigned)blocks, THREADS>>>(
            reinterpret_cast<const float4*>(ap), reinterpret_cast<const float4*>(vp),
            out.data_ptr<float>(), R, M, K / 4);
    } else {
        batched_matvec_persistent_scalar_kernel<<<(unsigned)blocks, THREADS>>>(ap, vp, out.data_ptr<float>(), R, M, K);
    }
    return out;
}
"""

_mod = load_inline(
    name="batched_matvec_honest_persistent_stream_f4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_matvec_persistent"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return _mod.batched_matvec_persistent(a, v)
