# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor bincount_vec_cuda(torch::Tensor x, int64_t bins);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <stdint.h>

#define VEC_THREADS 512
#define VEC_SMEM_LIMIT (48 * 1024)

__device__ __forceinline__ void vec_hist_add(unsigned int* h, int64_t v, int bins) {
    if (v >= 0 && v < bins) atomicAdd(h + v, 1u);
}

// Vectorised path: x is 16-byte aligned, read two int64 values per 128-bit load (longlong2).
// Each thread handles two longlong2 (4 values) per iteration for more loads in flight.
__global__ void __launch_bounds__(VEC_THREADS)
bincount_vec_kernel(const int64_t* __restrict__ x, unsigned long long* __restrict__ out,
                    int64_t n, int bins) {
    extern __shared__ unsigned int s_hist[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) s_hist[b] = 0u;
    __syncthreads();

    const longlong2* __restrict__ x2 = reinterpret_cast<const longlong2*>(x);
    const int64_t n2 = n >> 1;                                   // number of full pairs
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t nthreads = (int64_t)gridDim.x * blockDim.x;

    int64_t i = tid;
    for (; i + nthreads < n2; i += 2 * nthreads) {
        const longlong2 a = __ldg(x2 + i);
        const longlong2 b = __ldg(x2 + i + nthreads);
        vec_hist_add(s_hist, a.x, bins);
        vec_hist_add(s_hist, a.y, bins);
        vec_hist_add(s_hist, b.x, bins);
        vec_hist_add(s_hist, b.y, bins);
    }
    if (i < n2) {
        const longlong2 a = __ldg(x2 + i);
        vec_hist_add(s_hist, a.x, bins);
        vec_hist_add(s_hist, a.y, bins);
    }
    // odd tail element
    if ((n & 1) && tid == 0) vec_hist_add(s_hist, __ldg(x + (n - 1)), bins);
    __syncthreads();

    for (int b = threadIdx.x; b < bins; b += blockDim.x) {
        const unsigned int c = s_hist[b];
        if (c) atomicAdd(out + b, (unsigned long long)c);
    }
}

// Scalar fallback (misaligned pointer): same shared histogram, one int64 per load.
__global__ void __launch_bounds__(VEC_THREADS)
bincount_scalar_kernel(const int64_t* __restrict__ x, unsigned long long* __restrict__ out,
                       int64_t n, int bins) {
    extern __shared__ unsigned int s_hist[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) s_hist[b] = 0u;
    __syncthreads();
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        vec_hist_add(s_hist, __ldg(x + i), bins);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x) {
        const unsigned int c = s_hist[b];
        if (c) atomicAdd(out + b, (unsigned long long)c);
    }
}

// No shared memory: bins too large.
__global__ void bincount_vec_global_kernel(const int64_t* __restrict__ x,
                                           unsigned long long* __restrict__ out,
                                           int64_t n, int64_t bins) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const int64_t v = x[i];
        if (v >= 0 && v < bins) atomicAdd(out + v, 1ULL);
    }
}

__global__ void bincount_vec_zero_kernel(unsigned long long* __restrict__ out, int64_t bins) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < bins;
         i += (int64_t)gridDim.x * blockDim.x)
        out[i] = 0ULL;
}

torch::Tensor bincount_vec_cuda(torch::Tensor x, int64_t bins) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kInt64, "x must be int64");
    TORCH_CHECK(x.dim() == 1, "x must be 1-D");
    TORCH_CHECK(bins > 0, "bins must be positive");
    auto xc = x.contiguous();
    const int64_t n = xc.numel();
    auto out = torch::empty({bins}, xc.options());
    unsigned long long* out_ptr = reinterpret_cast<unsigned long long*>(out.data_ptr<int64_t>());

    int64_t zb = (bins + 255) / 256;
    if (zb > 4096) zb = 4096;
    bincount_vec_zero_kernel<<<(unsigned int)zb, 256>>>(out_ptr, bins);

    if (n > 0) {
        int dev = 0, sms = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0) sms = 80;
        const int64_t per_block = (int64_t)VEC_THREADS * 4;
        int64_t blocks = (n + per_block - 1) / per_block;
        const int64_t max_blocks = (int64_t)sms * 4;
        if (blocks > max_blocks) blocks = max_blocks;
        if (blocks < 1) blocks = 1;

        const int64_t* xp = xc.data_ptr<int64_t>();
        const size_t smem = (size_t)bins * sizeof(unsigned int);
        const bool aligned = (reinterpret_cast<uintptr_t>(xp) % 16) == 0;
        if (smem <= VEC_SMEM_LIMIT) {
            if (aligned) {
                bincount_vec_kernel<<<(unsigned int)blocks, VEC_THREADS, smem>>>(xp, out_ptr, n, (int)bins);
            } else {
                bincount_scalar_kernel<<<(unsigned int)blocks, VEC_THREADS, smem>>>(xp, out_ptr, n, (int)bins);
            }
        } else {
            bincount_vec_global_kernel<<<(unsigned int)blocks, VEC_THREADS>>>(xp, out_ptr, n, bins);
        }
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "bincount_vec launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

bincount_vec_mod = load_inline(
    name="bincount_vectorized_ll2",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["bincount_vec_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, bins: int):
        super().__init__()
        self.bins = bins

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return bincount_vec_mod.bincount_vec_cuda(x, self.bins)
