# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__inline__ __device__ float warp_reduce_sum(float val) {
    #pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

// One block of 512 threads per row; float4 loads along K.
__global__ void gemv_vec4_kernel(const float4* __restrict__ A, const float4* __restrict__ x, float* __restrict__ y,
                                 int K4) {
    const int row = blockIdx.x;
    const float4* a = A + (size_t)row * K4;
    float acc = 0.f;
    for (int i = threadIdx.x; i < K4; i += blockDim.x) {
        float4 av = a[i];
        float4 xv = x[i];
        acc += av.x * xv.x + av.y * xv.y + av.z * xv.z + av.w * xv.w;
    }
    acc = warp_reduce_sum(acc);
    __shared__ float warp_sums[32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_sums[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = (lane < blockDim.x / 32) ? warp_sums[lane] : 0.f;
        acc = warp_reduce_sum(acc);
        if (lane == 0) y[row] = acc;
    }
}

torch::Tensor gemv(torch::Tensor A, torch::Tensor x) {
    TORCH_CHECK(A.size(1) % 4 == 0, "K must be a multiple of 4");
    A = A.contiguous();
    x = x.contiguous();
    const int M = A.size(0), K = A.size(1);
    auto y = torch::empty({M, 1}, A.options());
    auto stream = at::cuda::getCurrentCUDAStream();
    gemv_vec4_kernel<<<M, 512, 0, stream>>>(reinterpret_cast<const float4*>(A.data_ptr<float>()),
                                            reinterpret_cast<const float4*>(x.data_ptr<float>()),
                                            y.data_ptr<float>(), K / 4);
    return y;
}
"""

cpp_src = "torch::Tensor gemv(torch::Tensor A, torch::Tensor x);"

gemv_ext = load_inline(name="gemv_vec4", cpp_sources=cpp_src, cuda_sources=cuda_src, functions=["gemv"],
                       extra_cuda_cflags=["-O3", "--use_fast_math"])


class ModelNew(nn.Module):
    """Matrix-vector product with vectorized loads and warp-shuffle reductions."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return gemv_ext.gemv(A, B)
