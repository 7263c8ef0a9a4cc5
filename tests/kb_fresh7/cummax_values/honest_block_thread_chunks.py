# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cummax_chunks(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

#define NT 256                  // threads per block
#define PER 16                  // elements per thread
#define TILE (NT * PER)         // 4096 elements per tile
#define PAD(i) ((i) + ((i) >> 5))   // skew to avoid bank conflicts on strided access

// One block per row. Tile of 4096 elements staged through shared memory with coalesced
// loads/stores; each thread does a serial scan over its 16 contiguous elements, the 256
// per-thread totals are scanned with warp shuffles + a second warp pass over warp totals,
// and each thread's exclusive prefix is folded back into its elements.
__global__ void __launch_bounds__(NT) cummax_chunks_kernel(const float* __restrict__ x, float* __restrict__ y, int L) {
    __shared__ float s[PAD(TILE)];
    __shared__ float s_warp[NT / 32];
    __shared__ float s_carry;
    const int tid = threadIdx.x, lane = tid & 31, wid = tid >> 5;
    const long long row = blockIdx.x;
    const float* xr = x + row * L;
    float* yr = y + row * L;
    if (tid == 0) s_carry = -INFINITY;
    __syncthreads();

    for (int base = 0; base < L; base += TILE) {
        // coalesced load
#pragma unroll
        for (int k = 0; k < PER; ++k) {
            int e = k * NT + tid;
            int g = base + e;
            s[PAD(e)] = (g < L) ? __ldg(xr + g) : -INFINITY;
        }
        __syncthreads();

        // serial scan of this thread's contiguous chunk
        float vals[PER];
        float run = -INFINITY;
#pragma unroll
        for (int k = 0; k < PER; ++k) {
            run = fmaxf(run, s[PAD(tid * PER + k)]);
            vals[k] = run;
        }

        // inclusive warp scan of thread totals
        float inc = run;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            float t = __shfl_up_sync(0xffffffffu, inc, off);
            if (lane >= off) inc = fmaxf(inc, t);
        }
        if (lane == 31) s_warp[wid] = inc;
        __syncthreads();
        if (wid == 0) {
            float w = (lane < NT / 32) ? s_warp[lane] : -INFINITY;
#pragma unroll
            for (int off = 1; off < 32; off <<= 1) {
                float t = __shfl_up_sync(0xffffffffu, w, off);
                if (lane >= off) w = fmaxf(w, t);
            }
            if (lane < NT / 32) s_warp[lane] = w;
        }
        __syncthreads();

        // exclusive prefix for this thread = max(carry, earlier warps, earlier lanes)
        float excl = __shfl_up_sync(0xffffffffu, inc, 1);
        if (lane == 0) excl = -INFINITY;
        if (wid > 0) excl = fmaxf(excl, s_warp[wid - 1]);
        excl = fmaxf(excl, s_carry);
#pragma unroll
        for (int k = 0; k < PER; ++k) s[PAD(tid * PER + k)] = fmaxf(vals[k], excl);
        __syncthreads();

        // coalesced store
#pragma unroll
        for (int k = 0; k < PER; ++k) {
            int e = k * NT + tid;
            int g = base + e;
            if (g < L) yr[g] = s[PAD(e)];
        }
        float new_carry = fmaxf(s_carry, s_warp[NT / 32 - 1]);
        __syncthreads();                 // all reads of s / s_carry / s_warp done
        if (tid == 0) s_carry = new_carry;
        __syncthreads();
    }
}

torch::Tensor cummax_chunks(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 2, "x must be a 2-D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    int B = x.size(0), L = x.size(1);
    auto y = torch::empty_like(x);
    if (B == 0 || L == 0) return y;
    cummax_chunks_kernel<<<B, NT>>>(x.data_ptr<float>(), y.data_ptr<float>(), L);
    return y;
}
"""

cummax_chunks_mod = load_inline(
    name="cummax_values_block_thread_chunks",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cummax_chunks"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return cummax_chunks_mod.cummax_chunks(x)
