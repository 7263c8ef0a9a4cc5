# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define BLOCK 256
#define MAX_PARTIALS 4096

__device__ __forceinline__ float hinge(float p, float t) { return fmaxf(0.0f, 1.0f - p * t); }

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// Pass 1: grid-stride over float4 pairs (when both pointers are 16-byte aligned) plus a scalar
// tail; otherwise a plain scalar grid-stride loop. One deterministic partial per block.
__global__ void hinge_partial_kernel(const float* __restrict__ pred, const float* __restrict__ targ,
                                     float* __restrict__ partials, long long n, int use_vec) {
    __shared__ float warp_sums[BLOCK / 32];
    const long long tid = (long long)blockIdx.x * BLOCK + threadIdx.x;
    const long long stride = (long long)gridDim.x * BLOCK;
    float s = 0.0f;
    if (use_vec) {
        const long long n4 = n >> 2;
        const float4* p4 = reinterpret_cast<const float4*>(pred);
        const float4* t4 = reinterpret_cast<const float4*>(targ);
        for (long long i = tid; i < n4; i += stride) {
            float4 a = __ldg(p4 + i);
            float4 b = __ldg(t4 + i);
            s += hinge(a.x, b.x) + hinge(a.y, b.y) + hinge(a.z, b.z) + hinge(a.w, b.w);
        }
        for (long long i = (n4 << 2) + tid; i < n; i += stride) s += hinge(pred[i], targ[i]);
    } else {
        for (long long i = tid; i < n; i += stride) s += hinge(pred[i], targ[i]);
    }
    s = warp_sum(s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
        float v = lane < BLOCK / 32 ? warp_sums[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) partials[blockIdx.x] = v;
    }
}

// Pass 2: one block adds the partials in double precision (fixed order) and writes the mean.
__global__ void hinge_final_kernel(const float* __restrict__ partials, int num_partials,
                                   float* __restrict__ out, double inv_n) {
    __shared__ double warp_sums[32];
    double s = 0.0;
    for (int i = threadIdx.x; i < num_partials; i += blockDim.x) s += (double)partials[i];
    s = warp_sum(s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
        const int nwarps = blockDim.x >> 5;
        double v = lane < nwarps ? warp_sums[lane] : 0.0;
        v = warp_sum(v);
        if (lane == 0) out[0] = (float)(v * inv_n);
    }
}

torch::Tensor hinge_loss_cuda(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(predictions.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32,
                "inputs must be float32");
    TORCH_CHECK(predictions.numel() == targets.numel(), "size mismatch");
    TORCH_CHECK(predictions.is_contiguous() && targets.is_contiguous(), "inputs must be contiguous");
    const long long n = predictions.numel();
    TORCH_CHECK(n > 0, "empty input");
    const float* p = predictions.data_ptr<float>();
    const float* t = targets.data_ptr<float>();
    const int use_vec = ((reinterpret_cast<uintptr_t>(p) | reinterpret_cast<uintptr_t>(t)) & 15u) == 0 ? 1 : 0;

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const long long work = use_vec ? (n + 3) / 4 : n;
    long long blocks = (work + BLOCK - 1) / BLOCK;
    long long cap = (long long)sms * 8;
    if (cap > MAX_PARTIALS) cap = MAX_PARTIALS;
    if (blocks > cap) blocks = cap;
    if (blocks < 1) blocks = 1;

    auto partials = torch::empty({blocks}, predictions.options());
    auto out = torch::empty({}, predictions.options());
    hinge_partial_kernel<<<(int)blocks, BLOCK>>>(p, t, partials.data_ptr<float>(), n, use_vec);
    hinge_final_kernel<<<1, 1024>>>(partials.data_ptr<float>(), (int)blocks, out.data_ptr<float>(),
                                    1.0 / (double)n);
    return out;
}
"""

cpp_src = "torch::Tensor hinge_loss_cuda(torch::Tensor predictions, torch::Tensor targets);"

hinge_mod = load_inline(
    name="hinge_loss_float4_two_pass",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["hinge_loss_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return hinge_mod.hinge_loss_cuda(predictions.contiguous(), targets.contiguous())
