# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

instance_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define THREADS 512
#define NWARPS (THREADS / 32)

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// Reduce (a, b) over the block with warp shuffles; result broadcast to all threads.
__device__ __forceinline__ void block_sum2(float& a, float& b, float* sa, float* sb) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    a = warp_sum(a);
    b = warp_sum(b);
    if (lane == 0) { sa[warp] = a; sb[warp] = b; }
    __syncthreads();
    if (warp == 0) {
        a = lane < NWARPS ? sa[lane] : 0.f;
        b = lane < NWARPS ? sb[lane] : 0.f;
        a = warp_sum(a);
        b = warp_sum(b);
        if (lane == 0) { sa[0] = a; sb[0] = b; }
    }
    __syncthreads();
    a = sa[0];
    b = sb[0];
}

// One block per (n, c) plane. Pass 1 accumulates sum and sum of squares in a single
// float4 sweep; pass 2 re-reads the plane and writes the normalised values.
template <bool VEC>
__global__ void __launch_bounds__(THREADS)
instance_norm_shfl_kernel(const float* __restrict__ x, float* __restrict__ y, int hw, float eps) {
    __shared__ float sa[NWARPS];
    __shared__ float sb[NWARPS];
    const long long base = (long long)blockIdx.x * hw;
    const float* xp = x + base;
    float* yp = y + base;

    float s = 0.f, sq = 0.f;
    if (VEC) {
        const float4* xp4 = reinterpret_cast<const float4*>(xp);
        const int hw4 = hw >> 2;
        for (int i = threadIdx.x; i < hw4; i += THREADS) {
            float4 v = __ldg(xp4 + i);
            s += (v.x + v.y) + (v.z + v.w);
            sq += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w);
        }
    } else {
        for (int i = threadIdx.x; i < hw; i += THREADS) {
            float v = __ldg(xp + i);
            s += v;
            sq += v * v;
        }
    }
    block_sum2(s, sq, sa, sb);
    const float inv_n = 1.f / (float)hw;
    const float mean = s * inv_n;
    const float var = fmaxf(sq * inv_n - mean * mean, 0.f);   // biased variance
    const float rstd = rsqrtf(var + eps);

    if (VEC) {
        const float4* xp4 = reinterpret_cast<const float4*>(xp);
        float4* yp4 = reinterpret_cast<float4*>(yp);
        const int hw4 = hw >> 2;
        for (int i = threadIdx.x; i < hw4; i += THREADS) {
            float4 v = __ldg(xp4 + i);
            v.x = (v.x - mean) * rstd;
            v.y = (v.y - mean) * rstd;
            v.z = (v.z - mean) * rstd;
            v.w = (v.w - mean) * rstd;
            yp4[i] = v;
        }
    } else {
        for (int i = threadIdx.x; i < hw; i += THREADS) yp[i] = (__ldg(xp + i) - mean) * rstd;
    }
}

torch::Tensor instance_norm_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be 4D (N, C, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const long long planes = x.size(0) * x.size(1);
    const long long hw = x.size(2) * x.size(3);
    TORCH_CHECK(hw < (1LL << 31), "plane too large");
    if (planes == 0 || hw == 0) return y;
    const bool vec = (hw % 4 == 0) &&
                     (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(y.data_ptr<float>()) % 16 == 0);
    if (vec)
        instance_norm_shfl_kernel<true><<<(unsigned)planes, THREADS>>>(
            x.data_ptr<float>(), y.data_ptr<float>(), (int)hw, 1e-5f);
    else
        instance_norm_shfl_kernel<false><<<(unsigned)planes, THREADS>>>(
            x.data_ptr<float>(), y.data_ptr<float>(), (int)hw, 1e-5f);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "instance_norm kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

instance_norm_cpp_source = "torch::Tensor instance_norm_cuda(torch::Tensor x);"

instance_norm = load_inline(
    name="instance_norm_block_per_plane_warp_shuffle_float4",
    cpp_sources=instance_norm_cpp_source,
    cuda_sources=instance_norm_source,
    functions=["instance_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.num_features = num_features

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return instance_norm.instance_norm_cuda(x.contiguous())
