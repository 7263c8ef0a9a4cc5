# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

l1_norm_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define WARPS_PER_BLOCK 8

// One warp per row: lanes stride over the row in float4s, reduce |x| with shuffles
// (no shared memory, no __syncthreads), then re-read the row and scale it.
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
l1_norm_warp_kernel(const float* __restrict__ x, float* __restrict__ y, long long rows, int cols) {
    const int lane = threadIdx.x & 31;
    const long long row = (long long)blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
    if (row >= rows) return;                       // uniform per warp
    const int cols4 = cols >> 2;
    const float4* xr = reinterpret_cast<const float4*>(x + row * (long long)cols);
    float4* yr = reinterpret_cast<float4*>(y + row * (long long)cols);

    float s = 0.f;
    for (int j = lane; j < cols4; j += 32) {
        const float4 v = __ldg(xr + j);
        s += (fabsf(v.x) + fabsf(v.y)) + (fabsf(v.z) + fabsf(v.w));
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    const float inv_mean = (float)cols / s;

    for (int j = lane; j < cols4; j += 32) {
        float4 v = __ldg(xr + j);
        v.x *= inv_mean; v.y *= inv_mean; v.z *= inv_mean; v.w *= inv_mean;
        yr[j] = v;
    }
}

torch::Tensor l1_norm_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const long long rows = x.size(0), cols = x.size(1);
    if (rows == 0 || cols == 0) return y;
    TORCH_CHECK(cols % 4 == 0, "cols must be a multiple of 4 for the float4 path");
    TORCH_CHECK(cols < (1LL << 31), "too many columns");
    TORCH_CHECK(reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0, "x must be 16-byte aligned");
    const unsigned blocks = (unsigned)((rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK);
    l1_norm_warp_kernel<<<blocks, WARPS_PER_BLOCK * 32>>>(x.data_ptr<float>(), y.data_ptr<float>(),
                                                          rows, (int)cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "l1_norm kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

l1_norm_cpp_source = "torch::Tensor l1_norm_cuda(torch::Tensor x);"

l1_norm = load_inline(
    name="l1_norm_warp_per_row_shuffle_float4",
    cpp_sources=l1_norm_cpp_source,
    cuda_sources=l1_norm_source,
    functions=["l1_norm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l1_norm.l1_norm_cuda(x.contiguous())
