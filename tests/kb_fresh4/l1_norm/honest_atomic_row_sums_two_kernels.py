# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

l1_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define THREADS 256
#define ELEMS_PER_THREAD 4
#define TILE (THREADS * ELEMS_PER_THREAD)   // columns handled by one block of kernel 1

// Kernel 1: grid = (column tiles, rows). Each block reduces |x| over its tile with a
// shared-memory tree and atomically adds the partial into the row's sum.
__global__ void row_abs_sum_kernel(const float* __restrict__ x, float* __restrict__ row_sum,
                                   int cols) {
    __shared__ float sdata[THREADS];
    const int tid = threadIdx.x;
    const long long row = blockIdx.y;
    const float* xr = x + row * (long long)cols;
    const int c0 = blockIdx.x * TILE;
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < ELEMS_PER_THREAD; ++k) {
        const int c = c0 + k * THREADS + tid;
        if (c < cols) s += fabsf(xr[c]);
    }
    sdata[tid] = s;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (tid < stride) sdata[tid] += sdata[tid + stride];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(&row_sum[row], sdata[0]);
}

// Kernel 2: one thread per element, divide by the row's mean |x|.
__global__ void row_scale_kernel(const float* __restrict__ x, const float* __restrict__ row_sum,
                                 float* __restrict__ y, long long total, int cols) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const long long row = i / cols;
    const float mean = row_sum[row] / (float)cols;
    y[i] = x[i] / mean;
}

torch::Tensor l1_norm_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const long long rows = x.size(0), cols = x.size(1);
    if (rows == 0 || cols == 0) return y;
    TORCH_CHECK(cols < (1LL << 31), "too many columns");
    TORCH_CHECK(rows <= 65535, "too many rows for gridDim.y");
    auto row_sum = torch::zeros({rows}, x.options());

    dim3 grid1((unsigned)((cols + TILE - 1) / TILE), (unsigned)rows);
    row_abs_sum_kernel<<<grid1, THREADS>>>(x.data_ptr<float>(), row_sum.data_ptr<float>(), (int)cols);

    const long long total = rows * cols;
    const long long blocks2 = (total + THREADS - 1) / THREADS;
    TORCH_CHECK(blocks2 < (1LL << 31), "tensor too large");
    row_scale_kernel<<<(unsigned)blocks2, THREADS>>>(x.data_ptr<float>(), row_sum.data_ptr<float>(),
                                                     y.data_ptr<float>(), total, (int)cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "l1_norm kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

l1_norm_cpp_source = "torch::Tensor l1_norm_cuda(torch::Tensor x);"

l1_norm = load_inline(
    name="l1_norm_atomic_row_sums_two_kernels",
    cpp_sources=l1_norm_cpp_source,
    cuda_sources=l1_norm_source,
    functions=["l1_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l1_norm.l1_norm_cuda(x.contiguous())
