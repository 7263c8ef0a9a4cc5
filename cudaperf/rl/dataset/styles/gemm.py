# ruff: noqa: E501  (the CUDA text keeps the long lines models write)
"""Matrix-product KernelBench-style tasks (square matmul, Linear + multiply + LeakyReLU, matrix
times vector), in model styles: naive and tiled kernels, register blocking, cuBLAS through torch
with a custom epilogue, epilogues split into several kernels."""

from __future__ import annotations

from . import Candidate, StyleTask, candidate

MATMUL_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A @ B for square matrices."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


N = 1024


def get_inputs():
    return [torch.rand(N, N), torch.rand(N, N)]


def get_init_inputs():
    return []
'''

MATMUL_NAIVE = r'''
#include <torch/extension.h>

__global__ void matmul_naive_kernel(const float* A, const float* B, float* C, int N) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < N && col < N) {
        float sum = 0.0f;
        for (int k = 0; k < N; ++k) sum += A[row * N + k] * B[k * N + col];
        C[row * N + col] = sum;
    }
}

torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B) {
    int N = A.size(0);
    auto C = torch::zeros({N, N}, A.options());
    dim3 threads(16, 16);
    dim3 blocks((N + threads.x - 1) / threads.x, (N + threads.y - 1) / threads.y);
    matmul_naive_kernel<<<blocks, threads>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    return C;
}
'''

MATMUL_NAIVE_ROWX = r'''
#include <torch/extension.h>

__global__ void matmul_kernel(const float* A, const float* B, float* C, int N) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < N && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < N; ++k) acc += A[row * N + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}

torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B) {
    int N = A.size(0);
    auto C = torch::empty({N, N}, A.options());
    dim3 block(32, 8);
    dim3 grid((N + 31) / 32, (N + 7) / 8);
    matmul_kernel<<<grid, block>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    return C;
}
'''

MATMUL_TILED = r'''
#include <torch/extension.h>

#define TILE $TILE

__global__ void matmul_tiled_kernel(const float* A, const float* B, float* C, int N) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < (N + TILE - 1) / TILE; ++t) {
        As[ty][tx] = (row < N && t * TILE + tx < N) ? A[row * N + t * TILE + tx] : 0.0f;
        Bs[ty][tx] = (col < N && t * TILE + ty < N) ? B[(t * TILE + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < N && col < N) C[row * N + col] = sum;
}

torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B) {
    const int N = A.size(0);
    auto C = torch::empty({N, N}, A.options());
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (N + TILE - 1) / TILE);
    matmul_tiled_kernel<<<grid, block>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    return C;
}
'''

MATMUL_REGISTER = r'''
#include <torch/extension.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

__global__ void matmul_regblock_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int N) {
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    int tx = threadIdx.x % 16;
    int ty = threadIdx.x / 16;
    int rowBase = blockIdx.y * BM;
    int colBase = blockIdx.x * BN;
    float acc[TM][TN] = {0.0f};
    for (int k0 = 0; k0 < N; k0 += BK) {
        for (int i = threadIdx.x; i < BM * BK; i += 256) {
            int r = i / BK, c = i % BK;
            As[c][r] = A[(rowBase + r) * N + k0 + c];
        }
        for (int i = threadIdx.x; i < BK * BN; i += 256) {
            int r = i / BN, c = i % BN;
            Bs[r][c] = B[(k0 + r) * N + colBase + c];
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; ++i) a[i] = As[k][ty * TM + i];
            for (int j = 0; j < TN; ++j) b[j] = Bs[k][tx * TN + j];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) C[(rowBase + ty * TM + i) * N + colBase + tx * TN + j] = acc[i][j];
}

torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B) {
    int N = A.size(0);
    TORCH_CHECK(N % 64 == 0, "N must be a multiple of 64");
    auto C = torch::empty({N, N}, A.options());
    dim3 grid(N / BN, N / BM);
    matmul_regblock_kernel<<<grid, 256>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);
    return C;
}
'''

MATMUL_TRANSPOSE_FIRST = r'''
#include <torch/extension.h>

__global__ void transpose_kernel(const float* in, float* out, int N) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < N && y < N) out[x * N + y] = in[y * N + x];
}

__global__ void matmul_bt_kernel(const float* A, const float* Bt, float* C, int N) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < N && col < N) {
        float s = 0.0f;
        for (int k = 0; k < N; ++k) s += A[row * N + k] * Bt[col * N + k];
        C[row * N + col] = s;
    }
}

torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B) {
    int N = A.size(0);
    auto Bt = torch::empty_like(B);
    auto C = torch::empty({N, N}, A.options());
    dim3 block(16, 16);
    dim3 grid((N + 15) / 16, (N + 15) / 16);
    transpose_kernel<<<grid, block>>>(B.data_ptr<float>(), Bt.data_ptr<float>(), N);
    matmul_bt_kernel<<<grid, block>>>(A.data_ptr<float>(), Bt.data_ptr<float>(), C.data_ptr<float>(), N);
    return C;
}
'''

_MATMUL_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.matmul = ext

    def forward(self, A, B):
        return self.matmul.matmul_cuda(A.contiguous(), B.contiguous())
'''

MATMUL = StyleTask(
    "kb_matmul/square", MATMUL_REFERENCE,
    ({"config_id": 0, "sizes": {"N": 1024}}, {"config_id": 1, "sizes": {"N": 2048}}),
    (Candidate("naive", ("naive", "coalesced"), candidate("mm_naive", MATMUL_NAIVE, ["matmul_cuda"], _MATMUL_MODEL)),
     Candidate("naive_rows_on_x", ("naive", "uncoalesced"),
               candidate("mm_rowx", MATMUL_NAIVE_ROWX, ["matmul_cuda"], _MATMUL_MODEL)),
     Candidate("tiled16", ("tiled", "shared-memory"),
               candidate("mm_tiled16", MATMUL_TILED.replace("$TILE", "16"), ["matmul_cuda"], _MATMUL_MODEL)),
     Candidate("tiled32", ("tiled", "shared-memory"),
               candidate("mm_tiled32", MATMUL_TILED.replace("$TILE", "32"), ["matmul_cuda"], _MATMUL_MODEL)),
     Candidate("register_blocked", ("tiled", "register-blocked"),
               candidate("mm_regblock", MATMUL_REGISTER, ["matmul_cuda"], _MATMUL_MODEL)),
     Candidate("transpose_first", ("several-kernels", "uncoalesced"),
               candidate("mm_bt", MATMUL_TRANSPOSE_FIRST, ["matmul_cuda"], _MATMUL_MODEL)),
     ))

GEMM_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear, multiply by a constant, LeakyReLU."""

    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.leaky_relu = nn.LeakyReLU(negative_slope)

    def forward(self, x):
        x = self.gemm(x)
        x = x * self.multiplier
        return self.leaky_relu(x)


BATCH = 512
IN_FEATURES = 1024
OUT_FEATURES = 1024
MULTIPLIER = 2.0
NEGATIVE_SLOPE = 0.1


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, MULTIPLIER, NEGATIVE_SLOPE]
'''

GEMM_EPILOGUE = r'''
#include <torch/extension.h>

__global__ void mul_leaky_kernel(float* y, float multiplier, float slope, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = y[i] * multiplier;
        y[i] = v > 0.0f ? v : v * slope;
    }
}

torch::Tensor mul_leaky_cuda(torch::Tensor y, float multiplier, float slope) {
    int n = y.numel();
    mul_leaky_kernel<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), multiplier, slope, n);
    return y;
}
'''

GEMM_TWO_EPILOGUES = r'''
#include <torch/extension.h>

__global__ void mul_kernel(const float* x, float* y, float m, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * m;
}

__global__ void leaky_kernel(const float* x, float* y, float slope, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.0f ? x[i] : x[i] * slope;
}

torch::Tensor mul_leaky_cuda(torch::Tensor x, float multiplier, float slope) {
    auto t = torch::empty_like(x);
    auto y = torch::empty_like(x);
    int n = x.numel();
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    mul_kernel<<<blocks, threads>>>(x.data_ptr<float>(), t.data_ptr<float>(), multiplier, n);
    leaky_kernel<<<blocks, threads>>>(t.data_ptr<float>(), y.data_ptr<float>(), slope, n);
    return y;
}
'''

GEMM_LEAKY_ONLY = r'''
#include <torch/extension.h>

__global__ void leaky_relu_kernel(const float* x, float* y, float slope, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = v >= 0.0f ? v : slope * v;
    }
}

torch::Tensor leaky_relu_cuda(torch::Tensor x, float slope) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    leaky_relu_kernel<<<(n + 1023) / 1024, 1024>>>(x.data_ptr<float>(), y.data_ptr<float>(), slope, n);
    return y;
}
'''

GEMM_NAIVE = r'''
#include <torch/extension.h>

__global__ void linear_mul_leaky_kernel(const float* x, const float* w, const float* b, float* y, int batch, int in_f,
                                        int out_f, float multiplier, float slope) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < batch && col < out_f) {
        float acc = b[col];
        for (int k = 0; k < in_f; ++k) acc += x[row * in_f + k] * w[col * in_f + k];
        acc *= multiplier;
        y[row * out_f + col] = acc > 0.0f ? acc : acc * slope;
    }
}

torch::Tensor linear_mul_leaky_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b, float multiplier, float slope) {
    int batch = x.size(0);
    int in_f = x.size(1);
    int out_f = w.size(0);
    auto y = torch::empty({batch, out_f}, x.options());
    dim3 block(16, 16);
    dim3 grid((out_f + 15) / 16, (batch + 15) / 16);
    linear_mul_leaky_kernel<<<grid, block>>>(x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(),
                                             y.data_ptr<float>(), batch, in_f, out_f, multiplier, slope);
    return y;
}
'''

GEMM_TILED = r'''
#include <torch/extension.h>

#define TILE 16

__global__ void linear_tiled_kernel(const float* x, const float* w, const float* b, float* y, int batch, int in_f,
                                    int out_f, float multiplier, float slope) {
    __shared__ float xs[TILE][TILE];
    __shared__ float ws[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    int wrow = blockIdx.x * TILE + threadIdx.y;
    float acc = 0.0f;
    for (int k0 = 0; k0 < in_f; k0 += TILE) {
        xs[threadIdx.y][threadIdx.x] = (row < batch && k0 + threadIdx.x < in_f) ? x[row * in_f + k0 + threadIdx.x] : 0.0f;
        ws[threadIdx.y][threadIdx.x] = (wrow < out_f && k0 + threadIdx.x < in_f) ? w[wrow * in_f + k0 + threadIdx.x] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += xs[threadIdx.y][k] * ws[threadIdx.x][k];
        __syncthreads();
    }
    if (row < batch && col < out_f) {
        float v = (acc + b[col]) * multiplier;
        y[row * out_f + col] = v > 0.0f ? v : v * slope;
    }
}

torch::Tensor linear_mul_leaky_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b, float multiplier, float slope) {
    int batch = x.size(0);
    int in_f = x.size(1);
    int out_f = w.size(0);
    auto y = torch::empty({batch, out_f}, x.options());
    dim3 block(TILE, TILE);
    dim3 grid((out_f + TILE - 1) / TILE, (batch + TILE - 1) / TILE);
    linear_tiled_kernel<<<grid, block>>>(x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(),
                                         y.data_ptr<float>(), batch, in_f, out_f, multiplier, slope);
    return y;
}
'''

_GEMM_INIT = '''    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.negative_slope = negative_slope
'''

_GEMM_TORCH_EPILOGUE_MODEL = 'class ModelNew(nn.Module):\n' + _GEMM_INIT + '''
    def forward(self, x):
        y = self.gemm(x)
        return ext.mul_leaky_cuda(y, float(self.multiplier), float(self.negative_slope))
'''

_GEMM_LEAKY_MODEL = 'class ModelNew(nn.Module):\n' + _GEMM_INIT + '''
    def forward(self, x):
        y = self.gemm(x) * self.multiplier
        return ext.leaky_relu_cuda(y, float(self.negative_slope))
'''

_GEMM_FUSED_MODEL = 'class ModelNew(nn.Module):\n' + _GEMM_INIT + '''
    def forward(self, x):
        return ext.linear_mul_leaky_cuda(x.contiguous(), self.gemm.weight, self.gemm.bias, float(self.multiplier),
                                         float(self.negative_slope))
'''

GEMM = StyleTask(
    "kb_gemm_epilogue/linear_mul_leaky", GEMM_REFERENCE,
    ({"config_id": 0, "sizes": {"BATCH": 512, "IN_FEATURES": 1024, "OUT_FEATURES": 1024}},
     {"config_id": 1, "sizes": {"BATCH": 1024, "IN_FEATURES": 2048, "OUT_FEATURES": 2048}}),
    (Candidate("torch_gemm_fused_epilogue", ("torch-tail", "fused"),
               candidate("gemm_epi", GEMM_EPILOGUE, ["mul_leaky_cuda"], _GEMM_TORCH_EPILOGUE_MODEL)),
     Candidate("torch_gemm_two_kernels", ("torch-tail", "several-kernels"),
               candidate("gemm_two", GEMM_TWO_EPILOGUES, ["mul_leaky_cuda"], _GEMM_TORCH_EPILOGUE_MODEL)),
     Candidate("torch_gemm_mul_custom_leaky", ("torch-tail", "partial-fusion"),
               candidate("gemm_leaky", GEMM_LEAKY_ONLY, ["leaky_relu_cuda"], _GEMM_LEAKY_MODEL)),
     Candidate("naive_fused", ("naive", "uncoalesced", "fused"),
               candidate("gemm_naive", GEMM_NAIVE, ["linear_mul_leaky_cuda"], _GEMM_FUSED_MODEL)),
     Candidate("tiled_fused", ("tiled", "shared-memory", "fused"),
               candidate("gemm_tiled", GEMM_TILED, ["linear_mul_leaky_cuda"], _GEMM_FUSED_MODEL)),
     ))

MATVEC_REFERENCE = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix times a column vector."""

    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


M = 4096
K = 8192


def get_inputs():
    return [torch.rand(M, K), torch.rand(K, 1)]


def get_init_inputs():
    return []
'''

MATVEC_THREAD = r'''
#include <torch/extension.h>

__global__ void matvec_kernel(const float* A, const float* x, float* y, int M, int K) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M) {
        float sum = 0.0f;
        for (int k = 0; k < K; ++k) sum += A[row * K + k] * x[k];
        y[row] = sum;
    }
}

torch::Tensor matvec_cuda(torch::Tensor A, torch::Tensor x) {
    int M = A.size(0);
    int K = A.size(1);
    auto y = torch::empty({M, 1}, A.options());
    matvec_kernel<<<(M + 255) / 256, 256>>>(A.data_ptr<float>(), x.data_ptr<float>(), y.data_ptr<float>(), M, K);
    return y;
}
'''

MATVEC_WARP = r'''
#include <torch/extension.h>

__global__ void matvec_warp_kernel(const float* A, const float* x, float* y, int M, int K) {
    int warp_id = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp_id >= M) return;
    float sum = 0.0f;
    for (int k = lane; k < K; k += 32) sum += A[(long)warp_id * K + k] * x[k];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (lane == 0) y[warp_id] = sum;
}

torch::Tensor matvec_cuda(torch::Tensor A, torch::Tensor x) {
    int M = A.size(0);
    int K = A.size(1);
    auto y = torch::empty({M, 1}, A.options());
    int threads = 256;
    int blocks = (M * 32 + threads - 1) / threads;
    matvec_warp_kernel<<<blocks, threads>>>(A.data_ptr<float>(), x.data_ptr<float>(), y.data_ptr<float>(), M, K);
    return y;
}
'''

MATVEC_BLOCK = r'''
#include <torch/extension.h>

__global__ void matvec_block_kernel(const float* A, const float* x, float* y, int K) {
    __shared__ float partial[256];
    int row = blockIdx.x;
    float sum = 0.0f;
    for (int k = threadIdx.x; k < K; k += blockDim.x) sum += A[(long)row * K + k] * x[k];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) y[row] = partial[0];
}

torch::Tensor matvec_cuda(torch::Tensor A, torch::Tensor x) {
    int M = A.size(0);
    int K = A.size(1);
    auto y = torch::empty({M, 1}, A.options());
    matvec_block_kernel<<<M, 256>>>(A.data_ptr<float>(), x.data_ptr<float>(), y.data_ptr<float>(), K);
    return y;
}
'''

MATVEC_ATOMIC = r'''
#include <torch/extension.h>

#define CHUNK 1024

__global__ void matvec_split_kernel(const float* A, const float* x, float* y, int M, int K) {
    int row = blockIdx.y;
    int k = blockIdx.x * CHUNK + threadIdx.x;
    float sum = 0.0f;
    for (int i = 0; i < CHUNK / 256; ++i) {
        int kk = k + i * 256;
        if (kk < K) sum += A[(long)row * K + kk] * x[kk];
    }
    atomicAdd(&y[row], sum);
}

torch::Tensor matvec_cuda(torch::Tensor A, torch::Tensor x) {
    int M = A.size(0);
    int K = A.size(1);
    auto y = torch::zeros({M, 1}, A.options());
    dim3 grid((K + CHUNK - 1) / CHUNK, M);
    matvec_split_kernel<<<grid, 256>>>(A.data_ptr<float>(), x.data_ptr<float>(), y.data_ptr<float>(), M, K);
    return y;
}
'''

_MATVEC_MODEL = '''class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return ext.matvec_cuda(A.contiguous(), B.contiguous())
'''

MATVEC = StyleTask(
    "kb_matvec/gemv", MATVEC_REFERENCE,
    ({"config_id": 0, "sizes": {"M": 4096, "K": 8192}}, {"config_id": 1, "sizes": {"M": 1024, "K": 65536}}),
    (Candidate("thread_per_row", ("naive", "uncoalesced"),
               candidate("mv_thread", MATVEC_THREAD, ["matvec_cuda"], _MATVEC_MODEL)),
     Candidate("warp_per_row", ("warp-shuffle", "coalesced"),
               candidate("mv_warp", MATVEC_WARP, ["matvec_cuda"], _MATVEC_MODEL)),
     Candidate("block_per_row", ("shared-memory", "tree-reduction"),
               candidate("mv_block", MATVEC_BLOCK, ["matvec_cuda"], _MATVEC_MODEL)),
     Candidate("split_k_atomics", ("atomics",),
               candidate("mv_split", MATVEC_ATOMIC, ["matvec_cuda"], _MATVEC_MODEL)),
     ))

TASKS = (MATMUL, GEMM, MATVEC)
