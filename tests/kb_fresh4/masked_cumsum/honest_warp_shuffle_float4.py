# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

masked_cumsum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define WS_THREADS 256
#define WS_WARPS (WS_THREADS / 32)
#define FULL_MASK 0xffffffffu

// One block per row, tiles of 1024 elements: every thread loads one float4 of x and one uchar4 of the
// mask, scans its 4 values serially, then a warp-shuffle (Kogge-Stone) scan of the thread totals and a
// one-warp scan of the 8 warp totals build the block scan.  The running row prefix is carried across tiles.
__global__ void __launch_bounds__(WS_THREADS)
masked_cumsum_ws_kernel(const float4* __restrict__ x4,
                        const uchar4* __restrict__ m4,
                        float4* __restrict__ o4,
                        int L4) {
    __shared__ float s_warp[WS_WARPS];
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const size_t base = (size_t)blockIdx.x * L4;
    float carry = 0.f;
    for (int start = 0; start < L4; start += WS_THREADS) {
        const int idx = start + tid;
        float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
        uchar4 mk = make_uchar4(0, 0, 0, 0);
        if (idx < L4) {
            v = x4[base + idx];
            mk = m4[base + idx];
        }
        const float p0 = mk.x ? v.x : 0.f;
        const float p1 = p0 + (mk.y ? v.y : 0.f);
        const float p2 = p1 + (mk.z ? v.z : 0.f);
        const float p3 = p2 + (mk.w ? v.w : 0.f);

        float t = p3;  // inclusive warp scan of the thread totals
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
            float w = (lane < WS_WARPS) ? s_warp[lane] : 0.f;
            #pragma unroll
            for (int off = 1; off < WS_WARPS; off <<= 1) {
                float y = __shfl_up_sync(FULL_MASK, w, off);
                if (lane >= off) w += y;
            }
            if (lane < WS_WARPS) s_warp[lane] = w;  // inclusive scan of warp totals
        }
        __syncthreads();
        const float offs = carry + (warp > 0 ? s_warp[warp - 1] : 0.f) + ex;
        if (idx < L4) o4[base + idx] = make_float4(offs + p0, offs + p1, offs + p2, offs + p3);
        carry += s_warp[WS_WARPS - 1];
        __syncthreads();  // s_warp is rewritten by the next tile
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

    TORCH_CHECK(L % 4 == 0, "row length must be a multiple of 4 for vector loads");
    TORCH_CHECK((uintptr_t)xp % 16 == 0 && (uintptr_t)op % 16 == 0 && (uintptr_t)mp % 4 == 0, "misaligned inputs");
    masked_cumsum_ws_kernel<<<rows, WS_THREADS, 0, stream>>>(
        reinterpret_cast<const float4*>(xp), reinterpret_cast<const uchar4*>(mp), reinterpret_cast<float4*>(op), L / 4);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "kernel launch failed");
    return out;
}
"""

masked_cumsum_cpp_source = "torch::Tensor masked_cumsum_cuda(torch::Tensor x, torch::Tensor mask, int64_t dim, int64_t stream_handle);"

masked_cumsum = load_inline(name="masked_cumsum_warp_shuffle_float4", cpp_sources=masked_cumsum_cpp_source, cuda_sources=masked_cumsum_source,
                            functions=["masked_cumsum_cuda"], verbose=False, extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return masked_cumsum.masked_cumsum_cuda(x, mask, self.dim, stream)
