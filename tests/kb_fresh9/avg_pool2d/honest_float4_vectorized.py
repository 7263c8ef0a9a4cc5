# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor avg_pool2d_vec_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// Fast path (k=3, s=2, p=1, W % 8 == 0, 16-byte aligned pointers): one thread produces 4 adjacent
// outputs ow = 4q .. 4q+3 of one output row. Those need input columns 8q-1 .. 8q+7, i.e. two aligned
// float4 loads (8q .. 8q+7) plus one scalar for column 8q-1 (zero padding when q == 0), per input row.
// Output ow = 4q+j uses columns 8q+2j-1, 8q+2j, 8q+2j+1. The 4 results are written with one float4 store.
__global__ void avg_pool2d_vec4_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       long long total_vec, int H, int W, int OH, int OW)
{
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total_vec) return;
    const int OW4 = OW >> 2;
    const int q = (int)(idx % OW4);
    long long t = idx / OW4;
    const int oh = (int)(t % OH);
    const long long nc = t / OH;

    const float* xp = x + nc * H * W;
    const int c0 = 8 * q;
    float o0 = 0.f, o1 = 0.f, o2 = 0.f, o3 = 0.f;
#pragma unroll
    for (int i = 0; i < 3; ++i) {
        const int h = 2 * oh - 1 + i;
        if (h < 0 || h >= H) continue;
        const float* row = xp + (long long)h * W;
        const float4 a = __ldg(reinterpret_cast<const float4*>(row + c0));
        const float4 b = __ldg(reinterpret_cast<const float4*>(row + c0 + 4));
        const float l = (c0 > 0) ? __ldg(row + c0 - 1) : 0.f;
        o0 += l   + a.x + a.y;
        o1 += a.y + a.z + a.w;
        o2 += a.w + b.x + b.y;
        o3 += b.y + b.z + b.w;
    }
    const float inv = 1.0f / 9.0f;
    float4 r = make_float4(o0 * inv, o1 * inv, o2 * inv, o3 * inv);
    *reinterpret_cast<float4*>(y + (nc * OH + oh) * OW + 4 * q) = r;
}

// Scalar fallback for any configuration / alignment (divisor K*K: count_include_pad with floor sizing).
__global__ void avg_pool2d_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                         long long total, int H, int W, int OH, int OW,
                                         int K, int S, int P)
{
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    const int ow = (int)(idx % OW);
    long long t = idx / OW;
    const int oh = (int)(t % OH);
    const long long nc = t / OH;
    const float* xp = x + nc * H * W;
    const int hs = oh * S - P, ws = ow * S - P;
    float sum = 0.f;
    for (int h = max(hs, 0); h < min(hs + K, H); ++h)
        for (int w = max(ws, 0); w < min(ws + K, W); ++w)
            sum += __ldg(xp + (long long)h * W + w);
    y[idx] = sum / (float)(K * K);
}

torch::Tensor avg_pool2d_vec_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 4, "x must be 4-D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(k > 0 && s > 0 && p >= 0 && 2 * p <= k, "invalid pooling parameters");
    auto xc = x.contiguous();
    const int N = xc.size(0), C = xc.size(1), H = xc.size(2), W = xc.size(3);
    const int OH = (int)((H + 2 * p - k) / s + 1);
    const int OW = (int)((W + 2 * p - k) / s + 1);
    TORCH_CHECK(OH > 0 && OW > 0, "output would be empty");
    auto y = torch::empty({N, C, OH, OW}, xc.options());
    const long long total = (long long)N * C * OH * OW;
    if (total == 0) return y;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    const float* xptr = xc.data_ptr<float>();
    float* yptr = y.data_ptr<float>();
    const int threads = 256;

    const bool aligned = (reinterpret_cast<uintptr_t>(xptr) % 16 == 0) && (reinterpret_cast<uintptr_t>(yptr) % 16 == 0);
    if (k == 3 && s == 2 && p == 1 && (W % 8) == 0 && aligned) {
        // here OW == W / 2, so OW % 4 == 0 and column 8q+7 <= W-1 for every q < OW/4
        const long long total_vec = total / 4;
        const long long blocks = (total_vec + threads - 1) / threads;
        avg_pool2d_vec4_kernel<<<(unsigned)blocks, threads, 0, stream>>>(xptr, yptr, total_vec, H, W, OH, OW);
    } else {
        const long long blocks = (total + threads - 1) / threads;
        avg_pool2d_scalar_kernel<<<(unsigned)blocks, threads, 0, stream>>>(
            xptr, yptr, total, H, W, OH, OW, (int)k, (int)s, (int)p);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "avg_pool2d vectorised launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

avg_pool2d_vec_ext = load_inline(
    name="avg_pool2d_float4_vectorized_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["avg_pool2d_vec_forward"],
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
        return avg_pool2d_vec_ext.avg_pool2d_vec_forward(x, self.kernel_size, self.stride, self.padding, stream)
