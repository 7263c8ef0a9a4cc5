# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor maxpool3d_naive(torch::Tensor x, int64_t k, int64_t s, int64_t p);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <math.h>

__global__ void maxpool3d_naive_kernel(const float* x, float* y,
                                       long long NC, int D, int H, int W,
                                       int OD, int OH, int OW, int k, int s, int p) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = NC * OD * OH * OW;
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
            for (int kw = 0; kw < k; ++kw) {
                int iw = ow * s - p + kw;
                if (iw < 0 || iw >= W) continue;
                float v = xp[((long long)id * H + ih) * W + iw];
                if (v > m || v != v) m = v;   // NaN propagates like PyTorch
            }
        }
    }
    y[idx] = m;
}

torch::Tensor maxpool3d_naive(torch::Tensor x, int64_t k, int64_t s, int64_t p) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 5, "x must be 5-D (N, C, D, H, W)");
    TORCH_CHECK(k > 0 && s > 0 && p >= 0 && 2 * p <= k, "invalid pooling parameters");
    auto xc = x.contiguous();
    const int N = xc.size(0), C = xc.size(1), D = xc.size(2), H = xc.size(3), W = xc.size(4);
    const int OD = (D + 2 * p - k) / s + 1;
    const int OH = (H + 2 * p - k) / s + 1;
    const int OW = (W + 2 * p - k) / s + 1;
    TORCH_CHECK(OD > 0 && OH > 0 && OW > 0, "output would be empty");
    auto y = torch::empty({N, C, OD, OH, OW}, xc.options());
    long long total = (long long)N * C * OD * OH * OW;
    if (total == 0) return y;
    const int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    maxpool3d_naive_kernel<<<(unsigned)blocks, threads>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), (long long)N * C, D, H, W,
        OD, OH, OW, (int)k, (int)s, (int)p);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "maxpool3d_naive launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

ext = load_inline(
    name="max_pool3d_naive_thread_per_output",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["maxpool3d_naive"],
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
        return ext.maxpool3d_naive(x, self.kernel_size, self.stride, self.padding)
