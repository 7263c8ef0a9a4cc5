# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

min_reduce_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <math.h>

#define BLOCK_SIZE 256

// One block per row: strided per-thread minimum, then a classic shared-memory tree reduction.
__global__ void min_reduce_kernel(const float* __restrict__ input, float* __restrict__ output, int64_t len) {
    __shared__ float sdata[BLOCK_SIZE];
    const int tid = threadIdx.x;
    const float* row = input + (int64_t)blockIdx.x * len;

    float m = INFINITY;
    for (int64_t i = tid; i < len; i += BLOCK_SIZE) m = fminf(m, row[i]);
    sdata[tid] = m;
    __syncthreads();

    for (int s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] = fminf(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0) output[blockIdx.x] = sdata[0];
}

torch::Tensor min_reduce_cuda(torch::Tensor input) {
    TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(input.scalar_type() == torch::kFloat32, "input must be float32");
    TORCH_CHECK(input.dim() == 2, "input must be 2D (rows, len)");
    TORCH_CHECK(input.size(1) > 0, "cannot reduce over an empty dimension");
    input = input.contiguous();
    const int64_t rows = input.size(0);
    const int64_t len = input.size(1);
    auto output = torch::empty({rows}, input.options());
    if (rows == 0) return output;
    min_reduce_kernel<<<(unsigned int)rows, BLOCK_SIZE, 0, at::cuda::getCurrentCUDAStream()>>>(
        input.data_ptr<float>(), output.data_ptr<float>(), len);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return output;
}
"""

min_reduce_cpp = "torch::Tensor min_reduce_cuda(torch::Tensor input);"

min_reduce = load_inline(
    name="min_lastdim_block_smem_tree",
    cpp_sources=min_reduce_cpp,
    cuda_sources=min_reduce_source,
    functions=["min_reduce_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
        self.min_reduce = min_reduce

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        xt = x.movedim(d, -1).contiguous()
        out_shape = xt.shape[:-1]
        out = self.min_reduce.min_reduce_cuda(xt.view(-1, xt.shape[-1]))
        return out.view(out_shape)
