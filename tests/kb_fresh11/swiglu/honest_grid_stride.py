# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor swiglu_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: fixed-size grid (a few blocks per SM) with a grid-stride loop over all outputs,
// scalar loads through the read-only cache (__ldg).

__global__ void swiglu_gridstride_kernel(const float* __restrict__ x, float* __restrict__ y,
                                         long long total, long long hid) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        long long r = i / hid;
        long long j = i - r * hid;
        const float* xr = x + r * 2 * hid;
        float a = __ldg(xr + j);
        float g = __ldg(xr + hid + j);
        y[i] = a / (1.0f + expf(-a)) * g;
    }
}

torch::Tensor swiglu_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1 && x.size(-1) % 2 == 0, "last dim must be even");
    auto xc = x.contiguous();
    long long D = xc.size(-1);
    long long hid = D / 2;
    auto sizes = xc.sizes().vec();
    sizes.back() = hid;
    auto y = torch::empty(sizes, xc.options());
    long long total = y.numel();
    if (total == 0) return y;
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 132;
    int threads = 256;
    long long need = (total + threads - 1) / threads;
    long long blocks = (long long)sms * 8;
    if (blocks > need) blocks = need;
    swiglu_gridstride_kernel<<<(unsigned int)blocks, threads>>>(xc.data_ptr<float>(), y.data_ptr<float>(), total, hid);
    return y;
}
"""

my_mod = load_inline(
    name="swiglu_grid_stride_s45",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["swiglu_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.swiglu_cuda(x)
