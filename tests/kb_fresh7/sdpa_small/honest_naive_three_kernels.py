# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sdpa_naive_cpp = "torch::Tensor sdpa_naive_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v);"

sdpa_naive_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

// Straightforward three-kernel version with a materialised (BH, S, S) score buffer:
//  1) one thread per score: dot(q_i, k_j) * scale;
//  2) one thread per row: max, exp-sum and normalisation done serially;
//  3) one thread per output element: sum_j p_ij * v_jd.

__global__ void sdpa_naive_scores(const float* __restrict__ q, const float* __restrict__ k,
                                  float* __restrict__ s, long long total, int S, int D, float scale) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int j = (int)(idx % S);
    long long t = idx / S;
    int i = (int)(t % S);
    long long bh = t / S;
    const float* qr = q + (bh * S + i) * D;
    const float* kr = k + (bh * S + j) * D;
    float acc = 0.0f;
    for (int d = 0; d < D; ++d) acc += qr[d] * kr[d];
    s[idx] = acc * scale;
}

__global__ void sdpa_naive_softmax(float* __restrict__ s, long long rows, int S) {
    long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float* row = s + r * S;
    float m = -INFINITY;
    for (int j = 0; j < S; ++j) m = fmaxf(m, row[j]);
    float sum = 0.0f;
    for (int j = 0; j < S; ++j) { float e = expf(row[j] - m); row[j] = e; sum += e; }
    float inv = 1.0f / sum;
    for (int j = 0; j < S; ++j) row[j] *= inv;
}

__global__ void sdpa_naive_pv(const float* __restrict__ p, const float* __restrict__ v,
                              float* __restrict__ o, long long total, int S, int D) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int d = (int)(idx % D);
    long long t = idx / D;          // = bh * S + i
    long long bh = t / S;
    const float* pr = p + t * S;
    const float* vb = v + bh * S * D;
    float acc = 0.0f;
    for (int j = 0; j < S; ++j) acc += pr[j] * vb[(long long)j * D + d];
    o[idx] = acc;
}

torch::Tensor sdpa_naive_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
    TORCH_CHECK(q.is_cuda() && k.is_cuda() && v.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(q.scalar_type() == torch::kFloat32 && k.scalar_type() == torch::kFloat32 &&
                v.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(q.dim() == 4 && q.sizes() == k.sizes() && q.sizes() == v.sizes(), "expected equal (B,H,S,D) shapes");
    q = q.contiguous(); k = k.contiguous(); v = v.contiguous();
    const long long BH = q.size(0) * q.size(1);
    const int S = q.size(2), D = q.size(3);
    auto out = torch::empty_like(q);
    if (BH == 0 || S == 0 || D == 0) return out;
    auto scores = torch::empty({BH, (long long)S, (long long)S}, q.options());
    const float scale = 1.0f / sqrtf((float)D);
    const int nt = 256;
    long long ns = BH * S * S;
    sdpa_naive_scores<<<(unsigned)((ns + nt - 1) / nt), nt>>>(q.data_ptr<float>(), k.data_ptr<float>(),
                                                             scores.data_ptr<float>(), ns, S, D, scale);
    long long rows = BH * S;
    sdpa_naive_softmax<<<(unsigned)((rows + nt - 1) / nt), nt>>>(scores.data_ptr<float>(), rows, S);
    long long no = BH * S * D;
    sdpa_naive_pv<<<(unsigned)((no + nt - 1) / nt), nt>>>(scores.data_ptr<float>(), v.data_ptr<float>(),
                                                         out.data_ptr<float>(), no, S, D);
    return out;
}
"""

sdpa_naive_mod = load_inline(
    name="sdpa_small_naive_three_kernels_kb7",
    cpp_sources=sdpa_naive_cpp,
    cuda_sources=sdpa_naive_cuda,
    functions=["sdpa_naive_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return sdpa_naive_mod.sdpa_naive_forward(q, k, v)
