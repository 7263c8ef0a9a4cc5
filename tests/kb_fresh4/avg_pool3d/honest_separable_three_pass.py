# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

avg_pool3d_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// With count_include_pad=True the 3D box average is separable:
//   avg = (1/(pd*ph*pw)) * sum_d sum_h sum_w x = avg_d(avg_h(avg_w(x)))
// where each per-axis divisor is that axis' window length clipped to the padded
// extent.  So run three 1D average pools, one kernel per axis:
//   pass W: (NC*D*H, W)        -> t1 (NC*D*H, OW)
//   pass H: (NC*D, H, OW)      -> t2 (NC*D, OH, OW)
//   pass D: (NC, D, OH*OW)     -> y  (NC, OD, OH*OW)
// Each pass sees its input as (A, L, B) with the pooled axis L in the middle and
// writes (A, OL, B); one thread per output element, consecutive threads take
// consecutive b (or ol when B == 1), so the reads are coalesced along B.
__global__ void avg_pool1d_mid_kernel(const float* __restrict__ in, float* __restrict__ out,
                                      long long A, int L, long long B, int OL,
                                      int k, int s, int p, long long total) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long b = idx % B;
    long long t = idx / B;
    int ol = (int)(t % OL);
    long long a = t / OL;
    int start = ol * s - p;
    int end = min(start + k, L + p);
    const float inv = 1.0f / (float)(end - start);
    int l0 = max(start, 0), l1 = min(end, L);
    const float* src = in + a * (long long)L * B + b;
    float sum = 0.f;
    for (int l = l0; l < l1; ++l) sum += src[(long long)l * B];
    out[idx] = sum * inv;
}

static void launch_pass(const float* in, float* out, long long A, int L, long long B, int OL,
                        int k, int s, int p, cudaStream_t stream) {
    long long total = A * OL * B;
    if (total == 0) return;
    const int threads = 256;
    unsigned blocks = (unsigned)((total + threads - 1) / threads);
    avg_pool1d_mid_kernel<<<blocks, threads, 0, stream>>>(in, out, A, L, B, OL, k, s, p, total);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "avg_pool1d pass launch failed: ", cudaGetErrorString(err));
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
    const long long NC = (long long)N * C;
    if (NC * OD * OH * OW == 0) return y;
    auto t1 = torch::empty({NC, D, H, OW}, x.options());
    auto t2 = torch::empty({NC, D, OH, OW}, x.options());
    launch_pass(x.data_ptr<float>(), t1.data_ptr<float>(), NC * D * H, (int)W, 1, (int)OW,
                (int)k, (int)s, (int)p, stream);
    launch_pass(t1.data_ptr<float>(), t2.data_ptr<float>(), NC * D, (int)H, OW, (int)OH,
                (int)k, (int)s, (int)p, stream);
    launch_pass(t2.data_ptr<float>(), y.data_ptr<float>(), NC, (int)D, OH * OW, (int)OD,
                (int)k, (int)s, (int)p, stream);
    return y;
}
"""
avg_pool3d_cpp_source = "torch::Tensor avg_pool3d_cuda(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr);"
avg_pool3d = load_inline(name="avg_pool3d_honest_separable3", cpp_sources=avg_pool3d_cpp_source,
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
