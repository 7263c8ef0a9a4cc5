# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

reduce_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define BLOCK_SIZE 256

// One block per output element. The block's threads split the reduced axis (stride = inner between
// consecutive elements), keep per-thread partial sums, and combine them with a shared-memory tree.
__global__ void sum_reduce_block_kernel(const float* __restrict__ input, float* __restrict__ output,
                                        int reduce_size, int inner_size) {
    __shared__ float sdata[BLOCK_SIZE];
    const int64_t out_idx = blockIdx.x;
    const int64_t o = out_idx / inner_size;
    const int64_t i = out_idx % inner_size;
    const float* base = input + o * (int64_t)reduce_size * inner_size + i;

    float sum = 0.0f;
    for (int r = threadIdx.x; r < reduce_size; r += BLOCK_SIZE) {
        sum += base[(int64_t)r * inner_size];
    }
    sdata[threadIdx.x] = sum;
    __syncthreads();

    for (int s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sdata[threadIdx.x] += sdata[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) output[out_idx] = sdata[0];
}

torch::Tensor sum_reduce_cuda(torch::Tensor input, int64_t dim) {
    TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(input.scalar_type() == at::kFloat, "input must be float32");
    auto x = input.contiguous();
    if (dim < 0) dim += x.dim();

    int64_t outer_size = 1;
    for (int64_t d = 0; d < dim; ++d) outer_size *= x.size(d);
    int64_t inner_size = 1;
    for (int64_t d = dim + 1; d < x.dim(); ++d) inner_size *= x.size(d);
    const int64_t reduce_size = x.size(dim);

    auto sizes = x.sizes().vec();
    sizes[dim] = 1;
    auto output = torch::empty(sizes, x.options());

    const int64_t num_outputs = outer_size * inner_size;
    sum_reduce_block_kernel<<<num_outputs, BLOCK_SIZE, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), output.data_ptr<float>(), (int)reduce_size, (int)inner_size);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return output;
}
"""

reduce_cpp_source = "torch::Tensor sum_reduce_cuda(torch::Tensor input, int64_t dim);"

sum_reduce = load_inline(
    name="kbf_sum_dim_block_per_output_tree",
    cpp_sources=reduce_cpp_source,
    cuda_sources=reduce_source,
    functions=["sum_reduce_cuda"],
    verbose=False,
    extra_cflags=["-O3"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim
        self.sum_reduce = sum_reduce

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.sum_reduce.sum_reduce_cuda(x, self.dim)
