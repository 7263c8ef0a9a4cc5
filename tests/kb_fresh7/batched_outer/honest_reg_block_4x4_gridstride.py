# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_outer_reg_block(torch::Tensor a, torch::Tensor b);"

cuda_src = r'''
#include <cuda_runtime.h>
#include <stdint.h>

// Register blocking: each work item is a 4x4 micro-tile (4 rows i, 4 columns j as one float4).
// Grid-stride loop over all micro-tiles; adjacent threads take adjacent column groups so the
// float4 stores of a warp are contiguous 512-byte segments per row.
__global__ void outer_reg_block_kernel(const float* __restrict__ a, const float4* __restrict__ b4,
                                       float4* __restrict__ out4, int B, int M, int N4) {
    const int Mt = (M + 3) / 4;
    const long long tiles = (long long)B * Mt * N4;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < tiles; t += stride) {
        int j4 = (int)(t % N4);
        long long rest = t / N4;
        int it = (int)(rest % Mt);
        int bb = (int)(rest / Mt);
        float4 bv = __ldg(b4 + (long long)bb * N4 + j4);
        const int i0 = it * 4;
        const float* arow = a + (long long)bb * M;
        float av[4];
        #pragma unroll
        for (int r = 0; r < 4; ++r) av[r] = (i0 + r < M) ? __ldg(arow + i0 + r) : 0.0f;
        #pragma unroll
        for (int r = 0; r < 4; ++r) {
            if (i0 + r < M) {
                float4 o;
                o.x = av[r] * bv.x; o.y = av[r] * bv.y; o.z = av[r] * bv.z; o.w = av[r] * bv.w;
                out4[((long long)bb * M + i0 + r) * N4 + j4] = o;
            }
        }
    }
}

// Scalar grid-stride fallback (N % 4 != 0 or misaligned pointers).
__global__ void outer_scalar_gs_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                       float* __restrict__ out, long long rows, int M, int N) {
    const long long total = rows * (long long)N;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        long long row = idx / N;
        int j = (int)(idx - row * N);
        long long bb = row / M;
        out[idx] = a[row] * b[bb * N + j];
    }
}

torch::Tensor batched_outer_reg_block(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(0) == b.size(0), "expected a (B,M), b (B,N)");
    a = a.contiguous();
    b = b.contiguous();
    long long B = a.size(0), M = a.size(1), N = b.size(1);
    auto out = torch::empty({B, M, N}, a.options());
    if (B == 0 || M == 0 || N == 0) return out;

    int dev = 0, sms = 132;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 256;
    bool vec = (N % 4 == 0) &&
               ((reinterpret_cast<uintptr_t>(b.data_ptr<float>()) & 15) == 0) &&
               ((reinterpret_cast<uintptr_t>(out.data_ptr<float>()) & 15) == 0);
    if (vec) {
        int N4 = (int)(N / 4);
        long long tiles = B * ((M + 3) / 4) * N4;
        long long want = (tiles + threads - 1) / threads;
        long long cap = (long long)sms * 16;
        int blocks = (int)(want < cap ? want : cap);
        outer_reg_block_kernel<<<blocks, threads>>>(
            a.data_ptr<float>(), reinterpret_cast<const float4*>(b.data_ptr<float>()),
            reinterpret_cast<float4*>(out.data_ptr<float>()), (int)B, (int)M, N4);
    } else {
        long long total = B * M * N;
        long long want = (total + threads - 1) / threads;
        long long cap = (long long)sms * 16;
        int blocks = (int)(want < cap ? want : cap);
        outer_scalar_gs_kernel<<<blocks, threads>>>(
            a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), B * M, (int)M, (int)N);
    }
    return out;
}
'''

batched_outer_reg_block_mod = load_inline(
    name="batched_outer_reg_block_4x4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_outer_reg_block"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return batched_outer_reg_block_mod.batched_outer_reg_block(a, b)
