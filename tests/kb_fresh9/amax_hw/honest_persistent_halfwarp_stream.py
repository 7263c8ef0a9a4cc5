# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// Persistent grid-stride kernel on PyTorch's current stream. Each warp handles
// two planes at a time (one per 16-lane half-warp). With float4 loads a lane
// keeps 4 float4 in flight per iteration (8 independent maxima); the halves
// reduce with width-16 __shfl_xor_sync. The loop trip count is warp-uniform so
// full-mask shuffles are always legal; a scalar path covers unaligned inputs or
// H*W not divisible by 4.
#define THREADS 256
#define GROUP 16

template <bool VEC>
__global__ void __launch_bounds__(THREADS)
amax_hw_persistent_kernel(const float* __restrict__ x, float* __restrict__ out,
                          long long planes, int hw) {
    const float NEG_INF = __int_as_float(0xff800000);
    const int lane = threadIdx.x & 31;
    const int half = lane >> 4;          // which plane of the pair
    const int sub = lane & (GROUP - 1);  // lane inside the half-warp
    const long long warp_id = ((long long)blockIdx.x * THREADS + threadIdx.x) >> 5;
    const long long num_warps = ((long long)gridDim.x * THREADS) >> 5;

    for (long long base = warp_id * 2; base < planes; base += num_warps * 2) {
        const long long p = base + half;
        const bool valid = p < planes;
        float a0 = NEG_INF, a1 = NEG_INF, a2 = NEG_INF, a3 = NEG_INF;
        float a4 = NEG_INF, a5 = NEG_INF, a6 = NEG_INF, a7 = NEG_INF;
        if (valid) {
            const float* xp = x + p * hw;
            if (VEC) {
                const float4* xp4 = reinterpret_cast<const float4*>(xp);
                const int n4 = hw >> 2;
                int k = sub;
                for (; k + 3 * GROUP < n4; k += 4 * GROUP) {
                    const float4 v0 = __ldg(xp4 + k);
                    const float4 v1 = __ldg(xp4 + k + GROUP);
                    const float4 v2 = __ldg(xp4 + k + 2 * GROUP);
                    const float4 v3 = __ldg(xp4 + k + 3 * GROUP);
                    a0 = fmaxf(a0, fmaxf(v0.x, v0.y)); a1 = fmaxf(a1, fmaxf(v0.z, v0.w));
                    a2 = fmaxf(a2, fmaxf(v1.x, v1.y)); a3 = fmaxf(a3, fmaxf(v1.z, v1.w));
                    a4 = fmaxf(a4, fmaxf(v2.x, v2.y)); a5 = fmaxf(a5, fmaxf(v2.z, v2.w));
                    a6 = fmaxf(a6, fmaxf(v3.x, v3.y)); a7 = fmaxf(a7, fmaxf(v3.z, v3.w));
                }
                for (; k < n4; k += GROUP) {
                    const float4 v = __ldg(xp4 + k);
                    a0 = fmaxf(a0, fmaxf(v.x, v.y)); a1 = fmaxf(a1, fmaxf(v.z, v.w));
                }
            } else {
                for (int k = sub; k < hw; k += GROUP) a0 = fmaxf(a0, __ldg(xp + k));
            }
        }
        float m = fmaxf(fmaxf(fmaxf(a0, a1), fmaxf(a2, a3)), fmaxf(fmaxf(a4, a5), fmaxf(a6, a7)));
#pragma unroll
        for (int off = GROUP / 2; off > 0; off >>= 1) {
            m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off, GROUP));
        }
        if (valid && sub == 0) out[p] = m;
    }
}

torch::Tensor amax_hw_forward(torch::Tensor x, int64_t stream_handle) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be 4-D (B, C, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    const long long B = x.size(0), C = x.size(1);
    const long long hw = x.size(2) * x.size(3);
    TORCH_CHECK(hw > 0, "amax over an empty plane is undefined");
    TORCH_CHECK(hw <= 2147483647LL - 64 * GROUP, "plane too large");
    auto out = torch::empty({B, C}, x.options());
    const long long planes = B * C;
    if (planes == 0) return out;

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 132;
    const long long planes_per_block = (THREADS / 32) * 2;
    long long blocks = (planes + planes_per_block - 1) / planes_per_block;
    const long long max_blocks = (long long)sms * 8;   // 8 x 256 threads = full SM occupancy
    if (blocks > max_blocks) blocks = max_blocks;

    const float* xp = x.data_ptr<float>();
    const bool vec_ok = (hw % 4 == 0) && (reinterpret_cast<std::uintptr_t>(xp) % 16 == 0);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    if (vec_ok) {
        amax_hw_persistent_kernel<true><<<(unsigned int)blocks, THREADS, 0, stream>>>(
            xp, out.data_ptr<float>(), planes, (int)hw);
    } else {
        amax_hw_persistent_kernel<false><<<(unsigned int)blocks, THREADS, 0, stream>>>(
            xp, out.data_ptr<float>(), planes, (int)hw);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "amax_hw_persistent_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_src = "torch::Tensor amax_hw_forward(torch::Tensor x, int64_t stream_handle);"

amax_ext = load_inline(
    name="amax_hw_persistent_halfwarp_stream",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["amax_hw_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return amax_ext.amax_hw_forward(x, stream)
