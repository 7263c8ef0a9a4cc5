# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

masked_cumsum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define HS_THREADS 1024

// One block per row; the row is processed in tiles of 1024 elements.  Each tile is scanned with the
// Hillis-Steele (naive, O(n log n) work) inclusive scan in double-buffered shared memory; the running
// total of previous tiles is carried in a register.
__global__ void __launch_bounds__(HS_THREADS)
masked_cumsum_hs_kernel(const float* __restrict__ x,
                        const unsigned char* __restrict__ m,
                        float* __restrict__ out,
                        int L) {
    __shared__ float buf[2][HS_THREADS];
    const int tid = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * L;
    float carry = 0.f;
    for (int start = 0; start < L; start += HS_THREADS) {
        const int idx = start + tid;
        float v = 0.f;
        if (idx < L && m[base + idx]) v = x[base + idx];
        buf[0][tid] = v;
        int pin = 0;
        __syncthreads();
        for (int off = 1; off < HS_THREADS; off <<= 1) {
            float s = buf[pin][tid];
            if (tid >= off) s += buf[pin][tid - off];
            buf[1 - pin][tid] = s;
            pin = 1 - pin;
            __syncthreads();
        }
        if (idx < L) out[base + idx] = carry + buf[pin][tid];
        carry += buf[pin][HS_THREADS - 1];
        __syncthreads();  // everyone has read buf before the next tile overwrites it
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

    masked_cumsum_hs_kernel<<<rows, HS_THREADS, 0, stream>>>(xp, mp, op, L);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "kernel launch failed");
    return out;
}
"""

masked_cumsum_cpp_source = "torch::Tensor masked_cumsum_cuda(torch::Tensor x, torch::Tensor mask, int64_t dim, int64_t stream_handle);"

masked_cumsum = load_inline(name="masked_cumsum_hillis_steele", cpp_sources=masked_cumsum_cpp_source, cuda_sources=masked_cumsum_source,
                            functions=["masked_cumsum_cuda"], verbose=False, extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return masked_cumsum.masked_cumsum_cuda(x, mask, self.dim, stream)
