# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
// Strategy: one block (512 threads) per row, 1024-element chunks; work-efficient Blelloch
// up-sweep / down-sweep exclusive scan in shared memory with the log-add-exp operator
// (identity -inf), then inclusive value = exclusive (+) x, plus a carry between chunks.

#define BL_THREADS 512
#define BL_CHUNK 1024

__device__ __forceinline__ float log_add_exp(float a, float b) {
    float mx = fmaxf(a, b);
    float mn = fminf(a, b);
    if (mx == -INFINITY) return mx;
    return mx + log1pf(expf(mn - mx));
}

__global__ void __launch_bounds__(BL_THREADS)
lcse_blelloch_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
    __shared__ float t[BL_CHUNK];
    __shared__ float chunk_total;
    const int tid = threadIdx.x;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    float carry = -INFINITY;

    for (int base = 0; base < cols; base += BL_CHUNK) {
        int j0 = base + tid;
        int j1 = base + tid + BL_THREADS;
        float x0 = (j0 < cols) ? xr[j0] : -INFINITY;
        float x1 = (j1 < cols) ? xr[j1] : -INFINITY;
        t[tid] = x0;
        t[tid + BL_THREADS] = x1;

        // up-sweep (reduce)
        int offset = 1;
        for (int d = BL_CHUNK >> 1; d > 0; d >>= 1) {
            __syncthreads();
            if (tid < d) {
                int ai = offset * (2 * tid + 1) - 1;
                int bi = offset * (2 * tid + 2) - 1;
                t[bi] = log_add_exp(t[ai], t[bi]);
            }
            offset <<= 1;
        }
        if (tid == 0) {
            chunk_total = t[BL_CHUNK - 1];
            t[BL_CHUNK - 1] = -INFINITY;
        }
        // down-sweep
        for (int d = 1; d < BL_CHUNK; d <<= 1) {
            offset >>= 1;
            __syncthreads();
            if (tid < d) {
                int ai = offset * (2 * tid + 1) - 1;
                int bi = offset * (2 * tid + 2) - 1;
                float tmp = t[ai];
                t[ai] = t[bi];
                t[bi] = log_add_exp(t[bi], tmp);
            }
        }
        __syncthreads();

        float e0 = t[tid];
        float e1 = t[tid + BL_THREADS];
        if (j0 < cols) yr[j0] = log_add_exp(carry, log_add_exp(e0, x0));
        if (j1 < cols) yr[j1] = log_add_exp(carry, log_add_exp(e1, x1));
        carry = log_add_exp(carry, chunk_total);
        __syncthreads();  // t and chunk_total are rewritten by the next chunk
    }
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int rows = (int)xc.size(0);
    int cols = (int)xc.size(1);
    if (rows == 0 || cols == 0) return out;
    lcse_blelloch_kernel<<<rows, BL_THREADS>>>(xc.data_ptr<float>(), out.data_ptr<float>(), cols);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_logcumsumexp_blelloch_smem",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x)
