# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

#define CO_T 16
#define THREADS 256

// Each thread produces 4 consecutive pixels x CO_T output channels (64 accumulators).
// The weight slice w[co0:co0+CO_T, :] lives in shared memory as [ci][CO_T] (warp-uniform float4 reads).
// VEC=true: x is read and y written with 16-byte float4 accesses (requires H*W % 4 == 0 and
// 16-byte-aligned base pointers); VEC=false is the scalar, bounds-checked fallback.
template <bool VEC>
__global__ void __launch_bounds__(THREADS) pw_float4_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                                            float* __restrict__ y, int Cin, int Cout, int P) {
    extern __shared__ float4 sw4[];
    float* sw = reinterpret_cast<float*>(sw4);  // [Cin][CO_T]
    const int co0 = blockIdx.y * CO_T;
    const int n = blockIdx.z;
    for (int idx = threadIdx.x; idx < Cin * CO_T; idx += THREADS) {
        const int ci = idx / CO_T, j = idx % CO_T;
        const int co = co0 + j;
        sw[idx] = (co < Cout) ? __ldg(w + (long long)co * Cin + ci) : 0.f;
    }
    __syncthreads();

    const int pb = (blockIdx.x * THREADS + threadIdx.x) * 4;
    if (pb >= P) return;
    const float* xn = x + (long long)n * Cin * P;

    float4 acc[CO_T];
#pragma unroll
    for (int j = 0; j < CO_T; ++j) acc[j] = make_float4(0.f, 0.f, 0.f, 0.f);

#pragma unroll 4
    for (int ci = 0; ci < Cin; ++ci) {
        const float* xr = xn + (long long)ci * P + pb;
        float4 xv;
        if (VEC) {
            xv = __ldg(reinterpret_cast<const float4*>(xr));
        } else {
            xv.x = __ldg(xr);
            xv.y = (pb + 1 < P) ? __ldg(xr + 1) : 0.f;
            xv.z = (pb + 2 < P) ? __ldg(xr + 2) : 0.f;
            xv.w = (pb + 3 < P) ? __ldg(xr + 3) : 0.f;
        }
        const float4* wr = reinterpret_cast<const float4*>(sw + ci * CO_T);
#pragma unroll
        for (int j4 = 0; j4 < CO_T / 4; ++j4) {
            const float4 wv = wr[j4];
            const float wj[4] = {wv.x, wv.y, wv.z, wv.w};
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                float4& a = acc[4 * j4 + q];
                a.x = fmaf(wj[q], xv.x, a.x);
                a.y = fmaf(wj[q], xv.y, a.y);
                a.z = fmaf(wj[q], xv.z, a.z);
                a.w = fmaf(wj[q], xv.w, a.w);
            }
        }
    }

#pragma unroll
    for (int j = 0; j < CO_T; ++j) {
        const int co = co0 + j;
        if (co >= Cout) break;
        float* yr = y + ((long long)n * Cout + co) * P + pb;
        if (VEC) {
            *reinterpret_cast<float4*>(yr) = acc[j];
        } else {
            yr[0] = acc[j].x;
            if (pb + 1 < P) yr[1] = acc[j].y;
            if (pb + 2 < P) yr[2] = acc[j].z;
            if (pb + 3 < P) yr[3] = acc[j].w;
        }
    }
}

torch::Tensor pointwise_conv2d_forward(torch::Tensor x, torch::Tensor w, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4, "x must be (N, C_in, H, W)");
    TORCH_CHECK(w.dim() == 4 && w.size(2) == 1 && w.size(3) == 1, "w must be (C_out, C_in, 1, 1)");
    x = x.contiguous();
    w = w.contiguous();
    const int N = x.size(0), Cin = x.size(1), H = x.size(2), W = x.size(3);
    const int Cout = w.size(0);
    TORCH_CHECK(w.size(1) == Cin, "weight C_in mismatch");
    const int P = H * W;
    TORCH_CHECK(N <= 65535, "batch too large for grid.z");
    const size_t smem = (size_t)Cin * CO_T * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "C_in too large for the shared weight slice");
    auto y = torch::empty({N, Cout, H, W}, x.options());
    if (N == 0 || Cout == 0 || P == 0) return y;

    const bool vec = (P % 4 == 0) &&
                     (reinterpret_cast<std::uintptr_t>(x.data_ptr<float>()) % 16 == 0) &&
                     (reinterpret_cast<std::uintptr_t>(y.data_ptr<float>()) % 16 == 0);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    const int quads = (P + 3) / 4;
    dim3 grid((quads + THREADS - 1) / THREADS, (Cout + CO_T - 1) / CO_T, N);
    if (vec) {
        pw_float4_kernel<true><<<grid, THREADS, smem, stream>>>(x.data_ptr<float>(), w.data_ptr<float>(),
                                                                y.data_ptr<float>(), Cin, Cout, P);
    } else {
        pw_float4_kernel<false><<<grid, THREADS, smem, stream>>>(x.data_ptr<float>(), w.data_ptr<float>(),
                                                                 y.data_ptr<float>(), Cin, Cout, P);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_src = "torch::Tensor pointwise_conv2d_forward(torch::Tensor x, torch::Tensor w, int64_t stream_ptr);"

_ext = load_inline(
    name="pointwise_conv2d_float4_cout16",
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
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return _ext.pointwise_conv2d_forward(x, self.conv.weight, stream)
