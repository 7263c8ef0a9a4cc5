# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor max_pool1d_vec4(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>

__device__ __forceinline__ float nan_max(float a, float b) {
    return (b > a || b != b) ? b : a;
}

// Fast path for kernel_size=4, stride=2, padding=1 with L % 8 == 0 and 16-byte aligned pointers.
// Each thread produces 4 consecutive outputs o0..o0+3 (o0 = 4*g) whose windows cover input positions
// 2*o0-1 .. 2*o0+8: two float4 loads for x[2*o0 .. 2*o0+7] plus one scalar halo element on each side
// (-inf at the row edges, which is exactly the padding). The 4 results go out as one float4 store.
__global__ void max_pool1d_k4s2p1_vec4_kernel(const float* __restrict__ x, float* __restrict__ y,
                                              long long groups, int L, int groups_per_row) {
    long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= groups) return;
    const long long row = g / groups_per_row;
    const int gl = (int)(g - row * groups_per_row);
    const float* xr = x + row * (long long)L;
    const int b = gl * 8;
    const float4* xv = reinterpret_cast<const float4*>(xr + b);
    const float4 a = __ldg(xv);
    const float4 c = __ldg(xv + 1);
    const float left = (b > 0) ? __ldg(xr + b - 1) : -INFINITY;
    const float right = (b + 8 < L) ? __ldg(xr + b + 8) : -INFINITY;
    // pairwise maxima shared between neighbouring windows
    const float m12 = nan_max(a.y, a.z);
    const float m34 = nan_max(a.w, c.x);
    const float m56 = nan_max(c.y, c.z);
    float4 o;
    o.x = nan_max(nan_max(left, a.x), m12);
    o.y = nan_max(m12, m34);
    o.z = nan_max(m34, m56);
    o.w = nan_max(m56, nan_max(c.w, right));
    float4* yr = reinterpret_cast<float4*>(y + row * (long long)(L / 2));
    yr[gl] = o;
}

// Generic scalar fallback (any kernel/stride/padding, any alignment).
__global__ void max_pool1d_scalar_kernel(const float* __restrict__ x, float* __restrict__ y, long long total,
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

torch::Tensor max_pool1d_vec4(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding) {
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

    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const bool aligned = (reinterpret_cast<uintptr_t>(xp) % 16 == 0) && (reinterpret_cast<uintptr_t>(yp) % 16 == 0);
    const int threads = 256;
    if (kernel_size == 4 && stride == 2 && padding == 1 && L % 8 == 0 && aligned) {
        // here Lout == L / 2, a multiple of 4
        const int gpr = (int)(L / 8);
        const long long groups = rows * gpr;
        max_pool1d_k4s2p1_vec4_kernel<<<(unsigned)((groups + threads - 1) / threads), threads>>>(
            xp, yp, groups, (int)L, gpr);
    } else {
        const long long total = rows * Lout;
        max_pool1d_scalar_kernel<<<(unsigned)((total + threads - 1) / threads), threads>>>(
            xp, yp, total, (int)L, (int)Lout, (int)kernel_size, (int)stride, (int)padding);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

max_pool1d_vec4_mod = load_inline(
    name="max_pool1d_float4_vectorized_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["max_pool1d_vec4"],
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
        return max_pool1d_vec4_mod.max_pool1d_vec4(x, self.kernel_size, self.stride, self.padding)
