# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

gn_fused_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
    return v;
}

// One block of 1024 threads per (sample, group). One pass with float4 loads
// gives sum and sum of squares; then the block normalises the group channel
// by channel (scale/shift folded per channel), again with float4.
__global__ void gn_fused_kernel(const float* __restrict__ x,
                                const float* __restrict__ weight,
                                const float* __restrict__ bias,
                                float* __restrict__ y,
                                int C, int G, int HW, float eps) {
    __shared__ float s_sum[32];
    __shared__ float s_sq[32];
    __shared__ float s_mean, s_rstd;

    const int ng = blockIdx.x;
    const int n = ng / G;
    const int g = ng % G;
    const int cpg = C / G;
    const int group_size = cpg * HW;
    const int64_t base = ((int64_t)n * C + (int64_t)g * cpg) * HW;
    const float* p = x + base;
    float* q = y + base;
    const bool vec = (HW & 3) == 0;

    float sum = 0.0f, sq = 0.0f;
    if (vec) {
        const float4* p4 = reinterpret_cast<const float4*>(p);
        const int n4 = group_size >> 2;
        for (int i = threadIdx.x; i < n4; i += blockDim.x) {
            float4 v = __ldg(p4 + i);
            sum += (v.x + v.y) + (v.z + v.w);
            sq += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w);
        }
    } else {
        for (int i = threadIdx.x; i < group_size; i += blockDim.x) {
            float v = __ldg(p + i);
            sum += v;
            sq += v * v;
        }
    }

    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    const int nw = (blockDim.x + 31) >> 5;
    sum = warp_sum(sum);
    sq = warp_sum(sq);
    if (lane == 0) { s_sum[wid] = sum; s_sq[wid] = sq; }
    __syncthreads();
    if (wid == 0) {
        sum = (lane < nw) ? s_sum[lane] : 0.0f;
        sq = (lane < nw) ? s_sq[lane] : 0.0f;
        sum = warp_sum(sum);
        sq = warp_sum(sq);
        if (lane == 0) {
            const float mean = sum / (float)group_size;
            const float var = fmaxf(sq / (float)group_size - mean * mean, 0.0f);
            s_mean = mean;
            s_rstd = rsqrtf(var + eps);
        }
    }
    __syncthreads();
    const float mean = s_mean;
    const float rstd = s_rstd;

    for (int cl = 0; cl < cpg; ++cl) {
        const int c = g * cpg + cl;
        const float scale = weight[c] * rstd;
        const float shift = bias[c] - mean * scale;
        const float* pc = p + (int64_t)cl * HW;
        float* qc = q + (int64_t)cl * HW;
        if (vec) {
            const float4* in4 = reinterpret_cast<const float4*>(pc);
            float4* out4 = reinterpret_cast<float4*>(qc);
            const int n4 = HW >> 2;
            for (int i = threadIdx.x; i < n4; i += blockDim.x) {
                float4 v = __ldg(in4 + i);
                v.x = v.x * scale + shift;
                v.y = v.y * scale + shift;
                v.z = v.z * scale + shift;
                v.w = v.w * scale + shift;
                out4[i] = v;
            }
        } else {
            for (int i = threadIdx.x; i < HW; i += blockDim.x) qc[i] = pc[i] * scale + shift;
        }
    }
}

torch::Tensor group_norm_fused_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                                    int64_t num_groups, double eps) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    const int N = x.size(0);
    const int C = x.size(1);
    const int HW = x.size(2) * x.size(3);
    const int G = (int)num_groups;
    TORCH_CHECK(C % G == 0, "channels must be divisible by groups");
    auto y = torch::empty_like(x);
    gn_fused_kernel<<<N * G, 1024, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(),
        C, G, HW, (float)eps);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "group_norm_fused kernel failed: ", cudaGetErrorString(err));
    return y;
}
"""

gn_fused_cpp = ("torch::Tensor group_norm_fused_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, "
                "int64_t num_groups, double eps);")

gn_fused = load_inline(
    name="kbf3_gn_fused_float4_warp",
    cpp_sources=gn_fused_cpp,
    cuda_sources=gn_fused_source,
    functions=["group_norm_fused_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, num_groups: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        return gn_fused.group_norm_fused_cuda(
            x, self.gn.weight.contiguous(), self.gn.bias.contiguous(), self.gn.num_groups, self.gn.eps)
