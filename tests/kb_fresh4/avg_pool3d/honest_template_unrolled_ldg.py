# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

avg_pool3d_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Thread per output, but kernel size and stride are template parameters so the
// 27-tap window is fully unrolled; out-of-range taps are predicated (no clipped
// loop bounds), loads go through the read-only path (__ldg) and the in-plane
// offsets are 32-bit (only the (n,c) plane base is 64-bit).
template <int K, int S>
__global__ void avg_pool3d_unrolled_kernel(const float* __restrict__ x, float* __restrict__ y,
                                           int D, int H, int W, int OD, int OH, int OW, int p,
                                           long long total) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int ow = (int)(idx % OW);
    long long t = idx / OW;
    int oh = (int)(t % OH);
    t /= OH;
    int od = (int)(t % OD);
    long long nc = t / OD;

    const int dstart = od * S - p, hstart = oh * S - p, wstart = ow * S - p;
    const int pool_size = (min(dstart + K, D + p) - dstart) * (min(hstart + K, H + p) - hstart) *
                          (min(wstart + K, W + p) - wstart);
    const float* __restrict__ xp = x + nc * (long long)D * H * W;

    float sum = 0.f;
#pragma unroll
    for (int kd = 0; kd < K; ++kd) {
        const int d = dstart + kd;
        if ((unsigned)d >= (unsigned)D) continue;
#pragma unroll
        for (int kh = 0; kh < K; ++kh) {
            const int h = hstart + kh;
            if ((unsigned)h >= (unsigned)H) continue;
            const float* __restrict__ row = xp + (d * H + h) * W;
#pragma unroll
            for (int kw = 0; kw < K; ++kw) {
                const int w = wstart + kw;
                if ((unsigned)w < (unsigned)W) sum += __ldg(row + w);
            }
        }
    }
    y[idx] = sum * (1.0f / (float)pool_size);
}

// Generic fallback for (kernel_size, stride) combinations not instantiated above.
__global__ void avg_pool3d_generic_kernel(const float* __restrict__ x, float* __restrict__ y,
                                          int D, int H, int W, int OD, int OH, int OW,
                                          int k, int s, int p, long long total) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int ow = (int)(idx % OW);
    long long t = idx / OW;
    int oh = (int)(t % OH);
    t /= OH;
    int od = (int)(t % OD);
    long long nc = t / OD;
    int dstart = od * s - p, hstart = oh * s - p, wstart = ow * s - p;
    int dend = min(dstart + k, D + p), hend = min(hstart + k, H + p), wend = min(wstart + k, W + p);
    int pool_size = (dend - dstart) * (hend - hstart) * (wend - wstart);
    dstart = max(dstart, 0); hstart = max(hstart, 0); wstart = max(wstart, 0);
    dend = min(dend, D); hend = min(hend, H); wend = min(wend, W);
    const float* xp = x + nc * (long long)D * H * W;
    float sum = 0.f;
    for (int d = dstart; d < dend; ++d)
        for (int h = hstart; h < hend; ++h)
            for (int w = wstart; w < wend; ++w)
                sum += __ldg(xp + ((long long)d * H + h) * W + w);
    y[idx] = sum / (float)pool_size;
}

torch::Tensor avg_pool3d_cuda(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be CUDA");
    TORCH_CHECK(x.dim() == 5, "x must be 5D (N, C, D, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(k > 0 && s > 0 && p >= 0 && 2 * p <= k, "invalid pooling params");
    x = x.contiguous();
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    int64_t N = x.size(0), C = x.size(1), D = x.size(2), H = x.size(3), W = x.size(4);
    TORCH_CHECK(D * H * W < (1LL << 31), "plane too large for 32-bit in-plane offsets");
    int64_t OD = (D + 2 * p - k) / s + 1, OH = (H + 2 * p - k) / s + 1, OW = (W + 2 * p - k) / s + 1;
    TORCH_CHECK(OD > 0 && OH > 0 && OW > 0, "output size is too small");
    auto y = torch::empty({N, C, OD, OH, OW}, x.options());
    long long total = (long long)N * C * OD * OH * OW;
    if (total == 0) return y;
    const int threads = 256;
    unsigned blocks = (unsigned)((total + threads - 1) / threads);
    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    if (k == 3 && s == 2) {
        avg_pool3d_unrolled_kernel<3, 2><<<blocks, threads, 0, stream>>>(xp, yp, (int)D, (int)H, (int)W,
            (int)OD, (int)OH, (int)OW, (int)p, total);
    } else if (k == 3 && s == 1) {
        avg_pool3d_unrolled_kernel<3, 1><<<blocks, threads, 0, stream>>>(xp, yp, (int)D, (int)H, (int)W,
            (int)OD, (int)OH, (int)OW, (int)p, total);
    } else if (k == 2 && s == 2) {
        avg_pool3d_unrolled_kernel<2, 2><<<blocks, threads, 0, stream>>>(xp, yp, (int)D, (int)H, (int)W,
            (int)OD, (int)OH, (int)OW, (int)p, total);
    } else {
        avg_pool3d_generic_kernel<<<blocks, threads, 0, stream>>>(xp, yp, (int)D, (int)H, (int)W,
            (int)OD, (int)OH, (int)OW, (int)k, (int)s, (int)p, total);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "avg_pool3d kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""
avg_pool3d_cpp_source = "torch::Tensor avg_pool3d_cuda(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr);"
avg_pool3d = load_inline(name="avg_pool3d_honest_template_unrolled", cpp_sources=avg_pool3d_cpp_source,
                         cuda_sources=avg_pool3d_source, functions=["avg_pool3d_cuda"], verbose=False,
                         extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = int(kernel_size)
        self.stride = int(stride) if stride is not None else int(kernel_size)
        self.padding = int(padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return avg_pool3d.avg_pool3d_cuda(x.contiguous(), self.kernel_size, self.stride, self.padding,
                                          torch.cuda.current_stream(x.device).cuda_stream)
