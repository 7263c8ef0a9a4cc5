# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cummax_serial(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per row, sequential running max along the row.
// Neighbouring threads read addresses L floats apart (uncoalesced).
__global__ void cummax_serial_kernel(const float* __restrict__ x, float* __restrict__ y, int B, int L) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= B) return;
    const float* xr = x + (long long)row * L;
    float* yr = y + (long long)row * L;
    float run = xr[0];
    yr[0] = run;
    for (int i = 1; i < L; ++i) {
        float v = xr[i];
        // propagate NaN like torch.cummax: once NaN is seen it stays
        if (v > run || v != v) run = (run != run) ? run : v;
        yr[i] = run;
    }
}

torch::Tensor cummax_serial(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 2, "x must be a 2-D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    int B = x.size(0), L = x.size(1);
    auto y = torch::empty_like(x);
    if (B == 0 || L == 0) return y;
    int threads = 128;
    cummax_serial_kernel<<<(B + threads - 1) / threads, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), B, L);
    return y;
}
"""

cummax_serial_mod = load_inline(
    name="cummax_values_serial_row",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cummax_serial"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return cummax_serial_mod.cummax_serial(x)
