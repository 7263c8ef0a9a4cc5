# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

l2norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

#define VEC_PER_THREAD 4

__inline__ __device__ float warp_sum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

__inline__ __device__ float block_sum(float v, float* smem) {
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    const int nwarps = (blockDim.x + 31) >> 5;
    v = warp_sum(v);
    if (lane == 0) smem[wid] = v;
    __syncthreads();
    v = (lane < nwarps) ? smem[lane] : 0.0f;
    v = warp_sum(v);   // every warp reduces the per-warp sums, so all threads get the total
    return v;
}

// One block per row. The row is read once with float4 loads into registers,
// reduced, and written back from the registers (no second global read).
__global__ void l2_normalize_vec4_kernel(const float4* __restrict__ x,
                                         float4* __restrict__ out,
                                         int n4) {
    __shared__ float smem[32];
    const float4* xr = x + (int64_t)blockIdx.x * n4;
    float4* outr = out + (int64_t)blockIdx.x * n4;

    float4 cache[VEC_PER_THREAD];
    float partial = 0.0f;
    #pragma unroll
    for (int k = 0; k < VEC_PER_THREAD; ++k) {
        const int idx = threadIdx.x + k * blockDim.x;
        if (idx < n4) {
            float4 v = xr[idx];
            cache[k] = v;
            partial += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
        } else {
            cache[k] = make_float4(0.f, 0.f, 0.f, 0.f);
        }
    }
    const float inv_norm = rsqrtf(block_sum(partial, smem));

    #pragma unroll
    for (int k = 0; k < VEC_PER_THREAD; ++k) {
        const int idx = threadIdx.x + k * blockDim.x;
        if (idx < n4) {
            float4 v = cache[k];
            v.x *= inv_norm; v.y *= inv_norm; v.z *= inv_norm; v.w *= inv_norm;
            outr[idx] = v;
        }
    }
}

// Generic path for rows that do not fit the vectorised layout.
__global__ void l2_normalize_scalar_kernel(const float* __restrict__ x,
                                           float* __restrict__ out,
                                           int cols) {
    __shared__ float smem[32];
    const float* xr = x + (int64_t)blockIdx.x * cols;
    float* outr = out + (int64_t)blockIdx.x * cols;
    float partial = 0.0f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) {
        float v = xr[j];
        partial += v * v;
    }
    const float inv_norm = rsqrtf(block_sum(partial, smem));
    for (int j = threadIdx.x; j < cols; j += blockDim.x) outr[j] = xr[j] * inv_norm;
}

torch::Tensor l2_normalize_vec4(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int rows = xc.size(0);
    const int cols = xc.size(1);
    if (rows == 0 || cols == 0) return out;
    auto stream = at::cuda::getCurrentCUDAStream();

    const bool aligned = (reinterpret_cast<uintptr_t>(xc.data_ptr<float>()) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(out.data_ptr<float>()) % 16 == 0);
    const int n4 = cols / 4;
    int threads = (n4 + VEC_PER_THREAD - 1) / VEC_PER_THREAD;
    threads = ((threads + 31) / 32) * 32;
    if (aligned && cols % 4 == 0 && threads <= 1024) {
        l2_normalize_vec4_kernel<<<rows, threads, 0, stream>>>(
            reinterpret_cast<const float4*>(xc.data_ptr<float>()),
            reinterpret_cast<float4*>(out.data_ptr<float>()), n4);
    } else {
        l2_normalize_scalar_kernel<<<rows, 512, 0, stream>>>(
            xc.data_ptr<float>(), out.data_ptr<float>(), cols);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

l2norm_cpp_source = "torch::Tensor l2_normalize_vec4(torch::Tensor x);"

l2norm_ext = load_inline(
    name="kbf2_l2norm_float4_register_cache",
    cpp_sources=l2norm_cpp_source,
    cuda_sources=l2norm_source,
    functions=["l2_normalize_vec4"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = l2norm_ext

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ext.l2_normalize_vec4(x)
