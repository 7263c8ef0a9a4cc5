# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor rope_cuda(torch::Tensor x, torch::Tensor cos_t, torch::Tensor sin_t);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Vectorised: each thread rotates 4 consecutive pairs using 128-bit float4 loads of x1, x2, cos and sin
// and two float4 stores. Falls back to a scalar pair kernel when half % 4 != 0 or pointers are unaligned.

__global__ void rope_vec4_kernel(const float4* __restrict__ x, const float4* __restrict__ cs,
                                 const float4* __restrict__ sn, float4* __restrict__ out,
                                 long long nvec, int half4, int S) {
    long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nvec) return;
    long long row = v / half4;
    int j4 = (int)(v - row * half4);
    int s = (int)(row % S);
    float4 c = __ldg(cs + (long long)s * half4 + j4);
    float4 si = __ldg(sn + (long long)s * half4 + j4);
    long long base = row * 2 * half4;           // row start in float4 units
    float4 a = x[base + j4];
    float4 b = x[base + half4 + j4];
    float4 o1, o2;
    o1.x = a.x * c.x - b.x * si.x;  o2.x = a.x * si.x + b.x * c.x;
    o1.y = a.y * c.y - b.y * si.y;  o2.y = a.y * si.y + b.y * c.y;
    o1.z = a.z * c.z - b.z * si.z;  o2.z = a.z * si.z + b.z * c.z;
    o1.w = a.w * c.w - b.w * si.w;  o2.w = a.w * si.w + b.w * c.w;
    out[base + j4] = o1;
    out[base + half4 + j4] = o2;
}

__global__ void rope_scalar_kernel(const float* __restrict__ x, const float* __restrict__ cs,
                                   const float* __restrict__ sn, float* __restrict__ out,
                                   long long npairs, int half, int S) {
    long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npairs) return;
    long long row = p / half;
    int j = (int)(p - row * half);
    int s = (int)(row % S);
    float c = cs[(long long)s * half + j];
    float si = sn[(long long)s * half + j];
    long long base = row * 2 * half;
    float x1 = x[base + j];
    float x2 = x[base + half + j];
    out[base + j] = x1 * c - x2 * si;
    out[base + half + j] = x1 * si + x2 * c;
}

static bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

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
    auto out = torch::empty_like(xc);
    if (xc.numel() == 0) return out;
    const float* xp = xc.data_ptr<float>();
    const float* cp = cc.data_ptr<float>();
    const float* sp = sc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const int threads = 256;
    bool vec_ok = (half % 4 == 0) && aligned16(xp) && aligned16(cp) && aligned16(sp) && aligned16(op);
    if (vec_ok) {
        int half4 = (int)(half / 4);
        long long nvec = xc.numel() / 8;   // rows * half4
        long long blocks = (nvec + threads - 1) / threads;
        rope_vec4_kernel<<<(unsigned)blocks, threads>>>(
            reinterpret_cast<const float4*>(xp), reinterpret_cast<const float4*>(cp),
            reinterpret_cast<const float4*>(sp), reinterpret_cast<float4*>(op), nvec, half4, (int)S);
    } else {
        long long npairs = xc.numel() / 2;
        long long blocks = (npairs + threads - 1) / threads;
        rope_scalar_kernel<<<(unsigned)blocks, threads>>>(xp, cp, sp, op, npairs, (int)half, (int)S);
    }
    return out;
}
"""

rope_mod = load_inline(
    name="s44_rope_vec4_pairs",
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
