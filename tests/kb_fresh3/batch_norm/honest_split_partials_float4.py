# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

bn_split_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define SPLIT 16
#define STAT_THREADS 512
#define APPLY_THREADS 256

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    return v;
}

// grid = (SPLIT, C): block (s, c) reduces planes n = s, s + SPLIT, ... of
// channel c with float4 loads and writes one partial sum / sum of squares.
__global__ void bn_partial_stats_kernel(const float* __restrict__ x,
                                        float* __restrict__ psum,
                                        float* __restrict__ psq,
                                        int N, int C, int HW) {
    const int s = blockIdx.x;
    const int c = blockIdx.y;
    float sum = 0.0f, sq = 0.0f;
    const bool vec = (HW & 3) == 0;
    for (int n = s; n < N; n += SPLIT) {
        const float* p = x + ((int64_t)n * C + c) * HW;
        if (vec) {
            const float4* p4 = reinterpret_cast<const float4*>(p);
            const int n4 = HW >> 2;
            #pragma unroll 4
            for (int i = threadIdx.x; i < n4; i += STAT_THREADS) {
                float4 v = __ldg(p4 + i);
                sum += (v.x + v.y) + (v.z + v.w);
                sq += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w);
            }
        } else {
            for (int i = threadIdx.x; i < HW; i += STAT_THREADS) {
                float v = __ldg(p + i);
                sum += v;
                sq += v * v;
            }
        }
    }
    __shared__ float s_sum[STAT_THREADS / 32];
    __shared__ float s_sq[STAT_THREADS / 32];
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    sum = warp_sum(sum);
    sq = warp_sum(sq);
    if (lane == 0) { s_sum[wid] = sum; s_sq[wid] = sq; }
    __syncthreads();
    if (wid == 0) {
        sum = (lane < STAT_THREADS / 32) ? s_sum[lane] : 0.0f;
        sq = (lane < STAT_THREADS / 32) ? s_sq[lane] : 0.0f;
        sum = warp_sum(sum);
        sq = warp_sum(sq);
        if (lane == 0) {
            psum[c * SPLIT + s] = sum;
            psq[c * SPLIT + s] = sq;
        }
    }
}

// grid = (ceil(HW/4 / APPLY_THREADS), N*C). The first warp folds the SPLIT
// partials of the channel into scale/shift, then every thread handles one float4.
__global__ void bn_apply_float4_kernel(const float* __restrict__ x,
                                       const float* __restrict__ psum,
                                       const float* __restrict__ psq,
                                       const float* __restrict__ weight,
                                       const float* __restrict__ bias,
                                       float* __restrict__ y,
                                       int C, int HW, float inv_count, float eps) {
    __shared__ float s_scale, s_shift;
    const int plane = blockIdx.y;
    const int c = plane % C;
    if (threadIdx.x < 32) {
        const int lane = threadIdx.x;
        float sum = (lane < SPLIT) ? psum[c * SPLIT + lane] : 0.0f;
        float sq = (lane < SPLIT) ? psq[c * SPLIT + lane] : 0.0f;
        sum = warp_sum(sum);
        sq = warp_sum(sq);
        if (lane == 0) {
            const float mean = sum * inv_count;
            const float var = fmaxf(sq * inv_count - mean * mean, 0.0f);
            const float scale = weight[c] * rsqrtf(var + eps);
            s_scale = scale;
            s_shift = bias[c] - mean * scale;
        }
    }
    __syncthreads();
    const float scale = s_scale;
    const float shift = s_shift;
    const int64_t base = (int64_t)plane * HW;
    if ((HW & 3) == 0) {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < (HW >> 2)) {
            float4 v = __ldg(reinterpret_cast<const float4*>(x + base) + i);
            v.x = fmaf(v.x, scale, shift);
            v.y = fmaf(v.y, scale, shift);
            v.z = fmaf(v.z, scale, shift);
            v.w = fmaf(v.w, scale, shift);
            reinterpret_cast<float4*>(y + base)[i] = v;
        }
    } else {
        // scalar fallback: each thread covers 4 consecutive elements
        const int i0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
        for (int k = 0; k < 4; ++k) {
            const int i = i0 + k;
            if (i < HW) y[base + i] = fmaf(x[base + i], scale, shift);
        }
    }
}

torch::Tensor batch_norm_split_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    const int N = x.size(0);
    const int C = x.size(1);
    const int HW = x.size(2) * x.size(3);
    TORCH_CHECK(C <= 65535 && (int64_t)N * C <= 65535, "too many planes for grid.y");
    auto y = torch::empty_like(x);
    auto psum = torch::empty({C * SPLIT}, x.options());
    auto psq = torch::empty({C * SPLIT}, x.options());
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    dim3 sgrid(SPLIT, C);
    bn_partial_stats_kernel<<<sgrid, STAT_THREADS, 0, stream>>>(
        x.data_ptr<float>(), psum.data_ptr<float>(), psq.data_ptr<float>(), N, C, HW);

    const int quads = (HW + 3) / 4;
    dim3 agrid((quads + APPLY_THREADS - 1) / APPLY_THREADS, N * C);
    bn_apply_float4_kernel<<<agrid, APPLY_THREADS, 0, stream>>>(
        x.data_ptr<float>(), psum.data_ptr<float>(), psq.data_ptr<float>(),
        weight.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(),
        C, HW, (float)(1.0 / ((double)N * (double)HW)), (float)eps);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "batch_norm_split kernel failed: ", cudaGetErrorString(err));
    return y;
}
"""

bn_split_cpp = "torch::Tensor batch_norm_split_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

bn_split = load_inline(
    name="kbf3_bn_split_partials_float4",
    cpp_sources=bn_split_cpp,
    cuda_sources=bn_split_source,
    functions=["batch_norm_split_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        return bn_split.batch_norm_split_cuda(
            x, self.bn.weight.contiguous(), self.bn.bias.contiguous(), self.bn.eps)
