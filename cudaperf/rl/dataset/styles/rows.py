"""Row-wise KernelBench-style tasks (softmax, RMS norm over channels, a sum over a middle
dimension, cumulative sum), in model styles: thread / warp / block per row, several kernels, torch
doing part of the work."""

from __future__ import annotations

from . import Candidate, StyleTask, candidate

SOFTMAX_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Softmax over the last dimension of a 2-D input."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=1)


BATCH = 4096
DIM = 4096


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
'''

SOFTMAX_THREAD = r'''
#include <torch/extension.h>

__global__ void softmax_row_kernel(const float* x, float* y, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* in = x + row * cols;
    float* out = y + row * cols;
    float m = -INFINITY;
    for (int j = 0; j < cols; ++j) m = fmaxf(m, in[j]);
    float s = 0.0f;
    for (int j = 0; j < cols; ++j) s += expf(in[j] - m);
    for (int j = 0; j < cols; ++j) out[j] = expf(in[j] - m) / s;
}

torch::Tensor softmax_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    int threads = 128;
    int blocks = (rows + threads - 1) / threads;
    softmax_row_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    return y;
}
'''

SOFTMAX_BLOCK = r'''
#include <torch/extension.h>

#define THREADS 256

__global__ void softmax_block_kernel(const float* __restrict__ x, float* __restrict__ y, int cols) {
    __shared__ float buf[THREADS];
    int row = blockIdx.x;
    int tid = threadIdx.x;
    const float* in = x + (long)row * cols;
    float* out = y + (long)row * cols;

    float m = -INFINITY;
    for (int j = tid; j < cols; j += THREADS) m = fmaxf(m, in[j]);
    buf[tid] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) buf[tid] = fmaxf(buf[tid], buf[tid + s]);
        __syncthreads();
    }
    m = buf[0];
    __syncthreads();

    float sum = 0.0f;
    for (int j = tid; j < cols; j += THREADS) sum += __expf(in[j] - m);
    buf[tid] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) buf[tid] += buf[tid + s];
        __syncthreads();
    }
    float inv = 1.0f / buf[0];
    for (int j = tid; j < cols; j += THREADS) out[j] = __expf(in[j] - m) * inv;
}

torch::Tensor softmax_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    softmax_block_kernel<<<rows, THREADS>>>(x.data_ptr<float>(), y.data_ptr<float>(), cols);
    return y;
}
'''

SOFTMAX_WARP = r'''
#include <torch/extension.h>

__inline__ __device__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}

__inline__ __device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

__global__ void softmax_warp_kernel(const float* x, float* y, int rows, int cols) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= rows) return;
    const float* in = x + (long)warp * cols;
    float* out = y + (long)warp * cols;
    float m = -INFINITY;
    for (int j = lane; j < cols; j += 32) m = fmaxf(m, in[j]);
    m = warp_max(m);
    float s = 0.0f;
    for (int j = lane; j < cols; j += 32) s += __expf(in[j] - m);
    s = warp_sum(s);
    for (int j = lane; j < cols; j += 32) out[j] = __expf(in[j] - m) / s;
}

torch::Tensor softmax_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    int threads = 256;
    int warps_per_block = threads / 32;
    int blocks = (rows + warps_per_block - 1) / warps_per_block;
    softmax_warp_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    return y;
}
'''

SOFTMAX_THREE = r'''
#include <torch/extension.h>

__global__ void row_max_kernel(const float* x, float* mx, int cols) {
    __shared__ float buf[256];
    int row = blockIdx.x, tid = threadIdx.x;
    float m = -INFINITY;
    for (int j = tid; j < cols; j += blockDim.x) m = fmaxf(m, x[row * cols + j]);
    buf[tid] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) buf[tid] = fmaxf(buf[tid], buf[tid + s]);
        __syncthreads();
    }
    if (tid == 0) mx[row] = buf[0];
}

__global__ void exp_sum_kernel(const float* x, const float* mx, float* y, float* sum, int cols) {
    __shared__ float buf[256];
    int row = blockIdx.x, tid = threadIdx.x;
    float s = 0.0f;
    for (int j = tid; j < cols; j += blockDim.x) {
        float e = expf(x[row * cols + j] - mx[row]);
        y[row * cols + j] = e;
        s += e;
    }
    buf[tid] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (tid < k) buf[tid] += buf[tid + k];
        __syncthreads();
    }
    if (tid == 0) sum[row] = buf[0];
}

__global__ void normalize_kernel(float* y, const float* sum, int n, int cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] /= sum[i / cols];
}

torch::Tensor softmax_cuda(torch::Tensor x) {
    int rows = x.size(0);
    int cols = x.size(1);
    auto y = torch::empty_like(x);
    auto mx = torch::empty({rows}, x.options());
    auto sum = torch::empty({rows}, x.options());
    row_max_kernel<<<rows, 256>>>(x.data_ptr<float>(), mx.data_ptr<float>(), cols);
    exp_sum_kernel<<<rows, 256>>>(x.data_ptr<float>(), mx.data_ptr<float>(), y.data_ptr<float>(),
                                  sum.data_ptr<float>(), cols);
    int n = rows * cols;
    normalize_kernel<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), sum.data_ptr<float>(), n, cols);
    return y;
}
'''

SOFTMAX_TAIL = r'''
#include <torch/extension.h>

__global__ void exp_normalize_kernel(const float* x, const float* mx, float* y, int cols) {
    __shared__ float partial[512];
    int row = blockIdx.x, tid = threadIdx.x;
    float m = mx[row];
    float s = 0.0f;
    for (int j = tid; j < cols; j += blockDim.x) s += expf(x[row * cols + j] - m);
    partial[tid] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (tid < k) partial[tid] += partial[tid + k];
        __syncthreads();
    }
    float total = partial[0];
    for (int j = tid; j < cols; j += blockDim.x) y[row * cols + j] = expf(x[row * cols + j] - m) / total;
}

torch::Tensor exp_normalize_cuda(torch::Tensor x, torch::Tensor mx) {
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    exp_normalize_kernel<<<rows, 512>>>(x.data_ptr<float>(), mx.data_ptr<float>(), y.data_ptr<float>(), cols);
    return y;
}
'''

_SOFTMAX_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.softmax_cuda(x.contiguous())
'''

_SOFTMAX_TAIL_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        mx = torch.max(x, dim=1).values.contiguous()
        return ext.exp_normalize_cuda(x, mx)
'''

SOFTMAX = StyleTask(
    "kb_softmax/softmax_rows", SOFTMAX_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 4096, "DIM": 4096}}, {"config_id": 1, "sizes": {"BATCH": 512, "DIM": 32768}}),
    (Candidate("thread_per_row", ("naive", "uncoalesced"),
               candidate("softmax_thread", SOFTMAX_THREAD, ["softmax_cuda"], _SOFTMAX_MODEL)),
     Candidate("block_per_row", ("shared-memory", "tree-reduction"),
               candidate("softmax_block", SOFTMAX_BLOCK, ["softmax_cuda"], _SOFTMAX_MODEL)),
     Candidate("warp_per_row", ("warp-shuffle",),
               candidate("softmax_warp", SOFTMAX_WARP, ["softmax_cuda"], _SOFTMAX_MODEL)),
     Candidate("three_kernels", ("several-kernels", "unfused"),
               candidate("softmax_three", SOFTMAX_THREE, ["softmax_cuda"], _SOFTMAX_MODEL)),
     Candidate("torch_max_tail", ("torch-tail", "partial-fusion"),
               candidate("softmax_tail", SOFTMAX_TAIL, ["exp_normalize_cuda"], _SOFTMAX_TAIL_MODEL)),
     ))

RMS_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """RMS normalisation over the channel dimension of (batch, features, h, w)."""

    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x):
        rms = torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + self.eps)
        return x / rms


BATCH = 16
FEATURES = 64
DIM1 = 128
DIM2 = 128


def get_inputs():
    return [torch.randn(BATCH, FEATURES, DIM1, DIM2)]


def get_init_inputs():
    return [FEATURES]
'''

RMS_THREAD = r'''
#include <torch/extension.h>

__global__ void rms_norm_kernel(const float* x, float* y, int batch, int features, int spatial, float eps) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= batch * spatial) return;
    int b = idx / spatial;
    int s = idx % spatial;
    const float* in = x + (long)b * features * spatial + s;
    float* out = y + (long)b * features * spatial + s;
    float acc = 0.0f;
    for (int f = 0; f < features; ++f) {
        float v = in[f * spatial];
        acc += v * v;
    }
    float inv = rsqrtf(acc / features + eps);
    for (int f = 0; f < features; ++f) out[f * spatial] = in[f * spatial] * inv;
}

torch::Tensor rms_norm_cuda(torch::Tensor x, float eps) {
    auto y = torch::empty_like(x);
    int batch = x.size(0);
    int features = x.size(1);
    int spatial = x.size(2) * x.size(3);
    int total = batch * spatial;
    int threads = 256;
    rms_norm_kernel<<<(total + threads - 1) / threads, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), batch,
                                                                   features, spatial, eps);
    return y;
}
'''

RMS_TWO = r'''
#include <torch/extension.h>

__global__ void inv_rms_kernel(const float* x, float* inv, int batch, int features, int spatial, float eps) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= batch * spatial) return;
    int b = idx / spatial, s = idx % spatial;
    float acc = 0.0f;
    for (int f = 0; f < features; ++f) {
        float v = x[(b * features + f) * spatial + s];
        acc += v * v;
    }
    inv[idx] = rsqrtf(acc / features + eps);
}

__global__ void scale_kernel(const float* x, const float* inv, float* y, int n, int features, int spatial) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int s = i % spatial;
        int b = i / (features * spatial);
        y[i] = x[i] * inv[b * spatial + s];
    }
}

torch::Tensor rms_norm_cuda(torch::Tensor x, float eps) {
    int batch = x.size(0);
    int features = x.size(1);
    int spatial = x.size(2) * x.size(3);
    auto inv = torch::empty({batch, spatial}, x.options());
    auto y = torch::empty_like(x);
    int positions = batch * spatial;
    inv_rms_kernel<<<(positions + 255) / 256, 256>>>(x.data_ptr<float>(), inv.data_ptr<float>(), batch, features,
                                                      spatial, eps);
    int n = x.numel();
    scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), inv.data_ptr<float>(), y.data_ptr<float>(), n,
                                            features, spatial);
    return y;
}
'''

RMS_BLOCK = r'''
#include <torch/extension.h>

__global__ void rms_block_kernel(const float* x, float* y, int features, int spatial, float eps) {
    extern __shared__ float red[];
    int pos = blockIdx.x;
    int b = pos / spatial, s = pos % spatial;
    int tid = threadIdx.x;
    const float* in = x + (long)b * features * spatial + s;
    float acc = 0.0f;
    for (int f = tid; f < features; f += blockDim.x) {
        float v = in[f * spatial];
        acc += v * v;
    }
    red[tid] = acc;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (tid < k) red[tid] += red[tid + k];
        __syncthreads();
    }
    float inv = rsqrtf(red[0] / features + eps);
    float* out = y + (long)b * features * spatial + s;
    for (int f = tid; f < features; f += blockDim.x) out[f * spatial] = in[f * spatial] * inv;
}

torch::Tensor rms_norm_cuda(torch::Tensor x, float eps) {
    auto y = torch::empty_like(x);
    int batch = x.size(0);
    int features = x.size(1);
    int spatial = x.size(2) * x.size(3);
    int threads = 64;
    rms_block_kernel<<<batch * spatial, threads, threads * sizeof(float)>>>(x.data_ptr<float>(), y.data_ptr<float>(),
                                                                          features, spatial, eps);
    return y;
}
'''

RMS_TAIL = r'''
#include <torch/extension.h>

__global__ void divide_kernel(const float* x, const float* rms, float* y, int n, int features, int spatial) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int b = i / (features * spatial);
        int s = i % spatial;
        y[i] = x[i] / rms[b * spatial + s];
    }
}

torch::Tensor divide_cuda(torch::Tensor x, torch::Tensor rms) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    int features = x.size(1);
    int spatial = x.size(2) * x.size(3);
    divide_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), rms.data_ptr<float>(), y.data_ptr<float>(), n,
                                             features, spatial);
    return y;
}
'''

_RMS_MODEL = '''class ModelNew(nn.Module):
    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x):
        return ext.rms_norm_cuda(x.contiguous(), self.eps)
'''

_RMS_TAIL_MODEL = '''class ModelNew(nn.Module):
    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x):
        x = x.contiguous()
        rms = torch.sqrt(torch.mean(x * x, dim=1, keepdim=True) + self.eps).contiguous()
        return ext.divide_cuda(x, rms)
'''

RMS = StyleTask(
    "kb_rmsnorm/rms_channels", RMS_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 16, "FEATURES": 64, "DIM1": 128, "DIM2": 128}},
     {"config_id": 1, "sizes": {"BATCH": 8, "FEATURES": 256, "DIM1": 64, "DIM2": 64}}),
    (Candidate("thread_per_position", ("coalesced",),
               candidate("rms_thread", RMS_THREAD, ["rms_norm_cuda"], _RMS_MODEL)),
     Candidate("two_kernels", ("several-kernels",),
               candidate("rms_two", RMS_TWO, ["rms_norm_cuda"], _RMS_MODEL)),
     Candidate("block_per_position", ("shared-memory", "uncoalesced"),
               candidate("rms_block", RMS_BLOCK, ["rms_norm_cuda"], _RMS_MODEL)),
     Candidate("torch_tail", ("torch-tail", "partial-fusion"),
               candidate("rms_tail", RMS_TAIL, ["divide_cuda"], _RMS_TAIL_MODEL)),
     ))

SUM_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Sum over one dimension, keeping it."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.sum(x, dim=self.dim, keepdim=True)


BATCH = 64
DIM1 = 1024
DIM2 = 1024
REDUCE_DIM = 1


def get_inputs():
    return [torch.randn(BATCH, DIM1, DIM2)]


def get_init_inputs():
    return [REDUCE_DIM]
'''

SUM_THREAD = r'''
#include <torch/extension.h>

__global__ void sum_dim1_kernel(const float* x, float* out, int batch, int reduce, int inner) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= batch * inner) return;
    int b = idx / inner;
    int j = idx % inner;
    float acc = 0.0f;
    for (int r = 0; r < reduce; ++r) acc += x[(b * reduce + r) * inner + j];
    out[idx] = acc;
}

torch::Tensor sum_dim1_cuda(torch::Tensor x) {
    int batch = x.size(0);
    int reduce = x.size(1);
    int inner = x.size(2);
    auto out = torch::empty({batch, 1, inner}, x.options());
    int total = batch * inner;
    sum_dim1_kernel<<<(total + 255) / 256, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), batch, reduce, inner);
    return out;
}
'''

SUM_BLOCK = r'''
#include <torch/extension.h>

__global__ void sum_block_kernel(const float* x, float* out, int reduce, int inner) {
    __shared__ float sdata[256];
    int o = blockIdx.x;
    int b = o / inner, j = o % inner;
    float acc = 0.0f;
    for (int r = threadIdx.x; r < reduce; r += blockDim.x) acc += x[((long)b * reduce + r) * inner + j];
    sdata[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sdata[threadIdx.x] += sdata[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[o] = sdata[0];
}

torch::Tensor sum_dim1_cuda(torch::Tensor x) {
    int batch = x.size(0);
    int reduce = x.size(1);
    int inner = x.size(2);
    auto out = torch::empty({batch, 1, inner}, x.options());
    sum_block_kernel<<<batch * inner, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), reduce, inner);
    return out;
}
'''

SUM_TRANSPOSED = r'''
#include <torch/extension.h>

__global__ void sum_rows_kernel(const float* x, float* out, int rows, int cols) {
    __shared__ float sdata[256];
    int row = blockIdx.x;
    float acc = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += x[(long)row * cols + c];
    sdata[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sdata[threadIdx.x] += sdata[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[row] = sdata[0];
}

torch::Tensor sum_rows_cuda(torch::Tensor x) {
    int rows = x.size(0);
    int cols = x.size(1);
    auto out = torch::empty({rows}, x.options());
    sum_rows_kernel<<<rows, 256>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
'''

SUM_SWAPPED = r'''
#include <torch/extension.h>

__global__ void sum_swapped_kernel(const float* x, float* out, int batch, int reduce, int inner) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= batch * inner) return;
    int b = idx % batch;
    int j = idx / batch;
    float acc = 0.0f;
    for (int r = 0; r < reduce; ++r) acc += x[(b * reduce + r) * inner + j];
    out[b * inner + j] = acc;
}

torch::Tensor sum_dim1_cuda(torch::Tensor x) {
    int batch = x.size(0);
    int reduce = x.size(1);
    int inner = x.size(2);
    auto out = torch::zeros({batch, 1, inner}, x.options());
    int total = batch * inner;
    sum_swapped_kernel<<<(total + 127) / 128, 128>>>(x.data_ptr<float>(), out.data_ptr<float>(), batch, reduce, inner);
    return out;
}
'''

_SUM_MODEL = '''class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return ext.sum_dim1_cuda(x.contiguous())
'''

_SUM_TAIL_MODEL = '''class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        b, r, n = x.shape
        rows = x.transpose(1, 2).contiguous().view(b * n, r)
        return ext.sum_rows_cuda(rows).view(b, 1, n)
'''

ROWSUM = StyleTask(
    "kb_sumdim/sum_middle", SUM_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 64, "DIM1": 1024, "DIM2": 1024}},
     {"config_id": 1, "sizes": {"BATCH": 16, "DIM1": 4096, "DIM2": 2048}}),
    (Candidate("thread_per_output", ("coalesced",),
               candidate("sum_thread", SUM_THREAD, ["sum_dim1_cuda"], _SUM_MODEL)),
     Candidate("block_per_output", ("shared-memory", "uncoalesced"),
               candidate("sum_block", SUM_BLOCK, ["sum_dim1_cuda"], _SUM_MODEL)),
     Candidate("transpose_then_rows", ("torch-tail", "shared-memory"),
               candidate("sum_transposed", SUM_TRANSPOSED, ["sum_rows_cuda"], _SUM_TAIL_MODEL)),
     Candidate("swapped_mapping", ("uncoalesced",),
               candidate("sum_swapped", SUM_SWAPPED, ["sum_dim1_cuda"], _SUM_MODEL)),
     ))

CUMSUM_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Inclusive cumulative sum along a dimension."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim)


BATCH = 4096
DIM = 4096


def get_inputs():
    return [torch.rand(BATCH, DIM)]


def get_init_inputs():
    return [1]
'''

CUMSUM_THREAD = r'''
#include <torch/extension.h>

__global__ void cumsum_row_kernel(const float* x, float* y, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float acc = 0.0f;
        for (int j = 0; j < cols; ++j) {
            acc += x[row * cols + j];
            y[row * cols + j] = acc;
        }
    }
}

torch::Tensor cumsum_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    cumsum_row_kernel<<<(rows + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    return y;
}
'''

CUMSUM_BLOCK = r'''
#include <torch/extension.h>

#define BLOCK 512

__global__ void cumsum_block_kernel(const float* x, float* y, int cols) {
    __shared__ float temp[BLOCK];
    __shared__ float carry;
    int row = blockIdx.x;
    int tid = threadIdx.x;
    if (tid == 0) carry = 0.0f;
    __syncthreads();
    for (int base = 0; base < cols; base += BLOCK) {
        int j = base + tid;
        temp[tid] = j < cols ? x[(long)row * cols + j] : 0.0f;
        __syncthreads();
        for (int offset = 1; offset < BLOCK; offset <<= 1) {
            float v = tid >= offset ? temp[tid - offset] : 0.0f;
            __syncthreads();
            temp[tid] += v;
            __syncthreads();
        }
        if (j < cols) y[(long)row * cols + j] = temp[tid] + carry;
        __syncthreads();
        if (tid == BLOCK - 1) carry += temp[tid];
        __syncthreads();
    }
}

torch::Tensor cumsum_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    cumsum_block_kernel<<<rows, BLOCK>>>(x.data_ptr<float>(), y.data_ptr<float>(), cols);
    return y;
}
'''

CUMSUM_WARP = r'''
#include <torch/extension.h>

__global__ void cumsum_warp_kernel(const float* x, float* y, int rows, int cols) {
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float carry = 0.0f;
    for (int base = 0; base < cols; base += 32) {
        int j = base + lane;
        float v = j < cols ? x[(long)row * cols + j] : 0.0f;
        for (int o = 1; o < 32; o <<= 1) {
            float n = __shfl_up_sync(0xffffffff, v, o);
            if (lane >= o) v += n;
        }
        if (j < cols) y[(long)row * cols + j] = v + carry;
        carry += __shfl_sync(0xffffffff, v, 31);
    }
}

torch::Tensor cumsum_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    int threads = 128;
    int blocks = (rows * 32 + threads - 1) / threads;
    cumsum_warp_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    return y;
}
'''

_CUMSUM_MODEL = '''class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return ext.cumsum_cuda(x.contiguous())
'''

CUMSUM = StyleTask(
    "kb_cumsum/cumsum_rows", CUMSUM_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 4096, "DIM": 4096}}, {"config_id": 1, "sizes": {"BATCH": 256, "DIM": 65536}}),
    (Candidate("thread_per_row", ("naive", "uncoalesced"),
               candidate("cumsum_thread", CUMSUM_THREAD, ["cumsum_cuda"], _CUMSUM_MODEL)),
     Candidate("block_scan", ("shared-memory",),
               candidate("cumsum_block", CUMSUM_BLOCK, ["cumsum_cuda"], _CUMSUM_MODEL)),
     Candidate("warp_scan", ("warp-shuffle",),
               candidate("cumsum_warp", CUMSUM_WARP, ["cumsum_cuda"], _CUMSUM_MODEL)),
     ))

TASKS = (SOFTMAX, RMS, ROWSUM, CUMSUM)
