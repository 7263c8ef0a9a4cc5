# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor topk_rows_cuda(torch::Tensor x, int64_t k);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
// Strategy: one thread per row. Each thread scans its whole row sequentially and keeps a
// descending list of the k best values seen so far (insertion sort into a local array).
// Threads of a warp read different rows, so loads are not coalesced.

#define TOPK_MAXK 64

__global__ void topk_thread_row_kernel(const float* __restrict__ x, float* __restrict__ out,
                                       int rows, int cols, int k) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float best[TOPK_MAXK];
    for (int i = 0; i < k; ++i) best[i] = -INFINITY;
    const float* row = x + (size_t)r * cols;
    for (int c = 0; c < cols; ++c) {
        float v = row[c];
        if (v > best[k - 1]) {
            int p = k - 1;
            while (p > 0 && best[p - 1] < v) {
                best[p] = best[p - 1];
                --p;
            }
            best[p] = v;
        }
    }
    float* o = out + (size_t)r * k;
    for (int i = 0; i < k; ++i) o[i] = best[i];
}

torch::Tensor topk_rows_cuda(torch::Tensor x, int64_t k) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int rows = (int)xc.size(0);
    const int cols = (int)xc.size(1);
    TORCH_CHECK(k >= 0 && k <= cols, "k out of range");
    TORCH_CHECK(k <= TOPK_MAXK, "this kernel supports k <= 64");
    auto out = torch::empty({(int64_t)rows, k}, xc.options());
    if (rows == 0 || k == 0) return out;
    const int threads = 128;
    const int blocks = (rows + threads - 1) / threads;
    topk_thread_row_kernel<<<blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                rows, cols, (int)k);
    return out;
}
"""

my_mod = load_inline(
    name="s45_topk_rows_thread_per_row",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["topk_rows_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, k: int):
        super().__init__()
        self.k = k

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.topk_rows_cuda(x, int(self.k))
