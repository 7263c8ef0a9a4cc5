# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor global_sum_warp_atomic(torch::Tensor x);"

cuda_src = r'''
#include <cuda_runtime.h>

__device__ __forceinline__ float warp_reduce_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

// Grid-stride loop (a few blocks per SM), warp-shuffle reduction, warp sums through shared
// memory, then one atomicAdd per block into the zero-initialised result.
__global__ void sum_warp_atomic_kernel(const float* __restrict__ x, float* __restrict__ out, long long n) {
    __shared__ float warp_sums[32];
    float s = 0.0f;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) s += __ldg(x + i);
    s = warp_reduce_sum(s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
        const int nwarps = blockDim.x >> 5;
        float v = (lane < nwarps) ? warp_sums[lane] : 0.0f;
        v = warp_reduce_sum(v);
        if (lane == 0) atomicAdd(out, v);
    }
}

torch::Tensor global_sum_warp_atomic(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 only");
    x = x.contiguous();
    long long n = x.numel();
    auto out = torch::zeros({}, x.options());
    if (n == 0) return out;
    int dev = 0, sms = 132;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 512;
    long long want = (n + threads - 1) / threads;
    long long cap = (long long)sms * 4;
    int blocks = (int)(want < cap ? want : cap);
    sum_warp_atomic_kernel<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
'''

global_sum_warp_atomic_mod = load_inline(
    name="global_sum_warp_shuffle_atomic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["global_sum_warp_atomic"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return global_sum_warp_atomic_mod.global_sum_warp_atomic(x)
