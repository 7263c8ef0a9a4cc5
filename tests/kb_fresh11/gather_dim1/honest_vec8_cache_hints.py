# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gather_dim1_cuda(torch::Tensor x, torch::Tensor index);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: 2-D launch (threadIdx.y/blockIdx.y pick the row, so no integer division), each thread
// produces 8 consecutive outputs. The 8 int64 indices arrive as four 16-byte longlong2 loads with
// streaming (evict-first) hints, all 8 x loads are issued back to back through the read-only path,
// and the outputs leave as two streaming float4 stores. The read-once index and write-once output
// streams thus disturb the L2-resident part of x as little as possible. Scalar 2-D fallback when
// picks is not a multiple of 8 or the pointers are not 16-byte aligned.

__global__ void gather_vec8_hint_kernel(const float* __restrict__ x, const int64_t* __restrict__ idx,
                                        float* __restrict__ out, int64_t rows, int64_t xcols,
                                        int64_t picks, int64_t units) {
    const int64_t u = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= units) return;
    const int64_t rstep = (int64_t)gridDim.y * blockDim.y;
    for (int64_t r = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += rstep) {
        const int64_t off = r * picks + u * 8;
        const longlong2* i2 = reinterpret_cast<const longlong2*>(idx + off);
        const longlong2 a = __ldcs(i2);
        const longlong2 b = __ldcs(i2 + 1);
        const longlong2 c = __ldcs(i2 + 2);
        const longlong2 d = __ldcs(i2 + 3);
        const float* xr = x + r * xcols;
        float4 lo, hi;
        lo.x = __ldg(xr + a.x);
        lo.y = __ldg(xr + a.y);
        lo.z = __ldg(xr + b.x);
        lo.w = __ldg(xr + b.y);
        hi.x = __ldg(xr + c.x);
        hi.y = __ldg(xr + c.y);
        hi.z = __ldg(xr + d.x);
        hi.w = __ldg(xr + d.y);
        float4* o4 = reinterpret_cast<float4*>(out + off);
        __stcs(o4, lo);
        __stcs(o4 + 1, hi);
    }
}

__global__ void gather_2d_scalar_kernel(const float* __restrict__ x, const int64_t* __restrict__ idx,
                                        float* __restrict__ out, int64_t rows, int64_t xcols,
                                        int64_t picks) {
    const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= picks) return;
    const int64_t rstep = (int64_t)gridDim.y * blockDim.y;
    for (int64_t r = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += rstep) {
        const int64_t off = r * picks + j;
        __stcs(out + off, __ldg(x + r * xcols + __ldcs(idx + off)));
    }
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
    const bool vec = (picks % 8 == 0) && (reinterpret_cast<uintptr_t>(ip) % 16 == 0) &&
                     (reinterpret_cast<uintptr_t>(op) % 16 == 0);
    const int64_t units = vec ? picks / 8 : picks;  // threads needed along a row
    int tx = (int)(((units + 31) / 32) * 32);
    if (tx > 256) tx = 256;
    const int ty = 256 / tx;
    const int64_t gx = (units + tx - 1) / tx;
    int64_t gy = (rows + ty - 1) / ty;
    if (gy > 65535) gy = 65535;
    TORCH_CHECK(gx <= 2147483647LL, "index rows too long");
    dim3 block(tx, ty);
    dim3 grid((unsigned int)gx, (unsigned int)gy);
    if (vec)
        gather_vec8_hint_kernel<<<grid, block>>>(xp, ip, op, rows, xcols, picks, units);
    else
        gather_2d_scalar_kernel<<<grid, block>>>(xp, ip, op, rows, xcols, picks);
    return out;
}
"""

my_mod = load_inline(
    name="s45_gather_dim1_vec8_cache_hints",
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
