# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_matvec_block(torch::Tensor a, torch::Tensor v);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define THREADS 256

// One block per output row: 256 threads stride over K (coalesced), then a
// classic shared-memory tree reduction with __syncthreads between levels.
__global__ void batched_matvec_block_kernel(const float* __restrict__ a,
                                            const float* __restrict__ v,
                                            float* __restrict__ out,
                                            int M, int K) {
    __shared__ float red[THREADS];
    const long long r = blockIdx.x;            // row index in [0, B*M)
    const int b = (int)(r / M);
    const float* row = a + (size_t)r * K;
    const float* vb = v + (size_t)b * K;
    float acc = 0.0f;
    for (int k = threadIdx.x; k < K; k += THREADS) acc = fmaf(row[k], vb[k], acc);
    red[threadIdx.x] = acc;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[r] = red[0];
}

torch::Tensor batched_matvec_block(torch::Tensor a, torch::Tensor v) {
    TORCH_CHECK(a.is_cuda() && v.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && v.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(a.dim() == 3 && v.dim() == 2, "a must be (B, M, K), v must be (B, K)");
    TORCH_CHECK(a.size(0) == v.size(0) && a.size(2) == v.size(1), "shape mismatch");
    auto ac = a.contiguous();
    auto vc = v.contiguous();
    const int B = (int)ac.size(0), M = (int)ac.size(1), K = (int)ac.size(2);
    auto out = torch::empty({B, M}, ac.options());
    const long long R = (long long)B * M;
    if (R == 0) return out;
    TORCH_CHECK(R <= 2147483647LL, "too many rows for a 1-D grid");
    batched_matvec_block_kernel<<<(unsigned)R, THREADS>>>(ac.data_ptr<float>(), vc.data_ptr<float>(),
                                                          out.data_ptr<float>(), M, K);
    return out;
}
"""

_mod = load_inline(
    name="batched_matvec_honest_block_smem_tree",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_matvec_block"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return _mod.batched_matvec_block(a, v)
