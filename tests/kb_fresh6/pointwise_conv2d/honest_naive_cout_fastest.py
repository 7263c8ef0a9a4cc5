# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Naive: one thread per output element, with the flat index ordered (n, p, co) so that
// consecutive threads walk over output channels.  Each thread loops over C_in reading
// x[n, ci, p] and w[co, ci]; the stores y[n, co, p] are strided by H*W (uncoalesced).
__global__ void pw_naive_kernel(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                int N, int Cin, int Cout, int P) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)N * P * Cout;
    if (idx >= total) return;
    int co = (int)(idx % Cout);
    long long rest = idx / Cout;
    int p = (int)(rest % P);
    int n = (int)(rest / P);
    float acc = 0.f;
    for (int ci = 0; ci < Cin; ++ci) {
        acc += x[((long long)n * Cin + ci) * P + p] * w[(long long)co * Cin + ci];
    }
    y[((long long)n * Cout + co) * P + p] = acc;
}

torch::Tensor pointwise_conv2d_forward(torch::Tensor x, torch::Tensor w) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4, "x must be (N, C_in, H, W)");
    TORCH_CHECK(w.dim() == 4 && w.size(2) == 1 && w.size(3) == 1, "w must be (C_out, C_in, 1, 1)");
    x = x.contiguous();
    w = w.contiguous();
    int N = x.size(0), Cin = x.size(1), H = x.size(2), W = x.size(3);
    int Cout = w.size(0);
    TORCH_CHECK(w.size(1) == Cin, "weight C_in mismatch");
    int P = H * W;
    auto y = torch::empty({N, Cout, H, W}, x.options());
    long long total = (long long)N * P * Cout;
    if (total == 0) return y;
    int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    pw_naive_kernel<<<(unsigned int)blocks, threads>>>(x.data_ptr<float>(), w.data_ptr<float>(), y.data_ptr<float>(),
                                                       N, Cin, Cout, P);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_src = "torch::Tensor pointwise_conv2d_forward(torch::Tensor x, torch::Tensor w);"

_ext = load_inline(
    name="pointwise_conv2d_naive_cout_fastest",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["pointwise_conv2d_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.pointwise_conv2d_forward(x, self.conv.weight)
