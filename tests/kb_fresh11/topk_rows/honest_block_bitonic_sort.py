# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor topk_rows_cuda(torch::Tensor x, int64_t k);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
// Strategy: one block per row. The row is copied into shared memory (padded with -inf up to the
// next power of two), fully sorted in descending order with an in-place bitonic sorting network,
// and the first k entries are written out.

__global__ void topk_bitonic_kernel(const float* __restrict__ x, float* __restrict__ out,
                                    int rows, int cols, int n_pow2, int k) {
    extern __shared__ float s[];
    const int r = blockIdx.x;
    if (r >= rows) return;
    const float* row = x + (size_t)r * cols;
    for (int i = threadIdx.x; i < n_pow2; i += blockDim.x)
        s[i] = (i < cols) ? row[i] : -INFINITY;
    __syncthreads();

    const int half = n_pow2 >> 1;
    for (int size = 2; size <= n_pow2; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            for (int t = threadIdx.x; t < half; t += blockDim.x) {
                // t-th index whose 'stride' bit is zero, and its partner
                const int i = 2 * t - (t & (stride - 1));
                const int j = i + stride;
                const bool desc = ((i & size) == 0);
                const float a = s[i];
                const float b = s[j];
                if (desc ? (a < b) : (a > b)) {
                    s[i] = b;
                    s[j] = a;
                }
            }
            __syncthreads();
        }
    }
    float* o = out + (size_t)r * k;
    for (int i = threadIdx.x; i < k; i += blockDim.x) o[i] = s[i];
}

torch::Tensor topk_rows_cuda(torch::Tensor x, int64_t k) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int rows = (int)xc.size(0);
    const int cols = (int)xc.size(1);
    TORCH_CHECK(k >= 0 && k <= cols, "k out of range");
    auto out = torch::empty({(int64_t)rows, k}, xc.options());
    if (rows == 0 || k == 0) return out;
    int n_pow2 = 1;
    while (n_pow2 < cols) n_pow2 <<= 1;
    if (n_pow2 < 2) n_pow2 = 2;
    TORCH_CHECK(n_pow2 <= 8192, "this kernel supports rows of at most 8192 elements");
    int threads = n_pow2 / 2;
    if (threads > 512) threads = 512;
    if (threads < 32) threads = 32;
    const size_t smem = (size_t)n_pow2 * sizeof(float);
    topk_bitonic_kernel<<<rows, threads, smem>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                 rows, cols, n_pow2, (int)k);
    return out;
}
"""

my_mod = load_inline(
    name="s45_topk_rows_block_bitonic_sort",
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
