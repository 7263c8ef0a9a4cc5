# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mean_dim_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>

// x viewed as (outer, R, inner).  The reduced dimension is split into nsplit chunks
// (grid.y) so that there are enough threads to fill the GPU even though there are
// only outer*inner outputs.  Each thread owns one column i and sums its chunk of
// rows (coalesced across the warp), then atomically adds sum / R into the output,
// which is zero-initialised.
__global__ void mean_dim_split_atomic_kernel(const float* __restrict__ x, float* __restrict__ y,
                                             long long R, long long inner, long long col_blocks,
                                             long long chunk, float inv_r) {
    const long long o = blockIdx.x / col_blocks;
    const long long i = (blockIdx.x % col_blocks) * blockDim.x + threadIdx.x;
    if (i >= inner) return;
    const long long r0 = (long long)blockIdx.y * chunk;
    const long long r1 = min(r0 + chunk, R);
    const float* p = x + o * R * inner + i;
    float s0 = 0.f, s1 = 0.f;
    long long r = r0;
    for (; r + 1 < r1; r += 2) {
        s0 += __ldg(p + r * inner);
        s1 += __ldg(p + (r + 1) * inner);
    }
    if (r < r1) s0 += __ldg(p + r * inner);
    atomicAdd(y + o * inner + i, (s0 + s1) * inv_r);
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
    auto y = torch::zeros(out_sizes, x.options());
    if (outer * inner == 0) return y;

    int dev = x.get_device(), sms = 132;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 256;
    const long long col_blocks = (inner + threads - 1) / threads;
    const long long base_blocks = outer * col_blocks;
    TORCH_CHECK(base_blocks < (1LL << 31), "too many blocks");
    const long long target_blocks = (long long)sms * 8;          // ~8 resident blocks per SM
    long long nsplit = (target_blocks + base_blocks - 1) / base_blocks;
    nsplit = std::max(1LL, std::min<long long>(nsplit, std::min<long long>(R, 65535)));
    const long long chunk = (R + nsplit - 1) / nsplit;
    nsplit = (R + chunk - 1) / chunk;                            // no empty chunks
    dim3 grid((unsigned)base_blocks, (unsigned)nsplit);
    mean_dim_split_atomic_kernel<<<grid, threads, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(),
        R, inner, col_blocks, chunk, 1.0f / (float)R);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "mean_dim kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""
mean_dim_cpp_source = "torch::Tensor mean_dim_cuda(torch::Tensor x, int64_t dim, int64_t stream_ptr);"
mean_dim = load_inline(name="mean_dim_honest_split_atomic", cpp_sources=mean_dim_cpp_source,
                       cuda_sources=mean_dim_source, functions=["mean_dim_cuda"], verbose=False,
                       extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = int(dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return mean_dim.mean_dim_cuda(x.contiguous(), self.dim, torch.cuda.current_stream(x.device).cuda_stream)
