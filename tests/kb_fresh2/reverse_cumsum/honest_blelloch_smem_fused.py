# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

blelloch_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define BLOCK 1024
#define CHUNK (2 * BLOCK)

// Fused reverse cumsum: one block per row. The row is consumed from its end in chunks of CHUNK
// elements; each chunk is loaded in reversed order into shared memory, scanned with a work-efficient
// Blelloch (up-sweep / down-sweep) exclusive scan, and written back with the running carry.
__global__ void reverse_cumsum_blelloch_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t len) {
    __shared__ float temp[CHUNK];
    __shared__ float s_total;
    const int tid = threadIdx.x;
    const int64_t row = blockIdx.x;
    const float* xr = x + row * len;
    float* yr = y + row * len;

    float carry = 0.0f;
    for (int64_t base = 0; base < len; base += CHUNK) {
        // position k of the chunk holds column len-1-(base+k)
        const int k0 = 2 * tid;
        const int k1 = 2 * tid + 1;
        const int64_t c0 = len - 1 - (base + k0);
        const int64_t c1 = len - 1 - (base + k1);
        const float v0 = (c0 >= 0) ? xr[c0] : 0.0f;
        const float v1 = (c1 >= 0) ? xr[c1] : 0.0f;
        temp[k0] = v0;
        temp[k1] = v1;

        // up-sweep
        int offset = 1;
        for (int d = CHUNK >> 1; d > 0; d >>= 1) {
            __syncthreads();
            if (tid < d) {
                int ai = offset * (2 * tid + 1) - 1;
                int bi = offset * (2 * tid + 2) - 1;
                temp[bi] += temp[ai];
            }
            offset <<= 1;
        }
        if (tid == 0) {
            s_total = temp[CHUNK - 1];
            temp[CHUNK - 1] = 0.0f;
        }
        // down-sweep
        for (int d = 1; d < CHUNK; d <<= 1) {
            offset >>= 1;
            __syncthreads();
            if (tid < d) {
                int ai = offset * (2 * tid + 1) - 1;
                int bi = offset * (2 * tid + 2) - 1;
                float t = temp[ai];
                temp[ai] = temp[bi];
                temp[bi] += t;
            }
        }
        __syncthreads();

        if (c0 >= 0) yr[c0] = carry + temp[k0] + v0;
        if (c1 >= 0) yr[c1] = carry + temp[k1] + v1;
        carry += s_total;
        __syncthreads();  // temp and s_total are reused by the next chunk
    }
}

torch::Tensor reverse_cumsum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2D (rows, len)");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const int64_t rows = x.size(0);
    const int64_t len = x.size(1);
    if (rows == 0 || len == 0) return y;
    reverse_cumsum_blelloch_kernel<<<(unsigned int)rows, BLOCK, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), len);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

blelloch_cpp = "torch::Tensor reverse_cumsum_cuda(torch::Tensor x);"

blelloch_ext = load_inline(
    name="reverse_cumsum_blelloch_fused",
    cpp_sources=blelloch_cpp,
    cuda_sources=blelloch_source,
    functions=["reverse_cumsum_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        xt = x.movedim(d, -1).contiguous()
        shape = xt.shape
        out = blelloch_ext.reverse_cumsum_cuda(xt.view(-1, shape[-1]))
        return out.view(shape).movedim(-1, d)
