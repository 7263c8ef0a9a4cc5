# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor cross_entropy_naive_cuda(torch::Tensor logits, torch::Tensor targets);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

// One thread per row: every thread walks its own row sequentially, so neighbouring
// threads read addresses C floats apart (uncoalesced).
__global__ void ce_row_loss_naive(const float* __restrict__ logits,
                                  const int64_t* __restrict__ targets,
                                  float* __restrict__ row_loss,
                                  int N, int C) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= N) return;
    const float* x = logits + (size_t)r * C;
    float m = -INFINITY;
    for (int c = 0; c < C; ++c) m = fmaxf(m, x[c]);
    float s = 0.0f;
    for (int c = 0; c < C; ++c) s += expf(x[c] - m);
    int64_t t = targets[r];
    row_loss[r] = logf(s) + m - x[t];
}

// Single thread sums the per-row losses (double accumulator) and divides by N.
__global__ void ce_mean_naive(const float* __restrict__ row_loss, float* __restrict__ out, int N) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        double acc = 0.0;
        for (int i = 0; i < N; ++i) acc += (double)row_loss[i];
        out[0] = (float)(acc / (double)N);
    }
}

torch::Tensor cross_entropy_naive_cuda(torch::Tensor logits, torch::Tensor targets) {
    TORCH_CHECK(logits.is_cuda() && targets.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(logits.dim() == 2, "logits must be (N, C)");
    TORCH_CHECK(logits.scalar_type() == torch::kFloat32, "logits must be float32");
    TORCH_CHECK(targets.scalar_type() == torch::kInt64, "targets must be int64");
    auto x = logits.contiguous();
    auto t = targets.contiguous();
    int N = (int)x.size(0);
    int C = (int)x.size(1);
    TORCH_CHECK(t.numel() == N, "targets must have N elements");

    auto row_loss = torch::empty({N}, x.options());
    auto out = torch::empty({}, x.options());
    if (N == 0) { out.fill_(NAN); return out; }

    const int threads = 128;
    const int blocks = (N + threads - 1) / threads;
    ce_row_loss_naive<<<blocks, threads>>>(x.data_ptr<float>(), t.data_ptr<int64_t>(),
                                           row_loss.data_ptr<float>(), N, C);
    ce_mean_naive<<<1, 1>>>(row_loss.data_ptr<float>(), out.data_ptr<float>(), N);
    return out;
}
"""

ce_naive = load_inline(
    name="cross_entropy_naive_thread_per_row",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["cross_entropy_naive_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return ce_naive.cross_entropy_naive_cuda(predictions, targets)
