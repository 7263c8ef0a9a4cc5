# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

min_shfl_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <math.h>

#define WARP_SIZE 32

__inline__ __device__ float warpReduceMin(float val) {
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        val = fminf(val, __shfl_down_sync(0xffffffff, val, offset));
    return val;
}

__inline__ __device__ float blockReduceMin(float val) {
    __shared__ float shared[32];
    const int lane = threadIdx.x % WARP_SIZE;
    const int wid = threadIdx.x / WARP_SIZE;
    val = warpReduceMin(val);
    if (lane == 0) shared[wid] = val;
    __syncthreads();
    const int nwarps = (blockDim.x + WARP_SIZE - 1) / WARP_SIZE;
    val = (threadIdx.x < nwarps) ? shared[lane] : INFINITY;
    if (wid == 0) val = warpReduceMin(val);
    return val;
}

// One block of 512 threads per row, warp-shuffle reduction.
__global__ void min_lastdim_shfl_kernel(const float* __restrict__ x, float* __restrict__ out, int64_t len) {
    const float* row = x + (int64_t)blockIdx.x * len;
    float m = INFINITY;
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x) m = fminf(m, __ldg(row + i));
    m = blockReduceMin(m);
    if (threadIdx.x == 0) out[blockIdx.x] = m;
}

torch::Tensor min_lastdim_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2D (rows, len)");
    TORCH_CHECK(x.size(1) > 0, "cannot reduce over an empty dimension");
    x = x.contiguous();
    const int64_t rows = x.size(0);
    const int64_t len = x.size(1);
    auto out = torch::empty({rows}, x.options());
    if (rows == 0) return out;
    const int threads = 512;
    min_lastdim_shfl_kernel<<<(unsigned int)rows, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), len);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

min_shfl_cpp = "torch::Tensor min_lastdim_cuda(torch::Tensor x);"

min_shfl = load_inline(
    name="min_lastdim_block_warp_shuffle",
    cpp_sources=min_shfl_cpp,
    cuda_sources=min_shfl_source,
    functions=["min_lastdim_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        xt = x.movedim(d, -1).contiguous()
        out_shape = xt.shape[:-1]
        out = min_shfl.min_lastdim_cuda(xt.view(-1, xt.shape[-1]))
        return out.view(out_shape)
