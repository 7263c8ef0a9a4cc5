# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

instance_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define BLOCK 256

// Classic shared-memory tree reduction over the block (BLOCK is a power of two).
__device__ float block_reduce_sum_tree(float v, float* sdata) {
    int tid = threadIdx.x;
    sdata[tid] = v;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    float r = sdata[0];
    __syncthreads();   // sdata is reused by the next reduction
    return r;
}

// One block per (n, c) plane. Three coalesced sweeps over the plane:
//   1) sum -> mean, 2) sum of squared deviations -> biased variance, 3) normalise.
__global__ void instance_norm_block_kernel(const float* __restrict__ x,
                                           float* __restrict__ y,
                                           int hw,
                                           float eps) {
    __shared__ float sdata[BLOCK];
    const long long base = (long long)blockIdx.x * hw;
    const float* xp = x + base;
    float* yp = y + base;

    float s = 0.f;
    for (int i = threadIdx.x; i < hw; i += BLOCK) s += xp[i];
    const float mean = block_reduce_sum_tree(s, sdata) / (float)hw;

    float sq = 0.f;
    for (int i = threadIdx.x; i < hw; i += BLOCK) {
        float d = xp[i] - mean;
        sq += d * d;
    }
    const float var = block_reduce_sum_tree(sq, sdata) / (float)hw;
    const float rstd = rsqrtf(var + eps);

    for (int i = threadIdx.x; i < hw; i += BLOCK) yp[i] = (xp[i] - mean) * rstd;
}

torch::Tensor instance_norm_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be 4D (N, C, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const long long planes = x.size(0) * x.size(1);
    const long long hw = x.size(2) * x.size(3);
    TORCH_CHECK(hw < (1LL << 31), "plane too large");
    if (planes == 0 || hw == 0) return y;
    instance_norm_block_kernel<<<(unsigned)planes, BLOCK>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), (int)hw, 1e-5f);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "instance_norm kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

instance_norm_cpp_source = "torch::Tensor instance_norm_cuda(torch::Tensor x);"

instance_norm = load_inline(
    name="instance_norm_block_per_plane_shared_tree",
    cpp_sources=instance_norm_cpp_source,
    cuda_sources=instance_norm_source,
    functions=["instance_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.num_features = num_features

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return instance_norm.instance_norm_cuda(x.contiguous())
