# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor transpose_add_persistent(torch::Tensor x, int64_t stream);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <math.h>

#define TS 32          // tile edge
#define NT 256         // threads per block: 32 rows x 8 float4 columns

__device__ __forceinline__ void decode_pair(long long p, int& a, int& b) {
    // p = a*(a+1)/2 + b with 0 <= b <= a
    long long aa = (long long)((sqrt(8.0 * (double)p + 1.0) - 1.0) * 0.5);
    while (aa * (aa + 1) / 2 > p) --aa;
    while ((aa + 1) * (aa + 2) / 2 <= p) ++aa;
    a = (int)aa;
    b = (int)(p - aa * (aa + 1) / 2);
}

// Persistent grid-stride kernel over symmetric tile pairs (a, b), b <= a.
// Each thread loads one float4 of P = x[a-tile rows, b-tile cols] and one of Q = x[b-tile rows, a-tile cols]
// (kept in registers and also staged in padded shared memory), then writes
//   y(a, b) = P + Q^T  and  y(b, a) = Q + P^T  with float4 stores.
// Every element of x is read once and every element of y written once.
// Requires N % 4 == 0 and 16-byte aligned pointers (checked on the host).
__global__ void __launch_bounds__(NT) transpose_add_persistent_kernel(const float* __restrict__ x,
                                                                      float* __restrict__ y,
                                                                      int N, long long pairs) {
    __shared__ float P[TS][TS + 1];
    __shared__ float Q[TS][TS + 1];
    const int t = threadIdx.x;
    const int r = t >> 3;          // row inside the tile 0..31
    const int c = (t & 7) * 4;     // first column of this thread's float4 0..28

    for (long long p = blockIdx.x; p < pairs; p += gridDim.x) {
        int a, b;
        decode_pair(p, a, b);
        const bool diag = (a == b);
        const int rowA = a * TS;
        const int rowB = b * TS;

        float4 vP = make_float4(0.f, 0.f, 0.f, 0.f);
        float4 vQ = make_float4(0.f, 0.f, 0.f, 0.f);
        const bool okP = (rowA + r < N) && (rowB + c < N);
        const bool okQ = (rowB + r < N) && (rowA + c < N);
        if (okP) vP = __ldg(reinterpret_cast<const float4*>(x + (long long)(rowA + r) * N + rowB + c));
        if (!diag && okQ) vQ = __ldg(reinterpret_cast<const float4*>(x + (long long)(rowB + r) * N + rowA + c));

        P[r][c + 0] = vP.x; P[r][c + 1] = vP.y; P[r][c + 2] = vP.z; P[r][c + 3] = vP.w;
        if (!diag) {
            Q[r][c + 0] = vQ.x; Q[r][c + 1] = vQ.y; Q[r][c + 2] = vQ.z; Q[r][c + 3] = vQ.w;
        }
        __syncthreads();

        float (*Qs)[TS + 1] = diag ? P : Q;
        if (okP) {
            // y[rowA + r][rowB + c + q] = P[r][c + q] + x[rowB + c + q][rowA + r] = vP.q + Q[c + q][r]
            float4 o;
            o.x = vP.x + Qs[c + 0][r];
            o.y = vP.y + Qs[c + 1][r];
            o.z = vP.z + Qs[c + 2][r];
            o.w = vP.w + Qs[c + 3][r];
            *reinterpret_cast<float4*>(y + (long long)(rowA + r) * N + rowB + c) = o;
        }
        if (!diag && okQ) {
            // y[rowB + r][rowA + c + q] = Q[r][c + q] + x[rowA + c + q][rowB + r] = vQ.q + P[c + q][r]
            float4 o;
            o.x = vQ.x + P[c + 0][r];
            o.y = vQ.y + P[c + 1][r];
            o.z = vQ.z + P[c + 2][r];
            o.w = vQ.w + P[c + 3][r];
            *reinterpret_cast<float4*>(y + (long long)(rowB + r) * N + rowA + c) = o;
        }
        __syncthreads();   // shared tiles are reused by the next pair
    }
}

// Scalar fallback (N % 4 != 0 or unaligned): 32x32 padded-tile transpose-add, one tile per block.
__global__ void transpose_add_scalar_kernel(const float* __restrict__ x, float* __restrict__ y, int N) {
    __shared__ float tile[TS][TS + 1];
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;   // 32 x 8
    const int src_col = blockIdx.y * TS + tx;
    for (int rr = ty; rr < TS; rr += 8) {
        int src_row = blockIdx.x * TS + rr;
        if (src_row < N && src_col < N) tile[rr][tx] = x[(long long)src_row * N + src_col];
    }
    __syncthreads();
    const int j = blockIdx.x * TS + tx;
    for (int rr = ty; rr < TS; rr += 8) {
        int i = blockIdx.y * TS + rr;
        if (i < N && j < N) {
            long long o = (long long)i * N + j;
            y[o] = x[o] + tile[tx][rr];
        }
    }
}

torch::Tensor transpose_add_persistent(torch::Tensor x, int64_t stream) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2 && x.size(0) == x.size(1), "x must be square");
    x = x.contiguous();
    const int N = (int)x.size(0);
    auto y = torch::empty_like(x);
    if (N == 0) return y;
    cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
    const float* px = x.data_ptr<float>();
    float* py = y.data_ptr<float>();
    const bool aligned = ((reinterpret_cast<uintptr_t>(px) | reinterpret_cast<uintptr_t>(py)) & 15) == 0;

    if (aligned && (N % 4 == 0)) {
        const long long T = (N + TS - 1) / TS;
        const long long pairs = T * (T + 1) / 2;
        int dev = 0, sms = 0, per_sm = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, transpose_add_persistent_kernel, NT, 0);
        if (sms <= 0) sms = 1;
        if (per_sm <= 0) per_sm = 1;
        long long grid = (long long)sms * per_sm;
        if (grid > pairs) grid = pairs;
        transpose_add_persistent_kernel<<<(unsigned int)grid, NT, 0, s>>>(px, py, N, pairs);
    } else {
        const int tiles = (N + TS - 1) / TS;
        TORCH_CHECK(tiles <= 65535, "matrix too large for 2D grid");
        transpose_add_scalar_kernel<<<dim3(tiles, tiles), 256, 0, s>>>(px, py, N);
    }
    return y;
}
"""

module = load_inline(
    name="transpose_add_persistent_symmetric_vec4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["transpose_add_persistent"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return module.transpose_add_persistent(x, stream)
