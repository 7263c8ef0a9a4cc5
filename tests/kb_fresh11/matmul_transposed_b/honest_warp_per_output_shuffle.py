# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matmul_tb_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

// Strategy: one warp per output element. Because both A (M,K) and B (N,K) are K-contiguous,
// the 32 lanes stride over K together, so every load is coalesced (float4 when K % 4 == 0 and
// the pointers are 16-byte aligned). The partial dot products are combined with a warp-shuffle
// tree. Consecutive warps handle consecutive columns n of the same row m, so the A row is
// shared through L1.
template <bool VEC>
__global__ void matmul_tb_warp_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                      float* __restrict__ C, int M, int N, int K) {
    const long long warp_id = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    const long long total = (long long)M * N;
    if (warp_id >= total) return;  // uniform across the warp
    const int m = (int)(warp_id / N);
    const int n = (int)(warp_id - (long long)m * N);
    const float* a = A + (size_t)m * K;
    const float* b = B + (size_t)n * K;

    float acc = 0.0f;
    if (VEC) {
        const int K4 = K >> 2;
        const float4* a4 = reinterpret_cast<const float4*>(a);
        const float4* b4 = reinterpret_cast<const float4*>(b);
        for (int i = lane; i < K4; i += 32) {
            float4 x = __ldg(a4 + i);
            float4 y = __ldg(b4 + i);
            acc += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
        }
        // VEC is only used when K % 4 == 0, so there is no tail.
    } else {
        for (int k = lane; k < K; k += 32) {
            acc += __ldg(a + k) * __ldg(b + k);
        }
    }
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        acc += __shfl_down_sync(0xffffffffu, acc, off);
    }
    if (lane == 0) C[(size_t)m * N + n] = acc;
}

torch::Tensor matmul_tb_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "A and B must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "A and B must be 2D");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.size(1) == B.size(1), "inner dimensions must match");
    auto Ac = A.contiguous();
    auto Bc = B.contiguous();
    const int M = (int)Ac.size(0);
    const int K = (int)Ac.size(1);
    const int N = (int)Bc.size(0);
    auto C = torch::empty({M, N}, Ac.options());
    if (M == 0 || N == 0) return C;

    const float* pa = Ac.data_ptr<float>();
    const float* pb = Bc.data_ptr<float>();
    const bool vec = (K % 4 == 0) &&
                     ((reinterpret_cast<uintptr_t>(pa) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(pb) & 15) == 0);

    const int threads = 256;                       // 8 warps per block
    const long long warps = (long long)M * N;
    const long long blocks = (warps * 32 + threads - 1) / threads;
    TORCH_CHECK(blocks <= 2147483647LL, "problem too large for a 1D grid");
    if (vec) {
        matmul_tb_warp_kernel<true><<<(unsigned)blocks, threads>>>(pa, pb, C.data_ptr<float>(), M, N, K);
    } else {
        matmul_tb_warp_kernel<false><<<(unsigned)blocks, threads>>>(pa, pb, C.data_ptr<float>(), M, N, K);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return C;
}
"""

matmul_tb_mod = load_inline(
    name="kbf11_matmul_tb_warp_per_output_shuffle",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["matmul_tb_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return matmul_tb_mod.matmul_tb_cuda(A, B)
