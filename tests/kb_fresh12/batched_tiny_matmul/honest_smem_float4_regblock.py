# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor tiny_bmm_cuda(torch::Tensor a, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Shared-memory tile of 32 matrices per 256-thread block, staged with coalesced float4
// loads (A rows padded to 20 floats so the float4 row reads are bank-conflict free).
// Register blocking: each thread computes a 2x4 output block (rows r and r+4, columns
// 4h..4h+3) from float4 shared-memory reads, then stores two float4; the stores of the
// 8 threads of a matrix are contiguous. Other shapes / misaligned pointers use a generic kernel.

#define MATS 32
#define THREADS 256
#define A_ROW_STRIDE 20                  // 16 + 4 padding (floats)
#define A_MAT_STRIDE (8 * A_ROW_STRIDE)  // 160 floats
#define B_MAT_STRIDE 128                 // 16 x 8, unpadded

__global__ void __launch_bounds__(THREADS)
bmm_smem_regblock_kernel(const float4* __restrict__ a4,
                         const float4* __restrict__ b4,
                         float4* __restrict__ c4,
                         long long batch) {
    __shared__ __align__(16) float sA[MATS * A_MAT_STRIDE];
    __shared__ __align__(16) float sB[MATS * B_MAT_STRIDE];
    const int tid = threadIdx.x;
    const long long m0 = (long long)blockIdx.x * MATS;
    const long long rem = batch - m0;
    const int cnt = rem < MATS ? (int)rem : MATS;
    const int nvec = cnt * 32;   // float4 per operand for the valid matrices
    const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);

    // Stage A: 32 matrices x 32 float4. float4 f -> matrix f/32, row (f/4)%8, quarter f%4.
    #pragma unroll
    for (int it = 0; it < (MATS * 32) / THREADS; ++it) {
        const int f = it * THREADS + tid;
        const float4 v = (f < nvec) ? __ldg(a4 + m0 * 32 + f) : zero;
        const int mm = f >> 5, row = (f >> 2) & 7, q = f & 3;
        *reinterpret_cast<float4*>(&sA[mm * A_MAT_STRIDE + row * A_ROW_STRIDE + q * 4]) = v;
    }
    // Stage B: same layout as global.
    #pragma unroll
    for (int it = 0; it < (MATS * 32) / THREADS; ++it) {
        const int f = it * THREADS + tid;
        const float4 v = (f < nvec) ? __ldg(b4 + m0 * 32 + f) : zero;
        reinterpret_cast<float4*>(sB)[f] = v;
    }
    __syncthreads();

    const int m = tid >> 3;      // matrix within tile (8 threads each)
    const int s = tid & 7;
    const int r = s >> 1;        // rows r and r + 4
    const int h = s & 1;         // columns 4h .. 4h+3
    const float* sa0 = sA + m * A_MAT_STRIDE + r * A_ROW_STRIDE;
    const float* sa1 = sa0 + 4 * A_ROW_STRIDE;
    const float* sb = sB + m * B_MAT_STRIDE + h * 4;

    float4 acc0 = zero, acc1 = zero;
    #pragma unroll
    for (int kq = 0; kq < 4; ++kq) {
        const float4 x0 = *reinterpret_cast<const float4*>(sa0 + kq * 4);
        const float4 x1 = *reinterpret_cast<const float4*>(sa1 + kq * 4);
        const float xa0[4] = {x0.x, x0.y, x0.z, x0.w};
        const float xa1[4] = {x1.x, x1.y, x1.z, x1.w};
        #pragma unroll
        for (int kk = 0; kk < 4; ++kk) {
            const float4 bv = *reinterpret_cast<const float4*>(sb + (kq * 4 + kk) * 8);
            acc0.x += xa0[kk] * bv.x; acc0.y += xa0[kk] * bv.y;
            acc0.z += xa0[kk] * bv.z; acc0.w += xa0[kk] * bv.w;
            acc1.x += xa1[kk] * bv.x; acc1.y += xa1[kk] * bv.y;
            acc1.z += xa1[kk] * bv.z; acc1.w += xa1[kk] * bv.w;
        }
    }
    if (m < cnt) {
        // C[m] = 8 rows x 2 float4; row r, half h -> index 2r + h == s; row r+4 -> 8 + s.
        float4* cm = c4 + (m0 + m) * 16;
        cm[s] = acc0;
        cm[8 + s] = acc1;
    }
}

__global__ void bmm_generic_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                   float* __restrict__ c, long long total, int M, int K, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    long long mn = (long long)M * N;
    long long bi = idx / mn;
    int r = (int)(idx - bi * mn);
    int i = r / N, j = r - (r / N) * N;
    const float* ap = a + bi * M * K + (long long)i * K;
    const float* bp = b + bi * K * N + j;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += ap[k] * bp[(long long)k * N];
    c[idx] = acc;
}

torch::Tensor tiny_bmm_cuda(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(a.dim() == 3 && b.dim() == 3, "inputs must be 3-D");
    TORCH_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1), "shape mismatch");
    auto ac = a.contiguous();
    auto bc = b.contiguous();
    long long batch = ac.size(0);
    int M = (int)ac.size(1), K = (int)ac.size(2), N = (int)bc.size(2);
    auto out = torch::empty({batch, (long long)M, (long long)N}, ac.options());
    long long total = batch * M * N;
    if (total == 0) return out;
    const float* ap = ac.data_ptr<float>();
    const float* bp = bc.data_ptr<float>();
    float* cp = out.data_ptr<float>();
    bool aligned = ((reinterpret_cast<uintptr_t>(ap) | reinterpret_cast<uintptr_t>(bp) |
                     reinterpret_cast<uintptr_t>(cp)) & 15) == 0;
    if (M == 8 && K == 16 && N == 8 && aligned) {
        long long blocks = (batch + MATS - 1) / MATS;
        bmm_smem_regblock_kernel<<<(unsigned int)blocks, THREADS>>>(
            reinterpret_cast<const float4*>(ap), reinterpret_cast<const float4*>(bp),
            reinterpret_cast<float4*>(cp), batch);
    } else {
        const int threads = 256;
        long long blocks = (total + threads - 1) / threads;
        bmm_generic_kernel<<<(unsigned int)blocks, threads>>>(ap, bp, cp, total, M, K, N);
    }
    return out;
}
"""

bmm_mod = load_inline(
    name="s46_tinybmm_smem_float4_regblock",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["tiny_bmm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return bmm_mod.tiny_bmm_cuda(a, b)
