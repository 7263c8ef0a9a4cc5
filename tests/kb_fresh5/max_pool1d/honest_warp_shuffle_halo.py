# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = ("torch::Tensor max_pool1d_shfl_halo(torch::Tensor x, int64_t kernel_size, int64_t stride, "
           "int64_t padding, int64_t stream_ptr);")

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float nan_max(float a, float b) {
    return (b > a || b != b) ? b : a;
}

// Specialised for kernel_size=4, stride=2, padding=1 (L % 4 == 0, x 16B / y 8B aligned).
// Thread t of a row owns the output pair (2t, 2t+1) and loads v = x[4t .. 4t+3] as one float4:
//   out[2t]   = max(x[4t-1], v.x, v.y, v.z)
//   out[2t+1] = max(v.y, v.z, v.w, x[4t+4])
// The halo values x[4t-1] / x[4t+4] are the neighbouring lanes' v.w / v.x, exchanged with warp shuffles;
// only lanes 0 and 31 read their halo from global memory. Out-of-row halos are -inf (= padding).
// blockIdx.x tiles the pairs of a row, blockIdx.y walks rows (grid-stride for very many rows).
__global__ void max_pool1d_shfl_halo_kernel(const float* __restrict__ x, float* __restrict__ y, long long rows,
                                            int L, int pairs_per_row) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const bool active = t < pairs_per_row;
    const float NEG_INF = -INFINITY;
    for (long long row = blockIdx.y; row < rows; row += gridDim.y) {
        const float* xr = x + row * (long long)L;
        float4 v = make_float4(NEG_INF, NEG_INF, NEG_INF, NEG_INF);
        if (active) v = __ldg(reinterpret_cast<const float4*>(xr) + t);
        // every lane of the warp takes part in both shuffles (inactive lanes carry -inf)
        float left = __shfl_up_sync(FULL_MASK, v.w, 1);
        float right = __shfl_down_sync(FULL_MASK, v.x, 1);
        if (lane == 0) left = (active && t > 0) ? __ldg(xr + 4 * t - 1) : NEG_INF;
        if (lane == 31) right = (active && 4 * t + 4 < L) ? __ldg(xr + 4 * t + 4) : NEG_INF;
        if (active) {
            const float mid = nan_max(v.y, v.z);
            float2 o;
            o.x = nan_max(nan_max(left, v.x), mid);
            o.y = nan_max(mid, nan_max(v.w, right));
            reinterpret_cast<float2*>(y + row * (long long)(L / 2))[t] = o;
        }
    }
}

// Generic fallback for other parameters / layouts.
__global__ void max_pool1d_generic_kernel(const float* __restrict__ x, float* __restrict__ y, long long total,
                                          int L, int Lout, int k, int s, int p) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    const long long row = idx / Lout;
    const int o = (int)(idx - row * Lout);
    const float* xr = x + row * (long long)L;
    const int start = o * s - p;
    float m = -INFINITY;
    for (int j = 0; j < k; ++j) {
        int i = start + j;
        if (i >= 0 && i < L) m = nan_max(m, __ldg(xr + i));
    }
    y[idx] = m;
}

torch::Tensor max_pool1d_shfl_halo(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding,
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
    const long long rows = N * C;
    if (rows == 0) return y;

    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const bool aligned = (reinterpret_cast<uintptr_t>(xp) % 16 == 0) && (reinterpret_cast<uintptr_t>(yp) % 8 == 0);
    if (kernel_size == 4 && stride == 2 && padding == 1 && L % 4 == 0 && aligned) {
        // Lout == L / 2 here
        const int pairs = (int)(L / 4);
        const int threads = 256;   // multiple of the warp size, required by the shuffle halo exchange
        dim3 grid((unsigned)((pairs + threads - 1) / threads), (unsigned)(rows < 65535 ? rows : 65535));
        max_pool1d_shfl_halo_kernel<<<grid, threads, 0, stream>>>(xp, yp, rows, (int)L, pairs);
    } else {
        const long long total = rows * Lout;
        const int threads = 256;
        max_pool1d_generic_kernel<<<(unsigned)((total + threads - 1) / threads), threads, 0, stream>>>(
            xp, yp, total, (int)L, (int)Lout, (int)kernel_size, (int)stride, (int)padding);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

max_pool1d_shfl_halo_mod = load_inline(
    name="max_pool1d_warp_shuffle_halo_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["max_pool1d_shfl_halo"],
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
        return max_pool1d_shfl_halo_mod.max_pool1d_shfl_halo(x, self.kernel_size, self.stride, self.padding, stream)
