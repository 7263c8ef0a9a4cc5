# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor global_sum_naive_rows(torch::Tensor x);"

cuda_src = r'''
#include <cuda_runtime.h>

// One thread per row: a serial loop over the row (neighbouring threads read addresses a whole
// row apart, so loads are uncoalesced), then one atomicAdd of the row sum into the result.
__global__ void sum_rows_naive_kernel(const float* x, float* out, long long rows, long long cols) {
    long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* p = x + r * cols;
    float s = 0.0f;
    for (long long c = 0; c < cols; ++c) s += p[c];
    atomicAdd(out, s);
}

torch::Tensor global_sum_naive_rows(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "float32 only");
    x = x.contiguous();
    long long cols = x.dim() == 0 ? 1 : x.size(x.dim() - 1);
    long long rows = cols == 0 ? 0 : x.numel() / cols;
    auto out = torch::zeros({}, x.options());
    if (rows == 0) return out;
    const int threads = 128;
    long long blocks = (rows + threads - 1) / threads;
    sum_rows_naive_kernel<<<(unsigned int)blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
'''

global_sum_naive_rows_mod = load_inline(
    name="global_sum_naive_row_per_thread",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["global_sum_naive_rows"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return global_sum_naive_rows_mod.global_sum_naive_rows(x)
