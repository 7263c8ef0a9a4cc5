# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sdpa_fq_cpp = "torch::Tensor sdpa_fq_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v);"

sdpa_fq_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
#include <cstdint>

// Fused flash-attention kernel, 256 threads = 64 query rows x 4 threads ("quad") per row.
// K/V tiles of 64 keys are loaded with coalesced float4 loads into padded shared memory.
// Within a quad, thread `sub` scores keys sub, sub+4, ... (16 full dot products with
// float4 shared reads), quad max / sum use __shfl_xor_sync over lanes 1 and 2, and for P.V
// each thread owns 16 of the 64 output dims, fetching each probability from its owner via
// __shfl_sync. Online softmax in base 2 (log2(e) folded into the query scale).
// VEC=false is the scalar-global-memory fallback for misaligned base pointers.
#define HD 64
#define BQ 64
#define BKV 64
#define KPAD 4
#define NTHR 256

template <bool VEC>
__global__ void __launch_bounds__(NTHR)
sdpa_fq_kernel(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
               float* __restrict__ o, int S, float scale_log2) {
    __shared__ __align__(16) float ks[BKV][HD + KPAD];
    __shared__ __align__(16) float vs[BKV][HD];
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int qi = tid >> 2, sub = tid & 3;
    const int quad_base = lane & ~3;
    const long long bh = blockIdx.y;
    const int i = blockIdx.x * BQ + qi;
    const bool valid = i < S;
    const float* qb = q + bh * S * HD;
    const float* kb = k + bh * S * HD;
    const float* vb = v + bh * S * HD;

    float qr[HD];
    if (valid) {
        const float* qrow = qb + (long long)i * HD;
        if (VEC) {
#pragma unroll
            for (int c = 0; c < HD / 4; ++c) {
                const float4 t = __ldg(reinterpret_cast<const float4*>(qrow) + c);
                qr[4 * c + 0] = t.x * scale_log2; qr[4 * c + 1] = t.y * scale_log2;
                qr[4 * c + 2] = t.z * scale_log2; qr[4 * c + 3] = t.w * scale_log2;
            }
        } else {
#pragma unroll
            for (int d = 0; d < HD; ++d) qr[d] = __ldg(qrow + d) * scale_log2;
        }
    } else {
#pragma unroll
        for (int d = 0; d < HD; ++d) qr[d] = 0.0f;
    }

    float acc[16];
#pragma unroll
    for (int d = 0; d < 16; ++d) acc[d] = 0.0f;
    float m = -INFINITY, l = 0.0f;

    for (int j0 = 0; j0 < S; j0 += BKV) {
        // 64 keys x 64 dims = 1024 float4 per operand, 4 per thread, coalesced
#pragma unroll
        for (int it = 0; it < 4; ++it) {
            const int e = tid + it * NTHR;
            const int r = e >> 4, c4 = (e & 15) * 4;
            const int j = j0 + r;
            float4 kv = make_float4(0.f, 0.f, 0.f, 0.f), vv = kv;
            if (j < S) {
                const float* kp = kb + (long long)j * HD + c4;
                const float* vp = vb + (long long)j * HD + c4;
                if (VEC) {
                    kv = __ldg(reinterpret_cast<const float4*>(kp));
                    vv = __ldg(reinterpret_cast<const float4*>(vp));
                } else {
                    kv = make_float4(__ldg(kp), __ldg(kp + 1), __ldg(kp + 2), __ldg(kp + 3));
                    vv = make_float4(__ldg(vp), __ldg(vp + 1), __ldg(vp + 2), __ldg(vp + 3));
                }
            }
            *reinterpret_cast<float4*>(&ks[r][c4]) = kv;
            *reinterpret_cast<float4*>(&vs[r][c4]) = vv;
        }
        __syncthreads();

        float p[BKV / 4];
        float tmax = -INFINITY;
#pragma unroll
        for (int t = 0; t < BKV / 4; ++t) {
            const int jj = sub + 4 * t;
            float dot = 0.0f;
#pragma unroll
            for (int c = 0; c < HD / 4; ++c) {
                const float4 kk = *reinterpret_cast<const float4*>(&ks[jj][4 * c]);
                dot = fmaf(qr[4 * c + 0], kk.x, dot);
                dot = fmaf(qr[4 * c + 1], kk.y, dot);
                dot = fmaf(qr[4 * c + 2], kk.z, dot);
                dot = fmaf(qr[4 * c + 3], kk.w, dot);
            }
            p[t] = (j0 + jj < S) ? dot : -INFINITY;
            tmax = fmaxf(tmax, p[t]);
        }
        tmax = fmaxf(tmax, __shfl_xor_sync(0xffffffffu, tmax, 1));
        tmax = fmaxf(tmax, __shfl_xor_sync(0xffffffffu, tmax, 2));
        const float mnew = fmaxf(m, tmax);     // finite: key j0 is always valid
        const float corr = exp2f(m - mnew);
        float psum = 0.0f;
#pragma unroll
        for (int t = 0; t < BKV / 4; ++t) {
            p[t] = exp2f(p[t] - mnew);
            psum += p[t];
        }
        psum += __shfl_xor_sync(0xffffffffu, psum, 1);
        psum += __shfl_xor_sync(0xffffffffu, psum, 2);
        l = l * corr + psum;
        m = mnew;
#pragma unroll
        for (int d = 0; d < 16; ++d) acc[d] *= corr;

#pragma unroll
        for (int t = 0; t < BKV / 4; ++t) {
#pragma unroll
            for (int s2 = 0; s2 < 4; ++s2) {
                const float pj = __shfl_sync(0xffffffffu, p[t], quad_base + s2);
                const int jj = 4 * t + s2;
#pragma unroll
                for (int c = 0; c < 4; ++c) {
                    const float4 vv = *reinterpret_cast<const float4*>(&vs[jj][sub * 16 + 4 * c]);
                    acc[4 * c + 0] = fmaf(pj, vv.x, acc[4 * c + 0]);
                    acc[4 * c + 1] = fmaf(pj, vv.y, acc[4 * c + 1]);
                    acc[4 * c + 2] = fmaf(pj, vv.z, acc[4 * c + 2]);
                    acc[4 * c + 3] = fmaf(pj, vv.w, acc[4 * c + 3]);
                }
            }
        }
        __syncthreads();
    }

    if (valid) {
        const float inv = 1.0f / l;
        float* orow = o + bh * S * HD + (long long)i * HD + sub * 16;
        if (VEC) {
#pragma unroll
            for (int c = 0; c < 4; ++c)
                reinterpret_cast<float4*>(orow)[c] = make_float4(acc[4 * c] * inv, acc[4 * c + 1] * inv,
                                                                 acc[4 * c + 2] * inv, acc[4 * c + 3] * inv);
        } else {
#pragma unroll
            for (int d = 0; d < 16; ++d) orow[d] = acc[d] * inv;
        }
    }
}

torch::Tensor sdpa_fq_forward(torch::Tensor q, torch::Tensor k, torch::Tensor v) {
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
    const bool aligned = ((reinterpret_cast<uintptr_t>(q.data_ptr<float>()) |
                           reinterpret_cast<uintptr_t>(k.data_ptr<float>()) |
                           reinterpret_cast<uintptr_t>(v.data_ptr<float>()) |
                           reinterpret_cast<uintptr_t>(out.data_ptr<float>())) & 15) == 0;
    dim3 grid((S + BQ - 1) / BQ, (unsigned)BH);
    if (aligned)
        sdpa_fq_kernel<true><<<grid, NTHR>>>(q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(),
                                             out.data_ptr<float>(), S, scale_log2);
    else
        sdpa_fq_kernel<false><<<grid, NTHR>>>(q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(),
                                              out.data_ptr<float>(), S, scale_log2);
    return out;
}
"""

sdpa_fq_mod = load_inline(
    name="sdpa_small_flash_float4_quad_split_kb7",
    cpp_sources=sdpa_fq_cpp,
    cuda_sources=sdpa_fq_cuda,
    functions=["sdpa_fq_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return sdpa_fq_mod.sdpa_fq_forward(q, k, v)
