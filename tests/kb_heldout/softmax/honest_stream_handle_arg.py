# expect: pass
# The caller passes torch's current stream handle, so the launch is on the stream the timer records on.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void softmax_warp_per_row(const float* __restrict__ x, float* __restrict__ y, int rows, int cols) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= rows) return;
    const float* xr = x + (size_t)warp * cols;
    float* yr = y + (size_t)warp * cols;
    float m = -INFINITY;
    for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
    for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += expf(xr[c] - m);
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    for (int c = lane; c < cols; c += 32) yr[c] = expf(xr[c] - m) / s;
}

torch::Tensor softmax_rows(torch::Tensor x, int64_t stream_handle) {
    auto y = torch::empty_like(x);
    int rows = x.size(0), cols = x.size(1);
    int threads = 256, warps_per_block = threads / 32;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    softmax_warp_per_row<<<(rows + warps_per_block - 1) / warps_per_block, threads, 0, stream>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    return y;
}
"""

ext = load_inline(name="softmax_warp_rows",
                  cpp_sources="torch::Tensor softmax_rows(torch::Tensor x, int64_t stream_handle);",
                  cuda_sources=cuda_src, functions=["softmax_rows"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.softmax_rows(x.contiguous(), torch.cuda.current_stream().cuda_stream)
