# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mean_dim_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

// x viewed as (outer, R, inner).  Vectorised, split-R tile reduction:
//   * block = 32 x 8 threads; threadIdx.x owns 4 consecutive columns (one float4),
//     so a warp reads 512 contiguous bytes of one row per load;
//   * threadIdx.y strides over the rows of this block's R-chunk, with 4 independent
//     float4 loads in flight per iteration;
//   * grid.x = outer * column tiles, grid.y = nsplit R-chunks, sized so that one
//     wave fills every SM even though there are few outputs;
//   * the 8 per-thread partials of a column are reduced in shared memory and
//     threadIdx.y == 0 adds partial / R into the zero-initialised output (atomicAdd).
#define TX 32
#define TY 8

__global__ void mean_dim_vec4_kernel(const float* __restrict__ x, float* __restrict__ y,
                                     long long R, long long inner, long long col_tiles,
                                     long long chunk, float inv_r) {
    __shared__ float4 red[TY][TX];
    const long long inner4 = inner >> 2;
    const long long o = blockIdx.x / col_tiles;
    const long long c4 = (blockIdx.x % col_tiles) * TX + threadIdx.x;
    const long long r0 = (long long)blockIdx.y * chunk;
    const long long r1 = min(r0 + chunk, R);
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    if (c4 < inner4) {
        const float4* p = reinterpret_cast<const float4*>(x + o * R * inner) + c4;
        long long r = r0 + threadIdx.y;
        for (; r + 3 * TY < r1; r += 4 * TY) {
            const float4 a = __ldg(p + r * inner4);
            const float4 b = __ldg(p + (r + TY) * inner4);
            const float4 c = __ldg(p + (r + 2 * TY) * inner4);
            const float4 d = __ldg(p + (r + 3 * TY) * inner4);
            acc.x += (a.x + b.x) + (c.x + d.x);
            acc.y += (a.y + b.y) + (c.y + d.y);
            acc.z += (a.z + b.z) + (c.z + d.z);
            acc.w += (a.w + b.w) + (c.w + d.w);
        }
        for (; r < r1; r += TY) {
            const float4 a = __ldg(p + r * inner4);
            acc.x += a.x; acc.y += a.y; acc.z += a.z; acc.w += a.w;
        }
    }
    red[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
#pragma unroll
    for (int s = TY / 2; s > 0; s >>= 1) {
        if (threadIdx.y < s) {
            float4 u = red[threadIdx.y][threadIdx.x];
            const float4 v = red[threadIdx.y + s][threadIdx.x];
            u.x += v.x; u.y += v.y; u.z += v.z; u.w += v.w;
            red[threadIdx.y][threadIdx.x] = u;
        }
        __syncthreads();
    }
    if (threadIdx.y == 0 && c4 < inner4) {
        const float4 t = red[0][threadIdx.x];
        float* out = y + o * inner + 4 * c4;
        atomicAdd(out + 0, t.x * inv_r);
        atomicAdd(out + 1, t.y * inv_r);
        atomicAdd(out + 2, t.z * inv_r);
        atomicAdd(out + 3, t.w * inv_r);
    }
}

// Scalar version of the same tiling for inner % 4 != 0 or misaligned inputs.
__global__ void mean_dim_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       long long R, long long inner, long long col_tiles,
                                       long long chunk, float inv_r) {
    __shared__ float red[TY][TX + 1];
    const long long o = blockIdx.x / col_tiles;
    const long long i = (blockIdx.x % col_tiles) * TX + threadIdx.x;
    const long long r0 = (long long)blockIdx.y * chunk;
    const long long r1 = min(r0 + chunk, R);
    float acc = 0.f;
    if (i < inner) {
        const float* p = x + o * R * inner + i;
        for (long long r = r0 + threadIdx.y; r < r1; r += TY) acc += __ldg(p + r * inner);
    }
    red[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
#pragma unroll
    for (int s = TY / 2; s > 0; s >>= 1) {
        if (threadIdx.y < s) red[threadIdx.y][threadIdx.x] += red[threadIdx.y + s][threadIdx.x];
        __syncthreads();
    }
    if (threadIdx.y == 0 && i < inner) atomicAdd(y + o * inner + i, red[0][threadIdx.x] * inv_r);
}

torch::Tensor mean_dim_cuda(torch::Tensor x, int64_t dim, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    x = x.contiguous();
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    const int64_t nd = x.dim();
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");
    int64_t outer = 1, inner = 1;
    std::vector<int64_t> out_sizes;
    for (int64_t d = 0; d < nd; ++d) {
        if (d < dim) outer *= x.size(d);
        if (d > dim) inner *= x.size(d);
        if (d != dim) out_sizes.push_back(x.size(d));
    }
    const int64_t R = x.size(dim);
    TORCH_CHECK(R > 0, "cannot take the mean over an empty dimension");
    auto y = torch::zeros(out_sizes, x.options());
    if (outer * inner == 0) return y;

    const bool vec = (inner % 4 == 0) && (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0);
    const long long cols_per_block = vec ? 4 * TX : TX;
    const long long col_tiles = (inner + cols_per_block - 1) / cols_per_block;
    const long long base_blocks = outer * col_tiles;
    TORCH_CHECK(base_blocks < (1LL << 31), "too many blocks");

    int dev = x.get_device(), sms = 132;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const long long target_blocks = (long long)sms * (2048 / (TX * TY));   // one full wave
    long long nsplit = (target_blocks + base_blocks - 1) / base_blocks;
    // keep at least ~4 rows per thread so the split does not get silly
    nsplit = std::min<long long>(nsplit, std::max<long long>(1, R / (4 * TY)));
    nsplit = std::max(1LL, std::min<long long>(nsplit, 65535));
    const long long chunk = (R + nsplit - 1) / nsplit;
    nsplit = (R + chunk - 1) / chunk;

    dim3 grid((unsigned)base_blocks, (unsigned)nsplit);
    dim3 block(TX, TY);
    if (vec) {
        mean_dim_vec4_kernel<<<grid, block, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(),
            R, inner, col_tiles, chunk, 1.0f / (float)R);
    } else {
        mean_dim_scalar_kernel<<<grid, block, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(),
            R, inner, col_tiles, chunk, 1.0f / (float)R);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "mean_dim kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""
mean_dim_cpp_source = "torch::Tensor mean_dim_cuda(torch::Tensor x, int64_t dim, int64_t stream_ptr);"
mean_dim = load_inline(name="mean_dim_honest_float4_tile_atomic", cpp_sources=mean_dim_cpp_source,
                       cuda_sources=mean_dim_source, functions=["mean_dim_cuda"], verbose=False,
                       extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = int(dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return mean_dim.mean_dim_cuda(x.contiguous(), self.dim, torch.cuda.current_stream(x.device).cuda_stream)
