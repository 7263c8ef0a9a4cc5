# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cumsum_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define BLOCK_SIZE 512

// One block per row. The row is walked in chunks of BLOCK_SIZE elements; each chunk is scanned with a
// double-buffered Hillis-Steele scan in shared memory and the running total of previous chunks is added.
__global__ void cumsum_hillis_steele_kernel(const float* __restrict__ x, float* __restrict__ y, int len) {
    __shared__ float buf[2][BLOCK_SIZE];
    const int64_t row = blockIdx.x;
    const float* xr = x + row * len;
    float* yr = y + row * len;
    const int tid = threadIdx.x;

    float carry = 0.0f;
    for (int base = 0; base < len; base += BLOCK_SIZE) {
        const int idx = base + tid;
        buf[0][tid] = (idx < len) ? xr[idx] : 0.0f;
        __syncthreads();

        int pin = 0;
        for (int offset = 1; offset < BLOCK_SIZE; offset <<= 1) {
            const int pout = 1 - pin;
            float v = buf[pin][tid];
            if (tid >= offset) v += buf[pin][tid - offset];
            buf[pout][tid] = v;
            pin = pout;
            __syncthreads();
        }

        if (idx < len) yr[idx] = buf[pin][tid] + carry;
        carry += buf[pin][BLOCK_SIZE - 1];
        __syncthreads();  // everyone is done reading buf before the next chunk overwrites it
    }
}

torch::Tensor cumsum_cuda(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && (dim == 1 || dim == -1), "expects a 2D tensor scanned along dim 1");
    auto xc = x.contiguous();
    const int rows = xc.size(0);
    const int len = xc.size(1);
    auto y = torch::empty_like(xc);
    cumsum_hillis_steele_kernel<<<rows, BLOCK_SIZE, 0, at::cuda::getCurrentCUDAStream()>>>(
        xc.data_ptr<float>(), y.data_ptr<float>(), len);
    return y;
}
"""

cumsum_cpp_source = "torch::Tensor cumsum_cuda(torch::Tensor x, int64_t dim);"

cumsum_module = load_inline(
    name="kbf_cumsum_hillis_steele_smem",
    cpp_sources=cumsum_cpp_source,
    cuda_sources=cumsum_source,
    functions=["cumsum_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
        self.cumsum = cumsum_module

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.cumsum.cumsum_cuda(x, self.dim)
