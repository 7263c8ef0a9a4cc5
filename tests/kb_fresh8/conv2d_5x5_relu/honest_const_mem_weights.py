# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_relu_const(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad);"

cuda_src = r"""
#include <cuda_runtime.h>

#define MAX_CONST_W 14336   // 56 KB of filter taps
#define MAX_CONST_B 512

// Filters and bias are copied into constant memory at every call (device-to-device, stream-ordered).
// All threads of a block share one output channel, so each tap is a broadcast read.
__constant__ float c_w[MAX_CONST_W];
__constant__ float c_b[MAX_CONST_B];

// KT > 0: compile-time kernel size (fully unrolled); KT == 0: runtime kernel size.
template <int KT>
__global__ void __launch_bounds__(256)
conv2d_relu_const_kernel(const float* __restrict__ x, float* __restrict__ y,
                         int Cin, int H, int W, int Cout, int OH, int OW, int k_rt, int pad) {
    const int K = KT > 0 ? KT : k_rt;
    const int ow = blockIdx.x * blockDim.x + threadIdx.x;
    const int oh = blockIdx.y * blockDim.y + threadIdx.y;
    const int oc = blockIdx.z % Cout;
    const int n = blockIdx.z / Cout;
    if (ow >= OW || oh >= OH) return;

    float acc = c_b[oc];
    const float* xn = x + (long long)n * Cin * H * W;
    for (int ci = 0; ci < Cin; ++ci) {
        const float* xp = xn + (long long)ci * H * W;
        const float* wp = c_w + (oc * Cin + ci) * K * K;
#pragma unroll
        for (int kh = 0; kh < K; ++kh) {
            const int ih = oh - pad + kh;
            if ((unsigned)ih >= (unsigned)H) continue;
            const float* row = xp + (long long)ih * W;
#pragma unroll
            for (int kw = 0; kw < K; ++kw) {
                const int iw = ow - pad + kw;
                if ((unsigned)iw < (unsigned)W) acc = fmaf(__ldg(row + iw), wp[kh * K + kw], acc);
            }
        }
    }
    y[(((long long)n * Cout + oc) * OH + oh) * OW + ow] = fmaxf(acc, 0.f);
}

// Fallback when the filter bank does not fit in constant memory: same mapping, weights from global memory.
__global__ void conv2d_relu_global_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                          const float* __restrict__ b, float* __restrict__ y,
                                          int Cin, int H, int W, int Cout, int OH, int OW, int K, int pad) {
    const int ow = blockIdx.x * blockDim.x + threadIdx.x;
    const int oh = blockIdx.y * blockDim.y + threadIdx.y;
    const int oc = blockIdx.z % Cout;
    const int n = blockIdx.z / Cout;
    if (ow >= OW || oh >= OH) return;
    float acc = __ldg(b + oc);
    for (int ci = 0; ci < Cin; ++ci) {
        const float* xp = x + ((long long)n * Cin + ci) * H * W;
        const float* wp = w + ((long long)oc * Cin + ci) * K * K;
        for (int kh = 0; kh < K; ++kh) {
            const int ih = oh - pad + kh;
            if ((unsigned)ih >= (unsigned)H) continue;
            for (int kw = 0; kw < K; ++kw) {
                const int iw = ow - pad + kw;
                if ((unsigned)iw < (unsigned)W) acc = fmaf(__ldg(xp + (long long)ih * W + iw), __ldg(wp + kh * K + kw), acc);
            }
        }
    }
    y[(((long long)n * Cout + oc) * OH + oh) * OW + ow] = fmaxf(acc, 0.f);
}

torch::Tensor conv2d_relu_const(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "tensors must be CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "tensors must be float32");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "bad ranks");
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    const int N = xc.size(0), Cin = xc.size(1), H = xc.size(2), W = xc.size(3);
    const int Cout = wc.size(0), K = wc.size(2);
    TORCH_CHECK(wc.size(1) == Cin && wc.size(3) == K, "weight shape mismatch");
    TORCH_CHECK(bc.numel() == Cout, "bias shape mismatch");
    const int OH = H + 2 * (int)pad - K + 1;
    const int OW = W + 2 * (int)pad - K + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "empty output");
    TORCH_CHECK((long long)N * Cout <= 65535, "N * Cout exceeds gridDim.z");
    auto y = torch::empty({N, Cout, OH, OW}, xc.options());
    if (y.numel() == 0) return y;

    dim3 block(32, 8);
    dim3 grid((OW + 31) / 32, (OH + 7) / 8, N * Cout);
    if (wc.numel() <= MAX_CONST_W && Cout <= MAX_CONST_B) {
        cudaMemcpyToSymbolAsync(c_w, wc.data_ptr<float>(), wc.numel() * sizeof(float), 0,
                                cudaMemcpyDeviceToDevice, 0);
        cudaMemcpyToSymbolAsync(c_b, bc.data_ptr<float>(), Cout * sizeof(float), 0,
                                cudaMemcpyDeviceToDevice, 0);
        if (K == 5) {
            conv2d_relu_const_kernel<5><<<grid, block>>>(xc.data_ptr<float>(), y.data_ptr<float>(),
                                                         Cin, H, W, Cout, OH, OW, K, (int)pad);
        } else if (K == 3) {
            conv2d_relu_const_kernel<3><<<grid, block>>>(xc.data_ptr<float>(), y.data_ptr<float>(),
                                                         Cin, H, W, Cout, OH, OW, K, (int)pad);
        } else {
            conv2d_relu_const_kernel<0><<<grid, block>>>(xc.data_ptr<float>(), y.data_ptr<float>(),
                                                         Cin, H, W, Cout, OH, OW, K, (int)pad);
        }
    } else {
        conv2d_relu_global_kernel<<<grid, block>>>(xc.data_ptr<float>(), wc.data_ptr<float>(), bc.data_ptr<float>(),
                                                   y.data_ptr<float>(), Cin, H, W, Cout, OH, OW, K, (int)pad);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "conv2d_relu_const failed: ", cudaGetErrorString(err));
    return y;
}
"""

ext = load_inline(
    name="conv2d_5x5_relu_const_mem_weights",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_relu_const"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return ext.conv2d_relu_const(x, self.conv.weight, self.conv.bias, self.conv.padding[0])
