# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Skinny-M matmul: each thread owns one output column and keeps all 32 rows of that column in registers,
// so every element of B is loaded from global memory exactly once.  The block's K-slice of A (32 x 256) is
// staged transposed in shared memory and read back as broadcast float4s.  K is split across blocks
// (grid.y) to get enough parallelism; partial sums are combined with atomicAdd into a zeroed output.

#define CT_THREADS 256
#define CT_MT 32
#define CT_KS 256
#define CT_LD (CT_MT + 4)

__global__ void __launch_bounds__(CT_THREADS)
mm_colthread_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                    int M, int K, int N) {
    __shared__ __align__(16) float As[CT_KS * CT_LD];
    const int tid = threadIdx.x;
    const int n = blockIdx.x * CT_THREADS + tid;
    const int k0 = blockIdx.y * CT_KS;
    const int m0 = blockIdx.z * CT_MT;
    const int klen = min(CT_KS, K - k0);

    // stage A[m0 : m0+32, k0 : k0+klen] as As[kk][m] (zero padded)
    for (int idx = tid; idx < CT_MT * CT_KS; idx += CT_THREADS) {
        const int m = idx / CT_KS;
        const int kk = idx - m * CT_KS;
        float v = 0.f;
        if (m0 + m < M && kk < klen) v = A[(size_t)(m0 + m) * K + k0 + kk];
        As[kk * CT_LD + m] = v;
    }
    __syncthreads();
    if (n >= N) return;  // no barrier after this point

    float acc[CT_MT];
    #pragma unroll
    for (int m = 0; m < CT_MT; ++m) acc[m] = 0.f;

    const float* bp = B + (size_t)k0 * N + n;
    #pragma unroll 4
    for (int kk = 0; kk < klen; ++kk) {
        const float bv = __ldg(bp + (size_t)kk * N);
        const float4* a4 = reinterpret_cast<const float4*>(As + kk * CT_LD);
        #pragma unroll
        for (int j = 0; j < CT_MT / 4; ++j) {
            const float4 a = a4[j];
            acc[4 * j + 0] += a.x * bv;
            acc[4 * j + 1] += a.y * bv;
            acc[4 * j + 2] += a.z * bv;
            acc[4 * j + 3] += a.w * bv;
        }
    }

    #pragma unroll
    for (int m = 0; m < CT_MT; ++m) {
        if (m0 + m < M) atomicAdd(C + (size_t)(m0 + m) * N + n, acc[m]);
    }
}

torch::Tensor matmul_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(1) == B.size(0), "shape mismatch");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    auto Ac = A.contiguous();
    auto Bc = B.contiguous();
    const int M = (int)Ac.size(0), K = (int)Ac.size(1), N = (int)Bc.size(1);
    auto out = torch::zeros({M, N}, Ac.options());
    if (M == 0 || N == 0 || K == 0) return out;
    dim3 grid((N + CT_THREADS - 1) / CT_THREADS, (K + CT_KS - 1) / CT_KS, (M + CT_MT - 1) / CT_MT);
    mm_colthread_kernel<<<grid, CT_THREADS>>>(Ac.data_ptr<float>(), Bc.data_ptr<float>(), out.data_ptr<float>(), M, K, N);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_matmul_skinny_colthread_splitk_atomic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["matmul_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return my_mod.matmul_cuda(A, B)
