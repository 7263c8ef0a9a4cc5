# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor topk_rows_cuda(torch::Tensor x, int64_t k);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
// Strategy: one block per row, selection by repeated block-wide argmax. The row is staged in
// shared memory; each of the k rounds does a block reduction (per-thread scan, warp shuffle
// reduction, then a second-level reduction over warp results) to find the current maximum,
// writes it out and knocks it out of the shared copy with -inf.

#define THREADS 256
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ void better(float& bv, int& bi, float ov, int oi) {
    // pick (ov, oi) if it is a valid candidate that beats (bv, bi); ties go to the lower index
    if (oi >= 0 && (bi < 0 || ov > bv || (ov == bv && oi < bi))) {
        bv = ov;
        bi = oi;
    }
}

__global__ void topk_repeated_argmax_kernel(const float* __restrict__ x, float* __restrict__ out,
                                            int rows, int cols, int k) {
    extern __shared__ float s[];
    __shared__ float wv[THREADS / 32];
    __shared__ int wi[THREADS / 32];
    const int r = blockIdx.x;
    if (r >= rows) return;
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int nwarps = THREADS / 32;
    const float* row = x + (size_t)r * cols;
    for (int i = tid; i < cols; i += THREADS) s[i] = row[i];
    __syncthreads();

    float* o = out + (size_t)r * k;
    for (int it = 0; it < k; ++it) {
        float bv = -INFINITY;
        int bi = -1;
        for (int i = tid; i < cols; i += THREADS) better(bv, bi, s[i], i);
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
            const float ov = __shfl_down_sync(FULL_MASK, bv, off);
            const int oi = __shfl_down_sync(FULL_MASK, bi, off);
            better(bv, bi, ov, oi);
        }
        if (lane == 0) {
            wv[warp] = bv;
            wi[warp] = bi;
        }
        __syncthreads();
        if (warp == 0) {
            bv = (lane < nwarps) ? wv[lane] : -INFINITY;
            bi = (lane < nwarps) ? wi[lane] : -1;
            #pragma unroll
            for (int off = 16; off > 0; off >>= 1) {
                const float ov = __shfl_down_sync(FULL_MASK, bv, off);
                const int oi = __shfl_down_sync(FULL_MASK, bi, off);
                better(bv, bi, ov, oi);
            }
            if (lane == 0) {
                o[it] = bv;
                s[bi] = -INFINITY;  // bi >= 0 because it < k <= cols
            }
        }
        __syncthreads();
    }
}

torch::Tensor topk_rows_cuda(torch::Tensor x, int64_t k) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int rows = (int)xc.size(0);
    const int cols = (int)xc.size(1);
    TORCH_CHECK(k >= 0 && k <= cols, "k out of range");
    TORCH_CHECK(cols <= 11264, "this kernel supports rows of at most 11264 elements");
    auto out = torch::empty({(int64_t)rows, k}, xc.options());
    if (rows == 0 || k == 0) return out;
    const size_t smem = (size_t)cols * sizeof(float);
    topk_repeated_argmax_kernel<<<rows, THREADS, smem>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                         rows, cols, (int)k);
    return out;
}
"""

my_mod = load_inline(
    name="s45_topk_rows_block_repeated_argmax",
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
