# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cumsum0_lookback_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Strategy: single-pass scan with decoupled look-back over row chunks.
// A block handles one tile of CH rows x 128 columns (32 lanes x float4, TY row segments).
// Tiles are handed out in (chunk-major) order through an atomic ticket, so every tile a block
// waits on was already started. Each block scans its tile in registers/shared memory, publishes
// its per-column aggregate (flag 1), looks back over earlier chunks of the same columns summing
// aggregates until it meets an inclusive prefix (flag 2), publishes its own inclusive prefix, and
// writes its rows once. Flag and value are packed into one 64-bit word so they are read atomically.
// Scalar column-serial fallback when C % 4 != 0 or pointers are misaligned.

#define LANES 32
#define TY 8
#define RPT 8
#define CH (TY * RPT)

#define FLAG_AGG 1u
#define FLAG_PREFIX 2u

__device__ __forceinline__ unsigned long long pack_status(float v, unsigned flag) {
    return ((unsigned long long)flag << 32) | (unsigned long long)__float_as_uint(v);
}

__device__ __forceinline__ void add4(float4& a, const float4& b) {
    a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}

__global__ void __launch_bounds__(LANES * TY)
cumsum0_lookback_kernel(const float4* __restrict__ x, float4* __restrict__ y,
                        unsigned long long* status, unsigned int* ticket,
                        int R, int C4, int n_col_tiles) {
    __shared__ float4 s_tot[TY][LANES];
    __shared__ float4 s_carry[LANES];
    __shared__ unsigned int s_id;

    const int lane = threadIdx.x;
    const int ty = threadIdx.y;
    if (lane == 0 && ty == 0) s_id = atomicAdd(ticket, 1u);
    __syncthreads();
    const unsigned int id = s_id;
    const int chunk = (int)(id / (unsigned)n_col_tiles);
    const int ct = (int)(id % (unsigned)n_col_tiles);
    const int q = ct * LANES + lane;
    const bool qok = q < C4;
    const int r0 = chunk * CH + ty * RPT;

    float4 v[RPT];
#pragma unroll
    for (int k = 0; k < RPT; ++k) {
        int r = r0 + k;
        v[k] = (qok && r < R) ? __ldg(&x[(size_t)r * C4 + q]) : make_float4(0.f, 0.f, 0.f, 0.f);
    }
#pragma unroll
    for (int k = 1; k < RPT; ++k) add4(v[k], v[k - 1]);
    s_tot[ty][lane] = v[RPT - 1];
    __syncthreads();

    if (ty == 0) {
        float4 p = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
        for (int j = 0; j < TY; ++j) {
            float4 t = s_tot[j][lane];
            s_tot[j][lane] = p;
            add4(p, t);
        }
        // p is this chunk's aggregate for the 4 columns of group q
        float ex[4] = {0.f, 0.f, 0.f, 0.f};
        if (qok) {
            const size_t C = (size_t)C4 * 4;
            const size_t c0 = (size_t)q * 4;
            const float agg[4] = {p.x, p.y, p.z, p.w};
            unsigned long long* my = status + (size_t)chunk * C + c0;
            if (chunk == 0) {
#pragma unroll
                for (int i = 0; i < 4; ++i) atomicExch(my + i, pack_status(agg[i], FLAG_PREFIX));
            } else {
#pragma unroll
                for (int i = 0; i < 4; ++i) atomicExch(my + i, pack_status(agg[i], FLAG_AGG));
                for (int i = 0; i < 4; ++i) {
                    int j = chunk - 1;
                    float run = 0.f;
                    while (true) {
                        unsigned long long s =
                            *reinterpret_cast<volatile unsigned long long*>(status + (size_t)j * C + c0 + i);
                        unsigned flag = (unsigned)(s >> 32);
                        if (flag == 0u) continue;  // predecessor not published yet: spin
                        run += __uint_as_float((unsigned)(s & 0xffffffffull));
                        if (flag == FLAG_PREFIX) break;
                        --j;  // chunk 0 always publishes FLAG_PREFIX, so j stays >= 0
                    }
                    ex[i] = run;
                }
#pragma unroll
                for (int i = 0; i < 4; ++i) atomicExch(my + i, pack_status(agg[i] + ex[i], FLAG_PREFIX));
            }
        }
        s_carry[lane] = make_float4(ex[0], ex[1], ex[2], ex[3]);
    }
    __syncthreads();

    float4 off = s_carry[lane];
    add4(off, s_tot[ty][lane]);
#pragma unroll
    for (int k = 0; k < RPT; ++k) {
        int r = r0 + k;
        if (qok && r < R) {
            float4 o = v[k];
            add4(o, off);
            y[(size_t)r * C4 + q] = o;
        }
    }
}

__global__ void scalar_col_scan_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       int R, int C) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    float acc = 0.f;
    for (int r = 0; r < R; ++r) {
        size_t i = (size_t)r * C + c;
        acc += x[i];
        y[i] = acc;
    }
}

torch::Tensor cumsum0_lookback_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2-D");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int R = (int)xc.size(0);
    int C = (int)xc.size(1);
    if (R == 0 || C == 0) return out;
    const float* xp = xc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    bool vec_ok = (C % 4 == 0) &&
                  ((reinterpret_cast<uintptr_t>(xp) & 15) == 0) &&
                  ((reinterpret_cast<uintptr_t>(yp) & 15) == 0);
    if (!vec_ok) {
        scalar_col_scan_kernel<<<(C + 255) / 256, 256>>>(xp, yp, R, C);
        return out;
    }
    int C4 = C / 4;
    int n_chunks = (R + CH - 1) / CH;
    int n_col_tiles = (C4 + LANES - 1) / LANES;
    long long n_blocks = (long long)n_chunks * n_col_tiles;
    TORCH_CHECK(n_blocks < (1LL << 31), "problem too large");
    // status words (zeroed = not published) followed by one 64-bit slot holding the ticket counter
    auto scratch = torch::zeros({(long)n_chunks * C + 1}, xc.options().dtype(torch::kInt64));
    unsigned long long* status = reinterpret_cast<unsigned long long*>(scratch.data_ptr<int64_t>());
    unsigned int* ticket = reinterpret_cast<unsigned int*>(status + (size_t)n_chunks * C);
    dim3 block(LANES, TY);
    cumsum0_lookback_kernel<<<(unsigned)n_blocks, block>>>(
        reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp), status, ticket,
        R, C4, n_col_tiles);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_cumsum0_decoupled_lookback",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cumsum0_lookback_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.cumsum0_lookback_cuda(x)
