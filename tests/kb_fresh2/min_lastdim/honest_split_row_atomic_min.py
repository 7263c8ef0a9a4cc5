# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

atomic_min_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <math.h>

#define THREADS 128
#define ELEMS_PER_BLOCK 256

// Float atomic min via integer atomics: non-negative floats order like signed ints,
// negative floats order inversely like unsigned ints.
__device__ __forceinline__ void atomicMinFloat(float* addr, float val) {
    if (val >= 0.0f) {
        atomicMin(reinterpret_cast<int*>(addr), __float_as_int(val));
    } else {
        atomicMax(reinterpret_cast<unsigned int*>(addr), __float_as_uint(val));
    }
}

__global__ void fill_inf_kernel(float* __restrict__ out, int64_t n) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = INFINITY;
}

// Each row is split into segments of ELEMS_PER_BLOCK elements; one block per (row, segment).
// The block reduces its segment (warp shuffles, then the warp leaders through shared memory)
// and merges the result into the output with an atomic min.
__global__ void min_segments_atomic_kernel(const float* __restrict__ x, float* __restrict__ out,
                                           int64_t len, int64_t segs_per_row) {
    __shared__ float warp_mins[THREADS / 32];
    const int64_t b = blockIdx.x;
    const int64_t row = b / segs_per_row;
    const int64_t seg = b - row * segs_per_row;
    const float* xr = x + row * len;
    const int64_t start = seg * ELEMS_PER_BLOCK;
    int64_t end = start + ELEMS_PER_BLOCK;
    if (end > len) end = len;

    float m = INFINITY;
    for (int64_t i = start + threadIdx.x; i < end; i += THREADS) m = fminf(m, xr[i]);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fminf(m, __shfl_down_sync(0xffffffff, m, o));
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (lane == 0) warp_mins[warp] = m;
    __syncthreads();
    if (threadIdx.x == 0) {
        float bm = warp_mins[0];
#pragma unroll
        for (int w = 1; w < THREADS / 32; ++w) bm = fminf(bm, warp_mins[w]);
        atomicMinFloat(out + row, bm);
    }
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
    auto stream = at::cuda::getCurrentCUDAStream();

    fill_inf_kernel<<<(unsigned int)((rows + 255) / 256), 256, 0, stream>>>(out.data_ptr<float>(), rows);
    C10_CUDA_KERNEL_LAUNCH_CHECK();

    const int64_t segs = (len + ELEMS_PER_BLOCK - 1) / ELEMS_PER_BLOCK;
    const unsigned int blocks = (unsigned int)(rows * segs);
    min_segments_atomic_kernel<<<blocks, THREADS, 0, stream>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), len, segs);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

atomic_min_cpp = "torch::Tensor min_lastdim_cuda(torch::Tensor x);"

atomic_min = load_inline(
    name="min_lastdim_split_row_atomic",
    cpp_sources=atomic_min_cpp,
    cuda_sources=atomic_min_source,
    functions=["min_lastdim_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        xt = x.movedim(d, -1).contiguous()
        out_shape = xt.shape[:-1]
        out = atomic_min.min_lastdim_cuda(xt.view(-1, xt.shape[-1]))
        return out.view(out_shape)
