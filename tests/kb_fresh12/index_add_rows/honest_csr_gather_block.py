# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor index_add_rows_cuda(torch::Tensor src, torch::Tensor index, int64_t num_out);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: turn the scatter into a gather. A counting sort of the source rows by destination
// (histogram -> single-block exclusive scan -> atomic-cursor fill) builds a CSR list of source rows per
// output row. Then one block per output row, one thread per column, sums its list in registers and
// writes the result once: no floating-point atomics, and empty output rows are written as zeros.

__global__ void count_kernel(const int64_t* __restrict__ index, int* __restrict__ counts,
                             int64_t n, int64_t num_out) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int64_t o = index[i];
    if (o < 0 || o >= num_out) return;
    atomicAdd(&counts[o], 1);
}

// Single block exclusive scan: each thread scans a contiguous run sequentially, the run totals are
// scanned in shared memory (Hillis-Steele), then each thread writes its run's offsets.
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

__global__ void gather_block_kernel(const float* __restrict__ src, const int* __restrict__ offsets,
                                    const int* __restrict__ perm, float* __restrict__ out,
                                    int64_t dim) {
    const int64_t o = blockIdx.x;
    const int beg = offsets[o];
    const int end = offsets[o + 1];
    for (int64_t c = threadIdx.x; c < dim; c += blockDim.x) {
        float acc = 0.0f;
        for (int k = beg; k < end; ++k) {
            const int64_t r = perm[k];
            acc += src[r * dim + c];
        }
        out[o * dim + c] = acc;
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
    if (num_out == 0 || dim == 0) return torch::zeros({num_out, dim}, s.options());
    if (n == 0) return torch::zeros({num_out, dim}, s.options());
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

    int gthreads = dim >= 256 ? 256 : (int)(((dim + 31) / 32) * 32);
    gather_block_kernel<<<(unsigned int)num_out, gthreads>>>(s.data_ptr<float>(), offsets.data_ptr<int>(),
                                                             perm.data_ptr<int>(), out.data_ptr<float>(), dim);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_index_add_csr_gather_block",
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
