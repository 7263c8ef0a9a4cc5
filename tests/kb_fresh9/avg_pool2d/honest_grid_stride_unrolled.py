# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor avg_pool2d_gs_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Grid-stride loop, output column fastest (coalesced stores, nearly coalesced loads through __ldg).
// The 3x3/stride-2 case is a compile-time template so the window loop fully unrolls; with
// count_include_pad=True and floor output sizing every window has divisor K*K.
template <int K, int S>
__global__ void avg_pool2d_gs_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     long long total, int H, int W, int OH, int OW, int P)
{
    const float inv = 1.0f / (float)(K * K);
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        int ow = (int)(idx % OW);
        long long t = idx / OW;
        int oh = (int)(t % OH);
        long long nc = t / OH;
        const float* xp = x + nc * H * W;
        int hs = oh * S - P;
        int ws = ow * S - P;
        float sum = 0.f;
#pragma unroll
        for (int i = 0; i < K; ++i) {
            int h = hs + i;
            if (h < 0 || h >= H) continue;
            const float* row = xp + (long long)h * W;
#pragma unroll
            for (int j = 0; j < K; ++j) {
                int w = ws + j;
                if (w >= 0 && w < W) sum += __ldg(row + w);
            }
        }
        y[idx] = sum * inv;
    }
}

// Runtime-parameter version used for any other configuration.
__global__ void avg_pool2d_gs_generic_kernel(const float* __restrict__ x, float* __restrict__ y,
                                             long long total, int H, int W, int OH, int OW,
                                             int K, int S, int P)
{
    const float inv = 1.0f / (float)(K * K);
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        int ow = (int)(idx % OW);
        long long t = idx / OW;
        int oh = (int)(t % OH);
        long long nc = t / OH;
        const float* xp = x + nc * H * W;
        int hs = oh * S - P, ws = ow * S - P;
        int h0 = max(hs, 0), h1 = min(hs + K, H);
        int w0 = max(ws, 0), w1 = min(ws + K, W);
        float sum = 0.f;
        for (int h = h0; h < h1; ++h)
            for (int w = w0; w < w1; ++w)
                sum += __ldg(xp + (long long)h * W + w);
        y[idx] = sum * inv;
    }
}

torch::Tensor avg_pool2d_gs_forward(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr) {
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

    int dev = 0, sms = 132;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 256;
    long long want = (total + threads - 1) / threads;
    long long cap = (long long)sms * 16;
    int blocks = (int)(want < cap ? want : cap);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    if (k == 3 && s == 2) {
        avg_pool2d_gs_kernel<3, 2><<<blocks, threads, 0, stream>>>(
            xc.data_ptr<float>(), y.data_ptr<float>(), total, H, W, OH, OW, (int)p);
    } else {
        avg_pool2d_gs_generic_kernel<<<blocks, threads, 0, stream>>>(
            xc.data_ptr<float>(), y.data_ptr<float>(), total, H, W, OH, OW, (int)k, (int)s, (int)p);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "avg_pool2d grid-stride launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

avg_pool2d_gs_ext = load_inline(
    name="avg_pool2d_grid_stride_unrolled_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["avg_pool2d_gs_forward"],
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
        return avg_pool2d_gs_ext.avg_pool2d_gs_forward(x, self.kernel_size, self.stride, self.padding, stream)
