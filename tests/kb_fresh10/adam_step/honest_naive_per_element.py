# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = ("torch::Tensor adam_cuda(torch::Tensor param, torch::Tensor grad, torch::Tensor exp_avg, "
           "torch::Tensor exp_avg_sq, double lr, double beta1, double beta2, double eps, "
           "double weight_decay, int64_t step);")

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Naive: one thread per element, a direct transcription of the reference; every thread also recomputes
// the bias corrections 1 - beta^step with powf and divides m and v by them separately.

__global__ void adam_naive_kernel(const float* param, const float* grad, const float* exp_avg,
                                  const float* exp_avg_sq, float* out, long long n,
                                  float lr, float beta1, float beta2, float eps, float wd, int step) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float p = param[i];
    float g = grad[i] + wd * p;
    float m = beta1 * exp_avg[i] + (1.0f - beta1) * g;
    float v = beta2 * exp_avg_sq[i] + (1.0f - beta2) * g * g;
    float bc1 = 1.0f - powf(beta1, (float)step);
    float bc2 = 1.0f - powf(beta2, (float)step);
    float m_hat = m / bc1;
    float v_hat = v / bc2;
    out[i] = p - lr * m_hat / (sqrtf(v_hat) + eps);
}

torch::Tensor adam_cuda(torch::Tensor param, torch::Tensor grad, torch::Tensor exp_avg,
                        torch::Tensor exp_avg_sq, double lr, double beta1, double beta2, double eps,
                        double weight_decay, int64_t step) {
    TORCH_CHECK(param.is_cuda() && grad.is_cuda() && exp_avg.is_cuda() && exp_avg_sq.is_cuda(),
                "inputs must be CUDA tensors");
    TORCH_CHECK(param.scalar_type() == torch::kFloat && grad.scalar_type() == torch::kFloat &&
                exp_avg.scalar_type() == torch::kFloat && exp_avg_sq.scalar_type() == torch::kFloat,
                "inputs must be float32");
    auto p = param.contiguous();
    auto g = grad.contiguous();
    auto m = exp_avg.contiguous();
    auto v = exp_avg_sq.contiguous();
    long long n = p.numel();
    TORCH_CHECK(g.numel() == n && m.numel() == n && v.numel() == n, "size mismatch");
    auto out = torch::empty_like(p);
    if (n == 0) return out;
    const int threads = 256;
    long long blocks = (n + threads - 1) / threads;
    adam_naive_kernel<<<(unsigned)blocks, threads>>>(
        p.data_ptr<float>(), g.data_ptr<float>(), m.data_ptr<float>(), v.data_ptr<float>(),
        out.data_ptr<float>(), n, (float)lr, (float)beta1, (float)beta2, (float)eps,
        (float)weight_decay, (int)step);
    return out;
}
"""

adam_mod = load_inline(
    name="s44_adam_naive_per_element",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["adam_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)

class ModelNew(nn.Module):
    def __init__(self, lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, step: int):
        super().__init__()
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.weight_decay, self.step = weight_decay, step

    def forward(self, param: torch.Tensor, grad: torch.Tensor, exp_avg: torch.Tensor,
                exp_avg_sq: torch.Tensor) -> torch.Tensor:
        return adam_mod.adam_cuda(param, grad, exp_avg, exp_avg_sq, float(self.lr), float(self.beta1),
                                  float(self.beta2), float(self.eps), float(self.weight_decay),
                                  int(self.step))
