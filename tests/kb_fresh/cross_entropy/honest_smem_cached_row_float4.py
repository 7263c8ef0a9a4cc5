# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cfloat>
#include <cstdint>

constexpr int kThreads = 512;

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_add(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// Block-wide all-reduce (every thread gets the result). `scratch` holds 32 floats.
template <bool IS_MAX>
__device__ float block_allreduce(float v, float* scratch) {
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    v = IS_MAX ? warp_max(v) : warp_add(v);
    if (lane == 0) scratch[wid] = v;
    __syncthreads();
    const float ident = IS_MAX ? -FLT_MAX : 0.0f;
    float r = (lane < (kThreads >> 5)) ? scratch[lane] : ident;
    r = IS_MAX ? warp_max(r) : warp_add(r);
    __syncthreads();  // scratch may be reused by the next call
    return r;
}

// One block per row. The row is read from global memory once (float4 when
// possible) into shared memory; max and sum of exp are then taken from smem.
__global__ void ce_row_smem_kernel(const float* __restrict__ logits, const int64_t* __restrict__ targets,
                                   float* __restrict__ row_loss, int num_classes, bool vec) {
    extern __shared__ float srow[];
    __shared__ float scratch[32];
    const int64_t row = blockIdx.x;
    const float* x = logits + row * num_classes;

    float m = -FLT_MAX;
    if (vec) {
        const float4* x4 = reinterpret_cast<const float4*>(x);
        float4* s4 = reinterpret_cast<float4*>(srow);
        for (int j = threadIdx.x; j < (num_classes >> 2); j += kThreads) {
            float4 v = x4[j];
            s4[j] = v;
            m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
        }
    } else {
        for (int j = threadIdx.x; j < num_classes; j += kThreads) {
            float v = x[j];
            srow[j] = v;
            m = fmaxf(m, v);
        }
    }
    m = block_allreduce<true>(m, scratch);   // contains __syncthreads, so srow is complete afterwards

    float s = 0.0f;
    for (int j = threadIdx.x; j < num_classes; j += kThreads) s += __expf(srow[j] - m);
    s = block_allreduce<false>(s, scratch);

    if (threadIdx.x == 0) {
        const int64_t t = targets[row];
        row_loss[row] = logf(s) + m - srow[t];
    }
}

torch::Tensor ce_rows(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && predictions.dim() == 2, "predictions: 2D CUDA tensor expected");
    auto logits = predictions.contiguous();
    auto tgt = targets.to(torch::kInt64).contiguous();
    const int batch = logits.size(0);
    const int num_classes = logits.size(1);
    const size_t smem = (size_t)num_classes * sizeof(float);
    TORCH_CHECK(smem <= 200 * 1024, "row too long for the shared-memory cache");
    if (smem > 48 * 1024) {
        cudaFuncSetAttribute(ce_row_smem_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    }
    const bool vec = (num_classes % 4 == 0) && (reinterpret_cast<uintptr_t>(logits.data_ptr<float>()) % 16 == 0);
    auto row_loss = torch::empty({batch}, logits.options());
    ce_row_smem_kernel<<<batch, kThreads, smem, at::cuda::getCurrentCUDAStream()>>>(
        logits.data_ptr<float>(), tgt.data_ptr<int64_t>(), row_loss.data_ptr<float>(), num_classes, vec);
    return row_loss;
}
"""

cpp_decl = "torch::Tensor ce_rows(torch::Tensor predictions, torch::Tensor targets);"

ce_smem = load_inline(
    name="ce_smem_cached_row_float4",
    cpp_sources=cpp_decl,
    cuda_sources=source,
    functions=["ce_rows"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        row_loss = ce_smem.ce_rows(predictions, targets)
        return row_loss.sum() / row_loss.numel()
