# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

smooth_l1_src = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <algorithm>

#define WARP_SIZE 32

__inline__ __device__ float warp_reduce_sum(float v) {
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

// Grid-stride accumulation, warp-shuffle block reduction, one atomicAdd per block.
__global__ void smooth_l1_shfl_kernel(const float* __restrict__ pred, const float* __restrict__ tgt,
                                      float* __restrict__ total, long long n) {
    __shared__ float warp_sums[32];
    float sum = 0.0f;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float d = __ldg(pred + i) - __ldg(tgt + i);
        float ad = fabsf(d);
        sum += (ad < 1.0f) ? 0.5f * d * d : ad - 0.5f;
    }

    const int lane = threadIdx.x & (WARP_SIZE - 1);
    const int warp = threadIdx.x / WARP_SIZE;
    sum = warp_reduce_sum(sum);
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();

    if (warp == 0) {
        const int num_warps = (blockDim.x + WARP_SIZE - 1) / WARP_SIZE;
        float v = (lane < num_warps) ? warp_sums[lane] : 0.0f;
        v = warp_reduce_sum(v);
        if (lane == 0) atomicAdd(total, v);
    }
}

torch::Tensor smooth_l1_loss_shfl(torch::Tensor pred, torch::Tensor tgt) {
    TORCH_CHECK(pred.is_cuda() && tgt.is_cuda(), "inputs must live on the GPU");
    TORCH_CHECK(pred.numel() == tgt.numel(), "numel mismatch");
    auto p = pred.contiguous();
    auto t = tgt.contiguous();
    const long long n = p.numel();
    auto total = torch::zeros({}, p.options());

    const int threads = 512;
    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    const int blocks = (int)std::max<long long>(1, std::min<long long>((n + threads - 1) / threads, (long long)sms * 4));
    smooth_l1_shfl_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        p.data_ptr<float>(), t.data_ptr<float>(), total.data_ptr<float>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return total;
}
"""

smooth_l1_cpp = "torch::Tensor smooth_l1_loss_shfl(torch::Tensor pred, torch::Tensor tgt);"

smooth_l1_module = load_inline(
    name="smooth_l1_warp_shuffle_atomic",
    cpp_sources=smooth_l1_cpp,
    cuda_sources=smooth_l1_src,
    functions=["smooth_l1_loss_shfl"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        total = smooth_l1_module.smooth_l1_loss_shfl(predictions, targets)
        return total / predictions.numel()
