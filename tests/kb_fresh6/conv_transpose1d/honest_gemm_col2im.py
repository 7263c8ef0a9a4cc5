# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8   // blockDim.y; each thread computes TILE / ROWS rows

// Stage 1 (GEMM): Z[n, m, i] = sum_ci A[m, ci] * x[n, ci, i]  with m = co * K + k and
// A[m, ci] = w[ci, co, k] = w[ci * M + m]  (w is (C_in, C_out, K) contiguous, so row ci of w is A[:, ci]).
// Classic 32x32 shared-memory tiling, block (32, 8), every thread accumulates 4 rows.
__global__ void convt_gemm_kernel(const float* __restrict__ w, const float* __restrict__ x,
                                  float* __restrict__ Z, int M, int Cin, int L) {
    __shared__ float As[TILE][TILE + 1];  // [ci_local][m_local]
    __shared__ float Bs[TILE][TILE];      // [ci_local][i_local]
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int m0 = blockIdx.y * TILE;
    const int c0 = blockIdx.x * TILE;
    const int n = blockIdx.z;
    const float* xn = x + (long long)n * Cin * L;
    float acc[TILE / ROWS];
#pragma unroll
    for (int r = 0; r < TILE / ROWS; ++r) acc[r] = 0.f;

    for (int k0 = 0; k0 < Cin; k0 += TILE) {
#pragma unroll
        for (int r = 0; r < TILE / ROWS; ++r) {
            int kk = ty + r * ROWS;
            int ci = k0 + kk;
            int m = m0 + tx;
            As[kk][tx] = (ci < Cin && m < M) ? w[(long long)ci * M + m] : 0.f;
            int c = c0 + tx;
            Bs[kk][tx] = (ci < Cin && c < L) ? xn[(long long)ci * L + c] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE; ++kk) {
            float b = Bs[kk][tx];
#pragma unroll
            for (int r = 0; r < TILE / ROWS; ++r) acc[r] = fmaf(As[kk][ty + r * ROWS], b, acc[r]);
        }
        __syncthreads();
    }
    const int c = c0 + tx;
    if (c < L) {
#pragma unroll
        for (int r = 0; r < TILE / ROWS; ++r) {
            int m = m0 + ty + r * ROWS;
            if (m < M) Z[((long long)n * M + m) * L + c] = acc[r];
        }
    }
}

// Stage 2 (col2im): y[n, co, o] = sum_k Z[n, co*K + k, (o + pad - k) / stride] over the taps where
// (o + pad - k) is a non-negative multiple of stride and the input index is < L.
__global__ void convt_col2im_kernel(const float* __restrict__ Z, float* __restrict__ y, int N, int Cout, int K,
                                    int L, int Lout, int stride, int pad) {
    long long total = (long long)N * Cout * Lout;
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int o = (int)(idx % Lout);
    long long nc = idx / Lout;  // n * Cout + co
    const float* zp = Z + nc * K * (long long)L;  // row (n, co*K + 0)
    float acc = 0.f;
    for (int k = 0; k < K; ++k) {
        int t = o + pad - k;
        if (t < 0 || (t % stride) != 0) continue;
        int i = t / stride;
        if (i >= L) continue;
        acc += zp[(long long)k * L + i];
    }
    y[idx] = acc;
}

torch::Tensor conv_transpose1d_forward(torch::Tensor x, torch::Tensor w, int64_t stride, int64_t padding) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 3 && w.dim() == 3, "x must be (N, C_in, L), w must be (C_in, C_out, K)");
    x = x.contiguous();
    w = w.contiguous();
    int N = x.size(0), Cin = x.size(1), L = x.size(2);
    TORCH_CHECK(w.size(0) == Cin, "weight C_in mismatch");
    int Cout = w.size(1), K = w.size(2);
    int s = (int)stride, p = (int)padding;
    TORCH_CHECK(s >= 1 && p >= 0, "bad stride/padding");
    int Lout = (L - 1) * s - 2 * p + K;
    TORCH_CHECK(Lout > 0, "non-positive output length");
    int M = Cout * K;
    TORCH_CHECK(N <= 65535 && (M + TILE - 1) / TILE <= 65535, "grid dimension too large");
    auto y = torch::empty({N, Cout, Lout}, x.options());
    if (N == 0 || Cout == 0) return y;
    auto Z = torch::empty({N, M, L}, x.options());  // intermediate columns

    dim3 block(TILE, ROWS);
    dim3 grid((L + TILE - 1) / TILE, (M + TILE - 1) / TILE, N);
    convt_gemm_kernel<<<grid, block>>>(w.data_ptr<float>(), x.data_ptr<float>(), Z.data_ptr<float>(), M, Cin, L);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "gemm launch failed: ", cudaGetErrorString(err));

    long long total = (long long)N * Cout * Lout;
    int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    convt_col2im_kernel<<<(unsigned int)blocks, threads>>>(Z.data_ptr<float>(), y.data_ptr<float>(), N, Cout, K, L,
                                                          Lout, s, p);
    err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "col2im launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_src = "torch::Tensor conv_transpose1d_forward(torch::Tensor x, torch::Tensor w, int64_t stride, int64_t padding);"

_ext = load_inline(
    name="conv_transpose1d_gemm_col2im",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv_transpose1d_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.conv = nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                                       bias=False)
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.conv_transpose1d_forward(x, self.conv.weight, self.stride, self.padding)
