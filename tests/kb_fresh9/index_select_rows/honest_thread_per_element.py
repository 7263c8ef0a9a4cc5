# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor index_select_elem_cuda(torch::Tensor table, torch::Tensor idx);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <stdint.h>

// One thread per output element over the flattened (num_idx x width) output, grid-stride loop.
// Consecutive threads write consecutive columns of the same row -> coalesced reads and writes.
__global__ void index_select_elem_kernel(const float* __restrict__ table,
                                         const int64_t* __restrict__ idx,
                                         float* __restrict__ out,
                                         int64_t total, int64_t table_rows, int64_t width) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        const int64_t r = i / width;
        const int64_t c = i - r * width;
        const int64_t src = __ldg(idx + r);
        out[i] = (src >= 0 && src < table_rows) ? __ldg(table + src * width + c) : 0.0f;
    }
}

torch::Tensor index_select_elem_cuda(torch::Tensor table, torch::Tensor idx) {
    TORCH_CHECK(table.is_cuda() && idx.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(table.scalar_type() == torch::kFloat32, "table must be float32");
    TORCH_CHECK(idx.scalar_type() == torch::kInt64, "idx must be int64");
    TORCH_CHECK(table.dim() == 2 && idx.dim() == 1, "table must be 2-D and idx 1-D");
    auto t = table.contiguous();
    auto ix = idx.contiguous();
    const int64_t rows = t.size(0), width = t.size(1), m = ix.numel();
    auto out = torch::empty({m, width}, t.options());
    const int64_t total = m * width;
    if (total == 0) return out;

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    const int threads = 256;
    int64_t blocks = (total + threads - 1) / threads;
    const int64_t max_blocks = (int64_t)sms * 32;
    if (blocks > max_blocks) blocks = max_blocks;
    index_select_elem_kernel<<<(unsigned int)blocks, threads>>>(
        t.data_ptr<float>(), ix.data_ptr<int64_t>(), out.data_ptr<float>(), total, rows, width);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "index_select_elem launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

index_select_elem_mod = load_inline(
    name="index_select_rows_thread_per_element",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["index_select_elem_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
        return index_select_elem_mod.index_select_elem_cuda(table, idx)
