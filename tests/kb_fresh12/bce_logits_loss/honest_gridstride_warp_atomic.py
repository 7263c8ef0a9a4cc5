# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor bce_logits_mean_cuda(torch::Tensor logits, torch::Tensor targets);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Grid-stride loop over scalar elements with a fixed grid (a few blocks per SM),
// per-thread accumulation in registers, warp-shuffle reduction, and one double-precision
// atomicAdd per warp. A tiny kernel converts the sum into the mean.

__device__ __forceinline__ float bce_elem(float x, float t) {
    return fmaxf(x, 0.0f) - x * t + log1pf(expf(-fabsf(x)));
}

__global__ void bce_gridstride_warp_kernel(const float* __restrict__ x,
                                           const float* __restrict__ t,
                                           double* __restrict__ acc,
                                           long long n) {
    long long stride = (long long)gridDim.x * blockDim.x;
    float sum = 0.0f;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        sum += bce_elem(__ldg(x + i), __ldg(t + i));
    }
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    }
    if ((threadIdx.x & 31) == 0) atomicAdd(acc, (double)sum);
}

__global__ void bce_finalize_kernel(const double* __restrict__ acc, float* __restrict__ out, double n) {
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = (float)(acc[0] / n);
}

torch::Tensor bce_logits_mean_cuda(torch::Tensor logits, torch::Tensor targets) {
    TORCH_CHECK(logits.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(logits.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32,
                "inputs must be float32");
    TORCH_CHECK(logits.numel() == targets.numel(), "logits and targets must have the same size");
    auto xc = logits.contiguous();
    auto tc = targets.contiguous();
    long long n = xc.numel();
    auto acc = torch::zeros({1}, xc.options().dtype(torch::kFloat64));
    auto out = torch::empty({}, xc.options());

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 132;
    const int threads = 256;
    long long needed = (n + threads - 1) / threads;
    long long blocks = (long long)sms * 8;
    if (blocks > needed) blocks = needed;
    if (blocks > 0) {
        bce_gridstride_warp_kernel<<<(unsigned int)blocks, threads>>>(
            xc.data_ptr<float>(), tc.data_ptr<float>(), acc.data_ptr<double>(), n);
    }
    bce_finalize_kernel<<<1, 1>>>(acc.data_ptr<double>(), out.data_ptr<float>(), (double)n);
    return out;
}
"""

bce_mod = load_inline(
    name="s46_bce_gridstride_warp_atomic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["bce_logits_mean_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return bce_mod.bce_logits_mean_cuda(logits, targets)
