# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Naive: one thread per output element computes the full K-length dot product
# straight from global memory (neighbouring threads read W rows K floats apart),
# adds the bias and applies exact GELU; then one thread per row does a serial
# three-pass softmax (max, sum of exp, normalise) in place.

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float gelu_exact(float v) {
    return 0.5f * v * (1.0f + erff(v * 0.70710678118654752440f));
}

__global__ void linear_gelu_naive_kernel(const float* __restrict__ x, const float* __restrict__ W,
                                         const float* __restrict__ b, float* __restrict__ y,
                                         int M, int K, int N) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long long)M * N) return;
    const int row = (int)(idx / N);
    const int col = (int)(idx % N);
    const float* xr = x + (size_t)row * K;
    const float* wr = W + (size_t)col * K;   // nn.Linear: y = x @ W^T + b, W is (N, K)
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += xr[k] * wr[k];
    y[idx] = gelu_exact(acc + b[col]);
}

__global__ void softmax_row_serial_kernel(float* __restrict__ y, int M, int N) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M) return;
    float* r = y + (size_t)row * N;
    float m = -INFINITY;
    for (int j = 0; j < N; ++j) m = fmaxf(m, r[j]);
    float s = 0.0f;
    for (int j = 0; j < N; ++j) s += expf(r[j] - m);
    const float inv = 1.0f / s;
    for (int j = 0; j < N; ++j) r[j] = expf(r[j] - m) * inv;
}

torch::Tensor linear_gelu_softmax_cuda(torch::Tensor x, torch::Tensor W, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && W.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && W.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(x.dim() == 2 && W.dim() == 2 && b.dim() == 1, "bad ranks");
    TORCH_CHECK(x.size(1) == W.size(1) && W.size(0) == b.size(0), "shape mismatch");
    auto xc = x.contiguous();
    auto Wc = W.contiguous();
    auto bc = b.contiguous();
    const int M = (int)xc.size(0), K = (int)xc.size(1), N = (int)Wc.size(0);
    auto y = torch::empty({M, N}, xc.options());
    if (M == 0 || N == 0) return y;

    const int threads = 256;
    const long long total = (long long)M * N;
    const unsigned blocks = (unsigned)((total + threads - 1) / threads);
    linear_gelu_naive_kernel<<<blocks, threads>>>(xc.data_ptr<float>(), Wc.data_ptr<float>(),
                                                  bc.data_ptr<float>(), y.data_ptr<float>(), M, K, N);
    softmax_row_serial_kernel<<<(M + 127) / 128, 128>>>(y.data_ptr<float>(), M, N);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_source = "torch::Tensor linear_gelu_softmax_cuda(torch::Tensor x, torch::Tensor W, torch::Tensor b);"

_ext = load_inline(
    name="linear_gelu_softmax_naive_thread_per_output",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["linear_gelu_softmax_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.linear_gelu_softmax_cuda(x, self.linear.weight, self.linear.bias)
