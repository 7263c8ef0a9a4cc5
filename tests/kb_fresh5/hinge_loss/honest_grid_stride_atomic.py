# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__inline__ __device__ float warp_reduce_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

// Grid-stride loop, warp-shuffle block reduction, then one atomicAdd of (block_sum / n) per block.
__global__ void hinge_grid_stride_kernel(const float* __restrict__ pred, const float* __restrict__ targ,
                                         float* __restrict__ out, long long n, float inv_n) {
    __shared__ float warp_sums[32];
    float s = 0.0f;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        s += fmaxf(0.0f, 1.0f - __ldg(pred + i) * __ldg(targ + i));
    }
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    s = warp_reduce_sum(s);
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    if (warp == 0) {
        int nwarps = (blockDim.x + 31) >> 5;
        s = lane < nwarps ? warp_sums[lane] : 0.0f;
        s = warp_reduce_sum(s);
        if (lane == 0) atomicAdd(out, s * inv_n);
    }
}

torch::Tensor hinge_loss_cuda(torch::Tensor predictions, torch::Tensor targets, int64_t stream_ptr) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(predictions.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32,
                "inputs must be float32");
    TORCH_CHECK(predictions.numel() == targets.numel(), "size mismatch");
    TORCH_CHECK(predictions.is_contiguous() && targets.is_contiguous(), "inputs must be contiguous");
    long long n = predictions.numel();
    TORCH_CHECK(n > 0, "empty input");
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    auto out = torch::empty({}, predictions.options());
    cudaMemsetAsync(out.data_ptr<float>(), 0, sizeof(float), stream);

    int dev = 0;
    cudaGetDevice(&dev);
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 256;
    long long want = (n + threads - 1) / threads;
    long long cap = (long long)sms * 8;
    int blocks = (int)(want < cap ? want : cap);
    if (blocks < 1) blocks = 1;
    hinge_grid_stride_kernel<<<blocks, threads, 0, stream>>>(predictions.data_ptr<float>(), targets.data_ptr<float>(),
                                                             out.data_ptr<float>(), n, (float)(1.0 / (double)n));
    return out;
}
"""

cpp_src = "torch::Tensor hinge_loss_cuda(torch::Tensor predictions, torch::Tensor targets, int64_t stream_ptr);"

hinge_mod = load_inline(
    name="hinge_loss_grid_stride_atomic",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["hinge_loss_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        stream = torch.cuda.current_stream().cuda_stream
        return hinge_mod.hinge_loss_cuda(predictions.contiguous(), targets.contiguous(), stream)
