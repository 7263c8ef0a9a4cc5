# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor maxpool3d_vec4(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

__device__ __forceinline__ float max_nan(float a, float b) {
    return (b > a || b != b) ? b : a;
}

// Fast path for kernel 3, stride 2, padding 1 with W % 4 == 0 (so OW == W / 2 and rows are 16-byte aligned).
// Each thread produces two adjacent outputs ow = 2j, 2j+1, whose input columns are 4j-1 .. 4j+3:
// one aligned float4 at 4j plus one scalar at 4j-1 (skipped, i.e. -inf, when j == 0).
__global__ void __launch_bounds__(256)
maxpool3d_k3s2p1_vec4_kernel(const float* __restrict__ x, float* __restrict__ y,
                             long long total_pairs, int D, int H, int W, int OD, int OH, int OW) {
    const int OW2 = OW >> 1;
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total_pairs) return;
    const int j = (int)(idx % OW2);
    long long t = idx / OW2;
    const int oh = (int)(t % OH);
    t /= OH;
    const int od = (int)(t % OD);
    const long long nc = t / OD;

    const float* xp = x + nc * (long long)D * H * W;
    float m0 = -INFINITY, m1 = -INFINITY;
#pragma unroll
    for (int a = 0; a < 3; ++a) {
        const int id = 2 * od - 1 + a;
        if ((unsigned)id >= (unsigned)D) continue;
#pragma unroll
        for (int b = 0; b < 3; ++b) {
            const int ih = 2 * oh - 1 + b;
            if ((unsigned)ih >= (unsigned)H) continue;
            const float* row = xp + ((long long)id * H + ih) * W;
            const float4 v = __ldg(reinterpret_cast<const float4*>(row) + j);
            if (j > 0) m0 = max_nan(m0, __ldg(row + 4 * j - 1));
            m0 = max_nan(m0, v.x);
            m0 = max_nan(m0, v.y);
            m1 = max_nan(m1, v.y);
            m1 = max_nan(m1, v.z);
            m1 = max_nan(m1, v.w);
        }
    }
    // OW is even, so (row * OW + 2j) is even -> 8-byte aligned float2 store.
    float2* out = reinterpret_cast<float2*>(y + ((nc * OD + od) * (long long)OH + oh) * OW) + j;
    *out = make_float2(m0, m1);
}

// Scalar fallback: any kernel size / stride / padding, any alignment.
__global__ void maxpool3d_scalar_kernel(const float* __restrict__ x, float* __restrict__ y, long long total,
                                        int D, int H, int W, int OD, int OH, int OW, int k, int s, int p) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int ow = (int)(idx % OW);
    long long t = idx / OW;
    int oh = (int)(t % OH);
    t /= OH;
    int od = (int)(t % OD);
    long long nc = t / OD;
    const float* xp = x + nc * (long long)D * H * W;
    float m = -INFINITY;
    for (int kd = 0; kd < k; ++kd) {
        int id = od * s - p + kd;
        if (id < 0 || id >= D) continue;
        for (int kh = 0; kh < k; ++kh) {
            int ih = oh * s - p + kh;
            if (ih < 0 || ih >= H) continue;
            const float* row = xp + ((long long)id * H + ih) * W;
            for (int kw = 0; kw < k; ++kw) {
                int iw = ow * s - p + kw;
                if (iw < 0 || iw >= W) continue;
                m = max_nan(m, __ldg(row + iw));
            }
        }
    }
    y[idx] = m;
}

torch::Tensor maxpool3d_vec4(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 5, "x must be 5-D");
    TORCH_CHECK(k > 0 && s > 0 && p >= 0 && 2 * p <= k, "invalid pooling parameters");
    auto xc = x.contiguous();
    const int N = xc.size(0), C = xc.size(1), D = xc.size(2), H = xc.size(3), W = xc.size(4);
    const int OD = (D + 2 * p - k) / s + 1;
    const int OH = (H + 2 * p - k) / s + 1;
    const int OW = (W + 2 * p - k) / s + 1;
    TORCH_CHECK(OD > 0 && OH > 0 && OW > 0, "output would be empty");
    auto y = torch::empty({N, C, OD, OH, OW}, xc.options());
    const long long NC = (long long)N * C;
    const long long total = NC * OD * OH * OW;
    if (total == 0) return y;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    const float* xptr = xc.data_ptr<float>();
    float* yptr = y.data_ptr<float>();
    const bool aligned = (reinterpret_cast<uintptr_t>(xptr) % 16 == 0) && (reinterpret_cast<uintptr_t>(yptr) % 8 == 0);
    const int threads = 256;
    if (k == 3 && s == 2 && p == 1 && (W % 4) == 0 && aligned) {
        // here OW == W / 2, which is even
        const long long pairs = total / 2;
        maxpool3d_k3s2p1_vec4_kernel<<<(unsigned)((pairs + threads - 1) / threads), threads, 0, stream>>>(
            xptr, yptr, pairs, D, H, W, OD, OH, OW);
    } else {
        maxpool3d_scalar_kernel<<<(unsigned)((total + threads - 1) / threads), threads, 0, stream>>>(
            xptr, yptr, total, D, H, W, OD, OH, OW, (int)k, (int)s, (int)p);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "maxpool3d_vec4 launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

ext = load_inline(
    name="max_pool3d_float4_pair_outputs",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["maxpool3d_vec4"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride else kernel_size
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return ext.maxpool3d_vec4(x, self.kernel_size, self.stride, self.padding, stream)
