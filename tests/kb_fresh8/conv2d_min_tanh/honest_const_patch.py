# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_min_tanh_const_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t stream_ptr);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

#define MAX_W 8192
#define MAX_CO 256
__constant__ float c_w[MAX_W];
__constant__ float c_b[MAX_CO];

// One thread per output pixel.  The CI x K x K input patch is read once into registers
// (fully unrolled, compile-time sizes); then every output channel is a dot product against
// constant-memory weights, which are warp-uniform and therefore broadcast.
template <int CI, int K>
__global__ void conv2d_min_tanh_const_kernel(const float* __restrict__ x, float* __restrict__ out,
                                             int Co, int H, int W, int OH, int OW) {
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    const int oy = blockIdx.y * blockDim.y + threadIdx.y;
    const int b = blockIdx.z;
    if (ox >= OW || oy >= OH) return;

    float patch[CI * K * K];
    const float* xb = x + (long long)b * CI * H * W + (long long)oy * W + ox;
#pragma unroll
    for (int ci = 0; ci < CI; ++ci)
#pragma unroll
        for (int ky = 0; ky < K; ++ky)
#pragma unroll
            for (int kx = 0; kx < K; ++kx)
                patch[(ci * K + ky) * K + kx] = __ldg(xb + (long long)ci * H * W + ky * W + kx);

    float mn = INFINITY;
    for (int co = 0; co < Co; ++co) {
        const float* wc = c_w + co * CI * K * K;
        float acc = c_b[co];
#pragma unroll
        for (int i = 0; i < CI * K * K; ++i) acc = fmaf(patch[i], wc[i], acc);
        mn = fminf(mn, acc);
    }
    out[((long long)b * OH + oy) * OW + ox] = tanhf(tanhf(mn));
}

torch::Tensor conv2d_min_tanh_const_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "expected 4-D input and weight");
    x = x.contiguous(); w = w.contiguous(); b = b.contiguous();
    const int B = x.size(0), Ci = x.size(1), H = x.size(2), W = x.size(3);
    const int Co = w.size(0), K = w.size(2);
    TORCH_CHECK(w.size(1) == Ci && w.size(3) == K, "weight shape mismatch");
    TORCH_CHECK(b.numel() == Co, "bias size mismatch");
    TORCH_CHECK(Ci == 8 && K == 3, "kernel compiled for 8 input channels and 3x3 taps");
    TORCH_CHECK(w.numel() <= MAX_W && Co <= MAX_CO, "weights too large for constant memory");
    const int OH = H - K + 1, OW = W - K + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "input smaller than kernel");
    TORCH_CHECK(B <= 65535, "batch too large for grid.z");
    auto out = torch::empty({B, 1, OH, OW}, x.options());
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    // refresh the constant-memory copies on every call, ordered on the same stream
    cudaMemcpyToSymbolAsync(c_w, w.data_ptr<float>(), w.numel() * sizeof(float), 0, cudaMemcpyDeviceToDevice, stream);
    cudaMemcpyToSymbolAsync(c_b, b.data_ptr<float>(), Co * sizeof(float), 0, cudaMemcpyDeviceToDevice, stream);
    dim3 block(32, 8);
    dim3 grid((OW + 31) / 32, (OH + 7) / 8, B);
    conv2d_min_tanh_const_kernel<8, 3><<<grid, block, 0, stream>>>(x.data_ptr<float>(), out.data_ptr<float>(),
                                                                   Co, H, W, OH, OW);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="conv2d_min_tanh_const_patch",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_min_tanh_const_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.conv2d_min_tanh_const_forward(x, self.conv.weight, self.conv.bias,
                                                  torch.cuda.current_stream().cuda_stream)
