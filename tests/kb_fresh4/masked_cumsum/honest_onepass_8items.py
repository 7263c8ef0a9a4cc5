# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

masked_cumsum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define OP_THREADS 1024
#define OP_WARPS (OP_THREADS / 32)
#define OP_ITEMS 8
#define OP_TILE (OP_THREADS * OP_ITEMS)
#define FULL_MASK 0xffffffffu

// One block per row, 1024 threads x 8 consecutive elements each, so an 8192-long row is a single tile
// (longer rows loop with a carried prefix).  Each thread does two float4 loads and one 8-byte mask
// load, a serial scan of its 8 values, then a warp-shuffle scan of thread totals and one warp scans the
// 32 warp totals.  Results go back with two float4 stores.  x and the mask are read exactly once.
__global__ void __launch_bounds__(OP_THREADS)
masked_cumsum_onepass_kernel(const float* __restrict__ x,
                             const unsigned char* __restrict__ m,
                             float* __restrict__ out,
                             int L) {
    __shared__ float s_warp[OP_WARPS];
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const size_t base = (size_t)blockIdx.x * L;
    float carry = 0.f;
    for (int start = 0; start < L; start += OP_TILE) {
        const int e = start + tid * OP_ITEMS;  // first element of this thread (L % 8 == 0)
        const bool valid = e < L;
        float4 v0 = make_float4(0.f, 0.f, 0.f, 0.f), v1 = v0;
        uint2 mk = make_uint2(0u, 0u);
        if (valid) {
            v0 = *reinterpret_cast<const float4*>(x + base + e);
            v1 = *reinterpret_cast<const float4*>(x + base + e + 4);
            mk = *reinterpret_cast<const uint2*>(m + base + e);
        }
        float p[OP_ITEMS];
        p[0] = (mk.x & 0x000000ffu) ? v0.x : 0.f;
        p[1] = p[0] + ((mk.x & 0x0000ff00u) ? v0.y : 0.f);
        p[2] = p[1] + ((mk.x & 0x00ff0000u) ? v0.z : 0.f);
        p[3] = p[2] + ((mk.x & 0xff000000u) ? v0.w : 0.f);
        p[4] = p[3] + ((mk.y & 0x000000ffu) ? v1.x : 0.f);
        p[5] = p[4] + ((mk.y & 0x0000ff00u) ? v1.y : 0.f);
        p[6] = p[5] + ((mk.y & 0x00ff0000u) ? v1.z : 0.f);
        p[7] = p[6] + ((mk.y & 0xff000000u) ? v1.w : 0.f);

        float t = p[7];
        #pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            float y = __shfl_up_sync(FULL_MASK, t, off);
            if (lane >= off) t += y;
        }
        float ex = __shfl_up_sync(FULL_MASK, t, 1);
        if (lane == 0) ex = 0.f;
        if (lane == 31) s_warp[warp] = t;
        __syncthreads();
        if (warp == 0) {
            float w = s_warp[lane];  // OP_WARPS == 32
            #pragma unroll
            for (int off = 1; off < 32; off <<= 1) {
                float y = __shfl_up_sync(FULL_MASK, w, off);
                if (lane >= off) w += y;
            }
            s_warp[lane] = w;
        }
        __syncthreads();
        const float offs = carry + (warp > 0 ? s_warp[warp - 1] : 0.f) + ex;
        if (valid) {
            *reinterpret_cast<float4*>(out + base + e) = make_float4(offs + p[0], offs + p[1], offs + p[2], offs + p[3]);
            *reinterpret_cast<float4*>(out + base + e + 4) = make_float4(offs + p[4], offs + p[5], offs + p[6], offs + p[7]);
        }
        carry += s_warp[OP_WARPS - 1];
        __syncthreads();
    }
}

torch::Tensor masked_cumsum_cuda(torch::Tensor x, torch::Tensor mask, int64_t dim, int64_t stream_handle) {
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    TORCH_CHECK(x.is_cuda() && mask.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(mask.scalar_type() == torch::kBool, "mask must be bool");
    TORCH_CHECK(x.sizes() == mask.sizes(), "x and mask must have the same shape");
    const int64_t nd = x.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim == nd - 1, "this kernel scans along the last (contiguous) dimension only");
    auto xc = x.contiguous();
    auto mc = mask.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t L64 = xc.size(nd - 1);
    if (xc.numel() == 0 || L64 == 0) return out;
    const int64_t rows64 = xc.numel() / L64;
    TORCH_CHECK(L64 < (1LL << 31) && rows64 < (1LL << 31), "tensor too large");
    const int L = (int)L64;
    const int rows = (int)rows64;
    const float* xp = xc.data_ptr<float>();
    const unsigned char* mp = reinterpret_cast<const unsigned char*>(mc.data_ptr<bool>());
    float* op = out.data_ptr<float>();

    TORCH_CHECK(L % OP_ITEMS == 0, "row length must be a multiple of 8 for vector loads");
    TORCH_CHECK((uintptr_t)xp % 16 == 0 && (uintptr_t)op % 16 == 0 && (uintptr_t)mp % 8 == 0, "misaligned inputs");
    masked_cumsum_onepass_kernel<<<rows, OP_THREADS, 0, stream>>>(xp, mp, op, L);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "kernel launch failed");
    return out;
}
"""

masked_cumsum_cpp_source = "torch::Tensor masked_cumsum_cuda(torch::Tensor x, torch::Tensor mask, int64_t dim, int64_t stream_handle);"

masked_cumsum = load_inline(name="masked_cumsum_onepass_8items", cpp_sources=masked_cumsum_cpp_source, cuda_sources=masked_cumsum_source,
                            functions=["masked_cumsum_cuda"], verbose=False, extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return masked_cumsum.masked_cumsum_cuda(x, mask, self.dim, stream)
