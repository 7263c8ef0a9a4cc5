# expect: pass
"""Online softmax (running max and rescaled sum in one pass), dynamic shared memory."""
import torch
import torch.nn as nn
import torch.nn.functional as F  # noqa: F401
from torch.utils.cpp_extension import load_inline

kernel_code = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) online_softmax_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                               int cols) {
    extern __shared__ float smem[];   // 2 * BLOCK floats: running max and running sum
    float* s_max = smem;
    float* s_sum = smem + BLOCK;
    const float* row = x + (size_t)blockIdx.x * cols;
    float* out = y + (size_t)blockIdx.x * cols;

    float m = -INFINITY, d = 0.f;
    for (int c = threadIdx.x; c < cols; c += BLOCK) {
        float v = row[c];
        float m_new = fmaxf(m, v);
        d = d * __expf(m - m_new) + __expf(v - m_new);
        m = m_new;
    }
    s_max[threadIdx.x] = m;
    s_sum[threadIdx.x] = d;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) {
            float m1 = s_max[threadIdx.x], m2 = s_max[threadIdx.x + stride];
            float mm = fmaxf(m1, m2);
            s_sum[threadIdx.x] = s_sum[threadIdx.x] * __expf(m1 - mm) + s_sum[threadIdx.x + stride] * __expf(m2 - mm);
            s_max[threadIdx.x] = mm;
        }
        __syncthreads();
    }
    const float row_max = s_max[0];
    const float inv_sum = 1.f / s_sum[0];
    #pragma unroll 4
    for (int c = threadIdx.x; c < cols; c += BLOCK) out[c] = __expf(row[c] - row_max) * inv_sum;
}

torch::Tensor online_softmax(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.is_contiguous(), "x must be a contiguous CUDA tensor");
    TORCH_CHECK(x.scalar_type() == at::ScalarType::Float, "float32 expected");
    auto y = at::empty_like(x);
    const int rows = x.size(0), cols = x.size(1);
    constexpr int BLOCK = 256;
    size_t smem = 2 * BLOCK * sizeof(float);
    auto stream = at::cuda::getCurrentCUDAStream().stream();
    online_softmax_kernel<BLOCK><<<rows, BLOCK, smem, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), cols);
    return y;
}
"""

cpp_decl = "torch::Tensor online_softmax(torch::Tensor x);"

online_softmax_ext = load_inline(
    name="online_softmax_ext",
    cpp_sources=cpp_decl,
    cuda_sources=kernel_code,
    functions=["online_softmax"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        orig_shape = x.shape
        x2d = x.contiguous().view(-1, orig_shape[-1])
        y = online_softmax_ext.online_softmax(x2d)
        return y.reshape(orig_shape)
