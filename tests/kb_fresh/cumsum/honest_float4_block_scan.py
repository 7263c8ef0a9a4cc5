# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

scan_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <stdint.h>

#define THREADS 1024
#define NUM_WARPS (THREADS / 32)
#define ITEMS 4
#define TILE (THREADS * ITEMS)

__device__ __forceinline__ float warp_inclusive_scan(float v, int lane) {
    #pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        float n = __shfl_up_sync(0xffffffff, v, off);
        if (lane >= off) v += n;
    }
    return v;
}

// One block per row, TILE = 4096 elements per iteration. Each thread loads 4 consecutive elements
// with one float4 load, scans them in registers, and the 1024 thread totals are scanned with warp
// shuffles plus one shared array of warp totals. A running carry links the tiles of the row.
__global__ void cumsum_float4_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     int len, bool vec_ok) {
    __shared__ float warp_sums[NUM_WARPS];
    const int64_t row = blockIdx.x;
    const float* xr = x + row * len;
    float* yr = y + row * len;
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int wid = tid >> 5;

    float carry = 0.0f;
    for (int base = 0; base < len; base += TILE) {
        const int i = base + tid * ITEMS;
        float v0 = 0.0f, v1 = 0.0f, v2 = 0.0f, v3 = 0.0f;
        if (vec_ok && i + 3 < len) {
            float4 q = *reinterpret_cast<const float4*>(xr + i);
            v0 = q.x; v1 = q.y; v2 = q.z; v3 = q.w;
        } else {
            if (i < len) v0 = xr[i];
            if (i + 1 < len) v1 = xr[i + 1];
            if (i + 2 < len) v2 = xr[i + 2];
            if (i + 3 < len) v3 = xr[i + 3];
        }
        // thread-local inclusive scan
        v1 += v0;
        v2 += v1;
        v3 += v2;

        // exclusive scan of thread totals inside the warp
        float incl = warp_inclusive_scan(v3, lane);
        float excl = __shfl_up_sync(0xffffffff, incl, 1);
        if (lane == 0) excl = 0.0f;
        if (lane == 31) warp_sums[wid] = incl;
        __syncthreads();

        // scan of the warp totals by the first warp
        if (wid == 0) {
            float w = (lane < NUM_WARPS) ? warp_sums[lane] : 0.0f;
            w = warp_inclusive_scan(w, lane);
            if (lane < NUM_WARPS) warp_sums[lane] = w;
        }
        __syncthreads();

        const float prefix = carry + excl + (wid > 0 ? warp_sums[wid - 1] : 0.0f);
        v0 += prefix; v1 += prefix; v2 += prefix; v3 += prefix;
        if (vec_ok && i + 3 < len) {
            *reinterpret_cast<float4*>(yr + i) = make_float4(v0, v1, v2, v3);
        } else {
            if (i < len) yr[i] = v0;
            if (i + 1 < len) yr[i + 1] = v1;
            if (i + 2 < len) yr[i + 2] = v2;
            if (i + 3 < len) yr[i + 3] = v3;
        }
        carry += warp_sums[NUM_WARPS - 1];
        __syncthreads();  // warp_sums is rewritten by the next tile
    }
}

torch::Tensor cumsum_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int len = xc.size(-1);
    const int rows = xc.numel() / len;
    auto y = torch::empty_like(xc);
    const bool vec_ok = (len % 4 == 0) &&
                        (reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) % 16 == 0) &&
                        (reinterpret_cast<uintptr_t>(y.data_ptr<float>()) % 16 == 0);
    cumsum_float4_kernel<<<rows, THREADS, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), len, vec_ok);
    return y;
}
"""

scan_cpp_source = "torch::Tensor cumsum_forward(torch::Tensor x);"

cumsum_vec = load_inline(
    name="kbf_cumsum_float4_block_scan",
    cpp_sources=scan_cpp_source,
    cuda_sources=scan_source,
    functions=["cumsum_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim % x.dim()
        if dim != x.dim() - 1:
            out = cumsum_vec.cumsum_forward(x.movedim(dim, -1).contiguous())
            return out.movedim(-1, dim)
        return cumsum_vec.cumsum_forward(x)
