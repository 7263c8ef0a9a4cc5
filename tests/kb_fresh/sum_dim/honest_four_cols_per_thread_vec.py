# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sum_vec_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <stdint.h>

#define THREADS 128
#define COLS 4

// Each work item is (o, group of 4 adjacent columns). A thread keeps 4 independent accumulators and
// walks down the reduced axis; when the contiguous axis is a multiple of 4 and the pointer is 16-byte
// aligned it reads the 4 columns with one float4 load, otherwise with 4 guarded scalar loads.
// Work items are distributed with a grid-stride loop.
__global__ void sum_dim_cols4_kernel(const float* __restrict__ x, float* __restrict__ out,
                                     int64_t outer, int reduce, int inner, bool vec_ok) {
    const int groups = (inner + COLS - 1) / COLS;
    const int64_t total = outer * groups;
    for (int64_t item = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; item < total;
         item += (int64_t)gridDim.x * blockDim.x) {
        const int64_t o = item / groups;
        const int c0 = (int)(item % groups) * COLS;
        const float* base = x + o * (int64_t)reduce * inner + c0;
        float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;

        if (vec_ok) {
            #pragma unroll 4
            for (int r = 0; r < reduce; ++r) {
                const float4 q = *reinterpret_cast<const float4*>(base + (int64_t)r * inner);
                a0 += q.x; a1 += q.y; a2 += q.z; a3 += q.w;
            }
        } else {
            const int ncols = min(COLS, inner - c0);
            #pragma unroll 4
            for (int r = 0; r < reduce; ++r) {
                const float* p = base + (int64_t)r * inner;
                a0 += p[0];
                if (ncols > 1) a1 += p[1];
                if (ncols > 2) a2 += p[2];
                if (ncols > 3) a3 += p[3];
            }
        }

        float* o_ptr = out + o * inner + c0;
        if (vec_ok) {
            *reinterpret_cast<float4*>(o_ptr) = make_float4(a0, a1, a2, a3);
        } else {
            o_ptr[0] = a0;
            if (c0 + 1 < inner) o_ptr[1] = a1;
            if (c0 + 2 < inner) o_ptr[2] = a2;
            if (c0 + 3 < inner) o_ptr[3] = a3;
        }
    }
}

torch::Tensor sum_dim_vec(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "only float32 is supported");
    x = x.contiguous();
    if (dim < 0) dim += x.dim();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= x.size(d);
    for (int64_t d = dim + 1; d < x.dim(); ++d) inner *= x.size(d);
    const int64_t reduce = x.size(dim);

    auto sizes = x.sizes().vec();
    sizes[dim] = 1;
    auto out = torch::empty(sizes, x.options());

    const bool vec_ok = (inner % COLS == 0) &&
                        (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0) &&
                        (reinterpret_cast<uintptr_t>(out.data_ptr<float>()) % 16 == 0);
    const int64_t groups = (inner + COLS - 1) / COLS;
    const int64_t total = outer * groups;
    const int num_sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const int64_t needed = (total + THREADS - 1) / THREADS;
    const int blocks = (int)std::min<int64_t>(needed, (int64_t)num_sms * 8);
    sum_dim_cols4_kernel<<<blocks, THREADS, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<float>(), out.data_ptr<float>(), outer, (int)reduce, (int)inner, vec_ok);
    return out;
}
"""

sum_vec_cpp = "torch::Tensor sum_dim_vec(torch::Tensor x, int64_t dim);"

sum_vec = load_inline(
    name="kbf_sum_dim_four_cols_per_thread_vec",
    cpp_sources=sum_vec_cpp,
    cuda_sources=sum_vec_source,
    functions=["sum_dim_vec"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum_vec.sum_dim_vec(x, self.dim)
