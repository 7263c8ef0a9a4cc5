# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gather_dim1_cuda(torch::Tensor x, torch::Tensor index);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: each thread produces 4 consecutive outputs of a row: the 4 int64 indices come in as two
// 16-byte longlong2 loads, the 4 x values are fetched through the read-only cache, and the result
// is written with one float4 store. Falls back to a scalar one-thread-per-output kernel when picks
// is not a multiple of 4 or the pointers are not 16-byte aligned.

__global__ void gather_vec4_kernel(const float* __restrict__ x, const int64_t* __restrict__ idx,
                                   float* __restrict__ out, int64_t total4, int64_t xcols,
                                   int64_t picks4) {
    const int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= total4) return;
    const int64_t r = q / picks4;
    const float* xr = x + r * xcols;
    const longlong2* i2 = reinterpret_cast<const longlong2*>(idx) + 2 * q;
    const longlong2 a = __ldg(i2);
    const longlong2 b = __ldg(i2 + 1);
    float4 v;
    v.x = __ldg(xr + a.x);
    v.y = __ldg(xr + a.y);
    v.z = __ldg(xr + b.x);
    v.w = __ldg(xr + b.y);
    reinterpret_cast<float4*>(out)[q] = v;
}

__global__ void gather_scalar_kernel(const float* __restrict__ x, const int64_t* __restrict__ idx,
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
    const int64_t total = rows * picks;
    const int threads = 256;
    const bool vec = (picks % 4 == 0) && (reinterpret_cast<uintptr_t>(ip) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(op) % 16 == 0);
    if (vec) {
        const int64_t total4 = total / 4;
        const int64_t blocks = (total4 + threads - 1) / threads;
        gather_vec4_kernel<<<(unsigned int)blocks, threads>>>(xp, ip, op, total4, xcols, picks / 4);
    } else {
        const int64_t blocks = (total + threads - 1) / threads;
        gather_scalar_kernel<<<(unsigned int)blocks, threads>>>(xp, ip, op, total, xcols, picks);
    }
    return out;
}
"""

my_mod = load_inline(
    name="s45_gather_dim1_vec4_indices",
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
