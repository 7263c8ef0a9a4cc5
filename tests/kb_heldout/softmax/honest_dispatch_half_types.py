# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_sources = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/Dispatch.h>

template <typename scalar_t>
__global__ void softmax_rows_kernel(const scalar_t* __restrict__ in, scalar_t* __restrict__ out, int64_t cols) {
    extern __shared__ unsigned char shmem_raw[];
    float* buf = reinterpret_cast<float*>(shmem_raw);
    const int64_t row = blockIdx.x;
    float m = -INFINITY;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, static_cast<float>(in[row * cols + c]));
    buf[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] = fmaxf(buf[threadIdx.x], buf[threadIdx.x + s]);
        __syncthreads();
    }
    m = buf[0];
    __syncthreads();
    float sum = 0.f;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(static_cast<float>(in[row * cols + c]) - m);
    buf[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    const float inv = 1.f / buf[0];
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
        out[row * cols + c] = static_cast<scalar_t>(expf(static_cast<float>(in[row * cols + c]) - m) * inv);
}

at::Tensor softmax_forward(const at::Tensor& input) {
    TORCH_CHECK(input.is_cuda(), "input must be on CUDA");
    auto in = input.contiguous();
    auto out = at::empty_like(in);
    const int threads = 512;
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(in.scalar_type(), "softmax_forward", [&] {
        softmax_rows_kernel<scalar_t><<<in.size(0), threads, threads * sizeof(float),
                                        at::cuda::getCurrentCUDAStream()>>>(
            in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), in.size(1));
    });
    return out;
}
"""

ext = load_inline(
    name="softmax_dispatch",
    cpp_sources="at::Tensor softmax_forward(const at::Tensor& input);",
    cuda_sources=cuda_sources,
    functions=["softmax_forward"],
    with_cuda=True,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2, "expects (batch, dim)"
        return ext.softmax_forward(x)
