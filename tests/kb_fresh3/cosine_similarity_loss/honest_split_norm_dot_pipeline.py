# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cosine_loss_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define BLOCK 512

// Shared-memory tree reduction of one value per thread (blockDim.x == BLOCK).
__device__ float block_reduce_sum(float v, float* sdata) {
    const int tid = threadIdx.x;
    sdata[tid] = v;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    float r = sdata[0];
    __syncthreads();
    return r;
}

// Kernel 1: L2 norm of every row of x (one block per row).
__global__ void row_norm_kernel(const float* __restrict__ x, float* __restrict__ norms, int cols) {
    __shared__ float sdata[BLOCK];
    const float* xr = x + (long long)blockIdx.x * cols;
    float acc = 0.0f;
    for (int j = threadIdx.x; j < cols; j += BLOCK) {
        float v = xr[j];
        acc += v * v;
    }
    float total = block_reduce_sum(acc, sdata);
    if (threadIdx.x == 0) norms[blockIdx.x] = sqrtf(total);
}

// Kernel 2: dot product of matching rows (one block per row).
__global__ void row_dot_kernel(const float* __restrict__ a, const float* __restrict__ b,
                               float* __restrict__ dots, int cols) {
    __shared__ float sdata[BLOCK];
    const float* ar = a + (long long)blockIdx.x * cols;
    const float* br = b + (long long)blockIdx.x * cols;
    float acc = 0.0f;
    for (int j = threadIdx.x; j < cols; j += BLOCK) acc += ar[j] * br[j];
    float total = block_reduce_sum(acc, sdata);
    if (threadIdx.x == 0) dots[blockIdx.x] = total;
}

// Kernel 3: per-row 1 - cos, averaged over rows (single block).
__global__ void finalize_kernel(const float* __restrict__ dots, const float* __restrict__ norm_p,
                                const float* __restrict__ norm_t, float* __restrict__ out,
                                int rows, float eps) {
    __shared__ float sdata[BLOCK];
    float acc = 0.0f;
    for (int i = threadIdx.x; i < rows; i += BLOCK) {
        float denom = fmaxf(norm_p[i], eps) * fmaxf(norm_t[i], eps);
        acc += 1.0f - dots[i] / denom;
    }
    float total = block_reduce_sum(acc, sdata);
    if (threadIdx.x == 0) out[0] = total / (float)rows;
}

torch::Tensor cosine_loss_cuda(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(predictions.dim() == 2 && predictions.sizes() == targets.sizes(), "expected matching 2D inputs");
    TORCH_CHECK(predictions.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32, "float32 only");
    const int rows = predictions.size(0);
    const int cols = predictions.size(1);
    auto norm_p = torch::empty({rows}, predictions.options());
    auto norm_t = torch::empty({rows}, predictions.options());
    auto dots = torch::empty({rows}, predictions.options());
    auto out = torch::empty({}, predictions.options());
    const float* p = predictions.data_ptr<float>();
    const float* t = targets.data_ptr<float>();

    row_norm_kernel<<<rows, BLOCK>>>(p, norm_p.data_ptr<float>(), cols);
    row_norm_kernel<<<rows, BLOCK>>>(t, norm_t.data_ptr<float>(), cols);
    row_dot_kernel<<<rows, BLOCK>>>(p, t, dots.data_ptr<float>(), cols);
    finalize_kernel<<<1, BLOCK>>>(dots.data_ptr<float>(), norm_p.data_ptr<float>(), norm_t.data_ptr<float>(),
                                  out.data_ptr<float>(), rows, 1e-8f);
    return out;
}
"""

cosine_loss_cpp_source = "torch::Tensor cosine_loss_cuda(torch::Tensor predictions, torch::Tensor targets);"

cosine_loss = load_inline(
    name="cosine_loss_split_norm_dot_pipeline",
    cpp_sources=cosine_loss_cpp_source,
    cuda_sources=cosine_loss_source,
    functions=["cosine_loss_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cosine_loss = cosine_loss

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return self.cosine_loss.cosine_loss_cuda(predictions.contiguous(), targets.contiguous())
