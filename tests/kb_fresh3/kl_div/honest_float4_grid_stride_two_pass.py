# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

kl_div_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define THREADS 256

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}

__device__ __forceinline__ float kl_term(float t, float p) {
    return t > 0.0f ? t * (logf(t) - logf(p)) : 0.0f;
}

// Pass 1: flat grid-stride loop, float4 loads for the aligned bulk, scalar tail.
// Each block writes one partial sum (warp shuffles + shared memory across warps).
__global__ void kl_partial_kernel(const float* __restrict__ pred,
                                  const float* __restrict__ targ,
                                  float* __restrict__ partials,
                                  long long n, bool vec) {
    const long long gtid = (long long)blockIdx.x * THREADS + threadIdx.x;
    const long long stride = (long long)gridDim.x * THREADS;
    float acc = 0.0f;
    long long scalar_start = 0;
    if (vec) {
        const long long n4 = n >> 2;
        const float4* p4 = reinterpret_cast<const float4*>(pred);
        const float4* t4 = reinterpret_cast<const float4*>(targ);
        for (long long i = gtid; i < n4; i += stride) {
            float4 p = p4[i];
            float4 t = t4[i];
            acc += kl_term(t.x, p.x);
            acc += kl_term(t.y, p.y);
            acc += kl_term(t.z, p.z);
            acc += kl_term(t.w, p.w);
        }
        scalar_start = n4 << 2;
    }
    for (long long i = scalar_start + gtid; i < n; i += stride) acc += kl_term(targ[i], pred[i]);

    __shared__ float s_warp[THREADS / 32];
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    acc = warp_sum(acc);
    if (lane == 0) s_warp[wid] = acc;
    __syncthreads();
    if (wid == 0) {
        float v = lane < THREADS / 32 ? s_warp[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) partials[blockIdx.x] = v;
    }
}

// Pass 2: single block reduces the partials and applies the batchmean scaling.
__global__ void kl_final_kernel(const float* __restrict__ partials, float* __restrict__ out,
                                int num_partials, float inv_batch) {
    __shared__ float s_warp[32];
    float v = 0.0f;
    for (int i = threadIdx.x; i < num_partials; i += blockDim.x) v += partials[i];
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) s_warp[wid] = v;
    __syncthreads();
    if (wid == 0) {
        v = lane < (int)(blockDim.x >> 5) ? s_warp[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) out[0] = v * inv_batch;
    }
}

torch::Tensor kl_div_cuda(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(predictions.sizes() == targets.sizes(), "shape mismatch");
    TORCH_CHECK(predictions.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32, "float32 only");
    const long long n = predictions.numel();
    const long long batch = predictions.size(0);
    const float* p = predictions.data_ptr<float>();
    const float* t = targets.data_ptr<float>();
    const bool vec = (reinterpret_cast<uintptr_t>(p) % 16 == 0) && (reinterpret_cast<uintptr_t>(t) % 16 == 0);

    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    long long blocks = (long long)sms * 8;
    const long long work = vec ? (n / 4 + 1) : n;
    const long long needed = (work + THREADS - 1) / THREADS;
    if (blocks > needed) blocks = needed;
    if (blocks < 1) blocks = 1;

    auto partials = torch::empty({blocks}, predictions.options());
    auto out = torch::empty({}, predictions.options());
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    kl_partial_kernel<<<(unsigned int)blocks, THREADS, 0, stream>>>(p, t, partials.data_ptr<float>(), n, vec);
    kl_final_kernel<<<1, 1024, 0, stream>>>(partials.data_ptr<float>(), out.data_ptr<float>(), (int)blocks,
                                            1.0f / (float)batch);
    return out;
}
"""

kl_div_cpp_source = "torch::Tensor kl_div_cuda(torch::Tensor predictions, torch::Tensor targets);"

kl_div = load_inline(
    name="kl_div_float4_grid_stride_two_pass",
    cpp_sources=kl_div_cpp_source,
    cuda_sources=kl_div_source,
    functions=["kl_div_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.kl_div = kl_div

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return self.kl_div.kl_div_cuda(predictions.contiguous(), targets.contiguous())
