# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cumprod_hs(torch::Tensor x, int64_t dim);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define HS_THREADS 1024

// One block per row. The row is processed in tiles of HS_THREADS elements;
// each tile is scanned with a double-buffered Hillis-Steele scan in shared
// memory and multiplied by the running product of all previous tiles.
__global__ void cumprod_hs_kernel(const float* __restrict__ x, float* __restrict__ y,
                                  long long rows, long long L) {
    __shared__ float buf[2][HS_THREADS];
    const int tid = threadIdx.x;
    long long row = blockIdx.x;
    if (row >= rows) return;
    const float* xr = x + row * L;
    float* yr = y + row * L;

    float carry = 1.0f;
    for (long long base = 0; base < L; base += HS_THREADS) {
        long long j = base + tid;
        buf[0][tid] = (j < L) ? xr[j] : 1.0f;
        __syncthreads();
        int in = 0;
        for (int off = 1; off < HS_THREADS; off <<= 1) {
            float v = buf[in][tid];
            if (tid >= off) v *= buf[in][tid - off];
            buf[in ^ 1][tid] = v;
            __syncthreads();
            in ^= 1;
        }
        float pref = buf[in][tid];
        if (j < L) yr[j] = carry * pref;
        carry *= buf[in][HS_THREADS - 1];
        __syncthreads();   // everyone has read buf before the next tile overwrites it
    }
}

torch::Tensor cumprod_hs(torch::Tensor x, int64_t dim) {
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
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    cumprod_hs_kernel<<<(unsigned int)rows, HS_THREADS>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, L);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "cumprod_hs_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

_mod = load_inline(
    name="cumprod_dim_smem_hillis_steele",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cumprod_hs"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _mod.cumprod_hs(x.contiguous(), self.dim)
