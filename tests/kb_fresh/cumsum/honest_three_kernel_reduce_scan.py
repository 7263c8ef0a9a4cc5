# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define CHUNK 1024
#define REDUCE_THREADS 256
#define SCAN_THREADS CHUNK

// Reduce-then-scan in three launches so that every row is split over many blocks:
//   1) chunk_sum_kernel:     one block per (row, chunk) writes the chunk total
//   2) chunk_offset_kernel:  one thread per row turns the chunk totals into exclusive offsets
//   3) chunk_scan_kernel:    one block per (row, chunk) scans its chunk and adds the offset

__device__ __forceinline__ float warp_reduce_sum(float v) {
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    return v;
}

__global__ void chunk_sum_kernel(const float* __restrict__ x, float* __restrict__ chunk_sums,
                                 int len, int num_chunks) {
    __shared__ float warp_part[REDUCE_THREADS / 32];
    const int64_t row = blockIdx.x / num_chunks;
    const int chunk = blockIdx.x % num_chunks;
    const int start = chunk * CHUNK;
    const int end = min(start + CHUNK, len);
    const float* xr = x + row * len;

    float s = 0.0f;
    for (int i = start + threadIdx.x; i < end; i += REDUCE_THREADS) s += xr[i];
    s = warp_reduce_sum(s);
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (lane == 0) warp_part[wid] = s;
    __syncthreads();
    if (wid == 0) {
        s = (lane < REDUCE_THREADS / 32) ? warp_part[lane] : 0.0f;
        s = warp_reduce_sum(s);
        if (lane == 0) chunk_sums[blockIdx.x] = s;
    }
}

__global__ void chunk_offset_kernel(float* __restrict__ chunk_sums, int rows, int num_chunks) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    float* p = chunk_sums + (int64_t)row * num_chunks;
    float running = 0.0f;
    for (int c = 0; c < num_chunks; ++c) {
        float v = p[c];
        p[c] = running;  // exclusive offset
        running += v;
    }
}

__global__ void chunk_scan_kernel(const float* __restrict__ x, const float* __restrict__ offsets,
                                  float* __restrict__ y, int len, int num_chunks) {
    __shared__ float warp_tot[SCAN_THREADS / 32];
    const int64_t row = blockIdx.x / num_chunks;
    const int chunk = blockIdx.x % num_chunks;
    const int idx = chunk * CHUNK + threadIdx.x;
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const float* xr = x + row * len;
    float* yr = y + row * len;

    float v = (idx < len) ? xr[idx] : 0.0f;
    for (int off = 1; off < 32; off <<= 1) {
        float n = __shfl_up_sync(0xffffffff, v, off);
        if (lane >= off) v += n;
    }
    if (lane == 31) warp_tot[wid] = v;
    __syncthreads();
    if (wid == 0) {
        float w = warp_tot[lane];  // SCAN_THREADS / 32 == 32 warps
        for (int off = 1; off < 32; off <<= 1) {
            float n = __shfl_up_sync(0xffffffff, w, off);
            if (lane >= off) w += n;
        }
        warp_tot[lane] = w;
    }
    __syncthreads();
    if (wid > 0) v += warp_tot[wid - 1];
    if (idx < len) yr[idx] = v + offsets[blockIdx.x];
}

torch::Tensor cumsum_three_pass(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int len = xc.size(-1);
    const int rows = xc.numel() / len;
    const int num_chunks = (len + CHUNK - 1) / CHUNK;
    auto y = torch::empty_like(xc);
    auto chunk_sums = torch::empty({(int64_t)rows * num_chunks}, xc.options());
    auto stream = at::cuda::getCurrentCUDAStream();
    const int total_blocks = rows * num_chunks;

    chunk_sum_kernel<<<total_blocks, REDUCE_THREADS, 0, stream>>>(
        xc.data_ptr<float>(), chunk_sums.data_ptr<float>(), len, num_chunks);
    chunk_offset_kernel<<<(rows + 127) / 128, 128, 0, stream>>>(
        chunk_sums.data_ptr<float>(), rows, num_chunks);
    chunk_scan_kernel<<<total_blocks, SCAN_THREADS, 0, stream>>>(
        xc.data_ptr<float>(), chunk_sums.data_ptr<float>(), y.data_ptr<float>(), len, num_chunks);
    return y;
}
"""

cpp_source = "torch::Tensor cumsum_three_pass(torch::Tensor x);"

three_pass = load_inline(
    name="kbf_cumsum_three_kernel_reduce_scan",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["cumsum_three_pass"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim % x.dim()
        if dim != x.dim() - 1:
            x = x.transpose(dim, -1).contiguous()
            return three_pass.cumsum_three_pass(x).transpose(dim, -1)
        return three_pass.cumsum_three_pass(x)
