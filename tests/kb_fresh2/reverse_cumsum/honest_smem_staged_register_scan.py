# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

staged_scan_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define THREADS 256
#define ITEMS 16
#define TILE (THREADS * ITEMS)
#define NWARPS (THREADS / 32)
// pad one float every 32 so that "thread t reads elements 16t..16t+15" is bank-conflict free
#define PAD(i) ((i) + ((i) >> 5))

// One block per row. The row is processed from its last tile to its first (tiles of 4096 elements):
//  1. coalesced load of the tile into shared memory,
//  2. each thread takes 16 consecutive elements into registers and computes their suffix sums,
//  3. a block-wide suffix scan of the per-thread totals (warp shuffles + per-warp totals in smem),
//  4. results go back through shared memory and are stored coalesced.
__global__ void reverse_cumsum_staged_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t len) {
    __shared__ float tile[PAD(TILE) + 1];
    __shared__ float warp_tot[NWARPS];
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int64_t row = blockIdx.x;
    const float* xr = x + row * len;
    float* yr = y + row * len;

    const int64_t ntiles = (len + TILE - 1) / TILE;
    float carry = 0.0f;
    for (int64_t t = ntiles - 1; t >= 0; --t) {
        const int64_t base = t * TILE;
        // 1. coalesced load (zeros past the end of the row do not change any valid suffix sum)
#pragma unroll 4
        for (int k = tid; k < TILE; k += THREADS) {
            int64_t col = base + k;
            tile[PAD(k)] = (col < len) ? xr[col] : 0.0f;
        }
        __syncthreads();

        // 2. per-thread suffix sums over 16 consecutive elements
        float s[ITEMS];
        float acc = 0.0f;
#pragma unroll
        for (int j = ITEMS - 1; j >= 0; --j) {
            acc += tile[PAD(tid * ITEMS + j)];
            s[j] = acc;
        }

        // 3. inclusive suffix scan of thread totals inside the warp
        float incl = acc;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            float n = __shfl_down_sync(0xffffffff, incl, o);
            if (lane + o < 32) incl += n;
        }
        float excl = __shfl_down_sync(0xffffffff, incl, 1);
        if (lane == 31) excl = 0.0f;
        if (lane == 0) warp_tot[warp] = incl;  // lane 0 holds the whole warp's sum
        __syncthreads();

        float later_warps = 0.0f;
        float tile_total = 0.0f;
#pragma unroll
        for (int w = 0; w < NWARPS; ++w) {
            float v = warp_tot[w];
            tile_total += v;
            if (w > warp) later_warps += v;
        }
        const float off = carry + later_warps + excl;
#pragma unroll
        for (int j = 0; j < ITEMS; ++j) tile[PAD(tid * ITEMS + j)] = s[j] + off;
        __syncthreads();

        // 4. coalesced store
#pragma unroll 4
        for (int k = tid; k < TILE; k += THREADS) {
            int64_t col = base + k;
            if (col < len) yr[col] = tile[PAD(k)];
        }
        carry += tile_total;
        __syncthreads();  // tile and warp_tot are reused by the next iteration
    }
}

torch::Tensor reverse_cumsum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2D (rows, len)");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const int64_t rows = x.size(0);
    const int64_t len = x.size(1);
    if (rows == 0 || len == 0) return y;
    reverse_cumsum_staged_kernel<<<(unsigned int)rows, THREADS, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), len);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

staged_scan_cpp = "torch::Tensor reverse_cumsum_cuda(torch::Tensor x);"

staged_scan = load_inline(
    name="reverse_cumsum_smem_staged_register_scan",
    cpp_sources=staged_scan_cpp,
    cuda_sources=staged_scan_source,
    functions=["reverse_cumsum_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        xt = x.movedim(d, -1).contiguous()
        shape = xt.shape
        out = staged_scan.reverse_cumsum_cuda(xt.view(-1, shape[-1]))
        return out.view(shape).movedim(-1, d)
