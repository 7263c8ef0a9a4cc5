# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor matvec_t_persist_cuda(torch::Tensor A, torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>
// Strategy: persistent grid sized from the occupancy calculator (SMs x resident blocks) that
// loops over (column-tile, row-band) work tiles. A block is 32 x 8 threads; a warp streams a
// 512-byte row segment with float4 loads, and each thread keeps UNROLL independent 128-bit
// loads in flight per iteration. Row-lane partials are combined in shared memory and added to
// the zero-initialised output with atomics. Tiles are ordered column-fastest so concurrently
// running blocks stream contiguous memory. Scalar (float) instantiation handles unaligned A
// or N % 4 != 0.

#define TX 32
#define TY 8
#define ROW_BAND 1024
#define UNROLL 4

__device__ __forceinline__ void fma_acc(float4& acc, const float4& a, float s) {
    acc.x = fmaf(a.x, s, acc.x); acc.y = fmaf(a.y, s, acc.y);
    acc.z = fmaf(a.z, s, acc.z); acc.w = fmaf(a.w, s, acc.w);
}
__device__ __forceinline__ void fma_acc(float& acc, float a, float s) { acc = fmaf(a, s, acc); }
__device__ __forceinline__ void add_to(float4& a, const float4& b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }
__device__ __forceinline__ void add_to(float& a, float b) { a += b; }
__device__ __forceinline__ void set_zero(float4& a) { a = make_float4(0.f, 0.f, 0.f, 0.f); }
__device__ __forceinline__ void set_zero(float& a) { a = 0.f; }
__device__ __forceinline__ void atomic_out(float* y, int c, const float4& v) {
    float* p = y + 4LL * c;
    atomicAdd(p, v.x); atomicAdd(p + 1, v.y); atomicAdd(p + 2, v.z); atomicAdd(p + 3, v.w);
}
__device__ __forceinline__ void atomic_out(float* y, int c, float v) { atomicAdd(y + c, v); }

// T = float4 (NV = N/4 vector columns) or float (NV = N)
template <typename T>
__global__ void __launch_bounds__(TX * TY)
matvec_t_persist_kernel(const T* __restrict__ Av, const float* __restrict__ x,
                        float* __restrict__ y, int M, int NV, int colTiles, int numTiles) {
    __shared__ T red[TY][TX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const long long step = (long long)TY * NV;   // distance between a thread's successive rows

    for (int tile = blockIdx.x; tile < numTiles; tile += gridDim.x) {
        const int ct = tile % colTiles;
        const int rt = tile / colTiles;
        const int c = ct * TX + tx;
        const int r0 = rt * ROW_BAND;
        const int r1 = min(r0 + ROW_BAND, M);

        T acc;
        set_zero(acc);
        if (c < NV) {
            int r = r0 + ty;
            const T* a = Av + (long long)r * NV + c;
            for (; r + (UNROLL - 1) * TY < r1; r += UNROLL * TY) {
                T v[UNROLL];
                float xv[UNROLL];
#pragma unroll
                for (int u = 0; u < UNROLL; ++u) v[u] = __ldg(a + u * step);
#pragma unroll
                for (int u = 0; u < UNROLL; ++u) xv[u] = __ldg(x + r + u * TY);
#pragma unroll
                for (int u = 0; u < UNROLL; ++u) fma_acc(acc, v[u], xv[u]);
                a += UNROLL * step;
            }
            for (; r < r1; r += TY) {
                fma_acc(acc, __ldg(a), __ldg(x + r));
                a += step;
            }
        }
        red[ty][tx] = acc;
        __syncthreads();
        if (ty == 0 && c < NV) {
            T t = red[0][tx];
#pragma unroll
            for (int k = 1; k < TY; ++k) add_to(t, red[k][tx]);
            atomic_out(y, c, t);
        }
        __syncthreads();   // red is reused by the next tile
    }
}

template <typename T>
static void launch_persist(const float* A, const float* x, float* y, int M, int NV) {
    int colTiles = (NV + TX - 1) / TX;
    int rowTiles = (M + ROW_BAND - 1) / ROW_BAND;
    long long numTilesL = (long long)colTiles * rowTiles;
    int numTiles = (int)numTilesL;
    int dev = 0;
    cudaGetDevice(&dev);
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    int perSM = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, matvec_t_persist_kernel<T>, TX * TY, 0);
    if (sms <= 0) sms = 1;
    if (perSM <= 0) perSM = 1;
    int grid = (int)std::min<long long>(numTilesL, (long long)sms * perSM);
    dim3 block(TX, TY);
    matvec_t_persist_kernel<T><<<grid, block>>>(reinterpret_cast<const T*>(A), x, y, M, NV, colTiles, numTiles);
}

torch::Tensor matvec_t_persist_cuda(torch::Tensor A, torch::Tensor x) {
    TORCH_CHECK(A.is_cuda() && x.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(A.dim() == 2 && x.dim() == 1, "A must be 2D and x 1D");
    TORCH_CHECK(A.scalar_type() == torch::kFloat32 && x.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(A.size(0) == x.size(0), "size mismatch");
    auto Ac = A.contiguous();
    auto xc = x.contiguous();
    int M = (int)Ac.size(0), N = (int)Ac.size(1);
    auto y = torch::zeros({N}, Ac.options());
    if (N == 0 || M == 0) return y;
    const float* Ap = Ac.data_ptr<float>();
    bool vec = (N % 4 == 0) && (reinterpret_cast<uintptr_t>(Ap) % 16 == 0);
    if (vec)
        launch_persist<float4>(Ap, xc.data_ptr<float>(), y.data_ptr<float>(), M, N / 4);
    else
        launch_persist<float>(Ap, xc.data_ptr<float>(), y.data_ptr<float>(), M, N);
    return y;
}
"""

mv_mod = load_inline(
    name="kbf12_matvec_t_persistent_vec4_ilp",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["matvec_t_persist_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return mv_mod.matvec_t_persist_cuda(A, x)
