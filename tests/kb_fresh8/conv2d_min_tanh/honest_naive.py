# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_min_tanh_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

// One thread per output pixel: for every output channel compute the full valid 3-D dot
// product straight from global memory, keep the running minimum, then tanh(tanh(min)).
__global__ void conv2d_min_tanh_naive_kernel(const float* x, const float* w, const float* bias, float* out,
                                             int B, int Ci, int Co, int H, int W, int K, int OH, int OW) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)B * OH * OW;
    if (idx >= total) return;
    int ox = (int)(idx % OW);
    long long t = idx / OW;
    int oy = (int)(t % OH);
    int b = (int)(t / OH);

    float mn = INFINITY;
    for (int co = 0; co < Co; ++co) {
        float acc = bias[co];
        for (int ci = 0; ci < Ci; ++ci)
            for (int ky = 0; ky < K; ++ky)
                for (int kx = 0; kx < K; ++kx)
                    acc += x[(((long long)b * Ci + ci) * H + oy + ky) * W + ox + kx] *
                           w[((co * Ci + ci) * K + ky) * K + kx];
        mn = fminf(mn, acc);
    }
    out[idx] = tanhf(tanhf(mn));
}

torch::Tensor conv2d_min_tanh_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "expected 4-D input and weight");
    x = x.contiguous(); w = w.contiguous(); b = b.contiguous();
    int B = x.size(0), Ci = x.size(1), H = x.size(2), W = x.size(3);
    int Co = w.size(0), K = w.size(2);
    TORCH_CHECK(w.size(1) == Ci && w.size(3) == K, "weight shape mismatch");
    TORCH_CHECK(b.numel() == Co, "bias size mismatch");
    int OH = H - K + 1, OW = W - K + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "input smaller than kernel");
    auto out = torch::empty({B, 1, OH, OW}, x.options());
    long long total = (long long)B * OH * OW;
    int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    conv2d_min_tanh_naive_kernel<<<(unsigned int)blocks, threads>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(),
        B, Ci, Co, H, W, K, OH, OW);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="conv2d_min_tanh_naive",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_min_tanh_naive_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.conv2d_min_tanh_naive_forward(x, self.conv.weight, self.conv.bias)
