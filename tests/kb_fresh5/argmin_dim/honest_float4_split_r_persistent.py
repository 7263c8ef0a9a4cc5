# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor argmin_dim_vec4_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>
#include <algorithm>
#include <climits>
#include <cstdint>

#define TX 32     // float4 column groups per tile (128 floats = 512 B per warp row)
#define TY 8      // reduced-axis split inside a block
#define UNROLL 4

__device__ __forceinline__ bool argmin_better(float v, int i, float bv, int bi) {
    const bool vn = isnan(v), bn = isnan(bv);
    if (vn || bn) return vn && (!bn || i < bi);
    return v < bv || (v == bv && i < bi);
}

__device__ __forceinline__ void upd(float v, int r, float& b, int& bi) {
    if (argmin_better(v, r, b, bi)) { b = v; bi = r; }
}

__device__ __forceinline__ void upd4(const float4& v, int r, float4& b, int4& bi) {
    upd(v.x, r, b.x, bi.x);
    upd(v.y, r, b.y, bi.y);
    upd(v.z, r, b.z, bi.z);
    upd(v.w, r, b.w, bi.w);
}

// Vector path (inner % 4 == 0, 16B-aligned input).  A tile = TX float4 column groups of one outer
// slice; thread (tx, ty) scans rows ty, ty+TY, ... with UNROLL independent float4 loads in flight,
// keeping 4 running (value, index) pairs.  The TY partial results are merged in shared memory.
// Persistent grid: blocks stride over tiles.
__global__ void __launch_bounds__(TX * TY)
argmin_dim_vec4_kernel(const float4* __restrict__ x, int64_t* __restrict__ out,
                       int64_t outer, int R, int64_t inner4, int64_t col_tiles) {
    __shared__ float4 sval[TY][TX];
    __shared__ int4 sidx[TY][TX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t tiles = outer * col_tiles;

    for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {     // uniform across the block
        const int64_t o = t / col_tiles;
        const int64_t c4 = (t - o * col_tiles) * TX + tx;
        const bool valid = c4 < inner4;

        float4 b = make_float4(INFINITY, INFINITY, INFINITY, INFINITY);
        int4 bi = make_int4(INT_MAX, INT_MAX, INT_MAX, INT_MAX);
        if (valid) {
            const float4* p = x + o * (int64_t)R * inner4 + c4;
            int r = ty;
            for (; r + (UNROLL - 1) * TY < R; r += UNROLL * TY) {
                const float4 v0 = __ldg(p + (int64_t)r * inner4);
                const float4 v1 = __ldg(p + (int64_t)(r + TY) * inner4);
                const float4 v2 = __ldg(p + (int64_t)(r + 2 * TY) * inner4);
                const float4 v3 = __ldg(p + (int64_t)(r + 3 * TY) * inner4);
                upd4(v0, r, b, bi);
                upd4(v1, r + TY, b, bi);
                upd4(v2, r + 2 * TY, b, bi);
                upd4(v3, r + 3 * TY, b, bi);
            }
            for (; r < R; r += TY) upd4(__ldg(p + (int64_t)r * inner4), r, b, bi);
        }
        sval[ty][tx] = b;
        sidx[ty][tx] = bi;
        __syncthreads();
        if (ty == 0 && valid) {
#pragma unroll
            for (int k = 1; k < TY; ++k) {
                const float4 v = sval[k][tx];
                const int4 vi = sidx[k][tx];
                upd(v.x, vi.x, b.x, bi.x);
                upd(v.y, vi.y, b.y, bi.y);
                upd(v.z, vi.z, b.z, bi.z);
                upd(v.w, vi.w, b.w, bi.w);
            }
            int64_t* op = out + o * inner4 * 4 + c4 * 4;
            op[0] = (int64_t)bi.x;
            op[1] = (int64_t)bi.y;
            op[2] = (int64_t)bi.z;
            op[3] = (int64_t)bi.w;
        }
        __syncthreads();
    }
}

// Scalar fallback (inner not a multiple of 4 or misaligned): same tiling with one float per thread.
__global__ void __launch_bounds__(TX * TY)
argmin_dim_scalar_kernel(const float* __restrict__ x, int64_t* __restrict__ out,
                         int64_t outer, int R, int64_t inner, int64_t col_tiles) {
    __shared__ float sval[TY][TX + 1];
    __shared__ int sidx[TY][TX + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t tiles = outer * col_tiles;

    for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const int64_t o = t / col_tiles;
        const int64_t c = (t - o * col_tiles) * TX + tx;
        const bool valid = c < inner;
        float b = INFINITY;
        int bi = INT_MAX;
        if (valid) {
            const float* p = x + o * (int64_t)R * inner + c;
            for (int r = ty; r < R; r += TY) upd(__ldg(p + (int64_t)r * inner), r, b, bi);
        }
        sval[ty][tx] = b;
        sidx[ty][tx] = bi;
        __syncthreads();
        if (ty == 0 && valid) {
#pragma unroll
            for (int k = 1; k < TY; ++k) upd(sval[k][tx], sidx[k][tx], b, bi);
            out[o * inner + c] = (int64_t)bi;
        }
        __syncthreads();
    }
}

torch::Tensor argmin_dim_vec4_forward(torch::Tensor x, int64_t dim, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int64_t nd = xc.dim();
    TORCH_CHECK(nd >= 1, "x must have at least one dimension");
    if (dim < 0) dim += nd;
    TORCH_CHECK(dim >= 0 && dim < nd, "dim out of range");

    int64_t outer = 1, inner = 1;
    const int64_t R = xc.size(dim);
    TORCH_CHECK(R > 0, "argmin over an empty dimension");
    TORCH_CHECK(R < INT_MAX - UNROLL * TY, "reduced dimension too large for int indices");
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < nd; ++d) {
        if (d < dim) outer *= xc.size(d);
        if (d > dim) inner *= xc.size(d);
        if (d != dim) out_shape.push_back(xc.size(d));
    }
    auto out = torch::empty(out_shape, xc.options().dtype(torch::kInt64));
    if (outer * inner == 0) return out;

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    dim3 block(TX, TY);

    const float* xp = xc.data_ptr<float>();
    const bool vec_ok = (inner % 4 == 0) && (reinterpret_cast<uintptr_t>(xp) % 16 == 0);
    if (vec_ok) {
        const int64_t inner4 = inner / 4;
        const int64_t col_tiles = (inner4 + TX - 1) / TX;
        const int64_t tiles = outer * col_tiles;
        int per_sm = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, argmin_dim_vec4_kernel, TX * TY, 0);
        if (per_sm <= 0) per_sm = 1;
        const int64_t blocks = std::min<int64_t>(tiles, (int64_t)sms * per_sm);
        argmin_dim_vec4_kernel<<<(unsigned int)blocks, block, 0, stream>>>(
            reinterpret_cast<const float4*>(xp), out.data_ptr<int64_t>(), outer, (int)R, inner4, col_tiles);
    } else {
        const int64_t col_tiles = (inner + TX - 1) / TX;
        const int64_t tiles = outer * col_tiles;
        int per_sm = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, argmin_dim_scalar_kernel, TX * TY, 0);
        if (per_sm <= 0) per_sm = 1;
        const int64_t blocks = std::min<int64_t>(tiles, (int64_t)sms * per_sm);
        argmin_dim_scalar_kernel<<<(unsigned int)blocks, block, 0, stream>>>(
            xp, out.data_ptr<int64_t>(), outer, (int)R, inner, col_tiles);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "argmin_dim vec4 launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

argmin_module = load_inline(
    name="argmin_dim_kb5_float4_split_r_persistent",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["argmin_dim_vec4_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return argmin_module.argmin_dim_vec4_forward(x, self.dim, stream)
