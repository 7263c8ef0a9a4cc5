# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

blelloch_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define THREADS 1024
#define TILE (2 * THREADS)

// Work-efficient (Blelloch) scan: each block owns one row and scans it one TILE at a time.
// Every thread loads two elements, the up-sweep builds partial sums in place, the down-sweep
// turns them into an exclusive scan; adding the original element gives the inclusive result.
__global__ void blelloch_cumsum_kernel(const float* __restrict__ input, float* __restrict__ output,
                                       int len) {
    __shared__ float temp[TILE];
    const int64_t row = blockIdx.x;
    const float* in_row = input + row * len;
    float* out_row = output + row * len;
    const int tid = threadIdx.x;

    float carry = 0.0f;
    for (int base = 0; base < len; base += TILE) {
        const int i0 = base + 2 * tid;
        const int i1 = i0 + 1;
        const float a = (i0 < len) ? in_row[i0] : 0.0f;
        const float b = (i1 < len) ? in_row[i1] : 0.0f;
        temp[2 * tid] = a;
        temp[2 * tid + 1] = b;

        // up-sweep (reduce) phase
        int offset = 1;
        for (int d = TILE >> 1; d > 0; d >>= 1) {
            __syncthreads();
            if (tid < d) {
                int ai = offset * (2 * tid + 1) - 1;
                int bi = offset * (2 * tid + 2) - 1;
                temp[bi] += temp[ai];
            }
            offset <<= 1;
        }
        __syncthreads();
        const float tile_total = temp[TILE - 1];
        __syncthreads();
        if (tid == 0) temp[TILE - 1] = 0.0f;

        // down-sweep phase
        for (int d = 1; d < TILE; d <<= 1) {
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

        if (i0 < len) out_row[i0] = carry + temp[2 * tid] + a;
        if (i1 < len) out_row[i1] = carry + temp[2 * tid + 1] + b;
        carry += tile_total;
        __syncthreads();  // temp is reused by the next tile
    }
}

torch::Tensor blelloch_cumsum(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "input must be on CUDA");
    TORCH_CHECK(x.scalar_type() == at::kFloat, "input must be float32");
    x = x.contiguous();
    const int len = x.size(-1);
    const int rows = x.numel() / len;
    auto out = torch::empty_like(x);
    blelloch_cumsum_kernel<<<rows, THREADS, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), len);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

blelloch_cpp_source = "torch::Tensor blelloch_cumsum(torch::Tensor x);"

blelloch_ext = load_inline(
    name="kbf_cumsum_blelloch_work_efficient",
    cpp_sources=blelloch_cpp_source,
    cuda_sources=blelloch_source,
    functions=["blelloch_cumsum"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim if self.dim >= 0 else self.dim + x.dim()
        if dim != x.dim() - 1:
            x = x.transpose(dim, -1).contiguous()
            return blelloch_ext.blelloch_cumsum(x).transpose(dim, -1)
        return blelloch_ext.blelloch_cumsum(x)
