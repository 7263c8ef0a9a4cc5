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
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(FULL_MASK, v, off);
    return v;
}

// Single fused kernel.  One block per row; with D = 1024 each of the 256 threads loads exactly one
// float4 from each input.  Block reduction = warp shuffles + a tiny shared array.  Each block stores
// its row loss, fences, and bumps a global counter; the last block to finish reduces all row losses
// and writes the mean (threadFenceReduction pattern), so no second launch is needed.
__global__ void __launch_bounds__(THREADS)
triplet_block_vec_kernel(const float4* __restrict__ a,
                         const float4* __restrict__ p,
                         const float4* __restrict__ n,
                         float* __restrict__ row_loss,
                         unsigned int* __restrict__ counter,
                         float* __restrict__ out,
                         int B, int D4, float margin) {
    __shared__ float s_p[NWARPS];
    __shared__ float s_n[NWARPS];
    __shared__ bool s_is_last;
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int row = blockIdx.x;
    const float eps = 1e-6f;
    const size_t base = (size_t)row * D4;

    float sp = 0.f, sn = 0.f;
    for (int k = tid; k < D4; k += THREADS) {
        float4 va = __ldg(a + base + k);
        float4 vp = __ldg(p + base + k);
        float4 vn = __ldg(n + base + k);
        float d;
        d = va.x - vp.x + eps; sp = fmaf(d, d, sp);
        d = va.y - vp.y + eps; sp = fmaf(d, d, sp);
        d = va.z - vp.z + eps; sp = fmaf(d, d, sp);
        d = va.w - vp.w + eps; sp = fmaf(d, d, sp);
        d = va.x - vn.x + eps; sn = fmaf(d, d, sn);
        d = va.y - vn.y + eps; sn = fmaf(d, d, sn);
        d = va.z - vn.z + eps; sn = fmaf(d, d, sn);
        d = va.w - vn.w + eps; sn = fmaf(d, d, sn);
    }
    sp = warp_sum(sp);
    sn = warp_sum(sn);
    if (lane == 0) { s_p[warp] = sp; s_n[warp] = sn; }
    __syncthreads();
    if (tid == 0) {
        float tp = 0.f, tn = 0.f;
        #pragma unroll
        for (int w = 0; w < NWARPS; ++w) { tp += s_p[w]; tn += s_n[w]; }
        row_loss[row] = fmaxf(sqrtf(tp) - sqrtf(tn) + margin, 0.f);
        __threadfence();
        unsigned int done = atomicAdd(counter, 1u);
        s_is_last = (done == gridDim.x - 1);
    }
    __syncthreads();

    if (s_is_last) {
        // Every other block's row loss is visible (they fenced before their atomic); read through L2.
        float acc = 0.f;
        for (int i = tid; i < B; i += THREADS) acc += __ldcg(row_loss + i);
        acc = warp_sum(acc);
        if (lane == 0) s_p[warp] = acc;
        __syncthreads();
        if (tid == 0) {
            float t = 0.f;
            #pragma unroll
            for (int w = 0; w < NWARPS; ++w) t += s_p[w];
            out[0] = t / (float)B;
        }
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
    auto row_loss = torch::empty({B}, a.options());
    auto counter = torch::zeros({1}, a.options().dtype(torch::kInt32));
    auto out = torch::empty({}, a.options());
    triplet_block_vec_kernel<<<B, THREADS, 0, stream>>>(
        reinterpret_cast<const float4*>(a.data_ptr<float>()), reinterpret_cast<const float4*>(p.data_ptr<float>()),
        reinterpret_cast<const float4*>(n.data_ptr<float>()), row_loss.data_ptr<float>(),
        reinterpret_cast<unsigned int*>(counter.data_ptr<int>()), out.data_ptr<float>(), B, D / 4, (float)margin);
    TORCH_CHECK(cudaGetLastError() == cudaSuccess, "kernel launch failed");
    return out;
}
"""

triplet_cpp_source = "torch::Tensor triplet_cuda(torch::Tensor anchor, torch::Tensor positive, torch::Tensor negative, double margin, int64_t stream_handle);"

triplet = load_inline(name="triplet_block_float4_lastblock", cpp_sources=triplet_cpp_source, cuda_sources=triplet_source,
                      functions=["triplet_cuda"], verbose=False, extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, margin: float = 1.0):
        super().__init__()
        self.margin = float(margin)

    def forward(self, anchor: torch.Tensor, positive: torch.Tensor, negative: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(anchor.device).cuda_stream
        return triplet.triplet_cuda(anchor, positive, negative, self.margin, stream)
