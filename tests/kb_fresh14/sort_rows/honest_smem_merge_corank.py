# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor my_op_cuda(torch::Tensor x);"

cuda_src = r"""
// Strategy: block-per-row merge sort in shared memory. Each thread first sorts runs of 4 with a
// 5-comparator network, then log2(P/4) merge passes between two shared buffers: every element finds
// its output slot directly as (its index in its run) + (its rank in the sibling run), the rank being
// a binary search (lower_bound for the left run, upper_bound for the right run, so ties stay unique).
#include <torch/extension.h>
#include <cuda_runtime.h>

__device__ __forceinline__ void cswap(float& a, float& b) {
    float lo = fminf(a, b);
    float hi = fmaxf(a, b);
    a = lo;
    b = hi;
}

__global__ void merge_sort_rows_kernel(const float* __restrict__ x, float* __restrict__ out,
                                       int cols, int P) {
    extern __shared__ float smem[];
    float* src = smem;
    float* dst = smem + P;
    const long long row = blockIdx.x;
    const float* xr = x + row * cols;
    float* orow = out + row * cols;
    const float INF = __int_as_float(0x7f800000);

    for (int i = threadIdx.x; i < P; i += blockDim.x)
        src[i] = (i < cols) ? xr[i] : INF;
    __syncthreads();

    // sort groups of 4 in registers
    for (int g = threadIdx.x; g < (P >> 2); g += blockDim.x) {
        float4 v = reinterpret_cast<float4*>(src)[g];
        cswap(v.x, v.y);
        cswap(v.z, v.w);
        cswap(v.x, v.z);
        cswap(v.y, v.w);
        cswap(v.y, v.z);
        reinterpret_cast<float4*>(src)[g] = v;
    }
    __syncthreads();

    for (int w = 4; w < P; w <<= 1) {
        for (int i = threadIdx.x; i < P; i += blockDim.x) {
            float v = src[i];
            int runStart = i & ~(w - 1);
            int local = i - runStart;
            int pairBase = i & ~(2 * w - 1);
            bool isLeft = (runStart == pairBase);
            const float* other = src + (isLeft ? runStart + w : runStart - w);
            int lo = 0, hi = w;
            if (isLeft) {
                while (lo < hi) {
                    int mid = (lo + hi) >> 1;
                    if (other[mid] < v) lo = mid + 1; else hi = mid;
                }
            } else {
                while (lo < hi) {
                    int mid = (lo + hi) >> 1;
                    if (other[mid] <= v) lo = mid + 1; else hi = mid;
                }
            }
            dst[pairBase + local + lo] = v;
        }
        __syncthreads();
        float* tmp = src;
        src = dst;
        dst = tmp;
    }

    for (int i = threadIdx.x; i < cols; i += blockDim.x)
        orow[i] = src[i];
}

torch::Tensor my_op_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2, "x must be 2D");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    long long rows = xc.size(0);
    long long cols64 = xc.size(1);
    if (rows == 0 || cols64 == 0) return out;
    TORCH_CHECK(cols64 <= 4096, "this kernel supports rows of at most 4096 elements");
    TORCH_CHECK(rows <= 2147483647LL, "too many rows");
    int cols = (int)cols64;
    int P = 4;
    while (P < cols) P <<= 1;
    const int threads = 256;
    size_t smem = 2 * (size_t)P * sizeof(float);
    merge_sort_rows_kernel<<<(unsigned)rows, threads, smem>>>(
        xc.data_ptr<float>(), out.data_ptr<float>(), cols, P);
    return out;
}
"""

my_mod = load_inline(
    name="kbf14_sort_rows_smem_merge_corank",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["my_op_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.my_op_cuda(x)
