# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor logsumexp_block_online(torch::Tensor x);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>

#define BLOCK 256
#define NWARPS (BLOCK / 32)
#define FULL_MASK 0xffffffffu

// Online (single-pass) logsumexp state: the pair (m, s) stands for s * exp(m).
__device__ __forceinline__ void online_add(float& m, float& s, float v) {
    if (v > m) {
        s = s * __expf(m - v) + 1.0f;   // m == -inf gives s * 0 + 1
        m = v;
    } else if (v != -INFINITY) {
        s += __expf(v - m);             // NaN falls through to here and propagates
    }
}

__device__ __forceinline__ void online_add4(float& m, float& s, float4 v) {
    const float vm = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
    const float M = fmaxf(m, vm);
    if (M == -INFINITY) return;         // all -inf so far: nothing to add
    s = s * __expf(m - M) + __expf(v.x - M) + __expf(v.y - M) + __expf(v.z - M) + __expf(v.w - M);
    m = M;
}

__device__ __forceinline__ void lse_merge(float& m, float& s, float m2, float s2) {
    const float M = fmaxf(m, m2);
    if (M == -INFINITY) return;
    s = s * __expf(m - M) + s2 * __expf(m2 - M);
    m = M;
}

__device__ __forceinline__ void warp_merge(float& m, float& s) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(FULL_MASK, m, o);
        const float s2 = __shfl_xor_sync(FULL_MASK, s, o);
        lse_merge(m, s, m2, s2);
    }
}

// One block per row, a single read of the row: each thread keeps a running (max, sum) that is rescaled
// whenever the max grows. VEC=true uses 16-byte float4 loads (row start 16B-aligned, cols % 4 == 0);
// VEC=false is the scalar fallback. Threads merge via warp shuffles, then warps via shared memory.
template <bool VEC>
__global__ void __launch_bounds__(BLOCK) logsumexp_block_online_kernel(const float* __restrict__ x,
                                                                       float* __restrict__ y, int cols) {
    __shared__ float sm[NWARPS], ss[NWARPS];
    const float* xr = x + (long long)blockIdx.x * cols;
    float m = -INFINITY, s = 0.0f;
    if (VEC) {
        const float4* xv = reinterpret_cast<const float4*>(xr);
        const int n4 = cols >> 2;
        for (int i = threadIdx.x; i < n4; i += BLOCK) online_add4(m, s, __ldg(xv + i));
    } else {
        for (int c = threadIdx.x; c < cols; c += BLOCK) online_add(m, s, __ldg(xr + c));
    }
    warp_merge(m, s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) { sm[warp] = m; ss[warp] = s; }
    __syncthreads();
    if (warp == 0) {
        m = (lane < NWARPS) ? sm[lane] : -INFINITY;
        s = (lane < NWARPS) ? ss[lane] : 0.0f;
        warp_merge(m, s);
        if (lane == 0) y[blockIdx.x] = (m == -INFINITY) ? -INFINITY : m + logf(s);
    }
}

torch::Tensor logsumexp_block_online(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    const long long cols = xc.size(-1);
    TORCH_CHECK(cols > 0 && cols < 2147483647LL, "bad last dimension");
    const long long rows = xc.numel() / cols;
    TORCH_CHECK(rows < 2147483647LL, "too many rows");
    auto out_sizes = xc.sizes().vec();
    out_sizes.pop_back();
    auto y = torch::empty(out_sizes, xc.options());
    if (rows == 0) return y;
    const float* xp = xc.data_ptr<float>();
    // every row start is 16B-aligned iff the base is and cols is a multiple of 4
    const bool vec = (cols % 4 == 0) && (reinterpret_cast<uintptr_t>(xp) % 16 == 0);
    if (vec) {
        logsumexp_block_online_kernel<true><<<(unsigned)rows, BLOCK>>>(xp, y.data_ptr<float>(), (int)cols);
    } else {
        logsumexp_block_online_kernel<false><<<(unsigned)rows, BLOCK>>>(xp, y.data_ptr<float>(), (int)cols);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

logsumexp_block_online_mod = load_inline(
    name="logsumexp_lastdim_block_online_float4_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["logsumexp_block_online"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return logsumexp_block_online_mod.logsumexp_block_online(x)
