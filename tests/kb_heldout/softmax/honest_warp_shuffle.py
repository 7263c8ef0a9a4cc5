# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softmax_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cfloat>

#define WARP_SIZE 32

__inline__ __device__ float warpReduceMax(float val) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
        val = fmaxf(val, __shfl_down_sync(0xffffffff, val, offset));
    return val;
}

__inline__ __device__ float warpReduceSum(float val) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__inline__ __device__ float blockReduceMax(float val) {
    static __shared__ float shared[32];
    int lane = threadIdx.x % WARP_SIZE;
    int wid = threadIdx.x / WARP_SIZE;
    val = warpReduceMax(val);
    if (lane == 0) shared[wid] = val;
    __syncthreads();
    val = (threadIdx.x < blockDim.x / WARP_SIZE) ? shared[lane] : -FLT_MAX;
    if (wid == 0) val = warpReduceMax(val);
    __syncthreads();
    return val;
}

__inline__ __device__ float blockReduceSum(float val) {
    static __shared__ float shared[32];
    int lane = threadIdx.x % WARP_SIZE;
    int wid = threadIdx.x / WARP_SIZE;
    val = warpReduceSum(val);
    if (lane == 0) shared[wid] = val;
    __syncthreads();
    val = (threadIdx.x < blockDim.x / WARP_SIZE) ? shared[lane] : 0.0f;
    if (wid == 0) val = warpReduceSum(val);
    __syncthreads();
    return val;
}

// One block per row; the row max and sum are broadcast through shared memory.
__global__ void softmax_kernel(const float* __restrict__ input, float* __restrict__ output, int dim) {
    const float* row_in = input + blockIdx.x * dim;
    float* row_out = output + blockIdx.x * dim;
    __shared__ float s_max, s_sum;

    float local_max = -FLT_MAX;
    for (int i = threadIdx.x; i < dim; i += blockDim.x) local_max = fmaxf(local_max, row_in[i]);
    float m = blockReduceMax(local_max);
    if (threadIdx.x == 0) s_max = m;
    __syncthreads();

    float local_sum = 0.0f;
    for (int i = threadIdx.x; i < dim; i += blockDim.x) {
        float e = expf(row_in[i] - s_max);
        row_out[i] = e;
        local_sum += e;
    }
    float s = blockReduceSum(local_sum);
    if (threadIdx.x == 0) s_sum = s;
    __syncthreads();

    float inv = 1.0f / s_sum;
    for (int i = threadIdx.x; i < dim; i += blockDim.x) row_out[i] *= inv;
}

torch::Tensor softmax_cuda(torch::Tensor input) {
    TORCH_CHECK(input.dim() == 2, "input must be 2D");
    auto output = torch::empty_like(input);
    const int batch = input.size(0);
    const int dim = input.size(1);
    const int threads = 1024;
    softmax_kernel<<<batch, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        input.data_ptr<float>(), output.data_ptr<float>(), dim);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) printf("CUDA error: %s\\n", cudaGetErrorString(err));
    return output;
}
"""

softmax_cpp_source = "torch::Tensor softmax_cuda(torch::Tensor input);"

softmax = load_inline(
    name="softmax",
    cpp_sources=softmax_cpp_source,
    cuda_sources=softmax_source,
    functions=["softmax_cuda"],
    verbose=True,
    extra_cflags=["-O3"],
    extra_ldflags=[""],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.softmax = softmax

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.softmax.softmax_cuda(x.cuda())
