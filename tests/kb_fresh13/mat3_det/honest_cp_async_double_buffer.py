# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <stdint.h>
// Strategy: persistent blocks with a two-stage shared-memory pipeline. While the block computes the
// determinants of tile i from one buffer, the asynchronous copies (cp.async via __pipeline_memcpy_async,
// 16-byte chunks, 4-byte for a partial/unaligned tile) of tile i+gridDim are already in flight into
// the other buffer. Each thread computes 2 determinants per 512-matrix tile, outputs are coalesced.

#define CA_THREADS 256
#define CA_TILE 512
#define CA_FLOATS (CA_TILE * 9)

__device__ __forceinline__ float det3_at(const float* a) {
    return a[0] * (a[4] * a[8] - a[5] * a[7])
         - a[1] * (a[3] * a[8] - a[5] * a[6])
         + a[2] * (a[3] * a[7] - a[4] * a[6]);
}

__device__ __forceinline__ void issue_tile(float* dst, const float* __restrict__ x, long long n,
                                           long long tile, bool aligned) {
    const long long base = tile * CA_TILE;
    long long rem = n - base;
    const int nm = rem < CA_TILE ? (int)rem : CA_TILE;
    const float* src = x + base * 9;
    if (aligned && nm == CA_TILE) {
        for (int idx = threadIdx.x; idx < CA_FLOATS / 4; idx += CA_THREADS)
            __pipeline_memcpy_async(dst + idx * 4, src + idx * 4, 16);
    } else {
        const int nf = nm * 9;
        for (int idx = threadIdx.x; idx < nf; idx += CA_THREADS)
            __pipeline_memcpy_async(dst + idx, src + idx, 4);
    }
}

__global__ void __launch_bounds__(CA_THREADS)
det3_cp_async_kernel(const float* __restrict__ x, float* __restrict__ y, long long n,
                     long long num_tiles, bool aligned) {
    __shared__ __align__(16) float buf[2][CA_FLOATS];
    const int tid = threadIdx.x;
    long long tile = blockIdx.x;
    int stage = 0;
    if (tile < num_tiles) issue_tile(buf[0], x, n, tile, aligned);
    __pipeline_commit();

    for (; tile < num_tiles; tile += gridDim.x) {
        long long next = tile + gridDim.x;
        if (next < num_tiles) issue_tile(buf[stage ^ 1], x, n, next, aligned);
        __pipeline_commit();
        __pipeline_wait_prior(1);  // this thread's copies for the current tile have landed
        __syncthreads();           // ... and everybody else's

        const long long base = tile * CA_TILE;
        long long rem = n - base;
        const int nm = rem < CA_TILE ? (int)rem : CA_TILE;
        const float* s = buf[stage];
#pragma unroll
        for (int k = 0; k < CA_TILE / CA_THREADS; ++k) {
            int m = k * CA_THREADS + tid;
            if (m < nm) y[base + m] = det3_at(s + m * 9);
        }
        __syncthreads();  // buf[stage] is refilled by the next iteration's prefetch
        stage ^= 1;
    }
    __pipeline_wait_prior(0);
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() >= 2 && x.size(-1) == 3 && x.size(-2) == 3, "x must have shape (..., 3, 3)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto sizes = xc.sizes().vec();
    sizes.pop_back();
    sizes.pop_back();
    auto out = torch::empty(sizes, xc.options());
    long long n = xc.numel() / 9;
    if (n == 0) return out;
    const float* xp = xc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    bool aligned = (reinterpret_cast<uintptr_t>(xp) & 15) == 0;

    int dev = 0;
    cudaGetDevice(&dev);
    int num_sms = 0;
    cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, dev);
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, det3_cp_async_kernel, CA_THREADS, 0);
    if (per_sm < 1) per_sm = 1;
    if (num_sms < 1) num_sms = 1;
    long long num_tiles = (n + CA_TILE - 1) / CA_TILE;
    long long blocks = (long long)num_sms * per_sm;
    if (blocks > num_tiles) blocks = num_tiles;
    det3_cp_async_kernel<<<(unsigned int)blocks, CA_THREADS>>>(xp, yp, n, num_tiles, aligned);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_mat3_det_cp_async_double_buffer",
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
