# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# One block per (output channel, batch, 256-wide slice of L).  The block stages
# the Cin*K filter taps of its output channel in shared memory once, then each
# thread produces one output position with coalesced __ldg reads of the input.
cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void conv1d_wsmem_kernel(const float* __restrict__ x,
                                    const float* __restrict__ w,
                                    const float* __restrict__ bias,
                                    float* __restrict__ y,
                                    int Cin, int Cout, int L, int K, int pad, int Lout) {
    extern __shared__ float wsh[];           // Cin * K taps of this output channel
    const int co = blockIdx.y;
    const int n = blockIdx.z;
    const int l = blockIdx.x * THREADS + threadIdx.x;
    const int taps = Cin * K;

    const float* wco = w + (long long)co * taps;
    for (int i = threadIdx.x; i < taps; i += THREADS) wsh[i] = wco[i];
    __syncthreads();

    if (l >= Lout) return;
    float acc = __ldg(bias + co);
    const float* xn = x + (long long)n * Cin * L;
    for (int ci = 0; ci < Cin; ++ci) {
        const float* xrow = xn + (long long)ci * L;
        const float* wrow = wsh + ci * K;
        for (int k = 0; k < K; ++k) {
            int pos = l + k - pad;
            float v = (pos >= 0 && pos < L) ? __ldg(xrow + pos) : 0.0f;
            acc = fmaf(v, wrow[k], acc);
        }
    }
    y[((long long)n * Cout + co) * Lout + l] = acc;
}

torch::Tensor conv1d_wsmem_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 3 && w.dim() == 3 && b.dim() == 1, "bad ranks");
    x = x.contiguous();
    w = w.contiguous();
    b = b.contiguous();
    const int N = x.size(0), Cin = x.size(1), L = x.size(2);
    const int Cout = w.size(0), K = w.size(2);
    TORCH_CHECK(w.size(1) == Cin && b.size(0) == Cout, "shape mismatch");
    TORCH_CHECK(Cout <= 65535 && N <= 65535, "grid limits");
    const int pad = K / 2;
    const int Lout = L + 2 * pad - K + 1;
    const size_t smem = (size_t)Cin * K * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "filter too large for shared memory");

    auto y = torch::empty({N, Cout, Lout}, x.options());
    if (y.numel() == 0) return y;
    dim3 grid((Lout + THREADS - 1) / THREADS, Cout, N);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    conv1d_wsmem_kernel<<<grid, THREADS, smem, stream>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), y.data_ptr<float>(),
        Cin, Cout, L, K, pad, Lout);
    return y;
}
"""

cpp_source = "torch::Tensor conv1d_wsmem_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t stream_ptr);"

conv1d_wsmem = load_inline(
    name="conv1d_smem_weights_per_channel",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["conv1d_wsmem_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, stride=1,
                              padding=kernel_size // 2, bias=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream().cuda_stream
        return conv1d_wsmem.conv1d_wsmem_forward(x, self.conv.weight, self.conv.bias, stream)
