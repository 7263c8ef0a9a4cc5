# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor gemm_sigmoid_sum_128(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, int64_t stream);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 8
#define PAD 4          // row stride BM+4 keeps float4 alignment and makes the transposed stores conflict-free
#define NTHREADS 256   // 16 x 16 threads, 8x8 outputs each

__device__ __forceinline__ float sigmoidf_(float z) { return 1.0f / (1.0f + __expf(-z)); }

// Fast path: 128x128x8 block tile, 8x8 register micro-tile per thread (split as two 4-wide halves so the
// shared-memory reads are float4 and bank-conflict free), float4 global loads, double-buffered shared memory
// with register prefetch of the next K slice, and a fused bias + sigmoid + row-sum epilogue
// (16-lane shuffle reduction, one atomicAdd per row per block).
// Requires M % 128 == 0, N % 128 == 0, K % 8 == 0 and 16-byte aligned x / W (checked on the host).
__global__ void __launch_bounds__(NTHREADS) gemm_sigmoid_sum_128_kernel(
        const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
        float* __restrict__ out, int M, int N, int K) {
    __shared__ __align__(16) float As[2][BK][BM + PAD];   // As[buf][k][m]
    __shared__ __align__(16) float Bs[2][BK][BN + PAD];   // Bs[buf][k][n]

    const int tid = threadIdx.x;
    const int tx = tid & 15;
    const int ty = tid >> 4;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;

    // global -> shared mapping: one float4 of A and one of B per thread per K slice
    const int lr = tid >> 1;          // 0..127
    const int lc = (tid & 1) * 4;     // 0 or 4
    const float* xa = x + (long long)(m0 + lr) * K + lc;
    const float* wb = w + (long long)(n0 + lr) * K + lc;

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

    float4 ra = __ldg(reinterpret_cast<const float4*>(xa));
    float4 rb = __ldg(reinterpret_cast<const float4*>(wb));
    As[0][lc + 0][lr] = ra.x; As[0][lc + 1][lr] = ra.y; As[0][lc + 2][lr] = ra.z; As[0][lc + 3][lr] = ra.w;
    Bs[0][lc + 0][lr] = rb.x; Bs[0][lc + 1][lr] = rb.y; Bs[0][lc + 2][lr] = rb.z; Bs[0][lc + 3][lr] = rb.w;
    __syncthreads();

    const int numK = K / BK;
    for (int kt = 0; kt < numK; ++kt) {
        const int cur = kt & 1;
        const bool has_next = (kt + 1) < numK;
        if (has_next) {
            ra = __ldg(reinterpret_cast<const float4*>(xa + (kt + 1) * BK));
            rb = __ldg(reinterpret_cast<const float4*>(wb + (kt + 1) * BK));
        }
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][kk][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][kk][64 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][kk][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][kk][64 + tx * 4]);
            const float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
        if (has_next) {
            const int nxt = cur ^ 1;
            As[nxt][lc + 0][lr] = ra.x; As[nxt][lc + 1][lr] = ra.y; As[nxt][lc + 2][lr] = ra.z; As[nxt][lc + 3][lr] = ra.w;
            Bs[nxt][lc + 0][lr] = rb.x; Bs[nxt][lc + 1][lr] = rb.y; Bs[nxt][lc + 2][lr] = rb.z; Bs[nxt][lc + 3][lr] = rb.w;
        }
        __syncthreads();
    }

    // epilogue: column j of the micro-tile is n0 + (j < 4 ? tx*4 + j : 64 + tx*4 + j - 4)
    float bias[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) bias[j] = __ldg(b + n0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + (j - 4)));
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        float s = 0.0f;
#pragma unroll
        for (int j = 0; j < 8; ++j) s += sigmoidf_(acc[i][j] + bias[j]);
        // a warp holds ty = 2w (lanes 0..15) and ty = 2w+1 (lanes 16..31): reduce within each 16-lane half
#pragma unroll
        for (int off = 8; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
        const int row = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + (i - 4));
        if (tx == 0) atomicAdd(out + row, s);
    }
}

// Generic fallback (any shape / alignment): 32x32 tile, 32x8 threads, 4 rows per thread, fused epilogue.
__global__ void __launch_bounds__(256) gemm_sigmoid_sum_generic_kernel(
        const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
        float* __restrict__ out, int M, int N, int K) {
    __shared__ float As_[32][33];
    __shared__ float Bs_[32][33];
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
    const int m0 = blockIdx.y * 32, n0 = blockIdx.x * 32;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k0 = 0; k0 < K; k0 += 32) {
        const int k = k0 + tx;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int r = ty + 8 * i;
            As_[r][tx] = (m0 + r < M && k < K) ? x[(long long)(m0 + r) * K + k] : 0.0f;
            Bs_[r][tx] = (n0 + r < N && k < K) ? w[(long long)(n0 + r) * K + k] : 0.0f;
        }
        __syncthreads();
        for (int kk = 0; kk < 32; ++kk) {
            const float bv = Bs_[tx][kk];
#pragma unroll
            for (int i = 0; i < 4; ++i) acc[i] += As_[ty + 8 * i][kk] * bv;
        }
        __syncthreads();
    }
    const int col = n0 + tx;
    const float bias = (col < N) ? b[col] : 0.0f;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        float v = (col < N) ? sigmoidf_(acc[i] + bias) : 0.0f;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
        const int row = m0 + ty + 8 * i;
        if (tx == 0 && row < M) atomicAdd(out + row, v);
    }
}

torch::Tensor gemm_sigmoid_sum_128(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, int64_t stream) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32 &&
                bias.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && weight.size(1) == x.size(1), "shape mismatch");
    TORCH_CHECK(bias.numel() == weight.size(0), "bias size mismatch");
    x = x.contiguous();
    weight = weight.contiguous();
    bias = bias.contiguous();
    const int M = (int)x.size(0);
    const int K = (int)x.size(1);
    const int N = (int)weight.size(0);
    cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
    auto out = torch::empty({M, 1}, x.options());
    if (M == 0) return out;
    cudaMemsetAsync(out.data_ptr<float>(), 0, sizeof(float) * (size_t)M, s);
    if (N == 0) return out;

    const float* px = x.data_ptr<float>();
    const float* pw = weight.data_ptr<float>();
    const float* pb = bias.data_ptr<float>();
    float* po = out.data_ptr<float>();
    const bool aligned = ((reinterpret_cast<uintptr_t>(px) | reinterpret_cast<uintptr_t>(pw)) & 15) == 0;
    if (aligned && M % BM == 0 && N % BN == 0 && K % BK == 0 && K > 0 && M / BM <= 65535) {
        dim3 grid(N / BN, M / BM);
        gemm_sigmoid_sum_128_kernel<<<grid, NTHREADS, 0, s>>>(px, pw, pb, po, M, N, K);
    } else {
        dim3 grid((N + 31) / 32, (M + 31) / 32);
        TORCH_CHECK(grid.y <= 65535, "batch too large");
        gemm_sigmoid_sum_generic_kernel<<<grid, 256, 0, s>>>(px, pw, pb, po, M, N, K);
    }
    return out;
}
"""

module = load_inline(
    name="gemm_sigmoid_sum_regblock128_float4_dbuf",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gemm_sigmoid_sum_128"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return module.gemm_sigmoid_sum_128(x, self.linear.weight, self.linear.bias, stream)
