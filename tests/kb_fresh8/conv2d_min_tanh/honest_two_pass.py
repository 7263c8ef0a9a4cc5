# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_min_tanh_two_pass_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

// Pass 1: plain direct convolution into a (B, Co, OH, OW) scratch tensor, grid-stride loop.
__global__ void conv2d_valid_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                    const float* __restrict__ bias, float* __restrict__ y,
                                    int B, int Ci, int Co, int H, int W, int K, int OH, int OW) {
    const long long total = (long long)B * Co * OH * OW;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        int ox = (int)(idx % OW);
        long long t = idx / OW;
        int oy = (int)(t % OH);
        t /= OH;
        int co = (int)(t % Co);
        int b = (int)(t / Co);
        float acc = __ldg(bias + co);
        const float* xb = x + ((long long)b * Ci * H + oy) * W + ox;
        const float* wc = w + (long long)co * Ci * K * K;
        for (int ci = 0; ci < Ci; ++ci) {
            const float* xc = xb + (long long)ci * H * W;
            const float* wk = wc + ci * K * K;
            for (int ky = 0; ky < K; ++ky)
                for (int kx = 0; kx < K; ++kx)
                    acc = fmaf(__ldg(xc + ky * W + kx), __ldg(wk + ky * K + kx), acc);
        }
        y[idx] = acc;
    }
}

// Pass 2: min over the channel axis, then tanh(tanh(.)).
__global__ void min_tanh_kernel(const float* __restrict__ y, float* __restrict__ out,
                                int B, int Co, long long plane) {
    const long long total = (long long)B * plane;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        long long b = idx / plane, p = idx % plane;
        const float* yp = y + b * Co * plane + p;
        float mn = yp[0];
        for (int c = 1; c < Co; ++c) mn = fminf(mn, yp[(long long)c * plane]);
        out[idx] = tanhf(tanhf(mn));
    }
}

torch::Tensor conv2d_min_tanh_two_pass_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "expected 4-D input and weight");
    x = x.contiguous(); w = w.contiguous(); b = b.contiguous();
    const int B = x.size(0), Ci = x.size(1), H = x.size(2), W = x.size(3);
    const int Co = w.size(0), K = w.size(2);
    TORCH_CHECK(w.size(1) == Ci && w.size(3) == K, "weight shape mismatch");
    TORCH_CHECK(b.numel() == Co && Co >= 1, "bias size mismatch");
    const int OH = H - K + 1, OW = W - K + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "input smaller than kernel");
    auto y = torch::empty({B, Co, OH, OW}, x.options());
    auto out = torch::empty({B, 1, OH, OW}, x.options());
    const int threads = 256;
    long long total1 = (long long)B * Co * OH * OW;
    int blocks1 = (int)std::min<long long>((total1 + threads - 1) / threads, 65535LL * 8);
    conv2d_valid_kernel<<<blocks1, threads>>>(x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(),
                                              y.data_ptr<float>(), B, Ci, Co, H, W, K, OH, OW);
    long long plane = (long long)OH * OW;
    long long total2 = (long long)B * plane;
    int blocks2 = (int)std::min<long long>((total2 + threads - 1) / threads, 65535LL * 8);
    min_tanh_kernel<<<blocks2, threads>>>(y.data_ptr<float>(), out.data_ptr<float>(), B, Co, plane);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="conv2d_min_tanh_two_pass",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_min_tanh_two_pass_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.conv2d_min_tanh_two_pass_forward(x, self.conv.weight, self.conv.bias)
