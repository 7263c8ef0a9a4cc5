# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

masked_cumsum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define BL_THREADS 1024
#define BL_TILE (2 * BL_THREADS)
#define LOG_NUM_BANKS 5
#define CFO(n) ((n) >> LOG_NUM_BANKS)

// One block per row, tiles of 2048 elements (2 per thread).  Each tile is scanned with the
// work-efficient Blelloch up-sweep / down-sweep in shared memory (padded to avoid bank conflicts),
// giving an exclusive scan; adding the element itself makes it inclusive.  The tile total is carried.
__global__ void __launch_bounds__(BL_THREADS)
masked_cumsum_blelloch_kernel(const float* __restrict__ x,
                              const unsigned char* __restrict__ m,
                              float* __restrict__ out,
                              int L) {
    __shared__ float temp[BL_TILE + BL_TILE / 32];
    __shared__ float s_total;
    const int tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * L;
    float carry = 0.f;
    for (int start = 0; start < L; start += BL_TILE) {
        const int ai = tid;
        const int bi = tid + BL_TILE / 2;
        const int ga = start + ai;
        const int gb = start + bi;
        const float va = (ga < L && m[base + ga]) ? x[base + ga] : 0.f;
        const float vb = (gb < L && m[base + gb]) ? x[base + gb] : 0.f;
        temp[ai + CFO(ai)] = va;
        temp[bi + CFO(bi)] = vb;

        int offset = 1;
        for (int d = BL_TILE >> 1; d > 0; d >>= 1) {   // up-sweep (reduce)
            __syncthreads();
            if (tid < d) {
                int i = offset * (2 * tid + 1) - 1;
                int j = offset * (2 * tid + 2) - 1;
                i += CFO(i);
                j += CFO(j);
                temp[j] += temp[i];
            }
            offset <<= 1;
        }
        if (tid == 0) {
            const int last = BL_TILE - 1 + CFO(BL_TILE - 1);
            s_total = temp[last];
            temp[last] = 0.f;
        }
        for (int d = 1; d < BL_TILE; d <<= 1) {        // down-sweep
            offset >>= 1;
            __syncthreads();
            if (tid < d) {
                int i = offset * (2 * tid + 1) - 1;
                int j = offset * (2 * tid + 2) - 1;
                i += CFO(i);
                j += CFO(j);
                float t = temp[i];
                temp[i] = temp[j];
                temp[j] += t;
            }
        }
        __syncthreads();
        if (ga < L) out[base + ga] = carry + temp[ai + CFO(ai)] + va;
        if (gb < L) out[base + gb] = carry + temp[bi + CFO(bi)] + vb;
        carry += s_total;
        __syncthreads();  // temp / s_total are reused by the next tile
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

    masked_cumsum_blelloch_kernel<<<rows, BL_THREADS, 0, stream>>>(xp, mp, op, L);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "kernel launch failed");
    return out;
}
"""

masked_cumsum_cpp_source = "torch::Tensor masked_cumsum_cuda(torch::Tensor x, torch::Tensor mask, int64_t dim, int64_t stream_handle);"

masked_cumsum = load_inline(name="masked_cumsum_blelloch", cpp_sources=masked_cumsum_cpp_source, cuda_sources=masked_cumsum_source,
                            functions=["masked_cumsum_cuda"], verbose=False, extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return masked_cumsum.masked_cumsum_cuda(x, mask, self.dim, stream)
