# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define SCAN_THREADS 512

// Reverse every row: out[r][len-1-c] = in[r][c].
__global__ void flip_rows_kernel(const float* __restrict__ in, float* __restrict__ out,
                                 int64_t total, int64_t len) {
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        int64_t row = idx / len;
        int64_t col = idx - row * len;
        out[row * len + (len - 1 - col)] = in[idx];
    }
}

// Inclusive prefix sum along each row. One block per row; the row is processed in chunks of
// SCAN_THREADS elements with a double-buffered Hillis-Steele scan in shared memory and a running carry.
__global__ void row_inclusive_scan_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t len) {
    __shared__ float buf[2][SCAN_THREADS];
    const int tid = threadIdx.x;
    const int64_t row = blockIdx.x;
    const float* rin = in + row * len;
    float* rout = out + row * len;

    float carry = 0.0f;
    for (int64_t start = 0; start < len; start += SCAN_THREADS) {
        int64_t i = start + tid;
        buf[0][tid] = (i < len) ? rin[i] : 0.0f;
        __syncthreads();

        int pout = 0;
        for (int offset = 1; offset < SCAN_THREADS; offset <<= 1) {
            int pin = pout;
            pout = 1 - pout;
            float v = buf[pin][tid];
            if (tid >= offset) v += buf[pin][tid - offset];
            buf[pout][tid] = v;
            __syncthreads();
        }

        if (i < len) rout[i] = buf[pout][tid] + carry;
        float chunk_total = buf[pout][SCAN_THREADS - 1];
        __syncthreads();  // everyone has read buf before the next chunk overwrites it
        carry += chunk_total;
    }
}

torch::Tensor reverse_cumsum_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 2, "x must be 2D (rows, len)");
    x = x.contiguous();
    const int64_t rows = x.size(0);
    const int64_t len = x.size(1);
    const int64_t total = x.numel();
    auto flipped = torch::empty_like(x);
    auto scanned = torch::empty_like(x);
    auto y = torch::empty_like(x);
    if (total == 0) return y;

    auto stream = at::cuda::getCurrentCUDAStream();
    const int flip_threads = 256;
    int64_t flip_blocks64 = (total + flip_threads - 1) / flip_threads;
    const int flip_blocks = (int)(flip_blocks64 < 65535 * 8 ? flip_blocks64 : 65535 * 8);

    flip_rows_kernel<<<flip_blocks, flip_threads, 0, stream>>>(
        x.data_ptr<float>(), flipped.data_ptr<float>(), total, len);
    C10_CUDA_KERNEL_LAUNCH_CHECK();

    row_inclusive_scan_kernel<<<(unsigned int)rows, SCAN_THREADS, 0, stream>>>(
        flipped.data_ptr<float>(), scanned.data_ptr<float>(), len);
    C10_CUDA_KERNEL_LAUNCH_CHECK();

    flip_rows_kernel<<<flip_blocks, flip_threads, 0, stream>>>(
        scanned.data_ptr<float>(), y.data_ptr<float>(), total, len);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

cpp_source = "torch::Tensor reverse_cumsum_cuda(torch::Tensor x);"

rev_cumsum = load_inline(
    name="reverse_cumsum_flip_scan_flip",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["reverse_cumsum_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.dim()
        xt = x.movedim(d, -1).contiguous()
        shape = xt.shape
        out = rev_cumsum.reverse_cumsum_cuda(xt.view(-1, shape[-1]))
        return out.view(shape).movedim(-1, d)
