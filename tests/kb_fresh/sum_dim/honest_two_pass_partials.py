# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

two_pass_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

#define PASS1_THREADS 128
#define CHUNK_ROWS 32
#define PASS2_THREADS 256

// Pass 1: grid = (column tiles, chunks of the reduced axis, outer). Each thread sums CHUNK_ROWS rows
//         of one column and writes the partial sum to partials[o][chunk][col] (deterministic, no atomics).
// Pass 2: one thread per output adds the num_chunks partial sums of its column.
__global__ void partial_sum_kernel(const float* __restrict__ x, float* __restrict__ partials,
                                   int reduce, int inner, int num_chunks) {
    const int col = blockIdx.x * PASS1_THREADS + threadIdx.x;
    if (col >= inner) return;
    const int chunk = blockIdx.y;
    const int64_t o = blockIdx.z;
    const int r0 = chunk * CHUNK_ROWS;
    const int r1 = min(r0 + CHUNK_ROWS, reduce);
    const float* base = x + o * (int64_t)reduce * inner + col;

    float acc0 = 0.0f, acc1 = 0.0f;
    int r = r0;
    for (; r + 1 < r1; r += 2) {
        acc0 += base[(int64_t)r * inner];
        acc1 += base[(int64_t)(r + 1) * inner];
    }
    if (r < r1) acc0 += base[(int64_t)r * inner];
    partials[(o * num_chunks + chunk) * (int64_t)inner + col] = acc0 + acc1;
}

__global__ void final_sum_kernel(const float* __restrict__ partials, float* __restrict__ out,
                                 int64_t outer, int inner, int num_chunks) {
    const int64_t idx = (int64_t)blockIdx.x * PASS2_THREADS + threadIdx.x;
    if (idx >= outer * inner) return;
    const int64_t o = idx / inner;
    const int64_t col = idx % inner;
    const float* p = partials + o * num_chunks * (int64_t)inner + col;
    float s = 0.0f;
    for (int c = 0; c < num_chunks; ++c) s += p[(int64_t)c * inner];
    out[idx] = s;
}

torch::Tensor sum_dim_two_pass(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    x = x.contiguous();
    if (dim < 0) dim += x.dim();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
    for (int64_t d = dim + 1; d < x.dim(); ++d) inner *= x.size(d);
    const int64_t reduce = x.size(dim);
    const int num_chunks = (int)((reduce + CHUNK_ROWS - 1) / CHUNK_ROWS);
    TORCH_CHECK(outer <= 65535 && num_chunks <= 65535, "shape too large for this grid");

    auto sizes = x.sizes().vec();
    sizes[dim] = 1;
    auto out = torch::empty(sizes, x.options());
    auto partials = torch::empty({outer, (int64_t)num_chunks, inner}, x.options());
    auto stream = at::cuda::getCurrentCUDAStream();

    dim3 grid1((unsigned)((inner + PASS1_THREADS - 1) / PASS1_THREADS), (unsigned)num_chunks, (unsigned)outer);
    partial_sum_kernel<<<grid1, PASS1_THREADS, 0, stream>>>(
        x.data_ptr<float>(), partials.data_ptr<float>(), (int)reduce, (int)inner, num_chunks);

    const int64_t total = outer * inner;
    const int grid2 = (int)((total + PASS2_THREADS - 1) / PASS2_THREADS);
    final_sum_kernel<<<grid2, PASS2_THREADS, 0, stream>>>(
        partials.data_ptr<float>(), out.data_ptr<float>(), outer, (int)inner, num_chunks);
    return out;
}
"""

two_pass_cpp = "torch::Tensor sum_dim_two_pass(torch::Tensor x, int64_t dim);"

two_pass = load_inline(
    name="kbf_sum_dim_two_pass_partials",
    cpp_sources=two_pass_cpp,
    cuda_sources=two_pass_source,
    functions=["sum_dim_two_pass"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return two_pass.sum_dim_two_pass(x, self.dim)
