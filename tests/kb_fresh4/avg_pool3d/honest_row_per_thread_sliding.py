# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

avg_pool3d_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define MAX_K 8

// One thread per output row (n, c, od, oh): the thread walks ow = 0..OW-1 and keeps
// the k "column sums" (sum over the kd x kh taps of one input column w) of its
// current window in a small array; when the window slides by s, the k - s columns
// shared with the previous window are reused instead of being re-read.
// Adjacent threads own adjacent oh rows, i.e. their loads are s*W floats apart.
__global__ void avg_pool3d_rows_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       int D, int H, int W, int OD, int OH, int OW,
                                       int k, int s, int p, long long rows) {
    long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    int oh = (int)(row % OH);
    long long t = row / OH;
    int od = (int)(t % OD);
    long long nc = t / OD;

    int dstart = od * s - p, hstart = oh * s - p;
    int dend = min(dstart + k, D + p), hend = min(hstart + k, H + p);
    const int pool_dh = (dend - dstart) * (hend - hstart);
    const int d0 = max(dstart, 0), d1 = min(dend, D);
    const int h0 = max(hstart, 0), h1 = min(hend, H);

    const float* __restrict__ xp = x + nc * (long long)D * H * W;
    float* __restrict__ yp = y + row * (long long)OW;

    float cs[MAX_K];
    for (int ow = 0; ow < OW; ++ow) {
        const int wstart = ow * s - p;
        const int pool_w = min(wstart + k, W + p) - wstart;
        float sum = 0.f;
        for (int kw = 0; kw < k; ++kw) {
            float v;
            if (ow > 0 && kw + s < k) {
                v = cs[kw + s];              // column already summed for the previous window
            } else {
                v = 0.f;
                const int w = wstart + kw;
                if (w >= 0 && w < W) {
                    for (int d = d0; d < d1; ++d)
                        for (int h = h0; h < h1; ++h)
                            v += xp[((long long)d * H + h) * W + w];
                }
            }
            cs[kw] = v;                      // kw ascending: cs[kw + s] is still the old value
            sum += v;
        }
        yp[ow] = sum / (float)(pool_dh * pool_w);
    }
}

// Fallback for kernel sizes larger than the column cache.
__global__ void avg_pool3d_rows_nocache_kernel(const float* __restrict__ x, float* __restrict__ y,
                                               int D, int H, int W, int OD, int OH, int OW,
                                               int k, int s, int p, long long rows) {
    long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    int oh = (int)(row % OH);
    long long t = row / OH;
    int od = (int)(t % OD);
    long long nc = t / OD;
    int dstart = od * s - p, hstart = oh * s - p;
    int dend = min(dstart + k, D + p), hend = min(hstart + k, H + p);
    const int pool_dh = (dend - dstart) * (hend - hstart);
    const int d0 = max(dstart, 0), d1 = min(dend, D);
    const int h0 = max(hstart, 0), h1 = min(hend, H);
    const float* xp = x + nc * (long long)D * H * W;
    float* yp = y + row * (long long)OW;
    for (int ow = 0; ow < OW; ++ow) {
        int wstart = ow * s - p;
        int wend = min(wstart + k, W + p);
        const int pool_w = wend - wstart;
        wstart = max(wstart, 0); wend = min(wend, W);
        float sum = 0.f;
        for (int d = d0; d < d1; ++d)
            for (int h = h0; h < h1; ++h)
                for (int w = wstart; w < wend; ++w)
                    sum += xp[((long long)d * H + h) * W + w];
        yp[ow] = sum / (float)(pool_dh * pool_w);
    }
}

torch::Tensor avg_pool3d_cuda(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be CUDA");
    TORCH_CHECK(x.dim() == 5, "x must be 5D (N, C, D, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(k > 0 && s > 0 && p >= 0 && 2 * p <= k, "invalid pooling params");
    x = x.contiguous();
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    int64_t N = x.size(0), C = x.size(1), D = x.size(2), H = x.size(3), W = x.size(4);
    int64_t OD = (D + 2 * p - k) / s + 1, OH = (H + 2 * p - k) / s + 1, OW = (W + 2 * p - k) / s + 1;
    TORCH_CHECK(OD > 0 && OH > 0 && OW > 0, "output size is too small");
    auto y = torch::empty({N, C, OD, OH, OW}, x.options());
    long long rows = (long long)N * C * OD * OH;
    if (rows == 0) return y;
    const int threads = 128;
    unsigned blocks = (unsigned)((rows + threads - 1) / threads);
    if (k <= MAX_K) {
        avg_pool3d_rows_kernel<<<blocks, threads, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(),
            (int)D, (int)H, (int)W, (int)OD, (int)OH, (int)OW, (int)k, (int)s, (int)p, rows);
    } else {
        avg_pool3d_rows_nocache_kernel<<<blocks, threads, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(),
            (int)D, (int)H, (int)W, (int)OD, (int)OH, (int)OW, (int)k, (int)s, (int)p, rows);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "avg_pool3d kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""
avg_pool3d_cpp_source = "torch::Tensor avg_pool3d_cuda(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr);"
avg_pool3d = load_inline(name="avg_pool3d_honest_row_sliding", cpp_sources=avg_pool3d_cpp_source,
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
