# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

// x viewed as [outer, reduce, inner]; one thread per output element (o, i) loops over the reduced axis.
__global__ void sum_dim_naive_kernel(const float* __restrict__ x, float* __restrict__ out,
                                     int64_t outer, int64_t reduce, int64_t inner) {
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= outer * inner) return;
    int64_t o = idx / inner;
    int64_t i = idx % inner;
    const float* p = x + o * reduce * inner + i;
    float acc = 0.0f;
    for (int64_t r = 0; r < reduce; ++r) {
        acc += p[r * inner];
    }
    out[idx] = acc;
}

torch::Tensor sum_dim_cuda(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    const int64_t nd = x.dim();
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");

    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
    for (int64_t d = dim + 1; d < nd; ++d) inner *= x.size(d);
    const int64_t reduce = x.size(dim);

    auto out_sizes = x.sizes().vec();
    out_sizes[dim] = 1;
    auto out = torch::empty(out_sizes, x.options());

    const int64_t total = outer * inner;
    const int threads = 256;
    const int blocks = (int)((total + threads - 1) / threads);
    sum_dim_naive_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), outer, reduce, inner);
    return out;
}
"""

sum_cpp_source = "torch::Tensor sum_dim_cuda(torch::Tensor x, int64_t dim);"

sum_ext = load_inline(
    name="kbf_sum_dim_naive_thread_per_output",
    cpp_sources=sum_cpp_source,
    cuda_sources=sum_source,
    functions=["sum_dim_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum_ext.sum_dim_cuda(x, self.dim)
