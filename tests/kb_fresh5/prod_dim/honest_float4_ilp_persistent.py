# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor prod_dim_vec4_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>
#include <cstdint>

#define THREADS 256

__device__ __forceinline__ float4 mul4(float4 a, float4 b) {
    return make_float4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w);
}

// Vector path (inner % 4 == 0, 16-byte aligned base): each work item is 4 adjacent inner columns
// of one outer slice, loaded as float4.  The reduced axis is unrolled by 4 into 4 independent
// accumulators so four 16B loads are in flight per thread.  Persistent grid-stride loop.
__global__ void prod_dim_vec4_kernel(const float4* __restrict__ x, float4* __restrict__ y,
                                     int64_t outer, int64_t R, int64_t inner4) {
    const int64_t items = outer * inner4;
    const int64_t stride = (int64_t)gridDim.x * THREADS;
    for (int64_t it = (int64_t)blockIdx.x * THREADS + threadIdx.x; it < items; it += stride) {
        const int64_t o = it / inner4;
        const int64_t c = it - o * inner4;
        const float4* p = x + o * R * inner4 + c;
        float4 a0 = make_float4(1.f, 1.f, 1.f, 1.f), a1 = a0, a2 = a0, a3 = a0;
        int64_t r = 0;
        for (; r + 4 <= R; r += 4) {
            const float4 v0 = __ldg(p);
            const float4 v1 = __ldg(p + inner4);
            const float4 v2 = __ldg(p + 2 * inner4);
            const float4 v3 = __ldg(p + 3 * inner4);
            a0 = mul4(a0, v0);
            a1 = mul4(a1, v1);
            a2 = mul4(a2, v2);
            a3 = mul4(a3, v3);
            p += 4 * inner4;
        }
        for (; r < R; ++r) { a0 = mul4(a0, __ldg(p)); p += inner4; }
        y[it] = mul4(mul4(a0, a1), mul4(a2, a3));
    }
}

// Scalar fallback for odd inner sizes / misaligned storage: same structure, one column per item.
__global__ void prod_dim_scalar_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       int64_t outer, int64_t R, int64_t inner) {
    const int64_t items = outer * inner;
    const int64_t stride = (int64_t)gridDim.x * THREADS;
    for (int64_t it = (int64_t)blockIdx.x * THREADS + threadIdx.x; it < items; it += stride) {
        const int64_t o = it / inner;
        const int64_t c = it - o * inner;
        const float* p = x + o * R * inner + c;
        float a0 = 1.f, a1 = 1.f, a2 = 1.f, a3 = 1.f;
        int64_t r = 0;
        for (; r + 4 <= R; r += 4) {
            a0 *= __ldg(p);
            a1 *= __ldg(p + inner);
            a2 *= __ldg(p + 2 * inner);
            a3 *= __ldg(p + 3 * inner);
            p += 4 * inner;
        }
        for (; r < R; ++r) { a0 *= __ldg(p); p += inner; }
        y[it] = (a0 * a1) * (a2 * a3);
    }
}

torch::Tensor prod_dim_vec4_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int64_t nd = xc.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");

    int64_t outer = 1, inner = 1;
    const int64_t R = xc.size(dim);
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d) {
        if (d < dim) outer *= xc.size(d);
        if (d > dim) inner *= xc.size(d);
        if (d != dim) out_shape.push_back(xc.size(d));
    }
    auto y = torch::empty(out_shape, xc.options());
    if (outer * inner == 0) return y;

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    const int64_t max_blocks = (int64_t)sms * 8;   // 8 x 256 threads = 2048 resident threads per SM
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    const float* xp = xc.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    const bool vec_ok = (inner % 4 == 0) &&
                        (reinterpret_cast<uintptr_t>(xp) % 16 == 0) &&
                        (reinterpret_cast<uintptr_t>(yp) % 16 == 0);
    if (vec_ok) {
        const int64_t inner4 = inner / 4;
        const int64_t items = outer * inner4;
        const int64_t blocks = std::min<int64_t>((items + THREADS - 1) / THREADS, max_blocks);
        prod_dim_vec4_kernel<<<(unsigned int)blocks, THREADS, 0, stream>>>(
            reinterpret_cast<const float4*>(xp), reinterpret_cast<float4*>(yp), outer, R, inner4);
    } else {
        const int64_t items = outer * inner;
        const int64_t blocks = std::min<int64_t>((items + THREADS - 1) / THREADS, max_blocks);
        prod_dim_scalar_kernel<<<(unsigned int)blocks, THREADS, 0, stream>>>(xp, yp, outer, R, inner);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "prod_dim vec4 launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

prod_module = load_inline(
    name="prod_dim_kb5_float4_ilp_persistent",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["prod_dim_vec4_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return prod_module.prod_dim_vec4_forward(x, self.dim, stream)
