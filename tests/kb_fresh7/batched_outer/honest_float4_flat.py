# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_outer_float4(torch::Tensor a, torch::Tensor b);"

cuda_src = r'''
#include <cuda_runtime.h>
#include <stdint.h>

// Vector path: one thread per 4 consecutive outputs of a row (requires N % 4 == 0 and
// 16-byte aligned b / out). row = bb*M + i indexes a directly.
__global__ void outer_float4_kernel(const float* __restrict__ a, const float4* __restrict__ b4,
                                    float4* __restrict__ out4, long long rows, int M, int N4) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total4 = rows * (long long)N4;
    if (idx >= total4) return;
    long long row = idx / N4;
    int j4 = (int)(idx - row * N4);
    long long bb = row / M;
    float av = __ldg(a + row);
    float4 bv = __ldg(b4 + bb * N4 + j4);
    float4 r;
    r.x = av * bv.x; r.y = av * bv.y; r.z = av * bv.z; r.w = av * bv.w;
    out4[idx] = r;
}

// Scalar fallback for N % 4 != 0 or misaligned pointers.
__global__ void outer_scalar_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ out, long long rows, int M, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = rows * (long long)N;
    if (idx >= total) return;
    long long row = idx / N;
    int j = (int)(idx - row * N);
    long long bb = row / M;
    out[idx] = a[row] * b[bb * N + j];
}

torch::Tensor batched_outer_float4(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(0) == b.size(0), "expected a (B,M), b (B,N)");
    a = a.contiguous();
    b = b.contiguous();
    long long B = a.size(0), M = a.size(1), N = b.size(1);
    auto out = torch::empty({B, M, N}, a.options());
    long long rows = B * M;
    if (rows == 0 || N == 0) return out;
    const int threads = 256;
    bool vec = (N % 4 == 0) &&
               ((reinterpret_cast<uintptr_t>(b.data_ptr<float>()) & 15) == 0) &&
               ((reinterpret_cast<uintptr_t>(out.data_ptr<float>()) & 15) == 0);
    if (vec) {
        int N4 = (int)(N / 4);
        long long total4 = rows * N4;
        long long blocks = (total4 + threads - 1) / threads;
        outer_float4_kernel<<<(unsigned int)blocks, threads>>>(
            a.data_ptr<float>(), reinterpret_cast<const float4*>(b.data_ptr<float>()),
            reinterpret_cast<float4*>(out.data_ptr<float>()), rows, (int)M, N4);
    } else {
        long long total = rows * N;
        long long blocks = (total + threads - 1) / threads;
        outer_scalar_kernel<<<(unsigned int)blocks, threads>>>(
            a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), rows, (int)M, (int)N);
    }
    return out;
}
'''

batched_outer_float4_mod = load_inline(
    name="batched_outer_float4_flat",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_outer_float4"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return batched_outer_float4_mod.batched_outer_float4(a, b)
