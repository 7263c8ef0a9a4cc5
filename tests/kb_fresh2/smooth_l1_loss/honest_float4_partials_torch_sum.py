# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <algorithm>
#include <cstdint>

__device__ __forceinline__ float sl1(float d) {
    float a = fabsf(d);
    return a < 1.0f ? 0.5f * d * d : a - 0.5f;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

// float4 loads over the vectorisable prefix, a scalar grid-stride loop for the remainder,
// warp-shuffle + shared-memory block reduction, one partial sum per block.
__global__ void smooth_l1_vec4_kernel(const float4* __restrict__ p4, const float4* __restrict__ t4,
                                      const float* __restrict__ p, const float* __restrict__ t,
                                      long long n4, long long n, float* __restrict__ partials) {
    __shared__ float smem[32];
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;

    float acc = 0.0f;
    for (long long i = tid; i < n4; i += stride) {
        float4 a = p4[i];
        float4 b = t4[i];
        acc += sl1(a.x - b.x) + sl1(a.y - b.y) + sl1(a.z - b.z) + sl1(a.w - b.w);
    }
    for (long long i = n4 * 4 + tid; i < n; i += stride)
        acc += sl1(p[i] - t[i]);

    acc = warp_sum(acc);
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    if (lane == 0) smem[wid] = acc;
    __syncthreads();
    if (wid == 0) {
        float v = (lane < (blockDim.x >> 5)) ? smem[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) partials[blockIdx.x] = v;
    }
}

torch::Tensor smooth_l1_partials(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "CUDA tensors expected");
    TORCH_CHECK(predictions.numel() == targets.numel(), "size mismatch");
    auto p = predictions.contiguous();
    auto t = targets.contiguous();
    const long long n = p.numel();
    const float* pp = p.data_ptr<float>();
    const float* tp = t.data_ptr<float>();
    const bool aligned = (reinterpret_cast<uintptr_t>(pp) % 16 == 0) && (reinterpret_cast<uintptr_t>(tp) % 16 == 0);
    const long long n4 = aligned ? n / 4 : 0;

    const int threads = 128;
    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const long long work = aligned ? std::max<long long>(n4, 1) : std::max<long long>(n, 1);
    const int blocks = (int)std::min<long long>((work + threads - 1) / threads, (long long)sms * 16);
    auto partials = torch::empty({blocks}, p.options());
    smooth_l1_vec4_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        reinterpret_cast<const float4*>(pp), reinterpret_cast<const float4*>(tp), pp, tp, n4, n,
        partials.data_ptr<float>());
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return partials;
}
"""

cpp_source = "torch::Tensor smooth_l1_partials(torch::Tensor predictions, torch::Tensor targets);"

smooth_l1_vec = load_inline(
    name="smooth_l1_float4_partials_torch_sum",
    cpp_sources=cpp_source,
    cuda_sources=source,
    functions=["smooth_l1_partials"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        partials = smooth_l1_vec.smooth_l1_partials(predictions, targets)
        return partials.sum() / predictions.numel()
