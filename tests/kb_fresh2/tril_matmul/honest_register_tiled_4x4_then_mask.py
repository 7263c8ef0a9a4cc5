# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
// 16 x 16 = 256 threads per block, each thread computes a 4x4 micro-tile
// (rows ty + 16*i, cols tx + 16*j) so that global stores stay coalesced.

__global__ void __launch_bounds__(256) sgemm_64x64_kernel(const float* __restrict__ A,
                                                          const float* __restrict__ B,
                                                          float* __restrict__ C,
                                                          int N) {
    __shared__ float As[BM][BK + 1];
    __shared__ float Bs[BK][BN];

    const int tx = threadIdx.x;          // 0..15
    const int ty = threadIdx.y;          // 0..15
    const int tid = ty * 16 + tx;        // 0..255
    const int rowBase = blockIdx.y * BM;
    const int colBase = blockIdx.x * BN;

    float acc[TM][TN];
    #pragma unroll
    for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < N; k0 += BK) {
        // A tile: 64 x 16 = 1024 elements, 4 per thread
        #pragma unroll
        for (int l = 0; l < 4; ++l) {
            int e = tid + l * 256;
            int r = e / BK;
            int c = e % BK;
            int gr = rowBase + r, gc = k0 + c;
            As[r][c] = (gr < N && gc < N) ? A[(long long)gr * N + gc] : 0.0f;
        }
        // B tile: 16 x 64 = 1024 elements, 4 per thread
        #pragma unroll
        for (int l = 0; l < 4; ++l) {
            int e = tid + l * 256;
            int r = e / BN;
            int c = e % BN;
            int gr = k0 + r, gc = colBase + c;
            Bs[r][c] = (gr < N && gc < N) ? B[(long long)gr * N + gc] : 0.0f;
        }
        __syncthreads();

        #pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[TM], b[TN];
            #pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[ty + 16 * i][kk];
            #pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[kk][tx + 16 * j];
            #pragma unroll
            for (int i = 0; i < TM; ++i)
                #pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }

    #pragma unroll
    for (int i = 0; i < TM; ++i) {
        int r = rowBase + ty + 16 * i;
        if (r >= N) continue;
        #pragma unroll
        for (int j = 0; j < TN; ++j) {
            int c = colBase + tx + 16 * j;
            if (c < N) C[(long long)r * N + c] = acc[i][j];
        }
    }
}

// Second pass: zero out the strictly upper-triangular part in place.
__global__ void tril_mask_kernel(float* __restrict__ C, int N) {
    long long total = (long long)N * N;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        int r = (int)(idx / N);
        int c = (int)(idx % N);
        if (c > r) C[idx] = 0.0f;
    }
}

torch::Tensor matmul_tril_forward(torch::Tensor A, torch::Tensor B) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.dim() == 2 && A.size(0) == A.size(1) && B.sizes() == A.sizes(), "square inputs of equal size");
    const int N = A.size(0);
    auto C = torch::empty({N, N}, A.options());
    auto stream = at::cuda::getCurrentCUDAStream();

    dim3 block(16, 16);
    dim3 grid((N + BN - 1) / BN, (N + BM - 1) / BM);
    sgemm_64x64_kernel<<<grid, block, 0, stream>>>(
        A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), N);

    const int threads = 256;
    long long total = (long long)N * N;
    int blocks = (int)std::min<long long>((total + threads - 1) / threads, 65535LL);
    tril_mask_kernel<<<blocks, threads, 0, stream>>>(C.data_ptr<float>(), N);
    return C;
}
"""

cpp_source = "torch::Tensor matmul_tril_forward(torch::Tensor A, torch::Tensor B);"

matmul_tril_ext = load_inline(
    name="tril_matmul_register_tiled_4x4_mask",
    cpp_sources=cpp_source,
    cuda_sources=source,
    functions=["matmul_tril_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ext = matmul_tril_ext

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return self.ext.matmul_tril_forward(A.contiguous(), B.contiguous())
