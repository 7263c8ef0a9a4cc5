# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor diag_matmul_persistent_cuda(torch::Tensor A, torch::Tensor B);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define P_THREADS 256
#define P_UNROLL 4

// Persistent grid sized to fill the GPU once. Each thread issues P_UNROLL
// independent float4 loads per iteration (memory-level parallelism), using
// streaming cache hints (__ldcs / __stcs) since B and C are touched exactly once.
// Needs M % 4 == 0 (float4s never straddle rows) and 16-byte aligned pointers.
__global__ void __launch_bounds__(P_THREADS)
diag_matmul_persistent_vec4(const float* __restrict__ A, const float4* __restrict__ B4,
                            float4* __restrict__ C4, int64_t total4, int64_t M4) {
    const int64_t stride = (int64_t)gridDim.x * P_THREADS;
    for (int64_t base = (int64_t)blockIdx.x * P_THREADS + threadIdx.x; base < total4;
         base += stride * P_UNROLL) {
        float4 v[P_UNROLL];
        float a[P_UNROLL];
        #pragma unroll
        for (int k = 0; k < P_UNROLL; ++k) {
            const int64_t i = base + k * stride;
            if (i < total4) {
                v[k] = __ldcs(B4 + i);
                a[k] = __ldg(A + i / M4);
            }
        }
        #pragma unroll
        for (int k = 0; k < P_UNROLL; ++k) {
            const int64_t i = base + k * stride;
            if (i < total4) {
                float4 r;
                r.x = v[k].x * a[k]; r.y = v[k].y * a[k];
                r.z = v[k].z * a[k]; r.w = v[k].w * a[k];
                __stcs(C4 + i, r);
            }
        }
    }
}

// Scalar grid-stride fallback for odd widths or unaligned storage.
__global__ void diag_matmul_persistent_scalar(const float* __restrict__ A, const float* __restrict__ B,
                                              float* __restrict__ C, int64_t total, int64_t M) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride)
        C[i] = __ldg(A + i / M) * __ldg(B + i);
}

torch::Tensor diag_matmul_persistent_cuda(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 1 && B.dim() == 2, "A must be (N,), B must be (N, M)");
    TORCH_CHECK(A.size(0) == B.size(0), "size mismatch");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    auto a = A.contiguous();
    auto b = B.contiguous();
    const int64_t N = b.size(0), M = b.size(1);
    auto out = torch::empty({N, M}, b.options());
    const int64_t total = N * M;
    if (total == 0) return out;

    int dev = 0, sms = 132, max_threads_sm = 2048;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaDeviceGetAttribute(&max_threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    const int64_t resident = (int64_t)sms * (max_threads_sm / P_THREADS);

    const float* bp = b.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool vec = (M % 4 == 0) &&
                     ((reinterpret_cast<uintptr_t>(bp) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(op) & 15) == 0);
    if (vec) {
        const int64_t total4 = total / 4;
        int64_t blocks = (total4 + (int64_t)P_THREADS * P_UNROLL - 1) / ((int64_t)P_THREADS * P_UNROLL);
        if (blocks > resident) blocks = resident;
        if (blocks < 1) blocks = 1;
        diag_matmul_persistent_vec4<<<(unsigned int)blocks, P_THREADS>>>(
            a.data_ptr<float>(), reinterpret_cast<const float4*>(bp), reinterpret_cast<float4*>(op), total4, M / 4);
    } else {
        int64_t blocks = (total + P_THREADS - 1) / P_THREADS;
        if (blocks > resident) blocks = resident;
        diag_matmul_persistent_scalar<<<(unsigned int)blocks, P_THREADS>>>(a.data_ptr<float>(), bp, op, total, M);
    }
    return out;
}
"""

diag_persist = load_inline(
    name="diag_matmul_persistent_float4_streaming",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["diag_matmul_persistent_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return diag_persist.diag_matmul_persistent_cuda(A, B)
