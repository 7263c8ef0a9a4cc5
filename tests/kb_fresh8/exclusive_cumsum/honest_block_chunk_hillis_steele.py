# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# One 1024-thread block per row.  Each thread serially sums a contiguous chunk of the
# row, the 1024 chunk totals are scanned with a double-buffered Hillis-Steele scan in
# shared memory, and each thread then re-walks its chunk writing the exclusive sums.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define HS_THREADS 1024

__global__ void __launch_bounds__(HS_THREADS)
exclusive_cumsum_chunk_hs_kernel(const float* __restrict__ x, float* __restrict__ out, int N) {
    __shared__ float buf[2][HS_THREADS];
    const int row = blockIdx.x;
    const int t = threadIdx.x;
    const float* xr = x + (size_t)row * N;
    float* orow = out + (size_t)row * N;

    const int chunk = (N + HS_THREADS - 1) / HS_THREADS;
    const int start = t * chunk;
    const int end = min(start + chunk, N);

    float local = 0.0f;
    for (int j = start; j < end; ++j) local += xr[j];

    // Hillis-Steele inclusive scan over the per-thread chunk totals.
    int pin = 0;
    buf[0][t] = local;
    __syncthreads();
    for (int off = 1; off < HS_THREADS; off <<= 1) {
        float v = buf[pin][t];
        if (t >= off) v += buf[pin][t - off];
        buf[pin ^ 1][t] = v;
        pin ^= 1;
        __syncthreads();
    }
    // Exclusive prefix of this chunk = inclusive value of the previous thread.
    float run = (t > 0) ? buf[pin][t - 1] : 0.0f;
    for (int j = start; j < end; ++j) {
        orow[j] = run;
        run += xr[j];
    }
}

torch::Tensor exclusive_cumsum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D (B, N)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int B = (int)xc.size(0);
    const int N = (int)xc.size(1);
    if (B == 0 || N == 0) return out;
    exclusive_cumsum_chunk_hs_kernel<<<B, HS_THREADS>>>(xc.data_ptr<float>(), out.data_ptr<float>(), N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

cpp_source = "torch::Tensor exclusive_cumsum_cuda(torch::Tensor x);"

_ext = load_inline(
    name="exclusive_cumsum_chunk_hillis_steele",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["exclusive_cumsum_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2 and self.dim in (1, -1), "kernel scans along dim 1 of a 2-D tensor"
        return _ext.exclusive_cumsum_cuda(x)
