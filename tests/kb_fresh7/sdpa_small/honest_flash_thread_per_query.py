# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sdpa_flash_cpp = "torch::Tensor sdpa_flash_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v);"

sdpa_flash_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

// Flash-attention style fused kernel: a block of 64 threads owns 64 query rows (one
// row per thread, query and output accumulator in registers). K/V tiles of 32 keys are
// staged in shared memory (all threads read the same K/V element -> broadcast) and the
// softmax is computed online per tile with exp2f (log2(e) folded into the scale).
#define HD 64
#define BQ 64
#define BKV 32

__global__ void __launch_bounds__(BQ)
sdpa_flash_kernel(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                  float* __restrict__ o, int S, float scale_log2) {
    __shared__ float ks[BKV][HD];
    __shared__ float vs[BKV][HD];
    const int tid = threadIdx.x;
    const long long bh = blockIdx.y;
    const int i = blockIdx.x * BQ + tid;
    const bool valid = i < S;
    const float* qb = q + bh * S * HD;
    const float* kb = k + bh * S * HD;
    const float* vb = v + bh * S * HD;

    float qr[HD], acc[HD];
#pragma unroll
    for (int d = 0; d < HD; ++d) {
        qr[d] = valid ? qb[(long long)i * HD + d] * scale_log2 : 0.0f;
        acc[d] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;

    for (int j0 = 0; j0 < S; j0 += BKV) {
        // cooperative, coalesced tile load: BKV*HD floats with 64 threads
        for (int e = tid; e < BKV * HD; e += BQ) {
            const int r = e / HD, c = e - r * HD;
            const int j = j0 + r;
            ks[r][c] = (j < S) ? kb[(long long)j * HD + c] : 0.0f;
            vs[r][c] = (j < S) ? vb[(long long)j * HD + c] : 0.0f;
        }
        __syncthreads();

        float s[BKV];
        float tmax = -INFINITY;
#pragma unroll
        for (int jj = 0; jj < BKV; ++jj) {
            float t = 0.0f;
#pragma unroll
            for (int d = 0; d < HD; ++d) t = fmaf(qr[d], ks[jj][d], t);
            s[jj] = (j0 + jj < S) ? t : -INFINITY;
            tmax = fmaxf(tmax, s[jj]);
        }
        const float mnew = fmaxf(m, tmax);
        const float corr = exp2f(m - mnew);
        float psum = 0.0f;
#pragma unroll
        for (int jj = 0; jj < BKV; ++jj) {
            s[jj] = exp2f(s[jj] - mnew);
            psum += s[jj];
        }
        l = l * corr + psum;
        m = mnew;
#pragma unroll
        for (int d = 0; d < HD; ++d) acc[d] *= corr;
#pragma unroll
        for (int jj = 0; jj < BKV; ++jj) {
            const float p = s[jj];
#pragma unroll
            for (int d = 0; d < HD; ++d) acc[d] = fmaf(p, vs[jj][d], acc[d]);
        }
        __syncthreads();
    }
    if (valid) {
        const float inv = 1.0f / l;
        float* orow = o + bh * S * HD + (long long)i * HD;
#pragma unroll
        for (int d = 0; d < HD; ++d) orow[d] = acc[d] * inv;
    }
}

torch::Tensor sdpa_flash_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
    TORCH_CHECK(q.is_cuda() && k.is_cuda() && v.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(q.scalar_type() == torch::kFloat32 && k.scalar_type() == torch::kFloat32 &&
                v.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(q.dim() == 4 && q.sizes() == k.sizes() && q.sizes() == v.sizes(), "expected equal (B,H,S,D) shapes");
    TORCH_CHECK(q.size(3) == HD, "this kernel is specialised for head_dim == 64");
    q = q.contiguous(); k = k.contiguous(); v = v.contiguous();
    const long long BH = q.size(0) * q.size(1);
    const int S = q.size(2);
    auto out = torch::empty_like(q);
    if (BH == 0 || S == 0) return out;
    TORCH_CHECK(BH <= 65535, "too many (batch, head) pairs for grid.y");
    const float scale_log2 = (1.0f / sqrtf((float)HD)) * 1.4426950408889634f;
    dim3 grid((S + BQ - 1) / BQ, (unsigned)BH);
    sdpa_flash_kernel<<<grid, BQ>>>(q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(),
                                    out.data_ptr<float>(), S, scale_log2);
    return out;
}
"""

sdpa_flash_mod = load_inline(
    name="sdpa_small_flash_thread_per_query_kb7",
    cpp_sources=sdpa_flash_cpp,
    cuda_sources=sdpa_flash_cuda,
    functions=["sdpa_flash_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return sdpa_flash_mod.sdpa_flash_forward(q, k, v)
