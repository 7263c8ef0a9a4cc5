# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

tmm_naive_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per output element C[n, m, l]; the batch index lives in blockIdx.z.
// threadIdx.x runs along L so the loads of B and the stores of C are coalesced,
// while every thread of a warp reads the same A element (a broadcast).
__global__ void tmm_naive_kernel(const float* __restrict__ A,
                                 const float* __restrict__ B,
                                 float* __restrict__ C,
                                 int M, int K, int L)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int n   = blockIdx.z;
    if (row >= M || col >= L) return;

    const float* a = A + ((size_t)n * M + row) * (size_t)K;
    const float* b = B + col;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
        acc = fmaf(a[k], b[(size_t)k * L], acc);
    }
    C[((size_t)n * M + row) * (size_t)L + col] = acc;
}

torch::Tensor tmm_naive_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "A and B must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "A and B must be float32");
    TORCH_CHECK(A.dim() == 3 && B.dim() == 2, "expected A of shape (N, M, K) and B of shape (K, L)");
    TORCH_CHECK(A.size(2) == B.size(0), "inner dimensions must match");
    TORCH_CHECK(A.device() == B.device(), "A and B must be on the same device");
    A = A.contiguous();
    B = B.contiguous();
    const int Nb = (int)A.size(0), M = (int)A.size(1), K = (int)A.size(2), L = (int)B.size(1);
    auto C = torch::empty({Nb, M, L}, A.options());
    if (C.numel() == 0) return C;

    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    dim3 block(32, 8);
    dim3 grid((L + block.x - 1) / block.x, (M + block.y - 1) / block.y, Nb);
    tmm_naive_kernel<<<grid, block, 0, stream>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, K, L);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return C;
}
"""

tmm_naive_cpp_source = "torch::Tensor tmm_naive_cuda(torch::Tensor A, torch::Tensor B, int64_t stream_handle);"

tmm_naive = load_inline(
    name="tmm_honest_naive_thread_per_output",
    cpp_sources=tmm_naive_cpp_source,
    cuda_sources=tmm_naive_source,
    functions=["tmm_naive_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        stream = torch.cuda.current_stream(A.device).cuda_stream
        return tmm_naive.tmm_naive_cuda(A.contiguous(), B.contiguous(), stream)
