# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mean_dim_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>

// x viewed as (outer, R, inner).  One warp per output element (o, i): lane l sums
// x[o, r, i] for r = l, l+32, ..., then a __shfl_down_sync butterfly reduces the 32
// partial sums and lane 0 writes sum / R.  Note the lanes of a warp read addresses
// inner*4 bytes apart (one 32-byte sector per lane per load).
__device__ __forceinline__ float warp_reduce_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__global__ void mean_dim_warp_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     long long outer, long long R, long long inner) {
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (warp >= outer * inner) return;          // whole warp exits together
    const long long o = warp / inner;
    const long long i = warp - o * inner;
    const float* p = x + o * R * inner + i;
    float sum = 0.f;
    for (long long r = lane; r < R; r += 32) sum += __ldg(p + r * inner);
    sum = warp_reduce_sum(sum);
    if (lane == 0) y[warp] = sum / (float)R;
}

torch::Tensor mean_dim_cuda(torch::Tensor x, int64_t dim, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    x = x.contiguous();
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    const int64_t nd = x.dim();
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");
    int64_t outer = 1, inner = 1;
    std::vector<int64_t> out_sizes;
    for (int64_t d = 0; d < nd; ++d) {
        if (d < dim) outer *= x.size(d);
        if (d > dim) inner *= x.size(d);
        if (d != dim) out_sizes.push_back(x.size(d));
    }
    const int64_t R = x.size(dim);
    TORCH_CHECK(R > 0, "cannot take the mean over an empty dimension");
    auto y = torch::empty(out_sizes, x.options());
    const long long total = outer * inner;
    if (total == 0) return y;
    const int threads = 256;                     // 8 warps = 8 outputs per block
    const long long warps_per_block = threads / 32;
    const long long blocks = (total + warps_per_block - 1) / warps_per_block;
    TORCH_CHECK(blocks < (1LL << 31), "too many outputs");
    mean_dim_warp_kernel<<<(unsigned)blocks, threads, 0, stream>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), outer, R, inner);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "mean_dim kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""
mean_dim_cpp_source = "torch::Tensor mean_dim_cuda(torch::Tensor x, int64_t dim, int64_t stream_ptr);"
mean_dim = load_inline(name="mean_dim_honest_warp_shuffle", cpp_sources=mean_dim_cpp_source,
                       cuda_sources=mean_dim_source, functions=["mean_dim_cuda"], verbose=False,
                       extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = int(dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return mean_dim.mean_dim_cuda(x.contiguous(), self.dim, torch.cuda.current_stream(x.device).cuda_stream)
