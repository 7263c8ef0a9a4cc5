# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_outer_smem_tile(torch::Tensor a, torch::Tensor b);"

cuda_src = r'''
#include <cuda_runtime.h>

#define TILE 32
#define ROWS_PER_PASS 8

// Grid (ceil(N/32), ceil(M/32), B); block (32, 8). The 32 a values and 32 b values
// of the tile are staged in shared memory, then each thread writes 4 rows of the tile.
__global__ void outer_smem_tile_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                       float* __restrict__ out, int M, int N) {
    __shared__ float sA[TILE];
    __shared__ float sB[TILE];
    const int bb = blockIdx.z;
    const int i0 = blockIdx.y * TILE;
    const int j0 = blockIdx.x * TILE;
    const int tx = threadIdx.x, ty = threadIdx.y;

    if (ty == 0) {
        int j = j0 + tx;
        sB[tx] = (j < N) ? b[(long long)bb * N + j] : 0.0f;
    } else if (ty == 1) {
        int i = i0 + tx;
        sA[tx] = (i < M) ? a[(long long)bb * M + i] : 0.0f;
    }
    __syncthreads();

    const int j = j0 + tx;
    if (j >= N) return;
    const float bv = sB[tx];
    #pragma unroll
    for (int r = ty; r < TILE; r += ROWS_PER_PASS) {
        int i = i0 + r;
        if (i < M) {
            out[((long long)bb * M + i) * N + j] = sA[r] * bv;
        }
    }
}

torch::Tensor batched_outer_smem_tile(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(0) == b.size(0), "expected a (B,M), b (B,N)");
    a = a.contiguous();
    b = b.contiguous();
    long long B = a.size(0), M = a.size(1), N = b.size(1);
    TORCH_CHECK(B <= 65535, "batch too large for gridDim.z");
    auto out = torch::empty({B, M, N}, a.options());
    if (B == 0 || M == 0 || N == 0) return out;
    dim3 block(TILE, ROWS_PER_PASS);
    dim3 grid((unsigned)((N + TILE - 1) / TILE), (unsigned)((M + TILE - 1) / TILE), (unsigned)B);
    outer_smem_tile_kernel<<<grid, block>>>(a.data_ptr<float>(), b.data_ptr<float>(),
                                            out.data_ptr<float>(), (int)M, (int)N);
    return out;
}
'''

batched_outer_smem_tile_mod = load_inline(
    name="batched_outer_smem_tile_3d",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_outer_smem_tile"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return batched_outer_smem_tile_mod.batched_outer_smem_tile(a, b)
