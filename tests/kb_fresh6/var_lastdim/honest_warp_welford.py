# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor var_welford(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

// Chan et al. pairwise combination of (count, mean, M2) partial statistics.
__device__ __forceinline__ void welford_merge(float& n, float& mean, float& m2,
                                              float nb, float meanb, float m2b) {
    if (nb == 0.0f) return;
    if (n == 0.0f) { n = nb; mean = meanb; m2 = m2b; return; }
    float nt = n + nb;
    float delta = meanb - mean;
    float f = nb / nt;
    mean += delta * f;
    m2 += m2b + delta * delta * n * f;
    n = nt;
}

// One warp per row, warps grid-stride over rows. Each lane runs Welford's
// online update over a strided (coalesced) slice of the row; the 32 partial
// states are merged with __shfl_xor_sync butterflies.
__global__ void var_welford_kernel(const float* __restrict__ x, float* __restrict__ out,
                                   long long rows, long long cols) {
    const int lane = threadIdx.x & 31;
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
    for (long long r = warp; r < rows; r += nwarps) {
        const float* xr = x + r * cols;
        float n = 0.0f, mean = 0.0f, m2 = 0.0f;
        for (long long c = lane; c < cols; c += 32) {
            float v = __ldg(xr + c);
            n += 1.0f;
            float d = v - mean;
            mean += d / n;
            m2 += d * (v - mean);
        }
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) {
            float nb = __shfl_xor_sync(FULL_MASK, n, off);
            float mb = __shfl_xor_sync(FULL_MASK, mean, off);
            float qb = __shfl_xor_sync(FULL_MASK, m2, off);
            welford_merge(n, mean, m2, nb, mb, qb);
        }
        if (lane == 0) out[r] = m2 / (float)(cols - 1);
    }
}

torch::Tensor var_welford(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto sizes = x.sizes().vec();
    long long cols = sizes.back();
    sizes.back() = 1;
    auto out = torch::empty(sizes, x.options());
    if (out.numel() == 0) return out;
    long long rows = out.numel();
    if (cols == 0) { out.fill_(NAN); return out; }

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    const int threads = 256;
    long long need = (rows * 32 + threads - 1) / threads;
    long long cap = (long long)sms * 8;
    long long blocks = need < cap ? need : cap;
    var_welford_kernel<<<(unsigned int)blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "var_welford_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_mod = load_inline(
    name="var_lastdim_warp_welford",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["var_welford"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.var_welford(x.contiguous())
