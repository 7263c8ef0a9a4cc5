# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor diag_matmul_float4_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define V_THREADS 256

// Vectorised path: blockIdx.y picks the row (looping past the 65535 limit),
// each thread scales one float4 of that row. Requires M % 4 == 0 and 16-byte
// aligned B / C so every row starts on a float4 boundary.
__global__ void diag_matmul_vec4_kernel(const float* __restrict__ A, const float4* __restrict__ B4,
                                        float4* __restrict__ C4, int N, int M4) {
    const int c = blockIdx.x * V_THREADS + threadIdx.x;
    if (c >= M4) return;
    for (int row = blockIdx.y; row < N; row += gridDim.y) {
        const float a = __ldg(A + row);
        const size_t off = (size_t)row * M4 + c;
        float4 v = __ldg(B4 + off);
        v.x *= a; v.y *= a; v.z *= a; v.w *= a;
        C4[off] = v;
    }
}

// Scalar fallback with the same launch geometry for unaligned / odd-width inputs.
__global__ void diag_matmul_scalar_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                          float* __restrict__ C, int N, int M) {
    const int c = blockIdx.x * V_THREADS + threadIdx.x;
    if (c >= M) return;
    for (int row = blockIdx.y; row < N; row += gridDim.y) {
        const size_t off = (size_t)row * M + c;
        C[off] = __ldg(A + row) * __ldg(B + off);
    }
}

torch::Tensor diag_matmul_float4_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 1 && B.dim() == 2, "A must be (N,), B must be (N, M)");
    TORCH_CHECK(A.size(0) == B.size(0), "size mismatch");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int N = (int)b.size(0), M = (int)b.size(1);
    auto out = torch::empty({N, M}, b.options());
    if (N == 0 || M == 0) return out;

    const float* bp = b.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool vec = (M % 4 == 0) &&
                     ((reinterpret_cast<uintptr_t>(bp) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(op) & 15) == 0);
    const int gy = N < 65535 ? N : 65535;
    if (vec) {
        const int M4 = M / 4;
        dim3 grid((M4 + V_THREADS - 1) / V_THREADS, gy);
        diag_matmul_vec4_kernel<<<grid, V_THREADS>>>(a.data_ptr<float>(), reinterpret_cast<const float4*>(bp),
                                                     reinterpret_cast<float4*>(op), N, M4);
    } else {
        dim3 grid((M + V_THREADS - 1) / V_THREADS, gy);
        diag_matmul_scalar_kernel<<<grid, V_THREADS>>>(a.data_ptr<float>(), bp, op, N, M);
    }
    return out;
}
"""

diag_v4 = load_inline(
    name="diag_matmul_float4_rows",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["diag_matmul_float4_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return diag_v4.diag_matmul_float4_cuda(A, B)
