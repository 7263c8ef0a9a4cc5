# ruff: noqa: E501  (the CUDA text keeps the long lines models write)
"""Elementwise KernelBench-style tasks: GELU (tanh form) and Swish-and-scale, in model styles."""

from __future__ import annotations

from . import Candidate, StyleTask, candidate

GELU_REFERENCE = '''import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """GELU, tanh approximation (as in minGPT)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


BATCH = 4096
DIM = 8192


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
'''

_SIMPLE_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = ext

    def forward(self, x):
        return self.ext.{fn}(x.contiguous())
'''

GELU_ELEM = r'''
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ y, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        float inner = 0.7978845608f * (v + 0.044715f * v * v * v);
        y[idx] = 0.5f * v * (1.0f + tanhf(inner));
    }
}

torch::Tensor gelu_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    gelu_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
'''

GELU_GRIDSTRIDE = r'''
#include <torch/extension.h>

__global__ void gelu_gs_kernel(const float* x, float* y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = x[i];
        float c = v + 0.044715f * v * v * v;
        y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * c));
    }
}

torch::Tensor gelu_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    int threads = 512;
    int blocks = 1024;
    gelu_gs_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
'''

GELU_VEC4 = r'''
#include <torch/extension.h>

__device__ __forceinline__ float gelu_f(float v) {
    return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
}

__global__ void gelu_vec4_kernel(const float4* __restrict__ x, float4* __restrict__ y, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = x[i];
        float4 r;
        r.x = gelu_f(v.x);
        r.y = gelu_f(v.y);
        r.z = gelu_f(v.z);
        r.w = gelu_f(v.w);
        y[i] = r;
    }
}

torch::Tensor gelu_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    int n4 = n / 4;
    int threads = 256;
    int blocks = (n4 + threads - 1) / threads;
    gelu_vec4_kernel<<<blocks, threads>>>(reinterpret_cast<const float4*>(x.data_ptr<float>()),
                                          reinterpret_cast<float4*>(y.data_ptr<float>()), n4);
    return y;
}
'''

GELU_CHUNK = r'''
#include <torch/extension.h>

#define ELEMS_PER_THREAD 8

__global__ void gelu_chunk_kernel(const float* x, float* y, int n) {
    int start = (blockIdx.x * blockDim.x + threadIdx.x) * ELEMS_PER_THREAD;
    for (int k = 0; k < ELEMS_PER_THREAD; ++k) {
        int i = start + k;
        if (i < n) {
            float v = x[i];
            y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
        }
    }
}

torch::Tensor gelu_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    int threads = 256;
    int per_block = threads * ELEMS_PER_THREAD;
    int blocks = (n + per_block - 1) / per_block;
    gelu_chunk_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
'''

GELU_TWO = r'''
#include <torch/extension.h>

__global__ void inner_kernel(const float* x, float* t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        t[i] = tanhf(0.7978845608f * (v + 0.044715f * v * v * v));
    }
}

__global__ void combine_kernel(const float* x, const float* t, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = 0.5f * x[i] * (1.0f + t[i]);
    }
}

torch::Tensor gelu_cuda(torch::Tensor x) {
    auto t = torch::empty_like(x);
    auto y = torch::empty_like(x);
    int n = x.numel();
    int block = 256;
    int grid = (n + block - 1) / block;
    inner_kernel<<<grid, block>>>(x.data_ptr<float>(), t.data_ptr<float>(), n);
    combine_kernel<<<grid, block>>>(x.data_ptr<float>(), t.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
'''

GELU_TAIL = r'''
#include <torch/extension.h>

__global__ void tanh_inner_kernel(const float* x, float* t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        t[i] = tanhf(0.7978845608f * (v + 0.044715f * v * v * v));
    }
}

torch::Tensor tanh_inner_cuda(torch::Tensor x) {
    auto t = torch::empty_like(x);
    int n = x.numel();
    int block = 256;
    int grid = (n + block - 1) / block;
    tanh_inner_kernel<<<grid, block>>>(x.data_ptr<float>(), t.data_ptr<float>(), n);
    return t;
}
'''

_TAIL_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        t = ext.tanh_inner_cuda(x.contiguous())
        return 0.5 * x * (1.0 + t)
'''

GELU = StyleTask(
    "kb_gelu/gelu_tanh", GELU_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 2048, "DIM": 4096}}, {"config_id": 1, "sizes": {"BATCH": 4096, "DIM": 16384}}),
    (Candidate("elem", ("coalesced", "wrapper"), candidate("gelu_elem", GELU_ELEM, ["gelu_cuda"],
                                                           _SIMPLE_MODEL.format(fn="gelu_cuda"))),
     Candidate("gridstride", ("coalesced", "grid-stride"), candidate("gelu_gs", GELU_GRIDSTRIDE, ["gelu_cuda"],
                                                                     _SIMPLE_MODEL.format(fn="gelu_cuda"))),
     Candidate("vec4", ("vectorised",), candidate("gelu_vec4", GELU_VEC4, ["gelu_cuda"],
                                                  _SIMPLE_MODEL.format(fn="gelu_cuda"))),
     Candidate("chunk8", ("uncoalesced",), candidate("gelu_chunk", GELU_CHUNK, ["gelu_cuda"],
                                                     _SIMPLE_MODEL.format(fn="gelu_cuda"))),
     Candidate("two_kernels", ("several-kernels", "unfused"), candidate("gelu_two", GELU_TWO, ["gelu_cuda"],
                                                                        _SIMPLE_MODEL.format(fn="gelu_cuda"))),
     Candidate("torch_tail", ("torch-tail", "partial-fusion"), candidate("gelu_tail", GELU_TAIL, ["tanh_inner_cuda"],
                                                                         _TAIL_MODEL)),
     ))

SWISH_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Swish, then a scale and a bias per column."""

    def __init__(self, dim, scale):
        super().__init__()
        self.scale = scale
        self.bias = nn.Parameter(torch.randn(dim))

    def forward(self, x):
        x = x * torch.sigmoid(x)
        return x * self.scale + self.bias


BATCH = 4096
DIM = 4096
SCALE = 1.5


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return [DIM, SCALE]
'''

SWISH_FUSED = r'''
#include <torch/extension.h>

__global__ void swish_scale_bias_kernel(const float* x, const float* bias, float* out, float scale, int rows, int cols) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < rows * cols) {
        int col = idx % cols;
        float v = x[idx];
        float s = v / (1.0f + __expf(-v));
        out[idx] = s * scale + bias[col];
    }
}

torch::Tensor swish_scale_bias_cuda(torch::Tensor x, torch::Tensor bias, float scale) {
    auto out = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    int total = rows * cols;
    int threads = 256;
    int blocks = (total + threads - 1) / threads;
    swish_scale_bias_kernel<<<blocks, threads>>>(x.data_ptr<float>(), bias.data_ptr<float>(), out.data_ptr<float>(),
                                                 scale, rows, cols);
    return out;
}
'''

SWISH_2D = r'''
#include <torch/extension.h>

__global__ void swish_2d_kernel(const float* x, const float* bias, float* out, float scale, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        float v = x[row * cols + col];
        out[row * cols + col] = v / (1.0f + expf(-v)) * scale + bias[col];
    }
}

torch::Tensor swish_scale_bias_cuda(torch::Tensor x, torch::Tensor bias, float scale) {
    auto out = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    dim3 block(16, 16);
    dim3 grid((rows + 15) / 16, (cols + 15) / 16);
    swish_2d_kernel<<<grid, block>>>(x.data_ptr<float>(), bias.data_ptr<float>(), out.data_ptr<float>(), scale, rows, cols);
    return out;
}
'''

SWISH_THREE = r'''
#include <torch/extension.h>

__global__ void sigmoid_mul_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = v / (1.0f + expf(-v));
    }
}

__global__ void scale_kernel(float* y, float scale, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] * scale;
}

__global__ void add_bias_kernel(float* y, const float* bias, int n, int cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += bias[i % cols];
}

torch::Tensor swish_scale_bias_cuda(torch::Tensor x, torch::Tensor bias, float scale) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    int cols = x.size(1);
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    sigmoid_mul_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    scale_kernel<<<blocks, threads>>>(y.data_ptr<float>(), scale, n);
    add_bias_kernel<<<blocks, threads>>>(y.data_ptr<float>(), bias.data_ptr<float>(), n, cols);
    return y;
}
'''

SWISH_TAIL = r'''
#include <torch/extension.h>

__global__ void swish_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = v * (1.0f / (1.0f + expf(-v)));
    }
}

torch::Tensor swish_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    swish_kernel<<<(n + 511) / 512, 512>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
'''

SWISH_ROWLOOP = r'''
#include <torch/extension.h>

__global__ void swish_row_kernel(const float* x, const float* bias, float* out, float scale, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        for (int c = 0; c < cols; ++c) {
            float v = x[row * cols + c];
            out[row * cols + c] = v / (1.0f + expf(-v)) * scale + bias[c];
        }
    }
}

torch::Tensor swish_scale_bias_cuda(torch::Tensor x, torch::Tensor bias, float scale) {
    auto out = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    int threads = 128;
    swish_row_kernel<<<(rows + threads - 1) / threads, threads>>>(x.data_ptr<float>(), bias.data_ptr<float>(),
                                                                   out.data_ptr<float>(), scale, rows, cols);
    return out;
}
'''

_SWISH_MODEL = '''class ModelNew(nn.Module):
    def __init__(self, dim, scale):
        super().__init__()
        self.scale = scale
        self.bias = nn.Parameter(torch.randn(dim))

    def forward(self, x):
        return ext.swish_scale_bias_cuda(x.contiguous(), self.bias, float(self.scale))
'''

_SWISH_TAIL_MODEL = '''class ModelNew(nn.Module):
    def __init__(self, dim, scale):
        super().__init__()
        self.scale = scale
        self.bias = nn.Parameter(torch.randn(dim))

    def forward(self, x):
        x = ext.swish_cuda(x.contiguous())
        return x * self.scale + self.bias
'''

SWISH = StyleTask(
    "kb_swish/swish_scale_bias", SWISH_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 2048, "DIM": 4096}}, {"config_id": 1, "sizes": {"BATCH": 8192, "DIM": 8192}}),
    (Candidate("fused", ("coalesced", "fused"), candidate("swish_fused", SWISH_FUSED, ["swish_scale_bias_cuda"],
                                                          _SWISH_MODEL)),
     Candidate("grid2d_rows_on_x", ("2d-grid", "uncoalesced"),
               candidate("swish_2d", SWISH_2D, ["swish_scale_bias_cuda"], _SWISH_MODEL)),
     Candidate("three_kernels", ("several-kernels", "unfused"),
               candidate("swish_three", SWISH_THREE, ["swish_scale_bias_cuda"], _SWISH_MODEL)),
     Candidate("torch_tail", ("torch-tail", "partial-fusion"),
               candidate("swish_tail", SWISH_TAIL, ["swish_cuda"], _SWISH_TAIL_MODEL)),
     Candidate("thread_per_row", ("naive", "uncoalesced"),
               candidate("swish_rowloop", SWISH_ROWLOOP, ["swish_scale_bias_cuda"], _SWISH_MODEL)),
     ))

TASKS = (GELU, SWISH)
