# ruff: noqa: E501  (the CUDA text keeps the long lines models write)
"""Image-shaped KernelBench-style tasks (Conv2d + ReLU + bias, 2x2 max pooling), in model
styles: cuDNN through torch with custom epilogues, direct convolutions, output mappings that
coalesce or not."""

from __future__ import annotations

from . import Candidate, StyleTask, candidate

CONV_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Convolution, ReLU, then a bias per channel."""

    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        x = self.conv(x)
        x = torch.relu(x)
        return x + self.bias


BATCH = 16
IN_CHANNELS = 16
OUT_CHANNELS = 32
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 3


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, (OUT_CHANNELS, 1, 1)]
'''

CONV_EPILOGUE = r'''
#include <torch/extension.h>

__global__ void relu_bias_kernel(const float* x, const float* bias, float* y, int n, int channels, int hw) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int c = (i / hw) % channels;
        y[i] = fmaxf(x[i], 0.0f) + bias[c];
    }
}

torch::Tensor relu_bias_cuda(torch::Tensor x, torch::Tensor bias) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    int channels = x.size(1);
    int hw = x.size(2) * x.size(3);
    relu_bias_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(), n,
                                                channels, hw);
    return y;
}
'''

CONV_TWO = r'''
#include <torch/extension.h>

__global__ void relu_kernel(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

__global__ void add_bias_kernel(const float* x, const float* bias, float* y, int n, int channels, int hw) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] + bias[(i / hw) % channels];
}

torch::Tensor relu_bias_cuda(torch::Tensor x, torch::Tensor bias) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    int channels = x.size(1);
    int hw = x.size(2) * x.size(3);
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    relu_kernel<<<blocks, threads>>>(x.data_ptr<float>(), n);
    add_bias_kernel<<<blocks, threads>>>(x.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(), n, channels,
                                         hw);
    return y;
}
'''

CONV_BIAS_ONLY = r'''
#include <torch/extension.h>

__global__ void bias_add_kernel(const float* x, const float* bias, float* y, int batch, int channels, int hw) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int total = batch * channels * hw;
    if (idx < total) {
        int c = (idx / hw) % channels;
        y[idx] = x[idx] + bias[c];
    }
}

torch::Tensor bias_add_cuda(torch::Tensor x, torch::Tensor bias) {
    auto y = torch::empty_like(x);
    int batch = x.size(0);
    int channels = x.size(1);
    int hw = x.size(2) * x.size(3);
    int total = batch * channels * hw;
    bias_add_kernel<<<(total + 511) / 512, 512>>>(x.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(), batch,
                                                  channels, hw);
    return y;
}
'''

CONV_DIRECT = r'''
#include <torch/extension.h>

__global__ void conv_relu_bias_kernel(const float* x, const float* w, const float* cb, const float* bias, float* y,
                                      int batch, int cin, int cout, int h, int wd, int k, int oh, int ow) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int total = batch * cout * oh * ow;
    if (idx >= total) return;
    int ox = idx % ow;
    int oy = (idx / ow) % oh;
    int co = (idx / (ow * oh)) % cout;
    int b = idx / (ow * oh * cout);
    float acc = cb[co];
    for (int ci = 0; ci < cin; ++ci)
        for (int ky = 0; ky < k; ++ky)
            for (int kx = 0; kx < k; ++kx)
                acc += x[((b * cin + ci) * h + oy + ky) * wd + ox + kx] * w[((co * cin + ci) * k + ky) * k + kx];
    y[idx] = fmaxf(acc, 0.0f) + bias[co];
}

torch::Tensor conv_relu_bias_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor cb, torch::Tensor bias) {
    int batch = x.size(0);
    int cin = x.size(1);
    int h = x.size(2);
    int wd = x.size(3);
    int cout = w.size(0);
    int k = w.size(2);
    int oh = h - k + 1;
    int ow = wd - k + 1;
    auto y = torch::empty({batch, cout, oh, ow}, x.options());
    int total = batch * cout * oh * ow;
    conv_relu_bias_kernel<<<(total + 255) / 256, 256>>>(x.data_ptr<float>(), w.data_ptr<float>(), cb.data_ptr<float>(),
                                                         bias.data_ptr<float>(), y.data_ptr<float>(), batch, cin, cout,
                                                         h, wd, k, oh, ow);
    return y;
}
'''

CONV_DIRECT_CHANNEL_FAST = r'''
#include <torch/extension.h>

__global__ void conv_fused_kernel(const float* x, const float* w, const float* cb, const float* bias, float* y,
                                  int batch, int cin, int cout, int h, int wd, int k, int oh, int ow) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int total = batch * cout * oh * ow;
    if (idx >= total) return;
    int co = idx % cout;
    int ox = (idx / cout) % ow;
    int oy = (idx / (cout * ow)) % oh;
    int b = idx / (cout * ow * oh);
    float acc = cb[co];
    for (int ci = 0; ci < cin; ++ci)
        for (int ky = 0; ky < k; ++ky)
            for (int kx = 0; kx < k; ++kx)
                acc += x[((b * cin + ci) * h + oy + ky) * wd + ox + kx] * w[((co * cin + ci) * k + ky) * k + kx];
    y[((b * cout + co) * oh + oy) * ow + ox] = fmaxf(acc, 0.0f) + bias[co];
}

torch::Tensor conv_relu_bias_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor cb, torch::Tensor bias) {
    int batch = x.size(0);
    int cin = x.size(1);
    int h = x.size(2);
    int wd = x.size(3);
    int cout = w.size(0);
    int k = w.size(2);
    int oh = h - k + 1;
    int ow = wd - k + 1;
    auto y = torch::empty({batch, cout, oh, ow}, x.options());
    int total = batch * cout * oh * ow;
    conv_fused_kernel<<<(total + 127) / 128, 128>>>(x.data_ptr<float>(), w.data_ptr<float>(), cb.data_ptr<float>(),
                                                     bias.data_ptr<float>(), y.data_ptr<float>(), batch, cin, cout, h,
                                                     wd, k, oh, ow);
    return y;
}
'''

_CONV_INIT = '''    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))
'''

_CONV_EPILOGUE_MODEL = 'class ModelNew(nn.Module):\n' + _CONV_INIT + '''
    def forward(self, x):
        x = self.conv(x)
        return ext.relu_bias_cuda(x.contiguous(), self.bias.contiguous())
'''

_CONV_BIAS_MODEL = 'class ModelNew(nn.Module):\n' + _CONV_INIT + '''
    def forward(self, x):
        x = torch.relu(self.conv(x))
        return ext.bias_add_cuda(x, self.bias)
'''

_CONV_FUSED_MODEL = 'class ModelNew(nn.Module):\n' + _CONV_INIT + '''
    def forward(self, x):
        return ext.conv_relu_bias_cuda(x.contiguous(), self.conv.weight.contiguous(), self.conv.bias, self.bias)
'''

CONV = StyleTask(
    "kb_conv_relu_bias/conv3x3", CONV_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 16, "IN_CHANNELS": 16, "OUT_CHANNELS": 32, "HEIGHT": 64, "WIDTH": 64}},
     {"config_id": 1, "sizes": {"BATCH": 32, "IN_CHANNELS": 32, "OUT_CHANNELS": 64, "HEIGHT": 64, "WIDTH": 64}}),
    (Candidate("cudnn_fused_epilogue", ("torch-tail", "fused"),
               candidate("conv_epi", CONV_EPILOGUE, ["relu_bias_cuda"], _CONV_EPILOGUE_MODEL)),
     Candidate("cudnn_two_kernels", ("torch-tail", "several-kernels"),
               candidate("conv_two", CONV_TWO, ["relu_bias_cuda"], _CONV_EPILOGUE_MODEL)),
     Candidate("cudnn_relu_custom_bias", ("torch-tail", "partial-fusion"),
               candidate("conv_bias", CONV_BIAS_ONLY, ["bias_add_cuda"], _CONV_BIAS_MODEL)),
     Candidate("direct_fused", ("naive", "fused"),
               candidate("conv_direct", CONV_DIRECT, ["conv_relu_bias_cuda"], _CONV_FUSED_MODEL)),
     Candidate("direct_channel_fastest", ("naive", "uncoalesced", "fused"),
               candidate("conv_chfast", CONV_DIRECT_CHANNEL_FAST, ["conv_relu_bias_cuda"], _CONV_FUSED_MODEL)),
     ))

POOL_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """2x2 max pooling with stride 2."""

    def __init__(self, kernel_size, stride):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride)

    def forward(self, x):
        return self.pool(x)


BATCH = 32
CHANNELS = 64
HEIGHT = 128
WIDTH = 128


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [2, 2]
'''

POOL_DIRECT = r'''
#include <torch/extension.h>

__global__ void maxpool2x2_kernel(const float* x, float* y, int nc, int h, int w, int oh, int ow) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= nc * oh * ow) return;
    int ox = idx % ow;
    int oy = (idx / ow) % oh;
    int p = idx / (ow * oh);
    const float* in = x + (long)p * h * w;
    int iy = oy * 2, ix = ox * 2;
    float m = fmaxf(fmaxf(in[iy * w + ix], in[iy * w + ix + 1]), fmaxf(in[(iy + 1) * w + ix], in[(iy + 1) * w + ix + 1]));
    y[idx] = m;
}

torch::Tensor maxpool_cuda(torch::Tensor x) {
    int n = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
    int oh = h / 2, ow = w / 2;
    auto y = torch::empty({n, c, oh, ow}, x.options());
    int total = n * c * oh * ow;
    maxpool2x2_kernel<<<(total + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n * c, h, w, oh, ow);
    return y;
}
'''

POOL_PLANE_FAST = r'''
#include <torch/extension.h>

__global__ void maxpool_kernel(const float* x, float* y, int nc, int h, int w, int oh, int ow) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= nc * oh * ow) return;
    int p = idx % nc;
    int ox = (idx / nc) % ow;
    int oy = idx / (nc * ow);
    float m = -INFINITY;
    for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx) m = fmaxf(m, x[((long)p * h + oy * 2 + dy) * w + ox * 2 + dx]);
    y[((long)p * oh + oy) * ow + ox] = m;
}

torch::Tensor maxpool_cuda(torch::Tensor x) {
    int n = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
    int oh = h / 2, ow = w / 2;
    auto y = torch::empty({n, c, oh, ow}, x.options());
    int total = n * c * oh * ow;
    maxpool_kernel<<<(total + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n * c, h, w, oh, ow);
    return y;
}
'''

POOL_2D = r'''
#include <torch/extension.h>

__global__ void maxpool_2d_kernel(const float* x, float* y, int h, int w, int oh, int ow) {
    int ox = blockIdx.x * blockDim.x + threadIdx.x;
    int oy = blockIdx.y * blockDim.y + threadIdx.y;
    int p = blockIdx.z;
    if (ox < ow && oy < oh) {
        const float* in = x + (long)p * h * w;
        float a = in[(2 * oy) * w + 2 * ox];
        float b = in[(2 * oy) * w + 2 * ox + 1];
        float c = in[(2 * oy + 1) * w + 2 * ox];
        float d = in[(2 * oy + 1) * w + 2 * ox + 1];
        y[((long)p * oh + oy) * ow + ox] = fmaxf(fmaxf(a, b), fmaxf(c, d));
    }
}

torch::Tensor maxpool_cuda(torch::Tensor x) {
    int n = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
    int oh = h / 2, ow = w / 2;
    auto y = torch::empty({n, c, oh, ow}, x.options());
    dim3 block(32, 8);
    dim3 grid((ow + 31) / 32, (oh + 7) / 8, n * c);
    maxpool_2d_kernel<<<grid, block>>>(x.data_ptr<float>(), y.data_ptr<float>(), h, w, oh, ow);
    return y;
}
'''

POOL_ROW = r'''
#include <torch/extension.h>

__global__ void maxpool_row_kernel(const float* x, float* y, int rows, int w, int ow) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* in0 = x + (long)r * 2 * w;
    const float* in1 = in0 + w;
    float* out = y + (long)r * ow;
    for (int ox = 0; ox < ow; ++ox)
        out[ox] = fmaxf(fmaxf(in0[2 * ox], in0[2 * ox + 1]), fmaxf(in1[2 * ox], in1[2 * ox + 1]));
}

torch::Tensor maxpool_cuda(torch::Tensor x) {
    int n = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
    int oh = h / 2, ow = w / 2;
    auto y = torch::empty({n, c, oh, ow}, x.options());
    int rows = n * c * oh;
    maxpool_row_kernel<<<(rows + 127) / 128, 128>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, w, ow);
    return y;
}
'''

_POOL_MODEL = '''class ModelNew(nn.Module):
    def __init__(self, kernel_size, stride):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride

    def forward(self, x):
        return ext.maxpool_cuda(x.contiguous())
'''

POOL = StyleTask(
    "kb_maxpool/maxpool2x2", POOL_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 32, "CHANNELS": 64, "HEIGHT": 128, "WIDTH": 128}},
     {"config_id": 1, "sizes": {"BATCH": 16, "CHANNELS": 32, "HEIGHT": 256, "WIDTH": 256}}),
    (Candidate("thread_per_output", ("coalesced",),
               candidate("pool_direct", POOL_DIRECT, ["maxpool_cuda"], _POOL_MODEL)),
     Candidate("plane_fastest", ("uncoalesced",),
               candidate("pool_plane", POOL_PLANE_FAST, ["maxpool_cuda"], _POOL_MODEL)),
     Candidate("grid3d", ("2d-grid", "coalesced"),
               candidate("pool_2d", POOL_2D, ["maxpool_cuda"], _POOL_MODEL)),
     Candidate("thread_per_row", ("naive", "uncoalesced"),
               candidate("pool_row", POOL_ROW, ["maxpool_cuda"], _POOL_MODEL)),
     ))

TASKS = (CONV, POOL)
