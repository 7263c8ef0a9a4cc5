# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor rope_cuda(torch::Tensor x, torch::Tensor cos_t, torch::Tensor sin_t);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Shared-memory table reuse: each block owns one sequence position s and a chunk of (batch*head) rows.
// It stages cos[s,:] and sin[s,:] in shared memory once, then sweeps its rows with coalesced scalar
// accesses, so the tables are read from global memory once per block instead of once per pair.

__global__ void rope_smem_kernel(const float* __restrict__ x, const float* __restrict__ cs,
                                 const float* __restrict__ sn, float* __restrict__ out,
                                 int BH, int S, int half, int rows_per_block) {
    extern __shared__ float tab[];
    float* c_s = tab;
    float* s_s = tab + half;
    const int s = blockIdx.x;
    for (int j = threadIdx.x; j < half; j += blockDim.x) {
        c_s[j] = cs[(long long)s * half + j];
        s_s[j] = sn[(long long)s * half + j];
    }
    __syncthreads();

    const int b0 = blockIdx.y * rows_per_block;
    int b1 = b0 + rows_per_block;
    if (b1 > BH) b1 = BH;
    if (b0 >= b1) return;
    const long long work = (long long)(b1 - b0) * half;
    const long long D = 2LL * half;
    for (long long t = threadIdx.x; t < work; t += blockDim.x) {
        int bl = (int)(t / half);
        int j = (int)(t - (long long)bl * half);
        long long row = (long long)(b0 + bl) * S + s;
        long long base = row * D;
        float c = c_s[j];
        float si = s_s[j];
        float x1 = x[base + j];
        float x2 = x[base + half + j];
        out[base + j] = x1 * c - x2 * si;
        out[base + half + j] = x1 * si + x2 * c;
    }
}

torch::Tensor rope_cuda(torch::Tensor x, torch::Tensor cos_t, torch::Tensor sin_t) {
    TORCH_CHECK(x.is_cuda() && cos_t.is_cuda() && sin_t.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat && cos_t.scalar_type() == torch::kFloat &&
                sin_t.scalar_type() == torch::kFloat, "inputs must be float32");
    TORCH_CHECK(x.dim() >= 2, "x must have at least 2 dims");
    auto xc = x.contiguous();
    auto cc = cos_t.contiguous();
    auto sc = sin_t.contiguous();
    int64_t D = xc.size(-1);
    int64_t S = xc.size(-2);
    TORCH_CHECK(D % 2 == 0, "head_dim must be even");
    int64_t half = D / 2;
    TORCH_CHECK(cc.numel() == S * half && sc.numel() == S * half, "cos/sin must be (seq, head_dim/2)");
    size_t smem = 2 * (size_t)half * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "head_dim too large for the shared-memory table");
    auto out = torch::empty_like(xc);
    if (xc.numel() == 0) return out;
    int64_t BH = xc.numel() / (S * D);
    const int threads = 256;
    const int rows_per_block = 16;
    int64_t gy = (BH + rows_per_block - 1) / rows_per_block;
    TORCH_CHECK(gy <= 65535, "too many batch*head rows for this launch configuration");
    dim3 grid((unsigned)S, (unsigned)gy);
    rope_smem_kernel<<<grid, threads, smem>>>(xc.data_ptr<float>(), cc.data_ptr<float>(),
                                              sc.data_ptr<float>(), out.data_ptr<float>(),
                                              (int)BH, (int)S, (int)half, rows_per_block);
    return out;
}
"""

rope_mod = load_inline(
    name="s44_rope_smem_table_per_seq",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["rope_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        return rope_mod.rope_cuda(x, cos, sin)
