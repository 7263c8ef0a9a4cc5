# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Persistent, vectorised kernel: a grid sized to the SM count (8 blocks/SM) loops over tiles of
# 128 consecutive l positions of one batch.  Within a block, 32 lanes each own a float4 column
# (coalesced 512-byte rows) and the 8 warps split the C axis; the warps' float4 partial sums meet
# in shared memory, warp 0 adds them, takes sqrt and writes a float4.  A scalar 2-D kernel with
# the same split-C structure handles L % 4 != 0 or misaligned pointers.  The current PyTorch
# stream is passed in from Python.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define LANES 32
#define WARPS 8

__global__ void __launch_bounds__(LANES * WARPS)
l2norm_dim1_persistent_vec4_kernel(const float4* __restrict__ x,
                                   float4* __restrict__ out,
                                   int B, int C, int L4) {
    __shared__ float4 partial[WARPS][LANES];
    const int lane = threadIdx.x;
    const int w = threadIdx.y;
    const int tiles_per_row = (L4 + LANES - 1) / LANES;
    const long long num_tiles = (long long)B * tiles_per_row;

    for (long long t = blockIdx.x; t < num_tiles; t += gridDim.x) {
        const int b = (int)(t / tiles_per_row);
        const int l4 = (int)(t % tiles_per_row) * LANES + lane;
        float4 s0 = make_float4(0.f, 0.f, 0.f, 0.f);
        float4 s1 = make_float4(0.f, 0.f, 0.f, 0.f);
        if (l4 < L4) {
            const float4* p = x + (long long)b * C * L4 + l4;
            int c = w;
            for (; c + WARPS < C; c += 2 * WARPS) {
                const float4 v0 = __ldg(p + (long long)c * L4);
                const float4 v1 = __ldg(p + (long long)(c + WARPS) * L4);
                s0.x = fmaf(v0.x, v0.x, s0.x); s0.y = fmaf(v0.y, v0.y, s0.y);
                s0.z = fmaf(v0.z, v0.z, s0.z); s0.w = fmaf(v0.w, v0.w, s0.w);
                s1.x = fmaf(v1.x, v1.x, s1.x); s1.y = fmaf(v1.y, v1.y, s1.y);
                s1.z = fmaf(v1.z, v1.z, s1.z); s1.w = fmaf(v1.w, v1.w, s1.w);
            }
            if (c < C) {
                const float4 v0 = __ldg(p + (long long)c * L4);
                s0.x = fmaf(v0.x, v0.x, s0.x); s0.y = fmaf(v0.y, v0.y, s0.y);
                s0.z = fmaf(v0.z, v0.z, s0.z); s0.w = fmaf(v0.w, v0.w, s0.w);
            }
        }
        partial[w][lane] = make_float4(s0.x + s1.x, s0.y + s1.y, s0.z + s1.z, s0.w + s1.w);
        __syncthreads();
        if (w == 0 && l4 < L4) {
            float4 r = partial[0][lane];
#pragma unroll
            for (int i = 1; i < WARPS; ++i) {
                const float4 q = partial[i][lane];
                r.x += q.x; r.y += q.y; r.z += q.z; r.w += q.w;
            }
            out[(long long)b * L4 + l4] = make_float4(sqrtf(r.x), sqrtf(r.y), sqrtf(r.z), sqrtf(r.w));
        }
        __syncthreads();   // partial[] is reused by the next tile
    }
}

__global__ void __launch_bounds__(LANES * WARPS)
l2norm_dim1_scalar_splitc_kernel(const float* __restrict__ x,
                                 float* __restrict__ out,
                                 int C, int L) {
    __shared__ float partial[WARPS][LANES + 1];
    const int lane = threadIdx.x, w = threadIdx.y;
    const int b = blockIdx.y;
    const int l = blockIdx.x * LANES + lane;
    float s = 0.0f;
    if (l < L) {
        const float* p = x + (long long)b * C * L + l;
        for (int c = w; c < C; c += WARPS) {
            const float v = __ldg(p + (long long)c * L);
            s = fmaf(v, v, s);
        }
    }
    partial[w][lane] = s;
    __syncthreads();
    if (w == 0 && l < L) {
        float r = 0.0f;
#pragma unroll
        for (int i = 0; i < WARPS; ++i) r += partial[i][lane];
        out[(long long)b * L + l] = sqrtf(r);
    }
}

torch::Tensor l2norm_dim1_cuda(torch::Tensor x, int64_t stream_handle) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be (B, C, L)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    const int B = (int)x.size(0), C = (int)x.size(1), L = (int)x.size(2);
    auto out = torch::empty({B, L}, x.options());
    if (B == 0 || L == 0) return out;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);

    const float* xp = x.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool vec_ok = (L % 4 == 0) &&
                        (reinterpret_cast<uintptr_t>(xp) % 16 == 0) &&
                        (reinterpret_cast<uintptr_t>(op) % 16 == 0);
    dim3 block(LANES, WARPS);
    if (vec_ok) {
        const int L4 = L / 4;
        const long long tiles = (long long)B * ((L4 + LANES - 1) / LANES);
        int dev = 0, sms = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (sms <= 0) sms = 132;
        long long grid = (long long)sms * 8;
        if (grid > tiles) grid = tiles;
        l2norm_dim1_persistent_vec4_kernel<<<(unsigned int)grid, block, 0, stream>>>(
            reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(op), B, C, L4);
    } else {
        TORCH_CHECK(B <= 65535, "batch too large for grid.y");
        dim3 grid((L + LANES - 1) / LANES, B);
        l2norm_dim1_scalar_splitc_kernel<<<grid, block, 0, stream>>>(xp, op, C, L);
    }
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "l2norm_dim1 kernel launch failed");
    return out;
}
"""

cpp_source = "torch::Tensor l2norm_dim1_cuda(torch::Tensor x, int64_t stream_handle);"

l2norm_ext = load_inline(
    name="l2norm_dim1_persistent_float4_splitc",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["l2norm_dim1_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l2norm_ext.l2norm_dim1_cuda(x, torch.cuda.current_stream(x.device).cuda_stream)
