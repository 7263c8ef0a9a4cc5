# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor topk_rows_cuda(torch::Tensor x, int64_t k);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
// Strategy: one block per row, radix select. Floats are mapped to order-preserving uint32 keys
// (staged in shared memory). Four 8-bit histogram passes (shared-memory atomics, digit chosen by a
// warp prefix scan over the bins) find the exact key of the k-th largest element. Elements above it
// are collected, the remaining slots are filled with the k-th value, and the k candidates are put
// in descending order by a parallel rank sort.

__device__ __forceinline__ unsigned int float_to_key(float f) {
    unsigned int u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float key_to_float(unsigned int key) {
    unsigned int u = (key & 0x80000000u) ? (key & 0x7fffffffu) : ~key;
    return __uint_as_float(u);
}

__global__ void topk_radix_select_kernel(const float* __restrict__ x, float* __restrict__ out,
                                         int rows, int cols, int k, int staged) {
    extern __shared__ unsigned int dyn[];
    float* cand = reinterpret_cast<float*>(dyn);       // k floats
    unsigned int* skeys = dyn + k;                     // cols keys when staged
    __shared__ unsigned int hist[256];
    __shared__ unsigned int s_digit;
    __shared__ int s_kk;
    __shared__ unsigned int s_cnt;

    const int r = blockIdx.x;
    if (r >= rows) return;
    const int tid = threadIdx.x;
    const int nthr = blockDim.x;
    const float* row = x + (size_t)r * cols;

    if (staged) {
        for (int i = tid; i < cols; i += nthr) skeys[i] = float_to_key(__ldg(row + i));
    }

    unsigned int prefix = 0u, pmask = 0u;
    int kk = k;  // rank (1-based, from the top) still to be located among matching keys
    for (int shift = 24; shift >= 0; shift -= 8) {
        for (int i = tid; i < 256; i += nthr) hist[i] = 0u;
        __syncthreads();
        for (int i = tid; i < cols; i += nthr) {
            unsigned int key = staged ? skeys[i] : float_to_key(__ldg(row + i));
            if ((key & pmask) == prefix) atomicAdd(&hist[(key >> shift) & 255u], 1u);
        }
        __syncthreads();
        if (tid < 32) {
            const int lane = tid;
            unsigned int cnt[8];
            unsigned int sum = 0u;
            #pragma unroll
            for (int j = 0; j < 8; ++j) {
                cnt[j] = hist[255 - 8 * lane - j];  // lane 0 owns the highest bins
                sum += cnt[j];
            }
            unsigned int incl = sum;
            #pragma unroll
            for (int off = 1; off < 32; off <<= 1) {
                unsigned int t = __shfl_up_sync(0xffffffffu, incl, off);
                if (lane >= off) incl += t;
            }
            const unsigned int excl = incl - sum;
            const unsigned int ball = __ballot_sync(0xffffffffu, incl >= (unsigned int)kk);
            const int src = __ffs(ball) - 1;
            if (lane == src) {
                unsigned int cum = excl;
                #pragma unroll
                for (int j = 0; j < 8; ++j) {
                    if (cum + cnt[j] >= (unsigned int)kk) {
                        s_digit = (unsigned int)(255 - 8 * lane - j);
                        s_kk = kk - (int)cum;
                        break;
                    }
                    cum += cnt[j];
                }
            }
        }
        __syncthreads();
        prefix |= s_digit << shift;
        pmask |= 0xFFu << shift;
        kk = s_kk;
    }
    // prefix is now the key of the k-th largest element; exactly (k - kk) keys are strictly larger.
    if (tid == 0) s_cnt = 0u;
    __syncthreads();
    for (int i = tid; i < cols; i += nthr) {
        unsigned int key = staged ? skeys[i] : float_to_key(__ldg(row + i));
        if (key > prefix) {
            unsigned int pos = atomicAdd(&s_cnt, 1u);
            cand[pos] = key_to_float(key);
        }
    }
    const float kth = key_to_float(prefix);
    for (int i = tid; i < kk; i += nthr) cand[k - kk + i] = kth;
    __syncthreads();
    float* o = out + (size_t)r * k;
    for (int i = tid; i < k; i += nthr) {
        const float v = cand[i];
        int rank = 0;
        for (int j = 0; j < k; ++j) {
            const float w = cand[j];
            rank += (w > v) || (w == v && j < i);
        }
        o[rank] = v;
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
    TORCH_CHECK(k <= 8192, "this kernel supports k <= 8192");
    auto out = torch::empty({(int64_t)rows, k}, xc.options());
    if (rows == 0 || k == 0) return out;
    const size_t limit = 46 * 1024;  // leave room for the static shared arrays
    int staged = ((size_t)(k + cols) * 4 <= limit) ? 1 : 0;
    const size_t smem = (size_t)(k + (staged ? cols : 0)) * 4;
    const int threads = 256;
    topk_radix_select_kernel<<<rows, threads, smem>>>(xc.data_ptr<float>(), out.data_ptr<float>(),
                                                      rows, cols, (int)k, staged);
    return out;
}
"""

my_mod = load_inline(
    name="s45_topk_rows_block_radix_select",
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
