# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

kl_div_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per row: serial loop over the row computing
// sum_j t * (log t - log p), then atomically adds row_kl / batch to the output.
__global__ void kl_div_row_kernel(const float* __restrict__ pred,
                                  const float* __restrict__ targ,
                                  float* __restrict__ out,
                                  int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* p = pred + (long long)row * cols;
    const float* t = targ + (long long)row * cols;
    float sum = 0.0f;
    for (int j = 0; j < cols; ++j) {
        float tv = t[j];
        if (tv > 0.0f) {
            sum += tv * (logf(tv) - logf(p[j]));
        }
    }
    atomicAdd(out, sum / (float)rows);
}

torch::Tensor kl_div_cuda(torch::Tensor predictions, torch::Tensor targets) {
    TORCH_CHECK(predictions.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(predictions.dim() == 2 && predictions.sizes() == targets.sizes(), "expected matching 2D inputs");
    TORCH_CHECK(predictions.scalar_type() == torch::kFloat32 && targets.scalar_type() == torch::kFloat32, "float32 only");
    const int rows = predictions.size(0);
    const int cols = predictions.size(1);
    auto out = torch::zeros({}, predictions.options());
    const int threads = 128;
    const int blocks = (rows + threads - 1) / threads;
    kl_div_row_kernel<<<blocks, threads>>>(predictions.data_ptr<float>(), targets.data_ptr<float>(),
                                           out.data_ptr<float>(), rows, cols);
    return out;
}
"""

kl_div_cpp_source = "torch::Tensor kl_div_cuda(torch::Tensor predictions, torch::Tensor targets);"

kl_div = load_inline(
    name="kl_div_naive_thread_per_row",
    cpp_sources=kl_div_cpp_source,
    cuda_sources=kl_div_source,
    functions=["kl_div_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.kl_div = kl_div

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return self.kl_div.kl_div_cuda(predictions.contiguous(), targets.contiguous())
