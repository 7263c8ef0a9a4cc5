# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# No shared memory at all: a persistent grid (8 blocks per SM) of warps walks the
# output in 8-row x 128-column warp tiles with a grid-stride loop.  For each
# 32-wide K chunk a lane loads one A element per row (coalesced), and the A
# value for step kk is broadcast to the warp with __shfl_sync; B rows (only
# 64 x N, so they stay L2-resident) are streamed as float4 per lane.  Each lane
# accumulates an 8x4 block and writes it with streaming float4 stores.
shfl_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define ROWS 8                 // rows per warp tile
#define COLS 128               // columns per warp tile (4 per lane)
#define WPB 8                  // warps per block
#define NTHREADS (WPB * 32)

template <bool VEC>
__global__ void __launch_bounds__(NTHREADS)
matmul_shfl_persistent_kernel(const float* __restrict__ A, const float* __restrict__ B,
                              float* __restrict__ C, int M, int N, int K,
                              int tilesN, long long ntiles) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const long long nwarps = (long long)gridDim.x * WPB;

    for (long long tile = (long long)blockIdx.x * WPB + warp; tile < ntiles; tile += nwarps) {
        const int tm = (int)(tile / tilesN);
        const int tn = (int)(tile % tilesN);
        const int row0 = tm * ROWS;
        const int col = tn * COLS + lane * 4;

        float acc[ROWS][4];
#pragma unroll
        for (int r = 0; r < ROWS; ++r)
#pragma unroll
            for (int m = 0; m < 4; ++m) acc[r][m] = 0.0f;

        for (int kc = 0; kc < K; kc += 32) {
            float a[ROWS];
#pragma unroll
            for (int r = 0; r < ROWS; ++r) {
                int row = row0 + r;
                a[r] = (row < M && kc + lane < K) ? __ldg(A + (long long)row * K + kc + lane) : 0.0f;
            }
            const int kn = min(32, K - kc);       // warp-uniform
#pragma unroll 4
            for (int kk = 0; kk < kn; ++kk) {
                const float* brow = B + (long long)(kc + kk) * N;
                float b[4];
                if (VEC) {
                    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
                    if (col < N) v = __ldg(reinterpret_cast<const float4*>(brow + col));
                    b[0] = v.x; b[1] = v.y; b[2] = v.z; b[3] = v.w;
                } else {
#pragma unroll
                    for (int m = 0; m < 4; ++m) b[m] = (col + m < N) ? __ldg(brow + col + m) : 0.0f;
                }
#pragma unroll
                for (int r = 0; r < ROWS; ++r) {
                    float av = __shfl_sync(0xffffffffu, a[r], kk);
#pragma unroll
                    for (int m = 0; m < 4; ++m) acc[r][m] = fmaf(av, b[m], acc[r][m]);
                }
            }
        }

#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            int row = row0 + r;
            if (row >= M) continue;
            float* crow = C + (long long)row * N;
            if (VEC) {
                if (col < N)
                    __stcs(reinterpret_cast<float4*>(crow + col),
                           make_float4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]));
            } else {
#pragma unroll
                for (int m = 0; m < 4; ++m)
                    if (col + m < N) crow[col + m] = acc[r][m];
            }
        }
    }
}

torch::Tensor matmul_shfl(torch::Tensor A, torch::Tensor B, int64_t stream_ptr) {
    TORCH_CHECK(A.is_cuda() && B.is_cuda(), "CUDA tensors required");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && B.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2 && A.size(1) == B.size(0), "shape mismatch");
    A = A.contiguous();
    B = B.contiguous();
    const int M = A.size(0), K = A.size(1), N = B.size(1);
    auto C = torch::empty({M, N}, A.options());
    if (M == 0 || N == 0) return C;

    const float* ap = A.data_ptr<float>();
    const float* bp = B.data_ptr<float>();
    float* cp = C.data_ptr<float>();
    const bool vec = (N % 4 == 0) &&
                     ((reinterpret_cast<uintptr_t>(bp) | reinterpret_cast<uintptr_t>(cp)) & 15) == 0;

    const int tilesM = (M + ROWS - 1) / ROWS;
    const int tilesN = (N + COLS - 1) / COLS;
    const long long ntiles = (long long)tilesM * tilesN;

    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, A.get_device());
    if (sms <= 0) sms = 108;
    long long want = (ntiles + WPB - 1) / WPB;
    long long blocks = (long long)sms * 8;
    if (blocks > want) blocks = want;

    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    if (vec)
        matmul_shfl_persistent_kernel<true><<<(unsigned int)blocks, NTHREADS, 0, stream>>>(ap, bp, cp, M, N, K, tilesN, ntiles);
    else
        matmul_shfl_persistent_kernel<false><<<(unsigned int)blocks, NTHREADS, 0, stream>>>(ap, bp, cp, M, N, K, tilesN, ntiles);
    return C;
}
"""

shfl_cpp = "torch::Tensor matmul_shfl(torch::Tensor A, torch::Tensor B, int64_t stream_ptr);"

shfl_mod = load_inline(
    name="matmul_small_k_warp_shuffle_persistent",
    cpp_sources=shfl_cpp,
    cuda_sources=shfl_cuda,
    functions=["matmul_shfl"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return shfl_mod.matmul_shfl(A, B, torch.cuda.current_stream().cuda_stream)
