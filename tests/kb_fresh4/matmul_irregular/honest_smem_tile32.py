# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mmi_tile32_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define TILE 32

// Shared-memory tiling with 32x32 tiles and one output per thread.  The sizes
// (4101 x 2949 x 3007) are multiples of no tile, so every element staged into shared
// memory is bounds-checked (zero-filled outside A / B) and every store is guarded.
__global__ void __launch_bounds__(TILE * TILE)
mmi_tile32_kernel(const float* __restrict__ A,
                   const float* __restrict__ B,
                   float* __restrict__ C,
                   int M, int K, int N)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        const int ka = k0 + tx;
        const int kb = k0 + ty;
        As[ty][tx] = (row < M && ka < K) ? A[(size_t)row * K + ka] : 0.0f;
        Bs[ty][tx] = (kb < K && col < N) ? B[(size_t)kb * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE; ++kk) {
            acc = fmaf(As[ty][kk], Bs[kk][tx], acc);
        }
        __syncthreads();
    }
    if (row < M && col < N) {
        C[(size_t)row * N + col] = acc;
    }
}

torch::Tensor mmi_tile32_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "A and B must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "A and B must be float32");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "expected A of shape (M, K) and B of shape (K, N)");
    TORCH_CHECK(A.size(1) == B.size(0), "inner dimensions must match");
    TORCH_CHECK(A.device() == B.device(), "A and B must be on the same device");
    A = A.contiguous();
    B = B.contiguous();
    const int M = (int)A.size(0), K = (int)A.size(1), N = (int)B.size(1);
    auto C = torch::empty({M, N}, A.options());
    if (C.numel() == 0) return C;

    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    mmi_tile32_kernel<<<grid, block, 0, stream>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return C;
}
"""

mmi_tile32_cpp_source = "torch::Tensor mmi_tile32_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle);"

mmi_tile32 = load_inline(
    name="mmi_honest_smem_tile32",
    cpp_sources=mmi_tile32_cpp_source,
    cuda_sources=mmi_tile32_source,
    functions=["mmi_tile32_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        stream = torch.cuda.current_stream(A.device).cuda_stream
        return mmi_tile32.mmi_tile32_cuda(A.contiguous(), B.contiguous(), stream)
