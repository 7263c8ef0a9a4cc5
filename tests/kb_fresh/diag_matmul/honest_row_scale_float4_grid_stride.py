# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// diag(A) @ B == A[:, None] * B. Memory-bound: read B once, write C once, using 128-bit
// vector accesses and a grid-stride loop sized to the number of SMs.
__global__ void diag_scale_vec4_kernel(const float* __restrict__ A, const float4* __restrict__ B4,
                                       float4* __restrict__ C4, long long total_vec, int M_vec) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < total_vec; v += stride) {
        const int row = (int)(v / M_vec);     // M % 4 == 0, so a float4 never straddles two rows
        const float s = __ldg(A + row);
        float4 b = __ldg(B4 + v);
        b.x *= s; b.y *= s; b.z *= s; b.w *= s;
        C4[v] = b;
    }
}

// Scalar path for row lengths that are not a multiple of 4.
__global__ void diag_scale_scalar_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                         float* __restrict__ C, long long total, int M) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        C[i] = __ldg(A + i / M) * __ldg(B + i);
    }
}

torch::Tensor diag_scale(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 1 && B.dim() == 2 && A.size(0) == B.size(0), "shape mismatch");
    const int N = B.size(0), M = B.size(1);
    auto C = torch::empty({N, M}, B.options());
    const long long total = (long long)N * M;
    if (total == 0) return C;

    const int threads = 256;
    const int num_sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    const bool aligned = (M % 4 == 0) &&
                         (reinterpret_cast<uintptr_t>(B.data_ptr<float>()) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(C.data_ptr<float>()) % 16 == 0);
    if (aligned) {
        const long long total_vec = total / 4;
        long long blocks = (total_vec + threads - 1) / threads;
        blocks = std::min<long long>(blocks, (long long)num_sms * 8);
        diag_scale_vec4_kernel<<<(int)blocks, threads, 0, stream>>>(
            A.data_ptr<float>(), reinterpret_cast<const float4*>(B.data_ptr<float>()),
            reinterpret_cast<float4*>(C.data_ptr<float>()), total_vec, M / 4);
    } else {
        long long blocks = (total + threads - 1) / threads;
        blocks = std::min<long long>(blocks, (long long)num_sms * 8);
        diag_scale_scalar_kernel<<<(int)blocks, threads, 0, stream>>>(
            A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), total, M);
    }
    AT_CUDA_CHECK(cudaGetLastError());
    return C;
}
"""

cpp_source = "torch::Tensor diag_scale(torch::Tensor A, torch::Tensor B);"

diag_scale_ext = load_inline(
    name="diag_row_scale_float4_grid_stride",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["diag_scale"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return diag_scale_ext.diag_scale(A.contiguous(), B.contiguous())
