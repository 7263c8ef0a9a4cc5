# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matvec_t_twopass_cuda(torch::Tensor A, torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Strategy: deterministic two-pass split reduction with 128-bit loads. Pass 1: grid =
// (column tiles, row splits); block = 64 x 4 threads, each thread owns 4 adjacent columns
// (one float4) and sums every 4th row of its split; the 4 row-lanes are combined in shared
// memory and written as a float4 partial row partial[split][:]. Pass 2 sums the partials of
// each column. A scalar path is used when A is not 16-byte aligned or N % 4 != 0.

#define TXV 64          // float4 columns per block (256 columns)
#define TYR 4           // row lanes
#define ROWS_PER_SPLIT 256

__global__ void __launch_bounds__(TXV * TYR)
matvec_t_pass1_vec(const float4* __restrict__ A4, const float* __restrict__ x,
                   float* __restrict__ partial, int M, int N4) {
    __shared__ float4 red[TYR][TXV];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c4 = blockIdx.x * TXV + tx;
    const int s = blockIdx.y;
    const int r0 = s * ROWS_PER_SPLIT;
    const int r1 = min(r0 + ROWS_PER_SPLIT, M);
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    if (c4 < N4) {
        for (int r = r0 + ty; r < r1; r += TYR) {
            float4 a = __ldg(A4 + (long long)r * N4 + c4);
            float xv = __ldg(x + r);
            acc.x += a.x * xv; acc.y += a.y * xv; acc.z += a.z * xv; acc.w += a.w * xv;
        }
    }
    red[ty][tx] = acc;
    __syncthreads();
    if (ty == 0 && c4 < N4) {
        float4 t = red[0][tx];
#pragma unroll
        for (int k = 1; k < TYR; ++k) {
            float4 u = red[k][tx];
            t.x += u.x; t.y += u.y; t.z += u.z; t.w += u.w;
        }
        reinterpret_cast<float4*>(partial + (long long)s * N4 * 4)[c4] = t;
    }
}

__global__ void __launch_bounds__(TXV * TYR)
matvec_t_pass1_scalar(const float* __restrict__ A, const float* __restrict__ x,
                      float* __restrict__ partial, int M, int N) {
    __shared__ float red[TYR][TXV];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int j = blockIdx.x * TXV + tx;
    const int s = blockIdx.y;
    const int r0 = s * ROWS_PER_SPLIT;
    const int r1 = min(r0 + ROWS_PER_SPLIT, M);
    float acc = 0.f;
    if (j < N)
        for (int r = r0 + ty; r < r1; r += TYR) acc += __ldg(A + (long long)r * N + j) * __ldg(x + r);
    red[ty][tx] = acc;
    __syncthreads();
    if (ty == 0 && j < N) {
        float t = 0.f;
#pragma unroll
        for (int k = 0; k < TYR; ++k) t += red[k][tx];
        partial[(long long)s * N + j] = t;
    }
}

__global__ void matvec_t_pass2(const float* __restrict__ partial, float* __restrict__ y,
                               int S, int N) {
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= N) return;
    float t = 0.f;
    for (int s = 0; s < S; ++s) t += partial[(long long)s * N + j];
    y[j] = t;
}

torch::Tensor matvec_t_twopass_cuda(torch::Tensor A, torch::Tensor x) {
    TORCH_CHECK(A.is_cuda() && x.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && x.dim() == 1, "A must be 2D and x 1D");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && x.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.size(0) == x.size(0), "size mismatch");
    auto Ac = A.contiguous();
    auto xc = x.contiguous();
    int M = (int)Ac.size(0), N = (int)Ac.size(1);
    auto y = torch::empty({N}, Ac.options());
    if (N == 0) return y;
    if (M == 0) {
        matvec_t_pass2<<<(N + 255) / 256, 256>>>(y.data_ptr<float>(), y.data_ptr<float>(), 0, N);
        return y;
    }
    const int S = (M + ROWS_PER_SPLIT - 1) / ROWS_PER_SPLIT;
    auto partial = torch::empty({(long long)S, (long long)N}, Ac.options());
    const float* Ap = Ac.data_ptr<float>();
    bool vec = (N % 4 == 0) && (reinterpret_cast<uintptr_t>(Ap) % 16 == 0);
    dim3 block(TXV, TYR);
    if (vec) {
        int N4 = N / 4;
        dim3 grid((N4 + TXV - 1) / TXV, S);
        matvec_t_pass1_vec<<<grid, block>>>(reinterpret_cast<const float4*>(Ap), xc.data_ptr<float>(),
                                            partial.data_ptr<float>(), M, N4);
    } else {
        dim3 grid((N + TXV - 1) / TXV, S);
        matvec_t_pass1_scalar<<<grid, block>>>(Ap, xc.data_ptr<float>(), partial.data_ptr<float>(), M, N);
    }
    matvec_t_pass2<<<(N + 255) / 256, 256>>>(partial.data_ptr<float>(), y.data_ptr<float>(), S, N);
    return y;
}
"""

mv_mod = load_inline(
    name="kbf12_matvec_t_float4_two_pass",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["matvec_t_twopass_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return mv_mod.matvec_t_twopass_cuda(A, x)
