# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gather_dim1_cuda(torch::Tensor x, torch::Tensor index);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: one block per row. The whole x row is first copied into shared memory with coalesced
// (float4 when possible) loads, then the block serves all picks of that row from shared memory,
// so the data-dependent accesses never go to global memory. Rows too long for shared memory use
// a direct one-thread-per-output gather instead.

#define THREADS 256

__global__ void gather_smem_row_kernel(const float* __restrict__ x, const int64_t* __restrict__ idx,
                                       float* __restrict__ out, int xcols, int64_t picks, int vec) {
    extern __shared__ float srow[];
    const int64_t r = blockIdx.x;
    const float* xr = x + r * (int64_t)xcols;
    if (vec) {
        const float4* xr4 = reinterpret_cast<const float4*>(xr);
        float4* s4 = reinterpret_cast<float4*>(srow);
        const int n4 = xcols >> 2;
        for (int i = threadIdx.x; i < n4; i += THREADS) s4[i] = __ldg(xr4 + i);
    } else {
        for (int i = threadIdx.x; i < xcols; i += THREADS) srow[i] = __ldg(xr + i);
    }
    __syncthreads();
    const int64_t* ir = idx + r * picks;
    float* orow = out + r * picks;
    for (int64_t j = threadIdx.x; j < picks; j += THREADS) orow[j] = srow[__ldg(ir + j)];
}

__global__ void gather_direct_kernel(const float* __restrict__ x, const int64_t* __restrict__ idx,
                                     float* __restrict__ out, int64_t total, int64_t xcols,
                                     int64_t picks) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    const int64_t r = i / picks;
    out[i] = __ldg(x + r * xcols + __ldg(idx + i));
}

torch::Tensor gather_dim1_cuda(torch::Tensor x, torch::Tensor index) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(index.is_cuda(), "index must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && index.dim() == 2, "x and index must be 2-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(index.scalar_type() == torch::kLong, "index must be int64");
    auto xc = x.contiguous();
    auto ic = index.contiguous();
    const int64_t rows = ic.size(0);
    const int64_t picks = ic.size(1);
    const int64_t xcols = xc.size(1);
    TORCH_CHECK(rows <= xc.size(0), "index has more rows than x");
    auto out = torch::empty({rows, picks}, xc.options());
    if (rows == 0 || picks == 0) return out;
    const float* xp = xc.data_ptr<float>();
    const int64_t* ip = ic.data_ptr<int64_t>();
    float* op = out.data_ptr<float>();
    const size_t smem = (size_t)xcols * sizeof(float);
    if (xcols > 0 && smem <= 48 * 1024 && rows <= 2147483647LL) {
        const int vec = (xcols % 4 == 0) && (reinterpret_cast<uintptr_t>(xp) % 16 == 0);
        gather_smem_row_kernel<<<(unsigned int)rows, THREADS, smem>>>(xp, ip, op, (int)xcols, picks, vec);
    } else {
        const int64_t total = rows * picks;
        const int64_t blocks = (total + THREADS - 1) / THREADS;
        gather_direct_kernel<<<(unsigned int)blocks, THREADS>>>(xp, ip, op, total, xcols, picks);
    }
    return out;
}
"""

my_mod = load_inline(
    name="s45_gather_dim1_smem_row_stage",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gather_dim1_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        return my_mod.gather_dim1_cuda(x, index)
