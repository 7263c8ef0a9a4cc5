# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor transpose_add_symmetric(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

#define TILE 32
#define BLOCK_ROWS 8

// x + x^T is symmetric: one block handles the tile pair (a, b) and (b, a) with b <= a.
// It loads P = x[tile a rows, tile b cols] and Q = x[tile b rows, tile a cols] once each and writes
//   y(a, b) = P + Q^T   and   y(b, a) = Q + P^T,
// so every input element is read exactly once from global memory.
__global__ void transpose_add_sym_kernel(const float* __restrict__ x, float* __restrict__ y, int N) {
    __shared__ float P[TILE][TILE + 1];
    __shared__ float Q[TILE][TILE + 1];

    // Decode lower-triangular pair index p = a*(a+1)/2 + b, 0 <= b <= a.
    const long long p = blockIdx.x;
    long long a = (long long)((sqrt(8.0 * (double)p + 1.0) - 1.0) * 0.5);
    while (a * (a + 1) / 2 > p) --a;
    while ((a + 1) * (a + 2) / 2 <= p) ++a;
    const long long b = p - a * (a + 1) / 2;
    const bool diag = (a == b);

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int rowA = (int)a * TILE;   // row offset of tile a
    const int rowB = (int)b * TILE;   // row offset of tile b

    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        int pr = rowA + r, pc = rowB + tx;          // P[r][tx] = x[rowA + r][rowB + tx]
        P[r][tx] = (pr < N && pc < N) ? x[(long long)pr * N + pc] : 0.0f;
        if (!diag) {
            int qr = rowB + r, qc = rowA + tx;      // Q[r][tx] = x[rowB + r][rowA + tx]
            Q[r][tx] = (qr < N && qc < N) ? x[(long long)qr * N + qc] : 0.0f;
        }
    }
    __syncthreads();

    float (*Qs)[TILE + 1] = diag ? P : Q;

    // y[rowA + r][rowB + tx] = P[r][tx] + x[rowB + tx][rowA + r] = P[r][tx] + Q[tx][r]
    for (int r = ty; r < TILE; r += BLOCK_ROWS) {
        int i = rowA + r, j = rowB + tx;
        if (i < N && j < N) y[(long long)i * N + j] = P[r][tx] + Qs[tx][r];
    }
    if (!diag) {
        // y[rowB + r][rowA + tx] = Q[r][tx] + x[rowA + tx][rowB + r] = Q[r][tx] + P[tx][r]
        for (int r = ty; r < TILE; r += BLOCK_ROWS) {
            int i = rowB + r, j = rowA + tx;
            if (i < N && j < N) y[(long long)i * N + j] = Q[r][tx] + P[tx][r];
        }
    }
}

torch::Tensor transpose_add_symmetric(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2 && x.size(0) == x.size(1), "x must be square");
    x = x.contiguous();
    const int N = (int)x.size(0);
    auto y = torch::empty_like(x);
    if (N == 0) return y;
    const long long T = (N + TILE - 1) / TILE;
    const long long pairs = T * (T + 1) / 2;
    TORCH_CHECK(pairs < 2147483647LL, "too many tiles");
    transpose_add_sym_kernel<<<(unsigned int)pairs, dim3(TILE, BLOCK_ROWS)>>>(x.data_ptr<float>(), y.data_ptr<float>(), N);
    return y;
}
"""

module = load_inline(
    name="transpose_add_symmetric_pairs",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["transpose_add_symmetric"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return module.transpose_add_symmetric(x)
