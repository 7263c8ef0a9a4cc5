# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

bn_fused_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
    return v;
}

// Single fused kernel: one block (1024 threads) per channel. One pass computes
// sum and sum of squares (warp shuffles + a shared array of per-warp results),
// then the same block normalises the channel and applies weight/bias.
__global__ void bn_fused_kernel(const float* __restrict__ x,
                                const float* __restrict__ weight,
                                const float* __restrict__ bias,
                                float* __restrict__ y,
                                int N, int C, int HW, float eps) {
    __shared__ float s_sum[32];
    __shared__ float s_sq[32];
    __shared__ float s_scale, s_shift;

    const int c = blockIdx.x;
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int nwarps = (blockDim.x + 31) >> 5;

    float sum = 0.0f, sq = 0.0f;
    for (int n = 0; n < N; ++n) {
        const float* plane = x + ((int64_t)n * C + c) * HW;
        for (int i = tid; i < HW; i += blockDim.x) {
            float v = plane[i];
            sum += v;
            sq += v * v;
        }
    }
    sum = warp_sum(sum);
    sq = warp_sum(sq);
    if (lane == 0) { s_sum[warp] = sum; s_sq[warp] = sq; }
    __syncthreads();
    if (warp == 0) {
        sum = (lane < nwarps) ? s_sum[lane] : 0.0f;
        sq = (lane < nwarps) ? s_sq[lane] : 0.0f;
        sum = warp_sum(sum);
        sq = warp_sum(sq);
        if (lane == 0) {
            const float count = (float)N * (float)HW;
            const float mean = sum / count;
            const float var = fmaxf(sq / count - mean * mean, 0.0f);
            const float scale = weight[c] * rsqrtf(var + eps);
            s_scale = scale;
            s_shift = bias[c] - mean * scale;
        }
    }
    __syncthreads();
    const float scale = s_scale;
    const float shift = s_shift;

    for (int n = 0; n < N; ++n) {
        const int64_t base = ((int64_t)n * C + c) * HW;
        for (int i = tid; i < HW; i += blockDim.x) {
            y[base + i] = x[base + i] * scale + shift;
        }
    }
}

torch::Tensor batch_norm_fused_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    const int N = x.size(0);
    const int C = x.size(1);
    const int HW = x.size(2) * x.size(3);
    auto y = torch::empty_like(x);
    const int threads = 1024;
    bn_fused_kernel<<<C, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(),
        N, C, HW, (float)eps);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "batch_norm_fused kernel failed: ", cudaGetErrorString(err));
    return y;
}
"""

bn_fused_cpp = "torch::Tensor batch_norm_fused_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

bn_fused = load_inline(
    name="kbf3_bn_fused_warp_shuffle",
    cpp_sources=bn_fused_cpp,
    cuda_sources=bn_fused_source,
    functions=["batch_norm_fused_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        return bn_fused.batch_norm_fused_cuda(
            x, self.bn.weight.contiguous(), self.bn.bias.contiguous(), self.bn.eps)
