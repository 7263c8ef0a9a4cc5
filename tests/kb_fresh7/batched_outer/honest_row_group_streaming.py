# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_outer_row_group(torch::Tensor a, torch::Tensor b);"

cuda_src = r'''
#include <cuda_runtime.h>
#include <stdint.h>

#define THREADS 256
#define ROWS_PER_BLOCK 32

// Grid (ceil(N4/256), ceil(M/32), B). Each thread loads its float4 of b[bb] once into registers,
// the block stages its 32 a values in shared memory, then the thread streams 32 float4 stores
// (one per row) with __stcs since the 256 MB output is never re-read by this kernel.
__global__ void outer_row_group_kernel(const float* __restrict__ a, const float4* __restrict__ b4,
                                       float4* __restrict__ out4, int M, int N4) {
    __shared__ float sA[ROWS_PER_BLOCK];
    const int bb = blockIdx.z;
    const int i0 = blockIdx.y * ROWS_PER_BLOCK;
    if (threadIdx.x < ROWS_PER_BLOCK) {
        int i = i0 + threadIdx.x;
        sA[threadIdx.x] = (i < M) ? __ldg(a + (long long)bb * M + i) : 0.0f;
    }
    __syncthreads();
    const int j4 = blockIdx.x * THREADS + threadIdx.x;
    if (j4 >= N4) return;
    const float4 bv = __ldg(b4 + (long long)bb * N4 + j4);
    const int rows = min(ROWS_PER_BLOCK, M - i0);
    float4* dst = out4 + ((long long)bb * M + i0) * N4 + j4;
    #pragma unroll 8
    for (int r = 0; r < rows; ++r) {
        const float av = sA[r];
        float4 o;
        o.x = av * bv.x; o.y = av * bv.y; o.z = av * bv.z; o.w = av * bv.w;
        __stcs(dst + (long long)r * N4, o);
    }
}

// Scalar version of the same scheme for N % 4 != 0 or misaligned pointers.
__global__ void outer_row_group_scalar_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                              float* __restrict__ out, int M, int N) {
    __shared__ float sA[ROWS_PER_BLOCK];
    const int bb = blockIdx.z;
    const int i0 = blockIdx.y * ROWS_PER_BLOCK;
    if (threadIdx.x < ROWS_PER_BLOCK) {
        int i = i0 + threadIdx.x;
        sA[threadIdx.x] = (i < M) ? a[(long long)bb * M + i] : 0.0f;
    }
    __syncthreads();
    const int j = blockIdx.x * THREADS + threadIdx.x;
    if (j >= N) return;
    const float bv = b[(long long)bb * N + j];
    const int rows = min(ROWS_PER_BLOCK, M - i0);
    float* dst = out + ((long long)bb * M + i0) * N + j;
    for (int r = 0; r < rows; ++r) {
        __stcs(dst + (long long)r * N, sA[r] * bv);
    }
}

torch::Tensor batched_outer_row_group(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(0) == b.size(0), "expected a (B,M), b (B,N)");
    a = a.contiguous();
    b = b.contiguous();
    long long B = a.size(0), M = a.size(1), N = b.size(1);
    TORCH_CHECK(B <= 65535, "batch too large for gridDim.z");
    TORCH_CHECK((M + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK <= 65535, "M too large for gridDim.y");
    auto out = torch::empty({B, M, N}, a.options());
    if (B == 0 || M == 0 || N == 0) return out;
    bool vec = (N % 4 == 0) &&
               ((reinterpret_cast<uintptr_t>(b.data_ptr<float>()) & 15) == 0) &&
               ((reinterpret_cast<uintptr_t>(out.data_ptr<float>()) & 15) == 0);
    unsigned gy = (unsigned)((M + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    if (vec) {
        int N4 = (int)(N / 4);
        dim3 grid((unsigned)((N4 + THREADS - 1) / THREADS), gy, (unsigned)B);
        outer_row_group_kernel<<<grid, THREADS>>>(
            a.data_ptr<float>(), reinterpret_cast<const float4*>(b.data_ptr<float>()),
            reinterpret_cast<float4*>(out.data_ptr<float>()), (int)M, N4);
    } else {
        dim3 grid((unsigned)((N + THREADS - 1) / THREADS), gy, (unsigned)B);
        outer_row_group_scalar_kernel<<<grid, THREADS>>>(
            a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), (int)M, (int)N);
    }
    return out;
}
'''

batched_outer_row_group_mod = load_inline(
    name="batched_outer_row_group_stcs",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_outer_row_group"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return batched_outer_row_group_mod.batched_outer_row_group(a, b)
