# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gather_dim1_cuda(torch::Tensor x, torch::Tensor index);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: persistent grid sized from the occupancy calculator, grid-stride loop in which every
// thread handles 4 outputs spaced one grid-width apart: all 4 index loads are issued first, then
// the 4 dependent x loads, so more memory requests are in flight per thread. 32-bit indexing
// (no 64-bit division) when the sizes allow it.

#define ILP 4

template <typename IdxT>
__global__ void gather_gridstride_kernel(const float* __restrict__ x, const int64_t* __restrict__ idx,
                                         float* __restrict__ out, IdxT total, IdxT xcols, IdxT picks) {
    const IdxT stride = (IdxT)gridDim.x * blockDim.x;
    for (IdxT base = (IdxT)blockIdx.x * blockDim.x + threadIdx.x; base < total; base += stride * ILP) {
        int64_t col[ILP];
        #pragma unroll
        for (int u = 0; u < ILP; ++u) {
            const IdxT i = base + u * stride;
            col[u] = (i < total) ? __ldg(idx + i) : 0;
        }
        float v[ILP];
        #pragma unroll
        for (int u = 0; u < ILP; ++u) {
            const IdxT i = base + u * stride;
            if (i < total) {
                const IdxT r = i / picks;
                v[u] = __ldg(x + (int64_t)r * xcols + col[u]);
            }
        }
        #pragma unroll
        for (int u = 0; u < ILP; ++u) {
            const IdxT i = base + u * stride;
            if (i < total) out[i] = v[u];
        }
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
    const int64_t total = rows * picks;
    const int threads = 256;
    int dev = 0, num_sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, dev);
    const bool small = (total + (int64_t)threads * 65536LL * ILP) < 2147483647LL &&
                       xc.numel() < 2147483647LL;
    if (small)
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gather_gridstride_kernel<int>, threads, 0);
    else
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gather_gridstride_kernel<int64_t>, threads, 0);
    if (per_sm < 1) per_sm = 1;
    if (num_sms < 1) num_sms = 1;
    int64_t blocks = (int64_t)num_sms * per_sm;
    const int64_t needed = (total + (int64_t)threads * ILP - 1) / ((int64_t)threads * ILP);
    if (blocks > needed) blocks = needed;
    if (blocks < 1) blocks = 1;
    if (small)
        gather_gridstride_kernel<int><<<(unsigned int)blocks, threads>>>(
            xc.data_ptr<float>(), ic.data_ptr<int64_t>(), out.data_ptr<float>(),
            (int)total, (int)xcols, (int)picks);
    else
        gather_gridstride_kernel<int64_t><<<(unsigned int)blocks, threads>>>(
            xc.data_ptr<float>(), ic.data_ptr<int64_t>(), out.data_ptr<float>(),
            total, xcols, picks);
    return out;
}
"""

my_mod = load_inline(
    name="s45_gather_dim1_gridstride_ilp",
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
