# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

maxpool_vec_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>
#include <cmath>
#include <cstdint>

// Fast path for kernel_size=3, stride=2, padding=1: each thread produces 4 adjacent outputs of
// one output row. Those need input columns 8q-1 .. 8q+7 of three input rows, read as two
// aligned float4 loads plus one scalar per row; the 4 results are stored with one float4.
__global__ void maxpool_k3s2p1_vec4_kernel(const float* __restrict__ x, float* __restrict__ y,
                                           long long total_vec, int H, int W, int OH, int OW) {
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total_vec) return;

    const int OWq = OW >> 2;
    const int q = (int)(idx % OWq);
    const long long row = idx / OWq;           // (n*C + c) * OH + oh
    const int oh = (int)(row % OH);
    const long long nc = row / OH;
    const float* plane = x + nc * (long long)H * W;
    const int wbase = q * 8;

    float m0 = -INFINITY, m1 = -INFINITY, m2 = -INFINITY, m3 = -INFINITY;
#pragma unroll
    for (int kh = 0; kh < 3; ++kh) {
        const int h = 2 * oh - 1 + kh;
        if (h < 0 || h >= H) continue;
        const float* r = plane + (long long)h * W;
        const float4 a = __ldg(reinterpret_cast<const float4*>(r + wbase));
        const float4 b = __ldg(reinterpret_cast<const float4*>(r + wbase + 4));
        const float left = (wbase > 0) ? __ldg(r + wbase - 1) : -INFINITY;
        m0 = fmaxf(m0, fmaxf(left, fmaxf(a.x, a.y)));
        m1 = fmaxf(m1, fmaxf(a.y, fmaxf(a.z, a.w)));
        m2 = fmaxf(m2, fmaxf(a.w, fmaxf(b.x, b.y)));
        m3 = fmaxf(m3, fmaxf(b.y, fmaxf(b.z, b.w)));
    }
    reinterpret_cast<float4*>(y + row * OW)[q] = make_float4(m0, m1, m2, m3);
}

// Generic fallback: one thread per output.
__global__ void maxpool_generic_kernel(const float* __restrict__ x, float* __restrict__ y, long long total,
                                       int H, int W, int OH, int OW, int K, int S, int P) {
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    const int ow = (int)(idx % OW);
    const long long row = idx / OW;
    const int oh = (int)(row % OH);
    const long long nc = row / OH;
    const float* plane = x + nc * (long long)H * W;
    float m = -INFINITY;
    for (int kh = 0; kh < K; ++kh) {
        const int h = oh * S - P + kh;
        if (h < 0 || h >= H) continue;
        for (int kw = 0; kw < K; ++kw) {
            const int w = ow * S - P + kw;
            if (w < 0 || w >= W) continue;
            m = fmaxf(m, __ldg(plane + (long long)h * W + w));
        }
    }
    y[idx] = m;
}

torch::Tensor maxpool2d_vec(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4 && x.scalar_type() == torch::kFloat32,
                "expected float32 NCHW CUDA tensor");
    x = x.contiguous();
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    const int K = (int)kernel_size, S = (int)stride, P = (int)padding;
    const int OH = (H + 2 * P - K) / S + 1;
    const int OW = (W + 2 * P - K) / S + 1;
    auto y = torch::empty({N, C, OH, OW}, x.options());
    auto stream = at::cuda::getCurrentCUDAStream();
    const int threads = 256;

    const bool aligned = (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(y.data_ptr<float>()) % 16 == 0);
    if (K == 3 && S == 2 && P == 1 && W % 8 == 0 && aligned) {
        // here OW == W / 2, a multiple of 4
        const long long total_vec = (long long)N * C * OH * (OW / 4);
        const long long blocks = (total_vec + threads - 1) / threads;
        if (blocks > 0)
            maxpool_k3s2p1_vec4_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
                x.data_ptr<float>(), y.data_ptr<float>(), total_vec, H, W, OH, OW);
    } else {
        const long long total = (long long)N * C * OH * OW;
        const long long blocks = (total + threads - 1) / threads;
        if (blocks > 0)
            maxpool_generic_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
                x.data_ptr<float>(), y.data_ptr<float>(), total, H, W, OH, OW, K, S, P);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

maxpool_vec_cpp = "torch::Tensor maxpool2d_vec(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding);"

maxpool_vec_ext = load_inline(
    name="maxpool2d_float4_k3s2_fast_path",
    cpp_sources=maxpool_vec_cpp,
    cuda_sources=maxpool_vec_source,
    functions=["maxpool2d_vec"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return maxpool_vec_ext.maxpool2d_vec(x, self.kernel_size, self.stride, self.padding)
