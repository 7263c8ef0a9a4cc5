# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Split-C pipeline: the output buffer is zeroed, kernel 1 has each thread sum the squares of a
# 64-channel chunk for one (b, l) and atomicAdd the partial into out, and kernel 2 (grid-stride)
# takes the square root in place.  Gives B*L*ceil(C/64) threads of parallelism.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define CHUNK 64
#define THREADS 256

__global__ void l2norm_dim1_partial_kernel(const float* __restrict__ x,
                                           float* __restrict__ acc,
                                           int C, int L) {
    const int l = blockIdx.x * THREADS + threadIdx.x;
    const int c0 = blockIdx.y * CHUNK;
    const int b = blockIdx.z;
    if (l >= L) return;
    const int c1 = min(c0 + CHUNK, C);
    const float* p = x + ((long long)b * C + c0) * L + l;
    float s = 0.0f;
#pragma unroll 8
    for (int c = c0; c < c1; ++c) {
        float v = __ldg(p);
        s = fmaf(v, v, s);
        p += L;
    }
    atomicAdd(acc + (long long)b * L + l, s);
}

__global__ void l2norm_dim1_sqrt_kernel(float* __restrict__ data, long long n) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        data[i] = sqrtf(data[i]);
    }
}

torch::Tensor l2norm_dim1_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 3, "x must be (B, C, L)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    const int B = (int)x.size(0), C = (int)x.size(1), L = (int)x.size(2);
    auto out = torch::empty({B, L}, x.options());
    const long long total = (long long)B * L;
    if (total == 0) return out;
    cudaMemsetAsync(out.data_ptr<float>(), 0, total * sizeof(float), 0);
    if (C > 0) {
        TORCH_CHECK(B <= 65535, "batch too large for grid.z");
        dim3 grid((L + THREADS - 1) / THREADS, (C + CHUNK - 1) / CHUNK, B);
        l2norm_dim1_partial_kernel<<<grid, THREADS>>>(x.data_ptr<float>(), out.data_ptr<float>(), C, L);
        TORCH_CHECK(cudaGetLastError() == cudaSuccess, "l2norm_dim1_partial_kernel launch failed");
    }
    long long blocks = (total + THREADS - 1) / THREADS;
    if (blocks > 4096) blocks = 4096;
    l2norm_dim1_sqrt_kernel<<<(unsigned int)blocks, THREADS>>>(out.data_ptr<float>(), total);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "l2norm_dim1_sqrt_kernel launch failed");
    return out;
}
"""

cpp_source = "torch::Tensor l2norm_dim1_cuda(torch::Tensor x);"

l2norm_ext = load_inline(
    name="l2norm_dim1_split_c_atomic",
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
        return l2norm_ext.l2norm_dim1_cuda(x)
