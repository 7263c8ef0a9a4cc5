# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor index_add_rows_cuda(torch::Tensor src, torch::Tensor index, int64_t num_out);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Strategy: shared-memory privatisation, like a histogram. The output columns are cut into slices of
// CW columns so that a whole (num_out x CW) column slice of the output fits in shared memory. Each block
// owns one column slice and one chunk of source rows: it accumulates with shared-memory atomics, then
// flushes the non-zero partial sums to global memory with one global atomicAdd each. blockIdx.x runs
// over the column slices so co-resident blocks read the same source rows (L2 reuse).
// Falls back to direct global atomics when even a 1-column slice does not fit in shared memory.

template <int CW>
__global__ void index_add_smem_kernel(const float* __restrict__ src,
                                      const int64_t* __restrict__ index,
                                      float* __restrict__ out,
                                      int64_t n, int64_t dim, int64_t num_out,
                                      int64_t rows_per_chunk) {
    extern __shared__ float acc[];                 // num_out * CW floats
    const int64_t slice_elems = num_out * CW;
    const int64_t col0 = (int64_t)blockIdx.x * CW;
    const int64_t row_begin = (int64_t)blockIdx.y * rows_per_chunk;
    int64_t row_end = row_begin + rows_per_chunk;
    if (row_end > n) row_end = n;

    for (int64_t e = threadIdx.x; e < slice_elems; e += blockDim.x) acc[e] = 0.0f;
    __syncthreads();

    // each thread handles column (threadIdx.x % CW) of rows (threadIdx.x / CW) + k * rows_per_iter
    const int c = threadIdx.x % CW;
    const int r_off = threadIdx.x / CW;
    const int rows_per_iter = blockDim.x / CW;
    const int64_t col = col0 + c;
    const bool col_ok = (col < dim) && (r_off < rows_per_iter);
    if (col_ok) {
        for (int64_t row = row_begin + r_off; row < row_end; row += rows_per_iter) {
            const int64_t o = __ldg(index + row);
            if (o < 0 || o >= num_out) continue;
            const float v = __ldg(src + row * dim + col);
            atomicAdd(&acc[o * CW + c], v);
        }
    }
    __syncthreads();

    for (int64_t e = threadIdx.x; e < slice_elems; e += blockDim.x) {
        const float v = acc[e];
        const int64_t o = e / CW;
        const int64_t cc = col0 + (e - o * CW);
        if (v != 0.0f && cc < dim) atomicAdd(&out[o * dim + cc], v);
    }
}

__global__ void index_add_direct_kernel(const float* __restrict__ src,
                                        const int64_t* __restrict__ index,
                                        float* __restrict__ out,
                                        int64_t n, int64_t dim, int64_t num_out) {
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t total = n * dim;
    if (t >= total) return;
    int64_t row = t / dim;
    int64_t col = t - row * dim;
    int64_t o = index[row];
    if (o < 0 || o >= num_out) return;
    atomicAdd(&out[o * dim + col], src[t]);
}

template <int CW>
static void launch_smem(const float* sp, const int64_t* ip, float* op, int64_t n, int64_t dim,
                        int64_t num_out, int sms) {
    const int threads = 512;
    size_t smem = (size_t)num_out * CW * sizeof(float);
    cudaFuncSetAttribute(index_add_smem_kernel<CW>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    int occ = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, index_add_smem_kernel<CW>, threads, smem);
    if (occ < 1) occ = 1;
    int64_t slices = (dim + CW - 1) / CW;
    int64_t resident = (int64_t)sms * occ;
    int64_t chunks = resident / slices;      // one wave of blocks when possible
    if (chunks < 1) chunks = 1;
    // keep each chunk large enough that the flush is amortised
    int64_t min_rows = 4096;
    int64_t max_chunks = (n + min_rows - 1) / min_rows;
    if (max_chunks < 1) max_chunks = 1;
    if (chunks > max_chunks) chunks = max_chunks;
    if (chunks > 65535) chunks = 65535;
    int64_t rows_per_chunk = (n + chunks - 1) / chunks;
    chunks = (n + rows_per_chunk - 1) / rows_per_chunk;
    dim3 grid((unsigned int)slices, (unsigned int)chunks);
    index_add_smem_kernel<CW><<<grid, threads, smem>>>(sp, ip, op, n, dim, num_out, rows_per_chunk);
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
    auto out = torch::zeros({num_out, dim}, s.options());
    if (n == 0 || dim == 0 || num_out == 0) return out;

    const float* sp = s.data_ptr<float>();
    const int64_t* ip = idx.data_ptr<int64_t>();
    float* op = out.data_ptr<float>();

    int dev = 0;
    cudaGetDevice(&dev);
    int sms = 1, max_smem = 48 * 1024;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    const int64_t budget = (int64_t)max_smem;
    const int64_t row_bytes = num_out * (int64_t)sizeof(float);

    if (dim >= 8 && row_bytes * 8 <= budget) {
        launch_smem<8>(sp, ip, op, n, dim, num_out, sms);
    } else if (dim >= 4 && row_bytes * 4 <= budget) {
        launch_smem<4>(sp, ip, op, n, dim, num_out, sms);
    } else if (dim >= 2 && row_bytes * 2 <= budget) {
        launch_smem<2>(sp, ip, op, n, dim, num_out, sms);
    } else if (row_bytes <= budget) {
        launch_smem<1>(sp, ip, op, n, dim, num_out, sms);
    } else {
        const int threads = 256;
        int64_t total = n * dim;
        int64_t blocks = (total + threads - 1) / threads;
        index_add_direct_kernel<<<(unsigned int)blocks, threads>>>(sp, ip, op, n, dim, num_out);
    }
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_index_add_smem_privatized_colslice",
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
