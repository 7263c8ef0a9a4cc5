# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor ln_forward_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// One 1024-thread block per row (the classic "row per block" layer norm): float4 loads, per-thread
// Welford statistics merged with warp shuffles and then across warps through shared memory,
// followed by a float4 normalise + affine pass.  Scalar fallback when sizes/pointers are not 16B aligned.

#define RB_THREADS 1024

struct WelfordF {
    float n, mean, m2;
};

__device__ __forceinline__ void welford_push(WelfordF& a, float v) {
    a.n += 1.f;
    float d = v - a.mean;
    a.mean += d / a.n;
    a.m2 += d * (v - a.mean);
}

__device__ __forceinline__ WelfordF welford_merge(const WelfordF& a, const WelfordF& b) {
    if (b.n == 0.f) return a;
    if (a.n == 0.f) return b;
    WelfordF r;
    r.n = a.n + b.n;
    float delta = b.mean - a.mean;
    float fb = b.n / r.n;
    r.mean = a.mean + delta * fb;
    r.m2 = a.m2 + b.m2 + delta * delta * a.n * fb;
    return r;
}

__device__ __forceinline__ WelfordF warp_welford(WelfordF a) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        WelfordF o;
        o.n = __shfl_down_sync(0xffffffffu, a.n, off);
        o.mean = __shfl_down_sync(0xffffffffu, a.mean, off);
        o.m2 = __shfl_down_sync(0xffffffffu, a.m2, off);
        a = welford_merge(a, o);
    }
    return a;
}

__global__ void __launch_bounds__(RB_THREADS)
ln_rowblock_kernel(const float* __restrict__ x, const float* __restrict__ w,
                   const float* __restrict__ b, float* __restrict__ y,
                   long long D, float eps, int vec) {
    __shared__ WelfordF sw[RB_THREADS / 32];
    __shared__ float s_mean, s_rstd;
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const float* xr = x + (long long)blockIdx.x * D;
    float* yr = y + (long long)blockIdx.x * D;

    WelfordF acc = {0.f, 0.f, 0.f};
    if (vec) {
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        const long long D4 = D >> 2;
        for (long long i = tid; i < D4; i += RB_THREADS) {
            float4 v = __ldg(x4 + i);
            welford_push(acc, v.x);
            welford_push(acc, v.y);
            welford_push(acc, v.z);
            welford_push(acc, v.w);
        }
    } else {
        for (long long i = tid; i < D; i += RB_THREADS) welford_push(acc, __ldg(xr + i));
    }

    acc = warp_welford(acc);
    if (lane == 0) sw[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        WelfordF t = (lane < RB_THREADS / 32) ? sw[lane] : WelfordF{0.f, 0.f, 0.f};
        t = warp_welford(t);
        if (lane == 0) {
            float var = t.m2 / t.n;
            s_mean = t.mean;
            s_rstd = rsqrtf(fmaxf(var, 0.f) + eps);
        }
    }
    __syncthreads();
    const float mean = s_mean;
    const float rstd = s_rstd;

    if (vec) {
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        const float4* w4 = reinterpret_cast<const float4*>(w);
        const float4* b4 = reinterpret_cast<const float4*>(b);
        float4* y4 = reinterpret_cast<float4*>(yr);
        const long long D4 = D >> 2;
        for (long long i = tid; i < D4; i += RB_THREADS) {
            float4 v = __ldg(x4 + i);
            float4 ww = __ldg(w4 + i);
            float4 bb = __ldg(b4 + i);
            float4 o;
            o.x = (v.x - mean) * rstd * ww.x + bb.x;
            o.y = (v.y - mean) * rstd * ww.y + bb.y;
            o.z = (v.z - mean) * rstd * ww.z + bb.z;
            o.w = (v.w - mean) * rstd * ww.w + bb.w;
            y4[i] = o;
        }
    } else {
        for (long long i = tid; i < D; i += RB_THREADS)
            yr[i] = (__ldg(xr + i) - mean) * rstd * __ldg(w + i) + __ldg(b + i);
    }
}

static inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

torch::Tensor ln_forward_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    const long long D = wc.numel();
    TORCH_CHECK(D > 0 && xc.numel() % D == 0, "shape mismatch");
    const long long rows = xc.numel() / D;
    auto out = torch::empty_like(xc);
    if (rows == 0) return out;
    const float* xp = xc.data_ptr<float>();
    const float* wp = wc.data_ptr<float>();
    const float* bp = bc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    int vec = ((D & 3) == 0) && aligned16(xp) && aligned16(wp) && aligned16(bp) && aligned16(yp);
    ln_rowblock_kernel<<<(unsigned)rows, RB_THREADS>>>(xp, wp, bp, yp, D, (float)eps, vec);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_layernorm_large_rowblock_welford_vec4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["ln_forward_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.ln_forward_cuda(x, self.ln.weight, self.ln.bias, self.ln.eps)
