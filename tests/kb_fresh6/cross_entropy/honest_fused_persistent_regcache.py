# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cross_entropy_fused_cuda(torch::Tensor logits, torch::Tensor targets, int64_t ignore_index);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#define FW 8                 // warps per block
#define FT (FW * 32)         // threads per block
#define VPL 8                // float4 registers per lane -> rows up to 32*8*4 = 1024 classes stay in registers

__device__ __forceinline__ float wmax(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float wsum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// Row logsumexp with the whole row held in registers (read from DRAM exactly once).
__device__ __forceinline__ float row_lse_cached(const float* __restrict__ x, int C4, int lane) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4 v[VPL];
    float m = -INFINITY;
    #pragma unroll
    for (int k = 0; k < VPL; ++k) {
        const int i = lane + 32 * k;
        if (i < C4) {
            v[k] = __ldg(x4 + i);
            m = fmaxf(m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
        }
    }
    m = wmax(m);
    float s = 0.0f;
    #pragma unroll
    for (int k = 0; k < VPL; ++k) {
        const int i = lane + 32 * k;
        if (i < C4) s += __expf(v[k].x - m) + __expf(v[k].y - m) + __expf(v[k].z - m) + __expf(v[k].w - m);
    }
    s = wsum(s);
    return m + __logf(s);
}

// Generic fallback: scalar single-pass online softmax, lanes merged with shuffles.
__device__ __forceinline__ float row_lse_generic(const float* __restrict__ x, int C, int lane) {
    float m = -INFINITY, s = 0.0f;
    for (int c = lane; c < C; c += 32) {
        const float v = __ldg(x + c);
        if (v > m) { s = s * __expf(m - v) + 1.0f; m = v; }
        else       { s += __expf(v - m); }
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
        const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
        if (m2 != -INFINITY) {
            if (m == -INFINITY)  { m = m2; s = s2; }
            else if (m2 > m)     { s = s * __expf(m - m2) + s2; m = m2; }
            else                 { s = s + s2 * __expf(m2 - m); }
        }
    }
    return m + __logf(s);
}

// Fully fused: persistent grid of warps striding over rows, per-block partial
// (loss, count) written to global memory, and the last block to finish (atomic
// ticket + __threadfence) reduces the partials in fixed order (double) and writes
// the mean over non-ignored rows, matching F.cross_entropy's ignore_index=-100.
template <bool CACHED>
__global__ void __launch_bounds__(FT)
ce_fused_kernel(const float* __restrict__ logits,
                const int64_t* __restrict__ targets,
                float* __restrict__ part_loss,
                int* __restrict__ part_cnt,
                unsigned int* __restrict__ ticket,
                float* __restrict__ out,
                int N, int C, int64_t ignore_index) {
    __shared__ float s_loss[FW];
    __shared__ int s_cnt[FW];
    __shared__ double s_red[FT];
    __shared__ int s_red_cnt[FT];
    __shared__ int s_is_last;

    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int C4 = C >> 2;

    float acc = 0.0f;
    int cnt = 0;
    for (int row = blockIdx.x * FW + warp; row < N; row += gridDim.x * FW) {
        const int64_t t = targets[row];            // same value in every lane -> uniform branch
        if (t == ignore_index) continue;
        const float* x = logits + (size_t)row * C;
        const float lse = CACHED ? row_lse_cached(x, C4, lane) : row_lse_generic(x, C, lane);
        if (lane == 0) { acc += lse - __ldg(x + t); ++cnt; }
    }
    if (lane == 0) { s_loss[warp] = acc; s_cnt[warp] = cnt; }
    __syncthreads();

    if (threadIdx.x == 0) {
        float b = 0.0f; int bc = 0;
        #pragma unroll
        for (int w = 0; w < FW; ++w) { b += s_loss[w]; bc += s_cnt[w]; }
        part_loss[blockIdx.x] = b;
        part_cnt[blockIdx.x] = bc;
        __threadfence();
        const unsigned int prev = atomicAdd(ticket, 1u);
        s_is_last = (prev == gridDim.x - 1);
    }
    __syncthreads();
    if (!s_is_last) return;

    __threadfence();
    double a = 0.0; int ac = 0;
    for (int i = threadIdx.x; i < (int)gridDim.x; i += FT) {
        a += (double)__ldcg(part_loss + i);
        ac += __ldcg(part_cnt + i);
    }
    s_red[threadIdx.x] = a;
    s_red_cnt[threadIdx.x] = ac;
    __syncthreads();
    for (int s = FT / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            s_red[threadIdx.x] += s_red[threadIdx.x + s];
            s_red_cnt[threadIdx.x] += s_red_cnt[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = (float)(s_red[0] / (double)s_red_cnt[0]);   // 0/0 -> nan like PyTorch
}

torch::Tensor cross_entropy_fused_cuda(torch::Tensor logits, torch::Tensor targets, int64_t ignore_index) {
    TORCH_CHECK(logits.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(logits.dim() == 2, "logits must be (N, C)");
    TORCH_CHECK(logits.scalar_type() == torch::kFloat32, "logits must be float32");
    TORCH_CHECK(targets.scalar_type() == torch::kInt64, "targets must be int64");
    auto x = logits.contiguous();
    auto t = targets.contiguous();
    const int N = (int)x.size(0);
    const int C = (int)x.size(1);
    TORCH_CHECK(t.numel() == N, "targets must have N elements");
    TORCH_CHECK(N > 0 && C > 0, "empty input");

    int dev = 0, sms = 132;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    int blocks = (N + FW - 1) / FW;
    if (blocks > sms * 4) blocks = sms * 4;

    auto part_loss = torch::empty({blocks}, x.options());
    auto part_cnt = torch::empty({blocks}, x.options().dtype(torch::kInt32));
    auto ticket = torch::zeros({1}, x.options().dtype(torch::kInt32));   // fresh every call
    auto out = torch::empty({}, x.options());

    const float* xp = x.data_ptr<float>();
    const bool cached = (C % 4 == 0) && (C <= 32 * VPL * 4) &&
                        ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
    unsigned int* tk = reinterpret_cast<unsigned int*>(ticket.data_ptr<int>());
    if (cached) {
        ce_fused_kernel<true><<<blocks, FT>>>(xp, t.data_ptr<int64_t>(), part_loss.data_ptr<float>(),
                                              part_cnt.data_ptr<int>(), tk, out.data_ptr<float>(), N, C, ignore_index);
    } else {
        ce_fused_kernel<false><<<blocks, FT>>>(xp, t.data_ptr<int64_t>(), part_loss.data_ptr<float>(),
                                               part_cnt.data_ptr<int>(), tk, out.data_ptr<float>(), N, C, ignore_index);
    }
    return out;
}
"""

ce_fused = load_inline(
    name="cross_entropy_fused_persistent_regcache",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cross_entropy_fused_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ignore_index = -100   # F.cross_entropy default

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return ce_fused.cross_entropy_fused_cuda(predictions, targets, self.ignore_index)
