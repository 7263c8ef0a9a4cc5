# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cross_entropy_online_cuda(torch::Tensor logits, torch::Tensor targets);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#define OS_WARPS 8
#define OS_THREADS (OS_WARPS * 32)

// Merge two (max, sum) online-softmax states; a state with max == -inf is empty.
__device__ __forceinline__ void os_merge(float& m, float& s, float m2, float s2) {
    if (m2 == -INFINITY) return;
    if (m == -INFINITY) { m = m2; s = s2; return; }
    if (m2 > m) { s = s * __expf(m - m2) + s2; m = m2; }
    else        { s = s + s2 * __expf(m2 - m); }
}

// Single pass over each row: every lane keeps a running (max, sum) and rescales
// its sum when the max grows; lanes are merged with shuffles. Warps grid-stride
// over rows; each block writes one partial sum (deterministic, no atomics).
__global__ void ce_online_kernel(const float* __restrict__ logits,
                                 const int64_t* __restrict__ targets,
                                 float* __restrict__ block_partials,
                                 int N, int C) {
    __shared__ float warp_acc[OS_WARPS];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int warps_total = gridDim.x * OS_WARPS;

    float acc = 0.0f;  // only lane 0's copy is meaningful
    for (int row = blockIdx.x * OS_WARPS + warp; row < N; row += warps_total) {
        const float* x = logits + (size_t)row * C;
        float m = -INFINITY, s = 0.0f;
        for (int c = lane; c < C; c += 32) {
            const float v = __ldg(x + c);
            if (v > m) { s = s * __expf(m - v) + 1.0f; m = v; }   // exp(-inf) == 0 on first element
            else       { s += __expf(v - m); }
        }
        #pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
            const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
            os_merge(m, s, m2, s2);
        }
        if (lane == 0) {
            const int64_t t = targets[row];
            acc += logf(s) + m - __ldg(x + t);
        }
    }
    if (lane == 0) warp_acc[warp] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float b = 0.0f;
        for (int w = 0; w < OS_WARPS; ++w) b += warp_acc[w];
        block_partials[blockIdx.x] = b;
    }
}

// One block sums the per-block partials in a fixed order and divides by N.
__global__ void ce_finalize_kernel(const float* __restrict__ partials, int P,
                                   float* __restrict__ out, int N) {
    __shared__ double sh[256];
    double a = 0.0;
    for (int i = threadIdx.x; i < P; i += blockDim.x) a += (double)partials[i];
    sh[threadIdx.x] = a;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = (float)(sh[0] / (double)N);
}

torch::Tensor cross_entropy_online_cuda(torch::Tensor logits, torch::Tensor targets) {
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
    int blocks = (N + OS_WARPS - 1) / OS_WARPS;
    const int cap = sms * 8;
    if (blocks > cap) blocks = cap;

    auto partials = torch::empty({blocks}, x.options());
    auto out = torch::empty({}, x.options());
    ce_online_kernel<<<blocks, OS_THREADS>>>(x.data_ptr<float>(), t.data_ptr<int64_t>(),
                                             partials.data_ptr<float>(), N, C);
    ce_finalize_kernel<<<1, 256>>>(partials.data_ptr<float>(), blocks, out.data_ptr<float>(), N);
    return out;
}
"""

ce_online = load_inline(
    name="cross_entropy_online_softmax_gridstride",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cross_entropy_online_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return ce_online.cross_entropy_online_cuda(predictions, targets)
