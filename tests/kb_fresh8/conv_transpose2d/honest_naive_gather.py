# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv_transpose2d_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t stride, int64_t padding);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per output element. The flat index is decoded with the output ROW index
// fastest, so neighbouring threads write addresses OW floats apart (uncoalesced), and
// every (ci, ky, kx) combination is tried and filtered by the stride test.
__global__ void conv_t2d_naive_kernel(const float* x, const float* w, const float* bias, float* out,
                                      int B, int Ci, int Co, int H, int W, int OH, int OW,
                                      int K, int S, int P) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)B * Co * OH * OW;
    if (idx >= total) return;
    int oy = (int)(idx % OH);
    long long t = idx / OH;
    int ox = (int)(t % OW);
    t /= OW;
    int co = (int)(t % Co);
    int b = (int)(t / Co);

    float acc = bias[co];
    for (int ci = 0; ci < Ci; ++ci) {
        for (int ky = 0; ky < K; ++ky) {
            int ny = oy + P - ky;            // = iy * S
            if (ny < 0 || (ny % S) != 0) continue;
            int iy = ny / S;
            if (iy >= H) continue;
            for (int kx = 0; kx < K; ++kx) {
                int nx = ox + P - kx;
                if (nx < 0 || (nx % S) != 0) continue;
                int ix = nx / S;
                if (ix >= W) continue;
                float xv = x[(((long long)b * Ci + ci) * H + iy) * W + ix];
                float wv = w[(((long long)ci * Co + co) * K + ky) * K + kx];
                acc += xv * wv;
            }
        }
    }
    out[(((long long)b * Co + co) * OH + oy) * OW + ox] = acc;
}

torch::Tensor conv_transpose2d_naive_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b,
                                             int64_t stride, int64_t padding) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "expected 4-D input and weight");
    x = x.contiguous(); w = w.contiguous(); b = b.contiguous();
    int B = x.size(0), Ci = x.size(1), H = x.size(2), W = x.size(3);
    TORCH_CHECK(w.size(0) == Ci, "weight in_channels mismatch");
    int Co = w.size(1), K = w.size(2);
    TORCH_CHECK(w.size(3) == K, "square kernel expected");
    TORCH_CHECK(b.numel() == Co, "bias size mismatch");
    int S = (int)stride, P = (int)padding;
    TORCH_CHECK(S >= 1 && P >= 0, "bad stride/padding");
    int OH = (H - 1) * S - 2 * P + K;
    int OW = (W - 1) * S - 2 * P + K;
    TORCH_CHECK(OH > 0 && OW > 0, "empty output");
    auto out = torch::empty({B, Co, OH, OW}, x.options());
    long long total = (long long)B * Co * OH * OW;
    int threads = 256;
    long long blocks = (total + threads - 1) / threads;
    conv_t2d_naive_kernel<<<(unsigned int)blocks, threads>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(),
        B, Ci, Co, H, W, OH, OW, K, S, P);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="conv_transpose2d_naive_gather",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv_transpose2d_naive_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.conv_t = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding)
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.conv_transpose2d_naive_forward(x, self.conv_t.weight, self.conv_t.bias,
                                                   self.stride, self.padding)
