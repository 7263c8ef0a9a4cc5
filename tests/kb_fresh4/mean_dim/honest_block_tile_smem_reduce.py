# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mean_dim_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>

// x viewed as (outer, R, inner).  A 32 x 16 block owns 32 consecutive output
// columns i of one outer index o.  threadIdx.x picks the column (so each warp reads
// one 128-byte contiguous segment of a row: coalesced), threadIdx.y strides over
// the reduced dimension r = ty, ty+16, ...  The 16 partial sums per column are
// then combined with a shared-memory tree reduction and row 0 writes the mean.
#define TX 32
#define TY 16

__global__ void mean_dim_tile_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     long long R, long long inner, long long col_tiles) {
    __shared__ float partial[TY][TX + 1];
    const long long o = blockIdx.x / col_tiles;
    const long long i = (blockIdx.x % col_tiles) * TX + threadIdx.x;
    float sum = 0.f;
    if (i < inner) {
        const float* p = x + o * R * inner + i;
        long long r = threadIdx.y;
        // 4 independent loads in flight per iteration
        for (; r + 3 * TY < R; r += 4 * TY) {
            float a = __ldg(p + r * inner);
            float b = __ldg(p + (r + TY) * inner);
            float c = __ldg(p + (r + 2 * TY) * inner);
            float d = __ldg(p + (r + 3 * TY) * inner);
            sum += (a + b) + (c + d);
        }
        for (; r < R; r += TY) sum += __ldg(p + r * inner);
    }
    partial[threadIdx.y][threadIdx.x] = sum;
    __syncthreads();
#pragma unroll
    for (int stride = TY / 2; stride > 0; stride >>= 1) {
        if (threadIdx.y < stride) partial[threadIdx.y][threadIdx.x] += partial[threadIdx.y + stride][threadIdx.x];
        __syncthreads();
    }
    if (threadIdx.y == 0 && i < inner) y[o * inner + i] = partial[0][threadIdx.x] / (float)R;
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
    if (outer * inner == 0) return y;
    const long long col_tiles = (inner + TX - 1) / TX;
    const long long blocks = outer * col_tiles;
    TORCH_CHECK(blocks < (1LL << 31), "too many blocks");
    dim3 block(TX, TY);
    mean_dim_tile_kernel<<<(unsigned)blocks, block, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(),
                                                                  R, inner, col_tiles);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "mean_dim kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""
mean_dim_cpp_source = "torch::Tensor mean_dim_cuda(torch::Tensor x, int64_t dim, int64_t stream_ptr);"
mean_dim = load_inline(name="mean_dim_honest_block_tile_smem", cpp_sources=mean_dim_cpp_source,
                       cuda_sources=mean_dim_source, functions=["mean_dim_cuda"], verbose=False,
                       extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = int(dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return mean_dim.mean_dim_cuda(x.contiguous(), self.dim, torch.cuda.current_stream(x.device).cuda_stream)
