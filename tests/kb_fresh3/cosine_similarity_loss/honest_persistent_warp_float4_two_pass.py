# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cosine_loss_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define THREADS 128
#define WARPS (THREADS / 32)

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

// Persistent grid: every warp loops over rows with a grid-wide stride. Rows are
// read as float4 (VEC) when possible. Lane 0 of each warp keeps a running sum of
// (1 - cos); the block writes one partial, reduced by a second kernel.
template <bool VEC>
__global__ void cosine_persistent_kernel(const float* __restrict__ pred,
                                         const float* __restrict__ targ,
                                         float* __restrict__ partials,
                                         int rows, int cols, float eps) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    const int warp_global = blockIdx.x * WARPS + wid;
    const int warp_stride = gridDim.x * WARPS;

    float loss_acc = 0.0f;
    for (int row = warp_global; row < rows; row += warp_stride) {
        const float* p = pred + (long long)row * cols;
        const float* t = targ + (long long)row * cols;
        float dot = 0.0f, pp = 0.0f, tt = 0.0f;
        if (VEC) {
            const float4* p4 = reinterpret_cast<const float4*>(p);
            const float4* t4 = reinterpret_cast<const float4*>(t);
            const int n4 = cols >> 2;
            #pragma unroll 4
            for (int j = lane; j < n4; j += 32) {
                float4 a = __ldg(p4 + j);
                float4 b = __ldg(t4 + j);
                dot = fmaf(a.x, b.x, fmaf(a.y, b.y, fmaf(a.z, b.z, fmaf(a.w, b.w, dot))));
                pp = fmaf(a.x, a.x, fmaf(a.y, a.y, fmaf(a.z, a.z, fmaf(a.w, a.w, pp))));
                tt = fmaf(b.x, b.x, fmaf(b.y, b.y, fmaf(b.z, b.z, fmaf(b.w, b.w, tt))));
            }
        } else {
            for (int j = lane; j < cols; j += 32) {
                float a = __ldg(p + j);
                float b = __ldg(t + j);
                dot = fmaf(a, b, dot);
                pp = fmaf(a, a, pp);
                tt = fmaf(b, b, tt);
            }
        }
        dot = warp_sum(dot);
        pp = warp_sum(pp);
        tt = warp_sum(tt);
        float denom = fmaxf(sqrtf(pp), eps) * fmaxf(sqrtf(tt), eps);
        loss_acc += 1.0f - dot / denom;  // identical in all lanes after xor-reduce
    }

    __shared__ float s_loss[WARPS];
    if (lane == 0) s_loss[wid] = loss_acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        #pragma unroll
        for (int w = 0; w < WARPS; ++w) s += s_loss[w];
        partials[blockIdx.x] = s;
    }
}

// Second pass: one block sums the per-block partials and divides by rows.
__global__ void reduce_partials_kernel(const float* __restrict__ partials, float* __restrict__ out,
                                       int n, int rows) {
    __shared__ float s_warp[32];
    float v = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) v += partials[i];
    v = warp_sum(v);
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    if (lane == 0) s_warp[wid] = v;
    __syncthreads();
    if (wid == 0) {
        const int nw = blockDim.x >> 5;
        v = lane < nw ? s_warp[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) out[0] = v / (float)rows;
    }
}

torch::Tensor cosine_loss_cuda(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(predictions.dim() == 2 && predictions.sizes() == targets.sizes(), "expected matching 2D inputs");
    TORCH_CHECK(predictions.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32, "float32 only");
    const int rows = predictions.size(0);
    const int cols = predictions.size(1);
    const float* p = predictions.data_ptr<float>();
    const float* t = targets.data_ptr<float>();

    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    int blocks = sms * 8;
    const int needed = (rows + WARPS - 1) / WARPS;
    if (blocks > needed) blocks = needed;
    if (blocks < 1) blocks = 1;

    auto partials = torch::empty({blocks}, predictions.options());
    auto out = torch::empty({}, predictions.options());
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    const bool vec = (cols % 4 == 0) &&
                     (reinterpret_cast<uintptr_t>(p) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(t) % 16 == 0);
    if (vec) {
        cosine_persistent_kernel<true><<<blocks, THREADS, 0, stream>>>(p, t, partials.data_ptr<float>(), rows, cols, 1e-8f);
    } else {
        cosine_persistent_kernel<false><<<blocks, THREADS, 0, stream>>>(p, t, partials.data_ptr<float>(), rows, cols, 1e-8f);
    }
    reduce_partials_kernel<<<1, 1024, 0, stream>>>(partials.data_ptr<float>(), out.data_ptr<float>(), blocks, rows);
    return out;
}
"""

cosine_loss_cpp_source = "torch::Tensor cosine_loss_cuda(torch::Tensor predictions, torch::Tensor targets);"

cosine_loss = load_inline(
    name="cosine_loss_persistent_warp_float4_two_pass",
    cpp_sources=cosine_loss_cpp_source,
    cuda_sources=cosine_loss_source,
    functions=["cosine_loss_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cosine_loss = cosine_loss

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return self.cosine_loss.cosine_loss_cuda(predictions.contiguous(), targets.contiguous())
