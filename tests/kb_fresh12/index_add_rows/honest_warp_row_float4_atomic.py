# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor index_add_rows_cuda(torch::Tensor src, torch::Tensor index, int64_t num_out);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: one warp per source row with a grid-stride (persistent) loop over rows. Lane 0 reads the
// destination index once and broadcasts it with a shuffle; lanes read the row with coalesced float4
// loads and issue four scalar float atomicAdds per vector. Scalar path when dim % 4 != 0 or misaligned.

template <bool VEC4>
__global__ void index_add_warp_row_kernel(const float* __restrict__ src,
                                          const int64_t* __restrict__ index,
                                          float* __restrict__ out,
                                          int64_t n, int64_t dim, int64_t num_out) {
    const int lane = threadIdx.x & 31;
    const int64_t warp_global = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int64_t num_warps = ((int64_t)gridDim.x * blockDim.x) >> 5;
    for (int64_t row = warp_global; row < n; row += num_warps) {
        int64_t o = 0;
        if (lane == 0) o = index[row];
        o = __shfl_sync(0xffffffffu, o, 0);
        if (o < 0 || o >= num_out) continue;   // warp-uniform
        if (VEC4) {
            const int64_t dim4 = dim >> 2;
            const float4* s4 = reinterpret_cast<const float4*>(src + row * dim);
            float* dst = out + o * dim;
            for (int64_t c = lane; c < dim4; c += 32) {
                float4 v = __ldg(s4 + c);
                float* d = dst + 4 * c;
                atomicAdd(d + 0, v.x);
                atomicAdd(d + 1, v.y);
                atomicAdd(d + 2, v.z);
                atomicAdd(d + 3, v.w);
            }
        } else {
            const float* s = src + row * dim;
            float* dst = out + o * dim;
            for (int64_t c = lane; c < dim; c += 32) {
                atomicAdd(dst + c, __ldg(s + c));
            }
        }
    }
}

torch::Tensor index_add_rows_cuda(torch::Tensor src, torch::Tensor index, int64_t num_out) {
    TORCH_CHECK(src.is_cuda(), "src must be a CUDA tensor");
    TORCH_CHECK(index.is_cuda(), "index must be a CUDA tensor");
    TORCH_CHECK(src.dim() == 2, "src must be 2-D");
    TORCH_CHECK(src.scalar_type() == torch::kFloat32, "src must be float32");
    TORCH_CHECK(index.scalar_type() == torch::kInt64, "index must be int64");
    auto s = src.contiguous();
    auto idx = index.contiguous();
    int64_t n = s.size(0);
    int64_t dim = s.size(1);
    TORCH_CHECK(idx.numel() == n, "index length must match src rows");
    auto out = torch::zeros({num_out, dim}, s.options());
    if (n == 0 || dim == 0 || num_out == 0) return out;

    const float* sp = s.data_ptr<float>();
    float* op = out.data_ptr<float>();
    bool vec4 = (dim % 4 == 0) &&
                (reinterpret_cast<uintptr_t>(sp) % 16 == 0) &&
                (reinterpret_cast<uintptr_t>(op) % 16 == 0);

    int dev = 0;
    cudaGetDevice(&dev);
    int sms = 1;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 256;                 // 8 warps per block
    const int64_t warps_per_block = threads / 32;
    int64_t needed = (n + warps_per_block - 1) / warps_per_block;
    int64_t cap = (int64_t)sms * 8;          // persistent-style grid
    int blocks = (int)(needed < cap ? needed : cap);
    if (blocks < 1) blocks = 1;

    if (vec4) {
        index_add_warp_row_kernel<true><<<blocks, threads>>>(sp, idx.data_ptr<int64_t>(), op, n, dim, num_out);
    } else {
        index_add_warp_row_kernel<false><<<blocks, threads>>>(sp, idx.data_ptr<int64_t>(), op, n, dim, num_out);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_index_add_warp_row_float4_atomic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["index_add_rows_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_out: int):
        super().__init__()
        self.num_out = num_out

    def forward(self, src: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        return my_mod.index_add_rows_cuda(src, index, self.num_out)
