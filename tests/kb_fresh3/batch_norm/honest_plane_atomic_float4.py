# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

bn_atomic_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

__device__ __forceinline__ float warp_reduce(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    return v;
}

// One block per (n, c) plane. float4 loads when H*W is a multiple of 4,
// block reduction with warp shuffles, then one double atomicAdd per block
// into the per-channel sum and sum of squares.
__global__ void bn_plane_stats_kernel(const float* __restrict__ x,
                                      double* __restrict__ ch_sum,
                                      double* __restrict__ ch_sumsq,
                                      int C, int HW) {
    const int plane = blockIdx.x;
    const int c = plane % C;
    const float* p = x + (int64_t)plane * HW;

    float sum = 0.0f, sq = 0.0f;
    if ((HW & 3) == 0) {
        const float4* p4 = reinterpret_cast<const float4*>(p);
        const int n4 = HW >> 2;
        for (int i = threadIdx.x; i < n4; i += blockDim.x) {
            float4 v = __ldg(p4 + i);
            sum += (v.x + v.y) + (v.z + v.w);
            sq += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w);
        }
    } else {
        for (int i = threadIdx.x; i < HW; i += blockDim.x) {
            float v = __ldg(p + i);
            sum += v;
            sq += v * v;
        }
    }

    __shared__ float s_sum[32];
    __shared__ float s_sq[32];
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    sum = warp_reduce(sum);
    sq = warp_reduce(sq);
    if (lane == 0) { s_sum[wid] = sum; s_sq[wid] = sq; }
    __syncthreads();
    if (wid == 0) {
        const int nw = (blockDim.x + 31) >> 5;
        sum = (lane < nw) ? s_sum[lane] : 0.0f;
        sq = (lane < nw) ? s_sq[lane] : 0.0f;
        sum = warp_reduce(sum);
        sq = warp_reduce(sq);
        if (lane == 0) {
            atomicAdd(ch_sum + c, (double)sum);
            atomicAdd(ch_sumsq + c, (double)sq);
        }
    }
}

// grid.y = plane; each block first turns the channel sums into scale/shift,
// then processes its part of the plane with float4 loads/stores.
__global__ void bn_apply_vec_kernel(const float* __restrict__ x,
                                    const double* __restrict__ ch_sum,
                                    const double* __restrict__ ch_sumsq,
                                    const float* __restrict__ weight,
                                    const float* __restrict__ bias,
                                    float* __restrict__ y,
                                    int C, int HW, double count, float eps) {
    __shared__ float s_scale, s_shift;
    const int plane = blockIdx.y;
    const int c = plane % C;
    if (threadIdx.x == 0) {
        double mean = ch_sum[c] / count;
        double var = ch_sumsq[c] / count - mean * mean;
        if (var < 0.0) var = 0.0;
        float scale = weight[c] * (float)(1.0 / sqrt(var + (double)eps));
        s_scale = scale;
        s_shift = bias[c] - (float)mean * scale;
    }
    __syncthreads();
    const float scale = s_scale;
    const float shift = s_shift;
    const int64_t base = (int64_t)plane * HW;
    const int stride = gridDim.x * blockDim.x;

    if ((HW & 3) == 0) {
        const float4* in4 = reinterpret_cast<const float4*>(x + base);
        float4* out4 = reinterpret_cast<float4*>(y + base);
        const int n4 = HW >> 2;
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
            float4 v = __ldg(in4 + i);
            v.x = v.x * scale + shift;
            v.y = v.y * scale + shift;
            v.z = v.z * scale + shift;
            v.w = v.w * scale + shift;
            out4[i] = v;
        }
    } else {
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < HW; i += stride) {
            y[base + i] = x[base + i] * scale + shift;
        }
    }
}

torch::Tensor batch_norm_atomic_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    const int N = x.size(0);
    const int C = x.size(1);
    const int HW = x.size(2) * x.size(3);
    TORCH_CHECK((int64_t)N * C <= 65535, "too many planes for grid.y");
    auto y = torch::empty_like(x);
    auto ch_sum = torch::zeros({C}, x.options().dtype(torch::kFloat64));
    auto ch_sumsq = torch::zeros({C}, x.options().dtype(torch::kFloat64));
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    bn_plane_stats_kernel<<<N * C, 256, 0, stream>>>(
        x.data_ptr<float>(), ch_sum.data_ptr<double>(), ch_sumsq.data_ptr<double>(), C, HW);

    const int threads = 256;
    const int work = ((HW & 3) == 0) ? (HW >> 2) : HW;
    int bx = (work + threads * 4 - 1) / (threads * 4);   // about 4 items per thread
    if (bx < 1) bx = 1;
    dim3 grid(bx, N * C);
    bn_apply_vec_kernel<<<grid, threads, 0, stream>>>(
        x.data_ptr<float>(), ch_sum.data_ptr<double>(), ch_sumsq.data_ptr<double>(),
        weight.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(),
        C, HW, (double)N * (double)HW, (float)eps);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "batch_norm_atomic kernel failed: ", cudaGetErrorString(err));
    return y;
}
"""

bn_atomic_cpp = "torch::Tensor batch_norm_atomic_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

bn_atomic = load_inline(
    name="kbf3_bn_plane_atomic_float4",
    cpp_sources=bn_atomic_cpp,
    cuda_sources=bn_atomic_source,
    functions=["batch_norm_atomic_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        return bn_atomic.batch_norm_atomic_cuda(
            x, self.bn.weight.contiguous(), self.bn.bias.contiguous(), self.bn.eps)
