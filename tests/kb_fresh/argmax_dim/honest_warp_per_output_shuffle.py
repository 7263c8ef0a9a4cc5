# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

argmax_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <vector>
#include <cmath>
#include <climits>

#define WARP_SIZE 32
#define WARPS_PER_BLOCK 8

// idx == R marks a lane that saw no element.
__device__ __forceinline__ void warp_argmax(float& val, int& idx, int R) {
    #pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1) {
        float ov = __shfl_down_sync(0xffffffff, val, offset);
        int oi = __shfl_down_sync(0xffffffff, idx, offset);
        if (oi < R && (idx >= R || ov > val || (ov == val && oi < idx))) {
            val = ov;
            idx = oi;
        }
    }
}

// One warp per output element; lanes stride over the reduced dimension and the
// result is combined with warp shuffles (no shared memory).
__global__ void argmax_warp_kernel(const float* __restrict__ x, int64_t* __restrict__ out,
                                   int64_t total, int R, int64_t inner) {
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    const int64_t out_idx = (int64_t)blockIdx.x * WARPS_PER_BLOCK + warp;
    if (out_idx >= total) return;  // whole warp exits together

    const int64_t o = out_idx / inner;
    const int64_t i = out_idx % inner;
    const float* p = x + o * (int64_t)R * inner + i;

    float best = -INFINITY;
    int best_idx = R;  // sentinel larger than any valid index
    for (int r = lane; r < R; r += WARP_SIZE) {
        float v = __ldg(p + (int64_t)r * inner);
        if (best_idx == R || v > best) {
            best = v;
            best_idx = r;
        }
    }
    warp_argmax(best, best_idx, R);
    if (lane == 0) out[out_idx] = (int64_t)best_idx;
}

torch::Tensor argmax_dim_cuda(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    const int64_t nd = x.dim();
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
    for (int64_t d = dim + 1; d < nd; ++d) inner *= x.size(d);
    const int64_t R = x.size(dim);
    TORCH_CHECK(R > 0 && R < INT_MAX, "bad reduction length");

    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d)
        if (d != dim) out_shape.push_back(x.size(d));
    auto out = torch::empty(out_shape, x.options().dtype(torch::kLong));

    const int64_t total = outer * inner;
    if (total == 0) return out;
    const int64_t blocks = (total + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    argmax_warp_kernel<<<(unsigned int)blocks, WARPS_PER_BLOCK * WARP_SIZE, 0,
                         at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<int64_t>(), total, (int)R, inner);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

argmax_cpp_source = "torch::Tensor argmax_dim_cuda(torch::Tensor x, int64_t dim);"

argmax_ext = load_inline(
    name="argmax_warp_per_output_shuffle_ext",
    cpp_sources=argmax_cpp_source,
    cuda_sources=argmax_source,
    functions=["argmax_dim_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return argmax_ext.argmax_dim_cuda(x, self.dim)
