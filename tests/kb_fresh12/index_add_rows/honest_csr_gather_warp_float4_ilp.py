# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor index_add_rows_cuda(torch::Tensor src, torch::Tensor index, int64_t num_out);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: counting sort of source rows by destination (histogram, one-block scan, atomic-cursor fill)
// gives a CSR list per output row; then one warp per output row gathers its rows. Each lane keeps two
// float4 column accumulators (64 float4 = 256 columns per pass), the warp reads 32 list entries at a
// time with one coalesced load and broadcasts them with shuffles, and the row loop is unrolled by 4 so
// 8 independent 128-bit loads per lane are in flight. Scalar-typed variant for dim % 4 != 0 / misaligned.

__global__ void count_kernel(const int64_t* __restrict__ index, int* __restrict__ counts,
                             int64_t n, int64_t num_out) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int64_t o = index[i];
    if (o < 0 || o >= num_out) return;
    atomicAdd(&counts[o], 1);
}

__global__ void scan_kernel(const int* __restrict__ counts, int* __restrict__ offsets,
                            int* __restrict__ cursor, int m) {
    __shared__ int sums[1024];
    const int tid = threadIdx.x;
    const int T = blockDim.x;
    const int per = (m + T - 1) / T;
    const int begin = tid * per;
    int end = begin + per;
    if (end > m) end = m;
    int s = 0;
    for (int i = begin; i < end; ++i) s += counts[i];
    sums[tid] = s;
    __syncthreads();
    for (int off = 1; off < T; off <<= 1) {
        int v = (tid >= off) ? sums[tid - off] : 0;
        __syncthreads();
        sums[tid] += v;
        __syncthreads();
    }
    int run = sums[tid] - s;
    for (int i = begin; i < end; ++i) {
        offsets[i] = run;
        cursor[i] = run;
        run += counts[i];
    }
    if (tid == T - 1) offsets[m] = sums[T - 1];
}

__global__ void fill_kernel(const int64_t* __restrict__ index, int* __restrict__ cursor,
                            int* __restrict__ perm, int64_t n, int64_t num_out) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int64_t o = index[i];
    if (o < 0 || o >= num_out) return;
    int pos = atomicAdd(&cursor[o], 1);
    perm[pos] = (int)i;
}

__device__ __forceinline__ float vzero(float) { return 0.0f; }
__device__ __forceinline__ float4 vzero(float4) { return make_float4(0.f, 0.f, 0.f, 0.f); }
__device__ __forceinline__ float vadd(float a, float b) { return a + b; }
__device__ __forceinline__ float4 vadd(float4 a, float4 b) {
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

template <typename V>
__global__ void gather_warp_kernel(const V* __restrict__ src, const int* __restrict__ offsets,
                                   const int* __restrict__ perm, V* __restrict__ out,
                                   int64_t num_out, int64_t dimv) {
    const int lane = threadIdx.x & 31;
    const int64_t o = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (o >= num_out) return;                          // warp-uniform
    const int beg = offsets[o];
    const int end = offsets[o + 1];
    const V z = vzero(V());

    for (int64_t cb = 0; cb < dimv; cb += 64) {
        const int64_t c0 = cb + lane;
        const int64_t c1 = cb + 32 + lane;
        const bool p0 = c0 < dimv;
        const bool p1 = c1 < dimv;
        V a0 = z, a1 = z;
        for (int kb = beg; kb < end; kb += 32) {
            const int cnt = (end - kb) < 32 ? (end - kb) : 32;   // warp-uniform
            const int mine = (lane < cnt) ? __ldg(perm + kb + lane) : 0;
            int j = 0;
            for (; j + 4 <= cnt; j += 4) {
                const V* rp[4];
#pragma unroll
                for (int u = 0; u < 4; ++u) {
                    const int r = __shfl_sync(0xffffffffu, mine, j + u);
                    rp[u] = src + (int64_t)r * dimv;
                }
                V x[4], y[4];
#pragma unroll
                for (int u = 0; u < 4; ++u) {
                    x[u] = p0 ? __ldg(rp[u] + c0) : z;
                    y[u] = p1 ? __ldg(rp[u] + c1) : z;
                }
#pragma unroll
                for (int u = 0; u < 4; ++u) {
                    a0 = vadd(a0, x[u]);
                    a1 = vadd(a1, y[u]);
                }
            }
            for (; j < cnt; ++j) {
                const int r = __shfl_sync(0xffffffffu, mine, j);
                const V* rp = src + (int64_t)r * dimv;
                if (p0) a0 = vadd(a0, __ldg(rp + c0));
                if (p1) a1 = vadd(a1, __ldg(rp + c1));
            }
        }
        if (p0) out[o * dimv + c0] = a0;
        if (p1) out[o * dimv + c1] = a1;
    }
}

torch::Tensor index_add_rows_cuda(torch::Tensor src, torch::Tensor index, int64_t num_out) {
    TORCH_CHECK(src.is_cuda(), "src must be a CUDA tensor");
    TORCH_CHECK(index.is_cuda(), "index must be a CUDA tensor");
    TORCH_CHECK(src.dim() == 2, "src must be 2-D");
    TORCH_CHECK(src.scalar_type() == torch::kFloat32, "src must be float32");
    TORCH_CHECK(index.scalar_type() == torch::kInt64, "index must be int64");
    auto s = src.contiguous();
    auto idx = index.contiguous();
    int64_t n = s.size(0);
    int64_t dim = s.size(1);
    TORCH_CHECK(idx.numel() == n, "index length must match src rows");
    TORCH_CHECK(n < (int64_t)INT32_MAX, "too many rows for int32 CSR");
    TORCH_CHECK(num_out < (int64_t)INT32_MAX, "num_out too large");
    if (num_out == 0 || dim == 0 || n == 0) return torch::zeros({num_out, dim}, s.options());
    auto out = torch::empty({num_out, dim}, s.options());

    auto iopt = s.options().dtype(torch::kInt32);
    auto counts = torch::zeros({num_out}, iopt);
    auto offsets = torch::empty({num_out + 1}, iopt);
    auto cursor = torch::empty({num_out}, iopt);
    auto perm = torch::empty({n}, iopt);

    const int64_t* ip = idx.data_ptr<int64_t>();
    const int threads = 256;
    unsigned int nblocks = (unsigned int)((n + threads - 1) / threads);
    count_kernel<<<nblocks, threads>>>(ip, counts.data_ptr<int>(), n, num_out);
    scan_kernel<<<1, 1024>>>(counts.data_ptr<int>(), offsets.data_ptr<int>(), cursor.data_ptr<int>(), (int)num_out);
    fill_kernel<<<nblocks, threads>>>(ip, cursor.data_ptr<int>(), perm.data_ptr<int>(), n, num_out);

    const float* sp = s.data_ptr<float>();
    float* op = out.data_ptr<float>();
    bool vec4 = (dim % 4 == 0) &&
                (reinterpret_cast<uintptr_t>(sp) % 16 == 0) &&
                (reinterpret_cast<uintptr_t>(op) % 16 == 0);
    const int gthreads = 256;                          // 8 warps = 8 output rows per block
    unsigned int gblocks = (unsigned int)((num_out * 32 + gthreads - 1) / gthreads);
    if (vec4) {
        gather_warp_kernel<float4><<<gblocks, gthreads>>>(reinterpret_cast<const float4*>(sp),
            offsets.data_ptr<int>(), perm.data_ptr<int>(), reinterpret_cast<float4*>(op), num_out, dim / 4);
    } else {
        gather_warp_kernel<float><<<gblocks, gthreads>>>(sp, offsets.data_ptr<int>(), perm.data_ptr<int>(),
                                                          op, num_out, dim);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_index_add_csr_gather_warp_float4_ilp",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["index_add_rows_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, num_out: int):
        super().__init__()
        self.num_out = num_out

    def forward(self, src: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
        return my_mod.index_add_rows_cuda(src, index, self.num_out)
