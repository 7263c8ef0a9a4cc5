# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define TPB 256
#define UNROLL 4

__device__ __forceinline__ float hinge(float p, float t) { return fmaxf(0.0f, 1.0f - p * t); }

__device__ __forceinline__ double warp_sum_d(double v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

// Each iteration a thread issues UNROLL independent float4 loads per input (8 x 16B in flight),
// using streaming (evict-first) loads since the data is touched once. Two float accumulators
// per thread, block reduced in double and added with a double atomicAdd.
template <bool VEC>
__global__ void __launch_bounds__(TPB)
hinge_ilp_kernel(const float* __restrict__ pred, const float* __restrict__ targ,
                 double* __restrict__ acc_out, long long n) {
    __shared__ double warp_sums[TPB / 32];
    const long long tid = (long long)blockIdx.x * TPB + threadIdx.x;
    const long long total = (long long)gridDim.x * TPB;
    float s0 = 0.0f, s1 = 0.0f;
    long long scalar_start = 0;
    if (VEC) {
        const long long n4 = n >> 2;
        const float4* p4 = reinterpret_cast<const float4*>(pred);
        const float4* t4 = reinterpret_cast<const float4*>(targ);
        for (long long base = tid; base < n4; base += (long long)UNROLL * total) {
            float4 a[UNROLL], b[UNROLL];
            bool ok[UNROLL];
            #pragma unroll
            for (int j = 0; j < UNROLL; ++j) {
                const long long k = base + (long long)j * total;
                ok[j] = k < n4;
                if (ok[j]) { a[j] = __ldcs(p4 + k); b[j] = __ldcs(t4 + k); }
            }
            #pragma unroll
            for (int j = 0; j < UNROLL; ++j) {
                if (ok[j]) {
                    s0 += hinge(a[j].x, b[j].x) + hinge(a[j].y, b[j].y);
                    s1 += hinge(a[j].z, b[j].z) + hinge(a[j].w, b[j].w);
                }
            }
        }
        scalar_start = n4 << 2;
    }
    for (long long i = scalar_start + tid; i < n; i += total) s0 += hinge(pred[i], targ[i]);

    double v = (double)s0 + (double)s1;
    v = warp_sum_d(v);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < TPB / 32 ? warp_sums[lane] : 0.0;
        v = warp_sum_d(v);
        if (lane == 0) atomicAdd(acc_out, v);
    }
}

__global__ void hinge_mean_kernel(const double* __restrict__ acc, float* __restrict__ out, double inv_n) {
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = (float)(acc[0] * inv_n);
}

torch::Tensor hinge_loss_cuda(torch::Tensor predictions, torch::Tensor targets, int64_t stream_ptr) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(predictions.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32,
                "inputs must be float32");
    TORCH_CHECK(predictions.numel() == targets.numel(), "size mismatch");
    TORCH_CHECK(predictions.is_contiguous() && targets.is_contiguous(), "inputs must be contiguous");
    const long long n = predictions.numel();
    TORCH_CHECK(n > 0, "empty input");
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    const float* p = predictions.data_ptr<float>();
    const float* t = targets.data_ptr<float>();
    const bool aligned = ((reinterpret_cast<uintptr_t>(p) | reinterpret_cast<uintptr_t>(t)) & 15u) == 0;

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const long long per_block = aligned ? (long long)TPB * UNROLL * 4 : (long long)TPB * 4;
    long long blocks = (n + per_block - 1) / per_block;
    const long long cap = (long long)sms * 4;
    if (blocks > cap) blocks = cap;
    if (blocks < 1) blocks = 1;

    auto acc = torch::empty({1}, predictions.options().dtype(torch::kFloat64));
    auto out = torch::empty({}, predictions.options());
    cudaMemsetAsync(acc.data_ptr<double>(), 0, sizeof(double), stream);
    if (aligned) {
        hinge_ilp_kernel<true><<<(int)blocks, TPB, 0, stream>>>(p, t, acc.data_ptr<double>(), n);
    } else {
        hinge_ilp_kernel<false><<<(int)blocks, TPB, 0, stream>>>(p, t, acc.data_ptr<double>(), n);
    }
    hinge_mean_kernel<<<1, 32, 0, stream>>>(acc.data_ptr<double>(), out.data_ptr<float>(), 1.0 / (double)n);
    return out;
}
"""

cpp_src = "torch::Tensor hinge_loss_cuda(torch::Tensor predictions, torch::Tensor targets, int64_t stream_ptr);"

hinge_mod = load_inline(
    name="hinge_loss_unrolled_ilp_double_atomic",
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
        stream = torch.cuda.current_stream().cuda_stream
        return hinge_mod.hinge_loss_cuda(predictions.contiguous(), targets.contiguous(), stream)
