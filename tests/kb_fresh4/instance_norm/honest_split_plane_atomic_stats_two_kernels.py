# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

instance_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define THREADS 256
#define NWARPS (THREADS / 32)
#define CHUNK4 1024          // float4 elements per stats block (4096 floats)

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// Kernel 1: each plane is split over several blocks (blockIdx.x = chunk, blockIdx.y = plane).
// Every block reduces its chunk to (sum, sumsq) and adds it to the plane's fp64 accumulators.
__global__ void __launch_bounds__(THREADS)
plane_stats_kernel(const float* __restrict__ x, double* __restrict__ stats, int hw4) {
    __shared__ float sa[NWARPS];
    __shared__ float sb[NWARPS];
    const long long plane = blockIdx.y;
    const float4* xp4 = reinterpret_cast<const float4*>(x) + plane * (long long)hw4;
    const int start = blockIdx.x * CHUNK4;
    const int end = min(start + CHUNK4, hw4);

    float s = 0.f, sq = 0.f;
    for (int i = start + threadIdx.x; i < end; i += THREADS) {
        float4 v = __ldg(xp4 + i);
        s += (v.x + v.y) + (v.z + v.w);
        sq += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w);
    }
    s = warp_sum(s);
    sq = warp_sum(sq);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) { sa[warp] = s; sb[warp] = sq; }
    __syncthreads();
    if (warp == 0) {
        s = lane < NWARPS ? sa[lane] : 0.f;
        sq = lane < NWARPS ? sb[lane] : 0.f;
        s = warp_sum(s);
        sq = warp_sum(sq);
        if (lane == 0) {
            atomicAdd(&stats[2 * plane], (double)s);
            atomicAdd(&stats[2 * plane + 1], (double)sq);
        }
    }
}

// Kernel 2: element-wise normalisation with a grid-stride loop over float4s.
__global__ void __launch_bounds__(THREADS)
normalize_kernel(const float* __restrict__ x, float* __restrict__ y,
                 const double* __restrict__ stats, int hw4, long long total4, float eps) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* y4 = reinterpret_cast<float4*>(y);
    const double inv_n = 1.0 / (4.0 * (double)hw4);
    const long long stride = (long long)gridDim.x * THREADS;
    for (long long i = (long long)blockIdx.x * THREADS + threadIdx.x; i < total4; i += stride) {
        const long long p = i / hw4;
        const double mean_d = stats[2 * p] * inv_n;
        const double var_d = fmax(stats[2 * p + 1] * inv_n - mean_d * mean_d, 0.0);
        const float mean = (float)mean_d;
        const float rstd = rsqrtf((float)var_d + eps);
        float4 v = __ldg(x4 + i);
        v.x = (v.x - mean) * rstd;
        v.y = (v.y - mean) * rstd;
        v.z = (v.z - mean) * rstd;
        v.w = (v.w - mean) * rstd;
        y4[i] = v;
    }
}

torch::Tensor instance_norm_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be 4D (N, C, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const long long planes = x.size(0) * x.size(1);
    const long long hw = x.size(2) * x.size(3);
    if (planes == 0 || hw == 0) return y;
    TORCH_CHECK(hw % 4 == 0, "H*W must be a multiple of 4 for the float4 path");
    TORCH_CHECK(hw < (1LL << 31), "plane too large");
    TORCH_CHECK(planes <= 65535, "too many planes for gridDim.y");
    TORCH_CHECK(reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0, "x must be 16-byte aligned");

    const int hw4 = (int)(hw / 4);
    auto stats = torch::zeros({planes * 2}, x.options().dtype(torch::kFloat64));

    dim3 grid1((hw4 + CHUNK4 - 1) / CHUNK4, (unsigned)planes);
    plane_stats_kernel<<<grid1, THREADS>>>(x.data_ptr<float>(), stats.data_ptr<double>(), hw4);

    const long long total4 = planes * (long long)hw4;
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    long long want = (total4 + THREADS - 1) / THREADS;
    long long cap = (long long)sms * 8;            // a few waves of resident blocks
    int blocks2 = (int)(want < cap ? want : cap);
    normalize_kernel<<<blocks2, THREADS>>>(x.data_ptr<float>(), y.data_ptr<float>(),
                                           stats.data_ptr<double>(), hw4, total4, 1e-5f);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "instance_norm kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

instance_norm_cpp_source = "torch::Tensor instance_norm_cuda(torch::Tensor x);"

instance_norm = load_inline(
    name="instance_norm_split_plane_atomic_stats_two_kernels",
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
