# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

three_pass_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define THREADS 256
#define ITEMS_PER_THREAD 4
#define CHUNK (THREADS * ITEMS_PER_THREAD)

// Pass 1: every block sums one chunk of one row (flattened grid: block b -> row b / nchunks, chunk b % nchunks).
__global__ void chunk_sums_kernel(const float* __restrict__ x, float* __restrict__ chunk_sums,
                                  int64_t len, int nchunks) {
    __shared__ float sdata[THREADS];
    const int64_t b = blockIdx.x;
    const int64_t row = b / nchunks;
    const int chunk = (int)(b - row * nchunks);
    const float* xr = x + row * len;
    const int64_t base = (int64_t)chunk * CHUNK;

    float sum = 0.0f;
    for (int k = threadIdx.x; k < CHUNK; k += THREADS) {
        int64_t col = base + k;
        if (col < len) sum += xr[col];
    }
    sdata[threadIdx.x] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sdata[threadIdx.x] += sdata[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) chunk_sums[b] = sdata[0];
}

// Pass 2: one thread per row turns the chunk sums into exclusive suffix offsets
// (offset of chunk c = sum of all chunks after c).
__global__ void chunk_offsets_kernel(const float* __restrict__ chunk_sums, float* __restrict__ chunk_offsets,
                                     int64_t rows, int nchunks) {
    int64_t row = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* cs = chunk_sums + row * nchunks;
    float* co = chunk_offsets + row * nchunks;
    float acc = 0.0f;
    for (int c = nchunks - 1; c >= 0; --c) {
        co[c] = acc;
        acc += cs[c];
    }
}

// Pass 3: suffix scan inside each chunk plus the chunk offset. Each thread owns 4 consecutive
// elements; thread totals are suffix-scanned across the block with a double-buffered Hillis-Steele scan.
__global__ void chunk_scan_kernel(const float* __restrict__ x, const float* __restrict__ chunk_offsets,
                                  float* __restrict__ y, int64_t len, int nchunks) {
    __shared__ float buf[2][THREADS];
    const int tid = threadIdx.x;
    const int64_t b = blockIdx.x;
    const int64_t row = b / nchunks;
    const int chunk = (int)(b - row * nchunks);
    const float* xr = x + row * len;
    float* yr = y + row * len;
    const int64_t c0 = (int64_t)chunk * CHUNK + (int64_t)tid * ITEMS_PER_THREAD;

    float s[ITEMS_PER_THREAD];
    float acc = 0.0f;
#pragma unroll
    for (int j = ITEMS_PER_THREAD - 1; j >= 0; --j) {
        int64_t col = c0 + j;
        acc += (col < len) ? xr[col] : 0.0f;
        s[j] = acc;
    }

    // inclusive suffix scan of thread totals
    buf[0][tid] = acc;
    __syncthreads();
    int pout = 0;
    for (int offset = 1; offset < THREADS; offset <<= 1) {
        int pin = pout;
        pout = 1 - pout;
        float v = buf[pin][tid];
        if (tid + offset < THREADS) v += buf[pin][tid + offset];
        buf[pout][tid] = v;
        __syncthreads();
    }
    const float after = (tid + 1 < THREADS) ? buf[pout][tid + 1] : 0.0f;
    const float off = chunk_offsets[b] + after;

#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j) {
        int64_t col = c0 + j;
        if (col < len) yr[col] = s[j] + off;
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

    const int nchunks = (int)((len + CHUNK - 1) / CHUNK);
    auto chunk_sums = torch::empty({rows, (int64_t)nchunks}, x.options());
    auto chunk_offsets = torch::empty({rows, (int64_t)nchunks}, x.options());
    const unsigned int nblocks = (unsigned int)(rows * nchunks);
    auto stream = at::cuda::getCurrentCUDAStream();

    chunk_sums_kernel<<<nblocks, THREADS, 0, stream>>>(
        x.data_ptr<float>(), chunk_sums.data_ptr<float>(), len, nchunks);
    C10_CUDA_KERNEL_LAUNCH_CHECK();

    const int off_threads = 128;
    const unsigned int off_blocks = (unsigned int)((rows + off_threads - 1) / off_threads);
    chunk_offsets_kernel<<<off_blocks, off_threads, 0, stream>>>(
        chunk_sums.data_ptr<float>(), chunk_offsets.data_ptr<float>(), rows, nchunks);
    C10_CUDA_KERNEL_LAUNCH_CHECK();

    chunk_scan_kernel<<<nblocks, THREADS, 0, stream>>>(
        x.data_ptr<float>(), chunk_offsets.data_ptr<float>(), y.data_ptr<float>(), len, nchunks);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

three_pass_cpp = "torch::Tensor reverse_cumsum_cuda(torch::Tensor x);"

three_pass = load_inline(
    name="reverse_cumsum_three_pass_chunked",
    cpp_sources=three_pass_cpp,
    cuda_sources=three_pass_source,
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
        out = three_pass.reverse_cumsum_cuda(xt.view(-1, shape[-1]))
        return out.view(shape).movedim(-1, d)
