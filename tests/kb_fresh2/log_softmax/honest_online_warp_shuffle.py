# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

log_softmax_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cfloat>

#define THREADS 512
#define NUM_WARPS (THREADS / 32)

// Merge two (max, sum-of-exp relative to max) pairs.
__device__ __forceinline__ void online_merge(float& m, float& s, float m_other, float s_other) {
    const float m_new = fmaxf(m, m_other);
    s = s * expf(m - m_new) + s_other * expf(m_other - m_new);
    m = m_new;
}

// One block per row. A single "online softmax" pass computes the running max and the
// rescaled sum together; warps merge their pairs with shuffles, then shared memory
// combines the warps. A second pass writes x - max - log(sum).
__global__ void log_softmax_online_kernel(const float* __restrict__ x,
                                          float* __restrict__ out,
                                          int cols) {
    __shared__ float s_max[NUM_WARPS];
    __shared__ float s_sum[NUM_WARPS];
    __shared__ float s_shift;

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int wid = tid >> 5;
    const float* xr = x + (int64_t)blockIdx.x * cols;
    float* outr = out + (int64_t)blockIdx.x * cols;

    float m = -FLT_MAX;
    float s = 0.0f;
    for (int j = tid; j < cols; j += THREADS) {
        const float v = xr[j];
        if (v > m) {
            s = s * expf(m - v) + 1.0f;
            m = v;
        } else {
            s += expf(v - m);
        }
    }

    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m_o = __shfl_xor_sync(0xffffffff, m, o);
        const float s_o = __shfl_xor_sync(0xffffffff, s, o);
        online_merge(m, s, m_o, s_o);
    }
    if (lane == 0) {
        s_max[wid] = m;
        s_sum[wid] = s;
    }
    __syncthreads();

    if (wid == 0) {
        float mm = (lane < NUM_WARPS) ? s_max[lane] : -FLT_MAX;
        float ss = (lane < NUM_WARPS) ? s_sum[lane] : 0.0f;
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            const float m_o = __shfl_xor_sync(0xffffffff, mm, o);
            const float s_o = __shfl_xor_sync(0xffffffff, ss, o);
            online_merge(mm, ss, m_o, s_o);
        }
        if (lane == 0) s_shift = mm + logf(ss);
    }
    __syncthreads();

    const float shift = s_shift;
    for (int j = tid; j < cols; j += THREADS) outr[j] = xr[j] - shift;
}

torch::Tensor log_softmax_online(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int rows = xc.size(0);
    const int cols = xc.size(1);
    log_softmax_online_kernel<<<rows, THREADS, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

log_softmax_cpp_source = "torch::Tensor log_softmax_online(torch::Tensor x);"

log_softmax_ext = load_inline(
    name="kbf2_logsoftmax_online_warp_shuffle",
    cpp_sources=log_softmax_cpp_source,
    cuda_sources=log_softmax_source,
    functions=["log_softmax_online"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
        self.ext = log_softmax_ext

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        last = x.dim() - 1
        if d != last:
            x = x.transpose(d, last)
        shape = x.shape
        y = self.ext.log_softmax_online(x.contiguous().view(-1, shape[-1])).view(shape)
        if d != last:
            y = y.transpose(d, last)
        return y
