# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor index_select_naive_cuda(torch::Tensor table, torch::Tensor idx);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <stdint.h>

// Naive: one thread copies an entire output row with a serial column loop.
// Neighbouring threads touch different rows, so the accesses are not coalesced.
__global__ void index_select_naive_kernel(const float* __restrict__ table,
                                          const int64_t* __restrict__ idx,
                                          float* __restrict__ out,
                                          int64_t num_idx, int64_t table_rows, int64_t width) {
    const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= num_idx) return;
    const int64_t src = idx[r];
    float* dst = out + r * width;
    if (src < 0 || src >= table_rows) {
        for (int64_t c = 0; c < width; ++c) dst[c] = 0.0f;
        return;
    }
    const float* s = table + src * width;
    for (int64_t c = 0; c < width; ++c) dst[c] = s[c];
}

torch::Tensor index_select_naive_cuda(torch::Tensor table, torch::Tensor idx) {
    TORCH_CHECK(table.is_cuda() && idx.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(table.scalar_type() == torch::kFloat32, "table must be float32");
    TORCH_CHECK(idx.scalar_type() == torch::kInt64, "idx must be int64");
    TORCH_CHECK(table.dim() == 2 && idx.dim() == 1, "table must be 2-D and idx 1-D");
    auto t = table.contiguous();
    auto ix = idx.contiguous();
    const int64_t rows = t.size(0), width = t.size(1), m = ix.numel();
    auto out = torch::empty({m, width}, t.options());
    if (m == 0 || width == 0) return out;
    const int threads = 128;
    const int64_t blocks = (m + threads - 1) / threads;
    index_select_naive_kernel<<<(unsigned int)blocks, threads>>>(
        t.data_ptr<float>(), ix.data_ptr<int64_t>(), out.data_ptr<float>(), m, rows, width);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "index_select_naive launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

index_select_naive_mod = load_inline(
    name="index_select_rows_naive_thread_per_row",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["index_select_naive_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
        return index_select_naive_mod.index_select_naive_cuda(table, idx)
