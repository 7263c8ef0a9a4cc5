# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define PBLOCK 512

__device__ __forceinline__ float hinge(float p, float t) { return fmaxf(0.0f, 1.0f - p * t); }

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

// Block-wide sum; result valid in thread 0. Ends with a barrier so the scratch can be reused.
template <typename T>
__device__ __forceinline__ T block_sum(T v, T* scratch) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    T r = (T)0;
    if (warp == 0) {
        r = lane < (PBLOCK / 32) ? scratch[lane] : (T)0;
        r = warp_sum(r);
    }
    __syncthreads();
    return r;
}

// Single persistent kernel: each resident block grid-strides over the data (float4 when aligned),
// publishes its partial, and the last block to finish (atomic ticket after __threadfence) reduces
// all partials in double and writes the mean. No second launch.
__global__ void __launch_bounds__(PBLOCK)
hinge_persistent_kernel(const float* __restrict__ pred, const float* __restrict__ targ,
                        float* __restrict__ partials, unsigned int* __restrict__ ticket,
                        float* __restrict__ out, long long n, double inv_n, int use_vec) {
    __shared__ float fscratch[PBLOCK / 32];
    __shared__ double dscratch[PBLOCK / 32];
    __shared__ bool is_last;

    const long long tid = (long long)blockIdx.x * PBLOCK + threadIdx.x;
    const long long stride = (long long)gridDim.x * PBLOCK;
    float s = 0.0f;
    long long start_scalar = 0;
    if (use_vec) {
        const long long n4 = n >> 2;
        const float4* p4 = reinterpret_cast<const float4*>(pred);
        const float4* t4 = reinterpret_cast<const float4*>(targ);
        for (long long i = tid; i < n4; i += stride) {
            const float4 a = __ldg(p4 + i);
            const float4 b = __ldg(t4 + i);
            s += hinge(a.x, b.x);
            s += hinge(a.y, b.y);
            s += hinge(a.z, b.z);
            s += hinge(a.w, b.w);
        }
        start_scalar = n4 << 2;
    }
    for (long long i = start_scalar + tid; i < n; i += stride) s += hinge(pred[i], targ[i]);

    const float bsum = block_sum<float>(s, fscratch);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = bsum;
        __threadfence();
        const unsigned int prev = atomicAdd(ticket, 1u);
        is_last = (prev == gridDim.x - 1);
    }
    __syncthreads();
    if (!is_last) return;

    __threadfence();
    double acc = 0.0;
    for (int i = threadIdx.x; i < (int)gridDim.x; i += PBLOCK) acc += (double)__ldcg(partials + i);
    acc = block_sum<double>(acc, dscratch);
    if (threadIdx.x == 0) out[0] = (float)(acc * inv_n);
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
    const int use_vec = ((reinterpret_cast<uintptr_t>(p) | reinterpret_cast<uintptr_t>(t)) & 15u) == 0 ? 1 : 0;

    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hinge_persistent_kernel, PBLOCK, 0);
    if (per_sm < 1) per_sm = 1;
    long long blocks = (long long)sms * per_sm;
    const long long work = use_vec ? (n + 3) / 4 : n;
    const long long needed = (work + PBLOCK - 1) / PBLOCK;
    if (blocks > needed) blocks = needed;
    if (blocks < 1) blocks = 1;

    auto partials = torch::empty({blocks}, predictions.options());
    auto ticket = torch::empty({1}, predictions.options().dtype(torch::kInt32));
    auto out = torch::empty({}, predictions.options());
    cudaMemsetAsync(ticket.data_ptr<int>(), 0, sizeof(unsigned int), stream);
    hinge_persistent_kernel<<<(int)blocks, PBLOCK, 0, stream>>>(
        p, t, partials.data_ptr<float>(), reinterpret_cast<unsigned int*>(ticket.data_ptr<int>()),
        out.data_ptr<float>(), n, 1.0 / (double)n, use_vec);
    return out;
}
"""

cpp_src = "torch::Tensor hinge_loss_cuda(torch::Tensor predictions, torch::Tensor targets, int64_t stream_ptr);"

hinge_mod = load_inline(
    name="hinge_loss_persistent_last_block",
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
