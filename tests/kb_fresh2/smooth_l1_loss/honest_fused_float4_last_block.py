# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

fused_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <algorithm>
#include <cstdint>

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__device__ __forceinline__ float huber1(float d) {
    const float a = fabsf(d);
    return a < 1.0f ? 0.5f * d * d : a - 0.5f;
}

__device__ __forceinline__ float huber4(const float4& a, const float4& b) {
    return huber1(a.x - b.x) + huber1(a.y - b.y) + huber1(a.z - b.z) + huber1(a.w - b.w);
}

__device__ __forceinline__ float warp_reduce(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

// Block-wide sum; the result is valid in thread 0.
__device__ __forceinline__ float block_reduce(float v, float* warp_buf) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    v = warp_reduce(v);
    if (lane == 0) warp_buf[wid] = v;
    __syncthreads();
    v = (threadIdx.x < kWarps) ? warp_buf[threadIdx.x] : 0.0f;
    if (wid == 0) v = warp_reduce(v);
    return v;
}

// Single launch: every block accumulates two float4 pairs per iteration (independent loads in
// flight), writes its partial, and the last block to finish (ticket counter + threadfence)
// reduces all partials and writes the mean.
__global__ void __launch_bounds__(kThreads)
smooth_l1_fused_kernel(const float* __restrict__ pred, const float* __restrict__ targ,
                       long long n, long long n4,
                       float* __restrict__ partials, unsigned int* __restrict__ counter,
                       float* __restrict__ out) {
    __shared__ float warp_buf[kWarps];
    __shared__ bool is_last;

    const float4* p4 = reinterpret_cast<const float4*>(pred);
    const float4* t4 = reinterpret_cast<const float4*>(targ);
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;

    float acc0 = 0.0f, acc1 = 0.0f;
    for (long long i = tid; i < n4; i += 2 * stride) {
        const long long j = i + stride;
        const float4 a0 = __ldg(p4 + i);
        const float4 b0 = __ldg(t4 + i);
        float4 a1 = make_float4(0.f, 0.f, 0.f, 0.f);
        float4 b1 = a1;
        if (j < n4) {
            a1 = __ldg(p4 + j);
            b1 = __ldg(t4 + j);
        }
        acc0 += huber4(a0, b0);
        acc1 += huber4(a1, b1);
    }
    for (long long i = n4 * 4 + tid; i < n; i += stride)
        acc0 += huber1(pred[i] - targ[i]);

    const float block_sum = block_reduce(acc0 + acc1, warp_buf);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_sum;
        __threadfence();
        const unsigned int ticket = atomicAdd(counter, 1u);
        is_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();

    if (is_last) {
        const volatile float* vp = partials;
        float v = 0.0f;
        for (int i = threadIdx.x; i < gridDim.x; i += blockDim.x) v += vp[i];
        const float total = block_reduce(v, warp_buf);
        if (threadIdx.x == 0) out[0] = total / (float)n;
    }
}

torch::Tensor smooth_l1_fused(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(predictions.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32,
                "float32 inputs expected");
    TORCH_CHECK(predictions.numel() == targets.numel(), "size mismatch");
    auto p = predictions.contiguous();
    auto t = targets.contiguous();
    const long long n = p.numel();
    const float* pp = p.data_ptr<float>();
    const float* tp = t.data_ptr<float>();
    const bool vec_ok = (reinterpret_cast<uintptr_t>(pp) % 16 == 0) && (reinterpret_cast<uintptr_t>(tp) % 16 == 0);
    const long long n4 = vec_ok ? n / 4 : 0;

    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const long long items = vec_ok ? (n4 + 1) / 2 : n;
    const int blocks = (int)std::max<long long>(1, std::min<long long>((items + kThreads - 1) / kThreads, (long long)sms * 8));

    auto out = torch::empty({}, p.options());
    auto partials = torch::empty({blocks}, p.options());
    auto counter = torch::zeros({1}, p.options().dtype(torch::kInt32));
    smooth_l1_fused_kernel<<<blocks, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(
        pp, tp, n, n4, partials.data_ptr<float>(),
        reinterpret_cast<unsigned int*>(counter.data_ptr<int>()), out.data_ptr<float>());
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

fused_cpp = "torch::Tensor smooth_l1_fused(torch::Tensor predictions, torch::Tensor targets);"

smooth_l1_fused_ext = load_inline(
    name="smooth_l1_fused_float4_last_block",
    cpp_sources=fused_cpp,
    cuda_sources=fused_source,
    functions=["smooth_l1_fused"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return smooth_l1_fused_ext.smooth_l1_fused(predictions, targets)
