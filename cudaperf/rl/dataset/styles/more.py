# ruff: noqa: E501  (the CUDA text keeps the long lines models write)
"""More KernelBench-style tasks in model styles: layer norm, batched matmul (a launch per batch
from a host loop, a 3-D grid, tiles), an MSE loss (contended atomics, block partials, two passes)
and a Frobenius normalisation (a global reduction then a scale)."""

from __future__ import annotations

from . import Candidate, StyleTask, candidate

LAYERNORM_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Layer normalisation over the last dimension."""

    def __init__(self, dim):
        super().__init__()
        self.ln = nn.LayerNorm(dim)

    def forward(self, x):
        return self.ln(x)


BATCH = 8192
DIM = 1024


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return [DIM]
'''

LN_THREAD = r'''
#include <torch/extension.h>

__global__ void layernorm_thread_kernel(const float* x, const float* g, const float* b, float* y, int rows, int cols, float eps) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* in = x + (long)row * cols;
    float mean = 0.0f;
    for (int j = 0; j < cols; ++j) mean += in[j];
    mean /= cols;
    float var = 0.0f;
    for (int j = 0; j < cols; ++j) { float d = in[j] - mean; var += d * d; }
    float inv = rsqrtf(var / cols + eps);
    for (int j = 0; j < cols; ++j) y[(long)row * cols + j] = (in[j] - mean) * inv * g[j] + b[j];
}

torch::Tensor layernorm_cuda(torch::Tensor x, torch::Tensor g, torch::Tensor b, float eps) {
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    layernorm_thread_kernel<<<(rows + 127) / 128, 128>>>(x.data_ptr<float>(), g.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), rows, cols, eps);
    return y;
}
'''

LN_BLOCK = r'''
#include <torch/extension.h>

__global__ void layernorm_block_kernel(const float* x, const float* g, const float* b, float* y, int cols, float eps) {
    __shared__ float s_sum[256];
    __shared__ float s_sq[256];
    int row = blockIdx.x, tid = threadIdx.x;
    const float* in = x + (long)row * cols;
    float sum = 0.0f, sq = 0.0f;
    for (int j = tid; j < cols; j += blockDim.x) { float v = in[j]; sum += v; sq += v * v; }
    s_sum[tid] = sum;
    s_sq[tid] = sq;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) { s_sum[tid] += s_sum[tid + s]; s_sq[tid] += s_sq[tid + s]; }
        __syncthreads();
    }
    float mean = s_sum[0] / cols;
    float inv = rsqrtf(s_sq[0] / cols - mean * mean + eps);
    for (int j = tid; j < cols; j += blockDim.x) y[(long)row * cols + j] = (in[j] - mean) * inv * g[j] + b[j];
}

torch::Tensor layernorm_cuda(torch::Tensor x, torch::Tensor g, torch::Tensor b, float eps) {
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    layernorm_block_kernel<<<rows, 256>>>(x.data_ptr<float>(), g.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), cols, eps);
    return y;
}
'''

LN_WARP = r'''
#include <torch/extension.h>

__global__ void layernorm_warp_kernel(const float* x, const float* g, const float* b, float* y, int rows, int cols, float eps) {
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) return;
    const float* in = x + (long)row * cols;
    float sum = 0.0f, sq = 0.0f;
    for (int j = lane; j < cols; j += 32) { float v = in[j]; sum += v; sq += v * v; }
    for (int o = 16; o > 0; o >>= 1) {
        sum += __shfl_xor_sync(0xffffffff, sum, o);
        sq += __shfl_xor_sync(0xffffffff, sq, o);
    }
    float mean = sum / cols;
    float inv = rsqrtf(sq / cols - mean * mean + eps);
    for (int j = lane; j < cols; j += 32) y[(long)row * cols + j] = (in[j] - mean) * inv * g[j] + b[j];
}

torch::Tensor layernorm_cuda(torch::Tensor x, torch::Tensor g, torch::Tensor b, float eps) {
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    int threads = 256;
    int rows_per_block = threads / 32;
    layernorm_warp_kernel<<<(rows + rows_per_block - 1) / rows_per_block, threads>>>(x.data_ptr<float>(), g.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), rows, cols, eps);
    return y;
}
'''

LN_TWO = r'''
#include <torch/extension.h>

__global__ void row_stats_kernel(const float* x, float* mean, float* rstd, int cols, float eps) {
    __shared__ float s1[128];
    __shared__ float s2[128];
    int row = blockIdx.x, tid = threadIdx.x;
    float a = 0.0f, q = 0.0f;
    for (int j = tid; j < cols; j += 128) { float v = x[row * cols + j]; a += v; q += v * v; }
    s1[tid] = a;
    s2[tid] = q;
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (tid < s) { s1[tid] += s1[tid + s]; s2[tid] += s2[tid + s]; }
        __syncthreads();
    }
    if (tid == 0) {
        float m = s1[0] / cols;
        mean[row] = m;
        rstd[row] = rsqrtf(s2[0] / cols - m * m + eps);
    }
}

__global__ void normalize_kernel(const float* x, const float* mean, const float* rstd, const float* g, const float* b, float* y, int n, int cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int row = i / cols, col = i % cols;
        y[i] = (x[i] - mean[row]) * rstd[row] * g[col] + b[col];
    }
}

torch::Tensor layernorm_cuda(torch::Tensor x, torch::Tensor g, torch::Tensor b, float eps) {
    int rows = x.size(0);
    int cols = x.size(1);
    auto mean = torch::empty({rows}, x.options());
    auto rstd = torch::empty({rows}, x.options());
    auto y = torch::empty_like(x);
    row_stats_kernel<<<rows, 128>>>(x.data_ptr<float>(), mean.data_ptr<float>(), rstd.data_ptr<float>(), cols, eps);
    int n = rows * cols;
    normalize_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), mean.data_ptr<float>(), rstd.data_ptr<float>(), g.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), n, cols);
    return y;
}
'''

LN_TAIL = r'''
#include <torch/extension.h>

__global__ void affine_kernel(const float* x, const float* mean, const float* var, const float* g, const float* b, float* y, int n, int cols, float eps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int row = i / cols, col = i % cols;
        y[i] = (x[i] - mean[row]) / sqrtf(var[row] + eps) * g[col] + b[col];
    }
}

torch::Tensor affine_cuda(torch::Tensor x, torch::Tensor mean, torch::Tensor var, torch::Tensor g, torch::Tensor b, float eps) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    int cols = x.size(1);
    affine_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), mean.data_ptr<float>(), var.data_ptr<float>(), g.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(), n, cols, eps);
    return y;
}
'''

_LN_MODEL = '''class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ln = nn.LayerNorm(dim)

    def forward(self, x):
        return ext.layernorm_cuda(x.contiguous(), self.ln.weight, self.ln.bias, self.ln.eps)
'''

_LN_TAIL_MODEL = '''class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ln = nn.LayerNorm(dim)

    def forward(self, x):
        x = x.contiguous()
        mean = x.mean(dim=1).contiguous()
        var = x.var(dim=1, unbiased=False).contiguous()
        return ext.affine_cuda(x, mean, var, self.ln.weight, self.ln.bias, self.ln.eps)
'''

LAYERNORM = StyleTask(
    "kb_layernorm/layernorm_rows", LAYERNORM_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 8192, "DIM": 1024}}, {"config_id": 1, "sizes": {"BATCH": 1024, "DIM": 8192}}),
    (Candidate("thread_per_row", ("naive", "uncoalesced"), candidate("ln_thread", LN_THREAD, ["layernorm_cuda"], _LN_MODEL)),
     Candidate("block_per_row", ("shared-memory", "tree-reduction"), candidate("ln_block", LN_BLOCK, ["layernorm_cuda"], _LN_MODEL)),
     Candidate("warp_per_row", ("warp-shuffle",), candidate("ln_warp", LN_WARP, ["layernorm_cuda"], _LN_MODEL)),
     Candidate("stats_then_normalize", ("several-kernels",), candidate("ln_two", LN_TWO, ["layernorm_cuda"], _LN_MODEL)),
     Candidate("torch_stats_tail", ("torch-tail", "partial-fusion"), candidate("ln_tail", LN_TAIL, ["affine_cuda"], _LN_TAIL_MODEL)),
     ))

BMM_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Batched matrix multiplication."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.bmm(A, B)


BATCH = 32
M = 256
K = 256
N = 256


def get_inputs():
    return [torch.randn(BATCH, M, K), torch.randn(BATCH, K, N)]


def get_init_inputs():
    return []
'''

BMM_LOOP = r'''
#include <torch/extension.h>

__global__ void matmul_kernel(const float* A, const float* B, float* C, int M, int K, int N) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float s = 0.0f;
        for (int k = 0; k < K; ++k) s += A[row * K + k] * B[k * N + col];
        C[row * N + col] = s;
    }
}

torch::Tensor bmm_cuda(torch::Tensor A, torch::Tensor B) {
    int batch = A.size(0);
    int M = A.size(1);
    int K = A.size(2);
    int N = B.size(2);
    auto C = torch::empty({batch, M, N}, A.options());
    dim3 block(16, 16);
    dim3 grid((N + 15) / 16, (M + 15) / 16);
    for (int b = 0; b < batch; ++b) {
        matmul_kernel<<<grid, block>>>(A.data_ptr<float>() + b * M * K, B.data_ptr<float>() + b * K * N, C.data_ptr<float>() + b * M * N, M, K, N);
    }
    return C;
}
'''

BMM_3D = r'''
#include <torch/extension.h>

__global__ void bmm_naive_kernel(const float* A, const float* B, float* C, int M, int K, int N) {
    int b = blockIdx.z;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        const float* a = A + (long)b * M * K;
        const float* bb = B + (long)b * K * N;
        float s = 0.0f;
        for (int k = 0; k < K; ++k) s += a[row * K + k] * bb[k * N + col];
        C[(long)b * M * N + row * N + col] = s;
    }
}

torch::Tensor bmm_cuda(torch::Tensor A, torch::Tensor B) {
    int batch = A.size(0);
    int M = A.size(1);
    int K = A.size(2);
    int N = B.size(2);
    auto C = torch::empty({batch, M, N}, A.options());
    dim3 block(32, 8);
    dim3 grid((N + 31) / 32, (M + 7) / 8, batch);
    bmm_naive_kernel<<<grid, block>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, N);
    return C;
}
'''

BMM_TILED = r'''
#include <torch/extension.h>

#define TILE_SIZE 16

__global__ void bmm_tiled_kernel(const float* A, const float* B, float* C, int M, int K, int N) {
    __shared__ float As[TILE_SIZE][TILE_SIZE];
    __shared__ float Bs[TILE_SIZE][TILE_SIZE];
    int b = blockIdx.z;
    int row = blockIdx.y * TILE_SIZE + threadIdx.y;
    int col = blockIdx.x * TILE_SIZE + threadIdx.x;
    const float* a = A + (long)b * M * K;
    const float* bb = B + (long)b * K * N;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE_SIZE) {
        As[threadIdx.y][threadIdx.x] = (row < M && t + threadIdx.x < K) ? a[row * K + t + threadIdx.x] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (col < N && t + threadIdx.y < K) ? bb[(t + threadIdx.y) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_SIZE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[(long)b * M * N + row * N + col] = acc;
}

torch::Tensor bmm_cuda(torch::Tensor A, torch::Tensor B) {
    int batch = A.size(0);
    int M = A.size(1);
    int K = A.size(2);
    int N = B.size(2);
    auto C = torch::empty({batch, M, N}, A.options());
    dim3 block(TILE_SIZE, TILE_SIZE);
    dim3 grid((N + TILE_SIZE - 1) / TILE_SIZE, (M + TILE_SIZE - 1) / TILE_SIZE, batch);
    bmm_tiled_kernel<<<grid, block>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, N);
    return C;
}
'''

BMM_ROWX = r'''
#include <torch/extension.h>

__global__ void bmm_rowx_kernel(const float* A, const float* B, float* C, int batch, int M, int K, int N) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= batch * M * N) return;
    int row = idx % M;
    int col = (idx / M) % N;
    int b = idx / (M * N);
    float s = 0.0f;
    for (int k = 0; k < K; ++k) s += A[((long)b * M + row) * K + k] * B[((long)b * K + k) * N + col];
    C[((long)b * M + row) * N + col] = s;
}

torch::Tensor bmm_cuda(torch::Tensor A, torch::Tensor B) {
    int batch = A.size(0);
    int M = A.size(1);
    int K = A.size(2);
    int N = B.size(2);
    auto C = torch::empty({batch, M, N}, A.options());
    int total = batch * M * N;
    bmm_rowx_kernel<<<(total + 255) / 256, 256>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), batch, M, K, N);
    return C;
}
'''

_BMM_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return ext.bmm_cuda(A.contiguous(), B.contiguous())
'''

BMM = StyleTask(
    "kb_bmm/batched", BMM_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 32, "M": 256, "K": 256, "N": 256}},
     {"config_id": 1, "sizes": {"BATCH": 128, "M": 128, "K": 512, "N": 128}}),
    (Candidate("host_loop", ("naive", "several-launches"), candidate("bmm_loop", BMM_LOOP, ["bmm_cuda"], _BMM_MODEL)),
     Candidate("grid3d_naive", ("naive", "coalesced"), candidate("bmm_3d", BMM_3D, ["bmm_cuda"], _BMM_MODEL)),
     Candidate("tiled16", ("tiled", "shared-memory"), candidate("bmm_tiled", BMM_TILED, ["bmm_cuda"], _BMM_MODEL)),
     Candidate("rows_fastest", ("naive", "uncoalesced"), candidate("bmm_rowx", BMM_ROWX, ["bmm_cuda"], _BMM_MODEL)),
     ))

MSE_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Mean squared error of predictions against targets."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return torch.mean((predictions - targets) ** 2)


BATCH = 4096
DIM = 4096


def get_inputs():
    return [torch.randn(BATCH, DIM), torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
'''

MSE_ATOMIC = r'''
#include <torch/extension.h>

__global__ void mse_atomic_kernel(const float* p, const float* t, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float d = p[i] - t[i];
        atomicAdd(out, d * d);
    }
}

torch::Tensor mse_cuda(torch::Tensor p, torch::Tensor t) {
    auto out = torch::zeros({}, p.options());
    int n = p.numel();
    mse_atomic_kernel<<<(n + 255) / 256, 256>>>(p.data_ptr<float>(), t.data_ptr<float>(), out.data_ptr<float>(), n);
    return out / n;
}
'''

MSE_BLOCK = r'''
#include <torch/extension.h>

__global__ void mse_block_kernel(const float* p, const float* t, float* out, int n) {
    __shared__ float cache[256];
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float d = p[i] - t[i];
        acc += d * d;
    }
    cache[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, cache[0]);
}

torch::Tensor mse_cuda(torch::Tensor p, torch::Tensor t) {
    auto out = torch::zeros({1}, p.options());
    int n = p.numel();
    int blocks = 1024;
    mse_block_kernel<<<blocks, 256>>>(p.data_ptr<float>(), t.data_ptr<float>(), out.data_ptr<float>(), n);
    return (out / n).squeeze();
}
'''

MSE_TWO_PASS = r'''
#include <torch/extension.h>

__global__ void partial_kernel(const float* p, const float* t, float* partial, int n) {
    __shared__ float sdata[512];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x * 2 + tid;
    float v = 0.0f;
    if (i < n) { float d = p[i] - t[i]; v = d * d; }
    if (i + blockDim.x < n) { float d = p[i + blockDim.x] - t[i + blockDim.x]; v += d * d; }
    sdata[tid] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sdata[0];
}

__global__ void final_kernel(const float* partial, float* out, int m, int n) {
    __shared__ float sdata[1024];
    float v = 0.0f;
    for (int i = threadIdx.x; i < m; i += blockDim.x) v += partial[i];
    sdata[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sdata[threadIdx.x] += sdata[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = sdata[0] / n;
}

torch::Tensor mse_cuda(torch::Tensor p, torch::Tensor t) {
    int n = p.numel();
    int threads = 512;
    int blocks = (n + threads * 2 - 1) / (threads * 2);
    auto partial = torch::empty({blocks}, p.options());
    auto out = torch::empty({}, p.options());
    partial_kernel<<<blocks, threads>>>(p.data_ptr<float>(), t.data_ptr<float>(), partial.data_ptr<float>(), n);
    final_kernel<<<1, 1024>>>(partial.data_ptr<float>(), out.data_ptr<float>(), blocks, n);
    return out;
}
'''

MSE_TAIL = r'''
#include <torch/extension.h>

__global__ void sq_diff_kernel(const float* p, const float* t, float* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = p[i] - t[i];
        d[i] = v * v;
    }
}

torch::Tensor sq_diff_cuda(torch::Tensor p, torch::Tensor t) {
    auto d = torch::empty_like(p);
    int n = p.numel();
    sq_diff_kernel<<<(n + 255) / 256, 256>>>(p.data_ptr<float>(), t.data_ptr<float>(), d.data_ptr<float>(), n);
    return d;
}
'''

_MSE_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return ext.mse_cuda(predictions.contiguous(), targets.contiguous())
'''

_MSE_TAIL_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return torch.mean(ext.sq_diff_cuda(predictions.contiguous(), targets.contiguous()))
'''

MSE = StyleTask(
    "kb_mse/mse_loss", MSE_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 4096, "DIM": 4096}}, {"config_id": 1, "sizes": {"BATCH": 1024, "DIM": 1024}}),
    (Candidate("atomic_per_element", ("atomics", "naive"), candidate("mse_atomic", MSE_ATOMIC, ["mse_cuda"], _MSE_MODEL)),
     Candidate("block_reduce_atomic", ("grid-stride", "shared-memory", "atomics"), candidate("mse_block", MSE_BLOCK, ["mse_cuda"], _MSE_MODEL)),
     Candidate("two_pass", ("several-kernels", "tree-reduction"), candidate("mse_two", MSE_TWO_PASS, ["mse_cuda"], _MSE_MODEL)),
     Candidate("torch_mean_tail", ("torch-tail", "partial-fusion"), candidate("mse_tail", MSE_TAIL, ["sq_diff_cuda"], _MSE_TAIL_MODEL)),
     ))

FROB_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Divide by the Frobenius norm of the whole tensor."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x / torch.norm(x, p="fro")


BATCH = 64
FEATURES = 64
DIM1 = 256
DIM2 = 256


def get_inputs():
    return [torch.randn(BATCH, FEATURES, DIM1, DIM2)]


def get_init_inputs():
    return []
'''

FROB_TWO = r'''
#include <torch/extension.h>

__global__ void sumsq_kernel(const float* x, float* acc, int n) {
    __shared__ float buf[256];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += x[i] * x[i];
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(acc, buf[0]);
}

__global__ void scale_kernel(const float* x, const float* acc, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] / sqrtf(acc[0]);
}

torch::Tensor frob_normalize_cuda(torch::Tensor x) {
    auto acc = torch::zeros({1}, x.options());
    auto y = torch::empty_like(x);
    int n = x.numel();
    sumsq_kernel<<<2048, 256>>>(x.data_ptr<float>(), acc.data_ptr<float>(), n);
    scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), acc.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
'''

FROB_ATOMIC = r'''
#include <torch/extension.h>

__global__ void sumsq_atomic_kernel(const float* x, float* acc, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(acc, x[i] * x[i]);
}

__global__ void divide_kernel(const float* x, const float* acc, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float norm = sqrtf(*acc);
    if (i < n) y[i] = x[i] / norm;
}

torch::Tensor frob_normalize_cuda(torch::Tensor x) {
    auto acc = torch::zeros({1}, x.options());
    auto y = torch::empty_like(x);
    int n = x.numel();
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    sumsq_atomic_kernel<<<blocks, threads>>>(x.data_ptr<float>(), acc.data_ptr<float>(), n);
    divide_kernel<<<blocks, threads>>>(x.data_ptr<float>(), acc.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
'''

FROB_TAIL = r'''
#include <torch/extension.h>

__global__ void div_scalar_kernel(const float* x, float* y, float norm, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] / norm;
}

torch::Tensor div_scalar_cuda(torch::Tensor x, float norm) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    div_scalar_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), norm, n);
    return y;
}
'''

_FROB_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.frob_normalize_cuda(x.contiguous())
'''

_FROB_TAIL_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        norm = torch.norm(x, p="fro")
        return ext.div_scalar_cuda(x.contiguous(), norm.item())
'''

FROB = StyleTask(
    "kb_frobenius/frobenius_normalize", FROB_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 16, "FEATURES": 64, "DIM1": 256, "DIM2": 256}},
     {"config_id": 1, "sizes": {"BATCH": 4, "FEATURES": 16, "DIM1": 256, "DIM2": 256}}),
    (Candidate("block_reduce_then_scale", ("grid-stride", "shared-memory", "several-kernels"),
               candidate("frob_two", FROB_TWO, ["frob_normalize_cuda"], _FROB_MODEL)),
     Candidate("atomic_per_element", ("atomics", "several-kernels"),
               candidate("frob_atomic", FROB_ATOMIC, ["frob_normalize_cuda"], _FROB_MODEL)),
     Candidate("torch_norm_tail", ("torch-tail", "host-sync"),
               candidate("frob_tail", FROB_TAIL, ["div_scalar_cuda"], _FROB_TAIL_MODEL)),
     ))

TASKS = (LAYERNORM, BMM, MSE, FROB)
