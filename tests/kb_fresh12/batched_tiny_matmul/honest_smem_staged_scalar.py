# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor tiny_bmm_cuda(torch::Tensor a, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Shared-memory staging: a 256-thread block owns 4 consecutive matrices. The block copies
// their A and B (contiguous in memory) into shared memory with coalesced scalar loads,
// synchronises, and then each thread computes one output element from shared memory and
// writes it with a coalesced store. Other shapes fall back to a generic kernel.

#define MATS_PER_BLOCK 4
#define TM 8
#define TK 16
#define TN 8
#define THREADS (MATS_PER_BLOCK * TM * TN)   // 256

__global__ void bmm_smem_kernel(const float* __restrict__ a,
                                const float* __restrict__ b,
                                float* __restrict__ c,
                                long long batch) {
    __shared__ float sA[MATS_PER_BLOCK * TM * TK];
    __shared__ float sB[MATS_PER_BLOCK * TK * TN];
    const int tid = threadIdx.x;
    const long long m0 = (long long)blockIdx.x * MATS_PER_BLOCK;
    long long rem = batch - m0;
    const int cnt = rem < MATS_PER_BLOCK ? (int)rem : MATS_PER_BLOCK;

    const float* ab = a + m0 * (TM * TK);
    const float* bb = b + m0 * (TK * TN);
    const int a_elems = cnt * TM * TK;
    const int b_elems = cnt * TK * TN;
    for (int e = tid; e < MATS_PER_BLOCK * TM * TK; e += THREADS)
        sA[e] = (e < a_elems) ? ab[e] : 0.0f;
    for (int e = tid; e < MATS_PER_BLOCK * TK * TN; e += THREADS)
        sB[e] = (e < b_elems) ? bb[e] : 0.0f;
    __syncthreads();

    const int m = tid / (TM * TN);
    const int r = tid % (TM * TN);
    const int i = r / TN;
    const int j = r % TN;
    const float* sa = sA + m * (TM * TK) + i * TK;
    const float* sb = sB + m * (TK * TN) + j;
    float acc = 0.0f;
    #pragma unroll
    for (int k = 0; k < TK; ++k) acc += sa[k] * sb[k * TN];
    if (m < cnt) c[m0 * (TM * TN) + tid] = acc;
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
    if (M == TM && K == TK && N == TN) {
        long long blocks = (batch + MATS_PER_BLOCK - 1) / MATS_PER_BLOCK;
        bmm_smem_kernel<<<(unsigned int)blocks, THREADS>>>(
            ac.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), batch);
    } else {
        const int threads = 256;
        long long blocks = (total + threads - 1) / threads;
        bmm_generic_kernel<<<(unsigned int)blocks, threads>>>(
            ac.data_ptr<float>(), bc.data_ptr<float>(), out.data_ptr<float>(), total, M, K, N);
    }
    return out;
}
"""

bmm_mod = load_inline(
    name="s46_tinybmm_smem_staged_scalar",
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
