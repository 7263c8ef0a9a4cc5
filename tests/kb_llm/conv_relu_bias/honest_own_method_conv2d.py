# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

#define KS 3

// One thread per output pixel, all output channels of a pixel in registers.
template <int OC>
__global__ void conv3x3_kernel(const float* __restrict__ x, const float* __restrict__ w,
                               const float* __restrict__ b, float* __restrict__ y, int C, int H, int W) {
    const int OH = H - KS + 1, OW = W - KS + 1;
    const int n = blockIdx.z;
    const int oh = blockIdx.y * blockDim.y + threadIdx.y;
    const int ow = blockIdx.x * blockDim.x + threadIdx.x;
    if (oh >= OH || ow >= OW) return;
    float acc[OC];
    #pragma unroll
    for (int oc = 0; oc < OC; ++oc) acc[oc] = b[oc];
    for (int c = 0; c < C; ++c)
        for (int i = 0; i < KS; ++i)
            for (int j = 0; j < KS; ++j) {
                const float v = x[((n * C + c) * H + oh + i) * W + ow + j];
                #pragma unroll
                for (int oc = 0; oc < OC; ++oc) acc[oc] += v * w[((oc * C + c) * KS + i) * KS + j];
            }
    #pragma unroll
    for (int oc = 0; oc < OC; ++oc) y[((n * OC + oc) * OH + oh) * OW + ow] = acc[oc];
}

__global__ void relu_add_bias_kernel(float* y, const float* bias, int plane, int OC, int total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) y[i] = fmaxf(y[i], 0.f) + bias[(i / plane) % OC];
}

torch::Tensor conv3x3(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(w.size(0) == 16 && w.size(2) == KS, "specialised for 16 output channels, 3x3");
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    auto y = torch::empty({N, 16, H - KS + 1, W - KS + 1}, x.options());
    dim3 block(16, 16), grid((W - KS + 1 + 15) / 16, (H - KS + 1 + 15) / 16, N);
    conv3x3_kernel<16><<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), C, H, W);
    return y;
}

torch::Tensor relu_add_bias(torch::Tensor y, torch::Tensor bias) {
    const int total = y.numel();
    const int plane = y.size(2) * y.size(3);
    relu_add_bias_kernel<<<(total + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        y.data_ptr<float>(), bias.data_ptr<float>(), plane, y.size(1), total);
    return y;
}
"""

cpp_src = """
torch::Tensor conv3x3(torch::Tensor x, torch::Tensor w, torch::Tensor b);
torch::Tensor relu_add_bias(torch::Tensor y, torch::Tensor bias);
"""

kernels = load_inline(name="conv3x3_relu_bias", cpp_sources=cpp_src, cuda_sources=cuda_src,
                      functions=["conv3x3", "relu_add_bias"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def conv2d(self, x):
        return kernels.conv3x3(x.contiguous(), self.conv.weight, self.conv.bias)

    def relu(self, y):
        return kernels.relu_add_bias(y, self.bias.view(-1))

    def forward(self, x):
        y = self.conv2d(x)
        return self.relu(y)
