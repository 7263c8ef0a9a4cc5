# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

triplet_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define THREADS 256
#define NWARPS (THREADS / 32)
#define BLOCKS_PER_SM 8
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL_MASK, v, off);
    return v;
}

// Persistent kernel: a grid sized to fill the GPU once; every warp walks rows with a grid-stride loop.
// Loads are 128-bit streaming loads (__ldcs, the data is touched exactly once), the inner loop is
// unrolled so each lane keeps many independent loads in flight.  Each lane 0 accumulates the losses of
// its rows in a register; the block writes one partial, and a tiny second kernel sums the partials
// in double precision and scales by 1/B.
__global__ void __launch_bounds__(THREADS)
triplet_persistent_kernel(const float4* __restrict__ a,
                          const float4* __restrict__ p,
                          const float4* __restrict__ n,
                          float* __restrict__ partials,
                          int B, int D4, float margin) {
    __shared__ float s_loss[NWARPS];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int gwarp = blockIdx.x * NWARPS + warp;
    const int total_warps = gridDim.x * NWARPS;
    const float eps = 1e-6f;

    float my_loss = 0.f;
    for (int row = gwarp; row < B; row += total_warps) {
        const size_t base = (size_t)row * D4;
        const float4* ar = a + base;
        const float4* pr = p + base;
        const float4* nr = n + base;
        float sp0 = 0.f, sp1 = 0.f, sn0 = 0.f, sn1 = 0.f;
        #pragma unroll 8
        for (int k = lane; k < D4; k += 32) {
            float4 va = __ldcs(ar + k);
            float4 vp = __ldcs(pr + k);
            float4 vn = __ldcs(nr + k);
            float d;
            d = va.x - vp.x + eps; sp0 = fmaf(d, d, sp0);
            d = va.y - vp.y + eps; sp1 = fmaf(d, d, sp1);
            d = va.z - vp.z + eps; sp0 = fmaf(d, d, sp0);
            d = va.w - vp.w + eps; sp1 = fmaf(d, d, sp1);
            d = va.x - vn.x + eps; sn0 = fmaf(d, d, sn0);
            d = va.y - vn.y + eps; sn1 = fmaf(d, d, sn1);
            d = va.z - vn.z + eps; sn0 = fmaf(d, d, sn0);
            d = va.w - vn.w + eps; sn1 = fmaf(d, d, sn1);
        }
        float sp = warp_sum(sp0 + sp1);
        float sn = warp_sum(sn0 + sn1);
        my_loss += fmaxf(sqrtf(sp) - sqrtf(sn) + margin, 0.f);  // identical in all lanes
    }
    if (lane == 0) s_loss[warp] = my_loss;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.f;
        #pragma unroll
        for (int w = 0; w < NWARPS; ++w) t += s_loss[w];
        partials[blockIdx.x] = t;
    }
}

__global__ void triplet_finalize_kernel(const float* __restrict__ partials, float* __restrict__ out,
                                        int num_partials, int B) {
    __shared__ double s_warp[THREADS / 32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    double acc = 0.0;
    for (int i = threadIdx.x; i < num_partials; i += THREADS) acc += (double)partials[i];
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, off);
    if (lane == 0) s_warp[warp] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        double t = 0.0;
        #pragma unroll
        for (int w = 0; w < THREADS / 32; ++w) t += s_warp[w];
        out[0] = (float)(t / (double)B);
    }
}

torch::Tensor triplet_cuda(torch::Tensor anchor, torch::Tensor positive, torch::Tensor negative, double margin, int64_t stream_handle) {
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_handle);
    TORCH_CHECK(anchor.is_cuda() && positive.is_cuda() && negative.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(anchor.scalar_type() == torch::kFloat32 && positive.scalar_type() == torch::kFloat32 &&
                negative.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(anchor.dim() == 2, "expected (batch, dim) inputs");
    TORCH_CHECK(anchor.sizes() == positive.sizes() && anchor.sizes() == negative.sizes(), "shape mismatch");
    auto a = anchor.contiguous();
    auto p = positive.contiguous();
    auto n = negative.contiguous();
    int B = (int)a.size(0);
    int D = (int)a.size(1);
    TORCH_CHECK(B > 0, "empty batch");
    TORCH_CHECK(D % 4 == 0, "feature dim must be a multiple of 4 for float4 loads");
    TORCH_CHECK(((uintptr_t)a.data_ptr<float>() % 16 == 0) && ((uintptr_t)p.data_ptr<float>() % 16 == 0) &&
                ((uintptr_t)n.data_ptr<float>() % 16 == 0), "inputs must be 16-byte aligned");
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, a.get_device());
    if (sms <= 0) sms = 132;
    int blocks = sms * BLOCKS_PER_SM;
    const int needed = (B + NWARPS - 1) / NWARPS;
    if (blocks > needed) blocks = needed;
    auto partials = torch::empty({blocks}, a.options());
    auto out = torch::empty({}, a.options());
    triplet_persistent_kernel<<<blocks, THREADS, 0, stream>>>(
        reinterpret_cast<const float4*>(a.data_ptr<float>()), reinterpret_cast<const float4*>(p.data_ptr<float>()),
        reinterpret_cast<const float4*>(n.data_ptr<float>()), partials.data_ptr<float>(), B, D / 4, (float)margin);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "main kernel launch failed");
    triplet_finalize_kernel<<<1, THREADS, 0, stream>>>(partials.data_ptr<float>(), out.data_ptr<float>(), blocks, B);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "finalize kernel launch failed");
    return out;
}
"""

triplet_cpp_source = "torch::Tensor triplet_cuda(torch::Tensor anchor, torch::Tensor positive, torch::Tensor negative, double margin, int64_t stream_handle);"

triplet = load_inline(name="triplet_persistent_gridstride", cpp_sources=triplet_cpp_source, cuda_sources=triplet_source,
                      functions=["triplet_cuda"], verbose=False, extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, margin: float = 1.0):
        super().__init__()
        self.margin = float(margin)

    def forward(self, anchor: torch.Tensor, positive: torch.Tensor, negative: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(anchor.device).cuda_stream
        return triplet.triplet_cuda(anchor, positive, negative, self.margin, stream)
