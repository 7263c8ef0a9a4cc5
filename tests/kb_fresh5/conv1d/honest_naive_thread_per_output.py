# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Naive direct convolution: one thread per output element.  The flat index puts
# the output channel fastest, so neighbouring threads read different weight rows
# and write outputs L apart (uncoalesced), and every input element is re-read
# from global memory by every output channel.
conv1d_naive_cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void conv1d_naive_kernel(const float* __restrict__ x,
                                    const float* __restrict__ w,
                                    const float* __restrict__ b,
                                    float* __restrict__ y,
                                    int N, int Cin, int Cout, int L, int K,
                                    int pad, int Lout) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * Cout * Lout;
    if (idx >= total) return;
    int co = (int)(idx % Cout);
    long long t = idx / Cout;
    int l = (int)(t % Lout);
    int n = (int)(t / Lout);

    float acc = b[co];
    for (int ci = 0; ci < Cin; ++ci) {
        const float* xrow = x + ((long long)n * Cin + ci) * L;
        const float* wrow = w + ((long long)co * Cin + ci) * K;
        for (int k = 0; k < K; ++k) {
            int pos = l + k - pad;
            if (pos >= 0 && pos < L) {
                acc += xrow[pos] * wrow[k];
            }
        }
    }
    y[((long long)n * Cout + co) * Lout + l] = acc;
}

torch::Tensor conv1d_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 3 && w.dim() == 3, "expected x (N,Cin,L) and w (Cout,Cin,K)");
    x = x.contiguous();
    w = w.contiguous();
    b = b.contiguous();
    int N = x.size(0), Cin = x.size(1), L = x.size(2);
    int Cout = w.size(0), K = w.size(2);
    TORCH_CHECK(w.size(1) == Cin, "channel mismatch");
    int pad = K / 2;
    int Lout = L + 2 * pad - K + 1;
    auto y = torch::empty({N, Cout, Lout}, x.options());
    long long total = (long long)N * Cout * Lout;
    if (total == 0) return y;
    int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    conv1d_naive_kernel<<<(unsigned int)blocks, threads>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(),
        N, Cin, Cout, L, K, pad, Lout);
    return y;
}
"""

conv1d_naive_cpp_src = "torch::Tensor conv1d_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

conv1d_naive_ext = load_inline(
    name="conv1d_naive_thread_per_output_ext",
    cpp_sources=conv1d_naive_cpp_src,
    cuda_sources=conv1d_naive_cuda_src,
    functions=["conv1d_naive_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, stride=1,
                              padding=kernel_size // 2, bias=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return conv1d_naive_ext.conv1d_naive_forward(x, self.conv.weight, self.conv.bias)
