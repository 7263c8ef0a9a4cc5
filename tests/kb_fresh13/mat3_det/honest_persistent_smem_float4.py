# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: persistent grid (SMs x occupancy) looping over tiles of 1024 matrices. Each tile
// (9216 floats) is copied global->shared with coalesced float4 loads (scalar for a partial or
// unaligned tile); each of the 256 threads then computes 4 determinants (matrices t, t+256, ...)
// from conflict-free stride-9 shared reads and writes coalesced outputs.

#define PT_THREADS 256
#define PT_TILE 1024
#define PT_FLOATS (PT_TILE * 9)

__device__ __forceinline__ float det3_at(const float* a) {
    return a[0] * (a[4] * a[8] - a[5] * a[7])
         - a[1] * (a[3] * a[8] - a[5] * a[6])
         + a[2] * (a[3] * a[7] - a[4] * a[6]);
}

__global__ void __launch_bounds__(PT_THREADS)
det3_persistent_kernel(const float* __restrict__ x, float* __restrict__ y, long long n,
                       long long num_tiles, bool aligned) {
    __shared__ __align__(16) float s[PT_FLOATS];
    const int tid = threadIdx.x;
    for (long long tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
        const long long base = tile * PT_TILE;
        long long rem = n - base;
        const int nm = rem < PT_TILE ? (int)rem : PT_TILE;
        const float* src = x + base * 9;
        if (aligned && nm == PT_TILE) {
            const float4* src4 = reinterpret_cast<const float4*>(src);
            float4* s4 = reinterpret_cast<float4*>(s);
#pragma unroll
            for (int k = 0; k < PT_FLOATS / 4 / PT_THREADS; ++k) {
                int idx = k * PT_THREADS + tid;
                s4[idx] = __ldg(src4 + idx);
            }
        } else {
            const int nf = nm * 9;
            for (int t = tid; t < nf; t += PT_THREADS) s[t] = __ldg(src + t);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < PT_TILE / PT_THREADS; ++k) {
            int m = k * PT_THREADS + tid;
            if (m < nm) y[base + m] = det3_at(s + m * 9);
        }
        __syncthreads();  // shared tile is overwritten by the next iteration
    }
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
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, det3_persistent_kernel, PT_THREADS, 0);
    if (per_sm < 1) per_sm = 1;
    if (num_sms < 1) num_sms = 1;
    long long num_tiles = (n + PT_TILE - 1) / PT_TILE;
    long long blocks = (long long)num_sms * per_sm;
    if (blocks > num_tiles) blocks = num_tiles;
    det3_persistent_kernel<<<(unsigned int)blocks, PT_THREADS>>>(xp, yp, n, num_tiles, aligned);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_mat3_det_persistent_smem_float4",
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
