# expect: pass
# nn.LayerNorm only holds weight/bias/eps (same parameter names as the reference); the math is in the kernel.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// Welford's online algorithm per thread, merged across the block through shared memory.
__global__ void ln_welford_kernel(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                                  float* __restrict__ y, int n, float eps) {
    __shared__ float sh_mean[256], sh_m2[256], sh_cnt[256];
    const float* xr = x + (long long)blockIdx.x * n;
    float* yr = y + (long long)blockIdx.x * n;
    float mean = 0.f, m2 = 0.f, cnt = 0.f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        cnt += 1.f;
        float d = xr[i] - mean;
        mean += d / cnt;
        m2 += d * (xr[i] - mean);
    }
    sh_mean[threadIdx.x] = mean; sh_m2[threadIdx.x] = m2; sh_cnt[threadIdx.x] = cnt;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            float na = sh_cnt[threadIdx.x], nb = sh_cnt[threadIdx.x + s];
            float nt = na + nb;
            if (nt > 0.f) {
                float delta = sh_mean[threadIdx.x + s] - sh_mean[threadIdx.x];
                sh_mean[threadIdx.x] += delta * nb / nt;
                sh_m2[threadIdx.x] += sh_m2[threadIdx.x + s] + delta * delta * na * nb / nt;
                sh_cnt[threadIdx.x] = nt;
            }
        }
        __syncthreads();
    }
    float mu = sh_mean[0];
    float rstd = rsqrtf(sh_m2[0] / n + eps);
    for (int i = threadIdx.x; i < n; i += blockDim.x) yr[i] = (xr[i] - mu) * rstd * w[i] + b[i];
}

torch::Tensor ln_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps) {
    int n = w.numel();
    int rows = x.numel() / n;
    auto y = torch::empty_like(x);
    ln_welford_kernel<<<rows, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), n, static_cast<float>(eps));
    return y;
}
"""

cpp_source = "torch::Tensor ln_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, double eps);"

ln_ext = load_inline(name="ln_welford", cpp_sources=cpp_source, cuda_sources=cuda_source, functions=["ln_forward"])


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super(ModelNew, self).__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)
        self.ln_cuda = ln_ext

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln_cuda.ln_forward(x.contiguous(), self.ln.weight, self.ln.bias, self.ln.eps)
