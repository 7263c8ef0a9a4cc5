# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cumprod_warp(torch::Tensor x, int64_t dim);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

// Persistent grid of warps; each warp grid-strides over rows. A row is scanned
// in coalesced 32-element tiles with a __shfl_up_sync inclusive scan, and the
// running product is carried in a register (broadcast from lane 31).
__global__ void cumprod_warp_kernel(const float* __restrict__ x, float* __restrict__ y,
                                    long long rows, long long L) {
    const int lane = threadIdx.x & 31;
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
    for (long long r = warp; r < rows; r += nwarps) {
        const float* xr = x + r * L;
        float* yr = y + r * L;
        float carry = 1.0f;
        for (long long base = 0; base < L; base += 32) {
            long long j = base + lane;
            float v = (j < L) ? __ldg(xr + j) : 1.0f;
#pragma unroll
            for (int off = 1; off < 32; off <<= 1) {
                float n = __shfl_up_sync(FULL_MASK, v, off);
                if (lane >= off) v *= n;
            }
            float out = carry * v;
            if (j < L) yr[j] = out;
            carry = __shfl_sync(FULL_MASK, out, 31);
        }
    }
}

torch::Tensor cumprod_warp(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    int64_t nd = x.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim == nd - 1, "this kernel scans the last dimension only");
    long long L = x.size(nd - 1);
    auto y = torch::empty_like(x);
    if (x.numel() == 0) return y;
    long long rows = x.numel() / L;

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    const int threads = 256;                      // 8 warps per block
    const int warps_per_block = threads / 32;
    long long need = (rows + warps_per_block - 1) / warps_per_block;
    long long cap = (long long)sms * 8;           // persistent: ~8 blocks per SM
    long long blocks = need < cap ? need : cap;
    cumprod_warp_kernel<<<(unsigned int)blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, L);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "cumprod_warp_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

_mod = load_inline(
    name="cumprod_dim_warp_shuffle_persistent",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cumprod_warp"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.cumprod_warp(x.contiguous(), self.dim)
