# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor ln_forward_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Deterministic split-row layer norm in three kernels:
//  1) grid = (P chunks, rows): float4 loads, per-thread Welford, warp-shuffle + shared-memory merge,
//     one (count, mean, M2) partial per block written to a scratch buffer;
//  2) one block per row merges its P partials (Chan's parallel formula) into mean / rstd;
//  3) flat grid-stride float4 normalise + affine pass.

#define WP_THREADS 256
#define WP_CHUNKS 128

struct Wf { float n, mean, m2; };

__device__ __forceinline__ void wf_push(Wf& a, float v) {
    a.n += 1.f;
    float d = v - a.mean;
    a.mean += d / a.n;
    a.m2 += d * (v - a.mean);
}

__device__ __forceinline__ Wf wf_merge(const Wf& a, const Wf& b) {
    if (b.n == 0.f) return a;
    if (a.n == 0.f) return b;
    Wf r;
    r.n = a.n + b.n;
    float delta = b.mean - a.mean;
    float fb = b.n / r.n;
    r.mean = a.mean + delta * fb;
    r.m2 = a.m2 + b.m2 + delta * delta * a.n * fb;
    return r;
}

__device__ __forceinline__ Wf wf_warp_reduce(Wf a) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        Wf o;
        o.n = __shfl_down_sync(0xffffffffu, a.n, off);
        o.mean = __shfl_down_sync(0xffffffffu, a.mean, off);
        o.m2 = __shfl_down_sync(0xffffffffu, a.m2, off);
        a = wf_merge(a, o);
    }
    return a;
}

// block-wide merge; result valid in thread 0. blockDim.x must be a multiple of 32 (<= 1024)
__device__ __forceinline__ Wf wf_block_reduce(Wf a) {
    __shared__ Wf sh[32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    a = wf_warp_reduce(a);
    if (lane == 0) sh[warp] = a;
    __syncthreads();
    Wf t = {0.f, 0.f, 0.f};
    if (warp == 0) {
        if (lane < nwarps) t = sh[lane];
        t = wf_warp_reduce(t);
    }
    return t;
}

__global__ void ln_partial_kernel(const float* __restrict__ x, float* __restrict__ part,
                                  long long D, int vec) {
    const long long row = blockIdx.y;
    const float* xr = x + row * D;
    Wf acc = {0.f, 0.f, 0.f};
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long start = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (vec) {
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        const long long D4 = D >> 2;
        for (long long i = start; i < D4; i += stride) {
            float4 v = __ldg(x4 + i);
            wf_push(acc, v.x); wf_push(acc, v.y); wf_push(acc, v.z); wf_push(acc, v.w);
        }
    } else {
        for (long long i = start; i < D; i += stride) wf_push(acc, __ldg(xr + i));
    }
    Wf r = wf_block_reduce(acc);
    if (threadIdx.x == 0) {
        float* p = part + (row * gridDim.x + blockIdx.x) * 3;
        p[0] = r.n; p[1] = r.mean; p[2] = r.m2;
    }
}

__global__ void ln_finalize_kernel(const float* __restrict__ part, float2* __restrict__ mr,
                                   int P, float eps) {
    const long long row = blockIdx.x;
    Wf acc = {0.f, 0.f, 0.f};
    for (int j = threadIdx.x; j < P; j += blockDim.x) {
        const float* p = part + (row * P + j) * 3;
        Wf o = {p[0], p[1], p[2]};
        acc = wf_merge(acc, o);
    }
    Wf r = wf_block_reduce(acc);
    if (threadIdx.x == 0) {
        float var = (r.n > 0.f) ? r.m2 / r.n : 0.f;
        mr[row] = make_float2(r.mean, rsqrtf(fmaxf(var, 0.f) + eps));
    }
}

__global__ void ln_norm_kernel(const float* __restrict__ x, const float* __restrict__ w,
                               const float* __restrict__ b, const float2* __restrict__ mr,
                               float* __restrict__ y, long long D, long long total, int vec) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (vec) {
        // D % 4 == 0, so a float4 never straddles two rows
        const long long total4 = total >> 2;
        const long long D4 = D >> 2;
        const float4* x4 = reinterpret_cast<const float4*>(x);
        const float4* w4 = reinterpret_cast<const float4*>(w);
        const float4* b4 = reinterpret_cast<const float4*>(b);
        float4* y4 = reinterpret_cast<float4*>(y);
        for (; i < total4; i += stride) {
            long long row = i / D4;
            long long c = i - row * D4;
            float2 s = mr[row];
            float4 v = __ldg(x4 + i);
            float4 ww = __ldg(w4 + c);
            float4 bb = __ldg(b4 + c);
            float4 o;
            o.x = (v.x - s.x) * s.y * ww.x + bb.x;
            o.y = (v.y - s.x) * s.y * ww.y + bb.y;
            o.z = (v.z - s.x) * s.y * ww.z + bb.z;
            o.w = (v.w - s.x) * s.y * ww.w + bb.w;
            y4[i] = o;
        }
    } else {
        for (; i < total; i += stride) {
            long long row = i / D;
            long long c = i - row * D;
            float2 s = mr[row];
            y[i] = (__ldg(x + i) - s.x) * s.y * __ldg(w + c) + __ldg(b + c);
        }
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
    TORCH_CHECK(rows <= 65535, "too many rows for this kernel");

    const float* xp = xc.data_ptr<float>();
    const float* wp = wc.data_ptr<float>();
    const float* bp = bc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    const int vec = ((D & 3) == 0) && aligned16(xp) && aligned16(wp) && aligned16(bp) && aligned16(yp);

    // number of chunks per row: enough work per thread, at most WP_CHUNKS
    const long long units = vec ? (D >> 2) : D;
    long long P = (units + WP_THREADS * 8 - 1) / (WP_THREADS * 8);
    if (P < 1) P = 1;
    if (P > WP_CHUNKS) P = WP_CHUNKS;

    auto part = torch::empty({rows, P, 3}, xc.options());
    auto mr = torch::empty({rows, 2}, xc.options());

    dim3 g1((unsigned)P, (unsigned)rows);
    ln_partial_kernel<<<g1, WP_THREADS>>>(xp, part.data_ptr<float>(), D, vec);
    ln_finalize_kernel<<<(unsigned)rows, 128>>>(part.data_ptr<float>(),
                                                reinterpret_cast<float2*>(mr.data_ptr<float>()),
                                                (int)P, (float)eps);

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const long long total = rows * D;
    const long long work = vec ? (total >> 2) : total;
    long long blocks = (work + 255) / 256;
    const long long cap = (long long)sms * 8;
    if (blocks > cap) blocks = cap;
    if (blocks < 1) blocks = 1;
    ln_norm_kernel<<<(unsigned)blocks, 256>>>(xp, wp, bp,
                                              reinterpret_cast<const float2*>(mr.data_ptr<float>()),
                                              yp, D, total, vec);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_layernorm_large_welford_partials",
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
