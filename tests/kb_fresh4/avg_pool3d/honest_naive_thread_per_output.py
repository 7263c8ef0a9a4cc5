# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

avg_pool3d_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per output element; runtime kernel_size / stride / padding.
// count_include_pad=True: divisor is the window size clipped to the padded extent.
__global__ void avg_pool3d_naive_kernel(const float* __restrict__ x, float* __restrict__ y,
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
                sum += xp[((long long)d * H + h) * W + w];
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
    int64_t OD = (D + 2 * p - k) / s + 1, OH = (H + 2 * p - k) / s + 1, OW = (W + 2 * p - k) / s + 1;
    TORCH_CHECK(OD > 0 && OH > 0 && OW > 0, "output size is too small");
    auto y = torch::empty({N, C, OD, OH, OW}, x.options());
    long long total = (long long)N * C * OD * OH * OW;
    if (total == 0) return y;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    avg_pool3d_naive_kernel<<<(unsigned)blocks, threads, 0, stream>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), (int)D, (int)H, (int)W, (int)OD, (int)OH, (int)OW,
        (int)k, (int)s, (int)p, total);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "avg_pool3d kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""
avg_pool3d_cpp_source = "torch::Tensor avg_pool3d_cuda(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr);"
avg_pool3d = load_inline(name="avg_pool3d_honest_naive_tpo", cpp_sources=avg_pool3d_cpp_source,
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
