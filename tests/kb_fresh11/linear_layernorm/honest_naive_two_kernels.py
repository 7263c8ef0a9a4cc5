# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor linear_layernorm_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, torch::Tensor gamma, torch::Tensor beta, double eps);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>

// Naive strategy: kernel 1 computes the linear layer with one thread per output element
// (y[m][n] = b[n] + dot(x[m,:], W[n,:])); kernel 2 normalises with one thread per row,
// looping serially over the features (mean, then variance, then the affine output).
__global__ void linear_naive_kernel(const float* x, const float* W, const float* bias, float* y,
                                    int M, int N, int K) {
    int n = blockIdx.x * blockDim.x + threadIdx.x;
    int m = blockIdx.y * blockDim.y + threadIdx.y;
    if (m < M && n < N) {
        const float* xr = x + (size_t)m * K;
        const float* wr = W + (size_t)n * K;
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) acc += xr[k] * wr[k];
        y[(size_t)m * N + n] = acc + bias[n];
    }
}

__global__ void layernorm_row_naive_kernel(float* y, const float* gamma, const float* beta,
                                           int M, int N, float eps) {
    int m = blockIdx.x * blockDim.x + threadIdx.x;
    if (m >= M) return;
    float* r = y + (size_t)m * N;
    float sum = 0.0f;
    for (int n = 0; n < N; ++n) sum += r[n];
    const float mean = sum / N;
    float sq = 0.0f;
    for (int n = 0; n < N; ++n) {
        const float d = r[n] - mean;
        sq += d * d;
    }
    const float rstd = rsqrtf(sq / N + eps);
    for (int n = 0; n < N; ++n) r[n] = (r[n] - mean) * rstd * gamma[n] + beta[n];
}

torch::Tensor linear_layernorm_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                                    torch::Tensor gamma, torch::Tensor beta, double eps) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda() && gamma.is_cuda() && beta.is_cuda(),
                "all tensors must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32 &&
                bias.scalar_type() == torch::kFloat32 && gamma.scalar_type() == torch::kFloat32 &&
                beta.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(weight.dim() == 2 && x.dim() >= 1, "bad dims");
    const int N = (int)weight.size(0);
    const int K = (int)weight.size(1);
    TORCH_CHECK(x.size(-1) == K, "x last dim must equal in_features");
    TORCH_CHECK(bias.numel() == N && gamma.numel() == N && beta.numel() == N, "bad parameter sizes");

    auto xc = x.contiguous();
    auto Wc = weight.contiguous();
    auto bc = bias.contiguous();
    auto gc = gamma.contiguous();
    auto bec = beta.contiguous();

    std::vector<int64_t> out_sizes(xc.sizes().begin(), xc.sizes().end());
    out_sizes.back() = N;
    int64_t M64 = 1;
    for (size_t i = 0; i + 1 < out_sizes.size(); ++i) M64 *= out_sizes[i];
    const int M = (int)M64;
    auto out = torch::empty(out_sizes, xc.options());
    if (M == 0 || N == 0) return out;

    dim3 block(16, 16);
    dim3 grid((N + 15) / 16, (M + 15) / 16);
    linear_naive_kernel<<<grid, block>>>(xc.data_ptr<float>(), Wc.data_ptr<float>(), bc.data_ptr<float>(),
                                         out.data_ptr<float>(), M, N, K);
    const int threads = 128;
    layernorm_row_naive_kernel<<<(M + threads - 1) / threads, threads>>>(
        out.data_ptr<float>(), gc.data_ptr<float>(), bec.data_ptr<float>(), M, N, (float)eps);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

linear_ln_mod = load_inline(
    name="kbf11_linear_ln_naive_two_kernels",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["linear_layernorm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.norm = nn.LayerNorm(out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return linear_ln_mod.linear_layernorm_cuda(
            x, self.linear.weight, self.linear.bias, self.norm.weight, self.norm.bias, float(self.norm.eps))
