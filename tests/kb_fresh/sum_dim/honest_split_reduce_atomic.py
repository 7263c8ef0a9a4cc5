# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

atomic_sum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define THREADS 256
#define ROWS_PER_SPLIT 64

// The reduced axis is cut into slices of ROWS_PER_SPLIT rows so that there are many more blocks
// than outputs' worth of columns. grid = (column tiles, splits, outer); each thread sums its column
// over one slice and adds the partial result into the zero-initialised output with atomicAdd.
__global__ void sum_dim_atomic_kernel(const float* __restrict__ x, float* __restrict__ out,
                                      int reduce, int inner) {
    const int col = blockIdx.x * THREADS + threadIdx.x;
    if (col >= inner) return;
    const int r_begin = blockIdx.y * ROWS_PER_SPLIT;
    const int r_end = min(r_begin + ROWS_PER_SPLIT, reduce);
    const int64_t o = blockIdx.z;
    const float* p = x + (o * reduce + r_begin) * (int64_t)inner + col;

    float acc = 0.0f;
    #pragma unroll 8
    for (int r = r_begin; r < r_end; ++r) {
        acc += *p;
        p += inner;
    }
    atomicAdd(out + o * inner + col, acc);
}

torch::Tensor sum_dim_atomic(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    const int64_t nd = x.dim();
    if (dim < 0) dim += nd;
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
    for (int64_t d = dim + 1; d < nd; ++d) inner *= x.size(d);
    const int64_t reduce = x.size(dim);
    const int64_t splits = (reduce + ROWS_PER_SPLIT - 1) / ROWS_PER_SPLIT;
    TORCH_CHECK(outer <= 65535 && splits <= 65535, "shape too large for this launch configuration");

    auto sizes = x.sizes().vec();
    sizes[dim] = 1;
    auto out = torch::zeros(sizes, x.options());  // accumulated into with atomics

    dim3 grid((unsigned)((inner + THREADS - 1) / THREADS), (unsigned)splits, (unsigned)outer);
    sum_dim_atomic_kernel<<<grid, THREADS, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), (int)reduce, (int)inner);
    return out;
}
"""

atomic_sum_cpp = "torch::Tensor sum_dim_atomic(torch::Tensor x, int64_t dim);"

atomic_sum = load_inline(
    name="kbf_sum_dim_split_reduce_atomic",
    cpp_sources=atomic_sum_cpp,
    cuda_sources=atomic_sum_source,
    functions=["sum_dim_atomic"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return atomic_sum.sum_dim_atomic(x, self.dim)
