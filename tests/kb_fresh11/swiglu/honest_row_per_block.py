# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor swiglu_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: one thread block per token row; the threads sweep the hidden dimension with a
// block-stride loop, so no per-element division is needed and each warp's loads are coalesced.

__global__ void swiglu_row_kernel(const float* __restrict__ x, float* __restrict__ y,
                                  long long rows, int hid) {
    for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
        const float* xa = x + r * 2 * (long long)hid;
        const float* xb = xa + hid;
        float* yr = y + r * (long long)hid;
        for (int j = threadIdx.x; j < hid; j += blockDim.x) {
            float a = xa[j];
            float g = xb[j];
            yr[j] = a / (1.0f + expf(-a)) * g;
        }
    }
}

torch::Tensor swiglu_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1 && x.size(-1) % 2 == 0, "last dim must be even");
    auto xc = x.contiguous();
    long long D = xc.size(-1);
    long long hid = D / 2;
    TORCH_CHECK(hid < (1LL << 31), "hidden size too large");
    auto sizes = xc.sizes().vec();
    sizes.back() = hid;
    auto y = torch::empty(sizes, xc.options());
    long long total = y.numel();
    if (total == 0) return y;
    long long rows = total / hid;
    long long blocks = rows < 2147483647LL ? rows : 2147483647LL;
    swiglu_row_kernel<<<(unsigned int)blocks, 256>>>(xc.data_ptr<float>(), y.data_ptr<float>(), rows, (int)hid);
    return y;
}
"""

my_mod = load_inline(
    name="swiglu_row_per_block_s45",
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
