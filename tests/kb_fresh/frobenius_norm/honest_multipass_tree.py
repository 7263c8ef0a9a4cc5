# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

frob_cuda = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define THREADS 512

// Classic tree reduction: each thread adds two elements while loading (first
// pass squares them), the block reduces in shared memory with sequential
// addressing and finishes the last warp with shuffles. Repeated until one value is left.
template <bool SQUARE>
__global__ void reduce_pass(const float* __restrict__ in, float* __restrict__ out, int64_t len) {
    __shared__ float sdata[THREADS];
    unsigned int tid = threadIdx.x;
    int64_t i = (int64_t)blockIdx.x * (THREADS * 2) + tid;
    float v = 0.0f;
    if (i < len) {
        float a = in[i];
        v = SQUARE ? a * a : a;
    }
    if (i + THREADS < len) {
        float b = in[i + THREADS];
        v += SQUARE ? b * b : b;
    }
    sdata[tid] = v;
    __syncthreads();
    for (unsigned int s = THREADS / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        float sum = sdata[tid] + sdata[tid + 32];
        #pragma unroll
        for (int offset = 16; offset > 0; offset >>= 1)
            sum += __shfl_down_sync(0xffffffff, sum, offset);
        if (tid == 0) out[blockIdx.x] = sum;
    }
}

__global__ void divide_kernel(const float* __restrict__ x, const float* __restrict__ sumsq,
                              float* __restrict__ y, int64_t n) {
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) y[idx] = x[idx] / sqrtf(sumsq[0]);
}

torch::Tensor frob_multipass(torch::Tensor x) {
    auto xc = x.contiguous();
    const int64_t n = xc.numel();
    auto y = torch::empty_like(xc);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    int64_t len = n;
    int64_t blocks = (len + THREADS * 2 - 1) / (THREADS * 2);
    if (blocks < 1) blocks = 1;
    torch::Tensor cur = torch::empty({blocks}, xc.options());
    reduce_pass<true><<<(unsigned int)blocks, THREADS, 0, stream>>>(xc.data_ptr<float>(), cur.data_ptr<float>(), len);
    len = blocks;
    while (len > 1) {
        blocks = (len + THREADS * 2 - 1) / (THREADS * 2);
        torch::Tensor next = torch::empty({blocks}, xc.options());
        reduce_pass<false><<<(unsigned int)blocks, THREADS, 0, stream>>>(cur.data_ptr<float>(), next.data_ptr<float>(), len);
        cur = next;
        len = blocks;
    }

    const int threads = 128;
    divide_kernel<<<(unsigned int)((n + threads - 1) / threads), threads, 0, stream>>>(
        xc.data_ptr<float>(), cur.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

frob_cpp = "torch::Tensor frob_multipass(torch::Tensor x);"

frob_multipass_mod = load_inline(
    name="frob_multipass_tree",
    cpp_sources=frob_cpp,
    cuda_sources=frob_cuda,
    functions=["frob_multipass"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.ext = frob_multipass_mod

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ext.frob_multipass(x.contiguous())
