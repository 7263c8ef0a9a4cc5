# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor avg_pool2d_slide_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define ROWS_PER_THREAD 8

// Horizontal 3-tap sums for the two outputs ow = 2q, 2q+1 from one input row:
// they need columns 4q-1 .. 4q+3 -> one aligned float4 (4q .. 4q+3) plus a scalar (4q-1, zero pad at q == 0).
__device__ __forceinline__ float2 hsum2(const float* __restrict__ plane, int h, int H, int W, int q) {
    if (h < 0 || h >= H) return make_float2(0.f, 0.f);
    const float* row = plane + (long long)h * W;
    const float4 v = __ldg(reinterpret_cast<const float4*>(row + 4 * q));
    const float l = (q > 0) ? __ldg(row + 4 * q - 1) : 0.f;
    return make_float2(l + v.x + v.y, v.y + v.z + v.w);
}

// Persistent grid-stride kernel, register blocked: each work item is a 2-wide x 8-tall block of outputs.
// Walking down the strip, the odd input row 2*oh+1 is shared by outputs oh and oh+1, so its horizontal
// sums are kept in registers (prev) instead of being reloaded: 2 row loads per output row instead of 3.
__global__ void __launch_bounds__(256)
avg_pool2d_slide_kernel(const float* __restrict__ x, float* __restrict__ y,
                        long long items, int H, int W, int OH, int OW, int strips)
{
    const int OW2 = OW >> 1;
    const float inv = 1.0f / 9.0f;
    const long long gstride = (long long)gridDim.x * blockDim.x;
    for (long long it = (long long)blockIdx.x * blockDim.x + threadIdx.x; it < items; it += gstride) {
        const int q = (int)(it % OW2);
        long long t = it / OW2;
        const int strip = (int)(t % strips);
        const long long nc = t / strips;
        const float* plane = x + nc * H * W;
        float* yplane = y + nc * OH * OW;
        const int oh0 = strip * ROWS_PER_THREAD;

        float2 prev = hsum2(plane, 2 * oh0 - 1, H, W, q);
#pragma unroll
        for (int i = 0; i < ROWS_PER_THREAD; ++i) {
            const int oh = oh0 + i;
            if (oh >= OH) break;
            const float2 a = hsum2(plane, 2 * oh, H, W, q);
            const float2 b = hsum2(plane, 2 * oh + 1, H, W, q);
            float2 o;
            o.x = (prev.x + a.x + b.x) * inv;
            o.y = (prev.y + a.y + b.y) * inv;
            *reinterpret_cast<float2*>(yplane + (long long)oh * OW + 2 * q) = o;
            prev = b;
        }
    }
}

// Generic scalar fallback (any k/s/p, any alignment). Divisor is K*K (count_include_pad, floor sizing).
__global__ void avg_pool2d_slide_fallback_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                 long long total, int H, int W, int OH, int OW,
                                                 int K, int S, int P)
{
    const long long gstride = (long long)gridDim.x * blockDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += gstride) {
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
}

torch::Tensor avg_pool2d_slide_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr) {
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
    int dev = 0, sms = 132;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 256;
    const long long cap = (long long)sms * 8;
    const float* xptr = xc.data_ptr<float>();
    float* yptr = y.data_ptr<float>();
    const bool aligned = (reinterpret_cast<uintptr_t>(xptr) % 16 == 0) && (reinterpret_cast<uintptr_t>(yptr) % 8 == 0);

    if (k == 3 && s == 2 && p == 1 && (W % 4) == 0 && aligned) {
        // OW == W/2 is even and column 4q+3 <= W-1 for all q < OW/2
        const int strips = (OH + ROWS_PER_THREAD - 1) / ROWS_PER_THREAD;
        const long long items = (long long)N * C * strips * (OW / 2);
        long long want = (items + threads - 1) / threads;
        const int blocks = (int)(want < cap ? want : cap);
        avg_pool2d_slide_kernel<<<blocks, threads, 0, stream>>>(xptr, yptr, items, H, W, OH, OW, strips);
    } else {
        long long want = (total + threads - 1) / threads;
        const int blocks = (int)(want < cap ? want : cap);
        avg_pool2d_slide_fallback_kernel<<<blocks, threads, 0, stream>>>(
            xptr, yptr, total, H, W, OH, OW, (int)k, (int)s, (int)p);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "avg_pool2d sliding launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

avg_pool2d_slide_ext = load_inline(
    name="avg_pool2d_regblock_sliding_persistent_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["avg_pool2d_slide_forward"],
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
        return avg_pool2d_slide_ext.avg_pool2d_slide_forward(x, self.kernel_size, self.stride, self.padding, stream)
