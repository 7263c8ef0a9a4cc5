# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mean_dim_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>

// x is viewed as (outer, R, inner) with R the reduced dimension.  One thread per
// output element (o, i) loops over all R values x[o, r, i] serially.  Consecutive
// threads take consecutive i, so every load instruction of a warp is coalesced,
// but there are only outer*inner threads, each doing R dependent-latency loads.
__global__ void mean_dim_naive_kernel(const float* __restrict__ x, float* __restrict__ y,
                                      long long outer, long long R, long long inner) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= outer * inner) return;
    long long o = idx / inner;
    long long i = idx - o * inner;
    const float* p = x + o * R * inner + i;
    float sum = 0.f;
    for (long long r = 0; r < R; ++r) sum += p[r * inner];
    y[idx] = sum / (float)R;
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
    const int threads = 256;
    mean_dim_naive_kernel<<<(unsigned)((total + threads - 1) / threads), threads, 0, stream>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), outer, R, inner);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "mean_dim kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""
mean_dim_cpp_source = "torch::Tensor mean_dim_cuda(torch::Tensor x, int64_t dim, int64_t stream_ptr);"
mean_dim = load_inline(name="mean_dim_honest_naive_tpo", cpp_sources=mean_dim_cpp_source,
                       cuda_sources=mean_dim_source, functions=["mean_dim_cuda"], verbose=False,
                       extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = int(dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return mean_dim.mean_dim_cuda(x.contiguous(), self.dim, torch.cuda.current_stream(x.device).cuda_stream)
