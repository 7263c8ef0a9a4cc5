# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = ("torch::Tensor max_pool1d_grid_stride(torch::Tensor x, int64_t kernel_size, int64_t stride, "
           "int64_t padding, int64_t stream_ptr);")

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>

__device__ __forceinline__ float nan_max(float a, float b) {
    return (b > a || b != b) ? b : a;
}

// Persistent grid-stride kernel: the grid is sized to the SM count and each thread walks over many
// outputs. K > 0 makes the window length a compile-time constant so the loop is fully unrolled;
// K == 0 is the runtime-k fallback. Loads go through the read-only cache (__ldg).
template <int K>
__global__ void max_pool1d_gs_kernel(const float* __restrict__ x, float* __restrict__ y, long long total,
                                     int L, int Lout, int k_rt, int s, int p) {
    const int k = (K > 0) ? K : k_rt;
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += step) {
        const long long row = idx / Lout;
        const int o = (int)(idx - row * Lout);
        const float* xr = x + row * (long long)L;
        const int start = o * s - p;
        float m = -INFINITY;
        if (start >= 0 && start + k <= L) {
            // interior window: no bounds checks
            if (K > 0) {
#pragma unroll
                for (int j = 0; j < K; ++j) m = nan_max(m, __ldg(xr + start + j));
            } else {
                for (int j = 0; j < k; ++j) m = nan_max(m, __ldg(xr + start + j));
            }
        } else {
            for (int j = 0; j < k; ++j) {
                int i = start + j;
                if (i >= 0 && i < L) m = nan_max(m, __ldg(xr + i));
            }
        }
        y[idx] = m;
    }
}

torch::Tensor max_pool1d_grid_stride(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding,
                                     int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be (N, C, L)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(kernel_size > 0 && stride > 0 && padding >= 0 && 2 * padding <= kernel_size, "bad pooling params");
    auto xc = x.contiguous();
    const int64_t N = xc.size(0), C = xc.size(1), L = xc.size(2);
    const int64_t Lout = (L + 2 * padding - kernel_size) / stride + 1;
    TORCH_CHECK(Lout > 0, "output length must be positive");
    auto y = torch::empty({N, C, Lout}, xc.options());
    const long long total = N * C * Lout;
    if (total == 0) return y;

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    const int threads = 256;
    long long need = (total + threads - 1) / threads;
    long long cap = (long long)sms * 8;   // 8 resident blocks of 256 threads per SM
    const unsigned blocks = (unsigned)(need < cap ? need : cap);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const int Li = (int)L, Lo = (int)Lout, k = (int)kernel_size, s = (int)stride, p = (int)padding;
    switch (k) {
        case 2: max_pool1d_gs_kernel<2><<<blocks, threads, 0, stream>>>(xp, yp, total, Li, Lo, k, s, p); break;
        case 3: max_pool1d_gs_kernel<3><<<blocks, threads, 0, stream>>>(xp, yp, total, Li, Lo, k, s, p); break;
        case 4: max_pool1d_gs_kernel<4><<<blocks, threads, 0, stream>>>(xp, yp, total, Li, Lo, k, s, p); break;
        case 5: max_pool1d_gs_kernel<5><<<blocks, threads, 0, stream>>>(xp, yp, total, Li, Lo, k, s, p); break;
        case 8: max_pool1d_gs_kernel<8><<<blocks, threads, 0, stream>>>(xp, yp, total, Li, Lo, k, s, p); break;
        default: max_pool1d_gs_kernel<0><<<blocks, threads, 0, stream>>>(xp, yp, total, Li, Lo, k, s, p); break;
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

max_pool1d_grid_stride_mod = load_inline(
    name="max_pool1d_grid_stride_templated_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["max_pool1d_grid_stride"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return max_pool1d_grid_stride_mod.max_pool1d_grid_stride(x, self.kernel_size, self.stride, self.padding,
                                                                 stream)
