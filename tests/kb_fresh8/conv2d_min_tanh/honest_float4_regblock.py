# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_min_tanh_f4_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t stream_ptr);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>
#include <cstdint>

#define BX 32            // column groups per block (4 outputs each)
#define BY 8             // output rows per block
#define CO_BLK 8         // output channels per register block
#define MAX_WS 4096      // shared weight capacity (floats)
#define MAX_CO 512

// Fused conv3x3 (valid) + channel-min + tanh(tanh()).
// Each thread produces 4 horizontally adjacent outputs.  For every (ci, ky) it fetches the 6
// input values it needs as one float4 + one float2 (16/8-byte aligned when W % 4 == 0 and the
// base pointer is 16-byte aligned; scalar fallback otherwise and at the right edge), and
// updates CO_BLK x 4 register accumulators with warp-uniform (broadcast) shared-memory weights.
// The channel minimum is folded in after each channel block, so nothing is written but the result.
template <int CI, bool VEC>
__global__ void __launch_bounds__(BX * BY)
conv2d_min_tanh_f4_kernel(const float* __restrict__ x, const float* __restrict__ w,
                          const float* __restrict__ bias, float* __restrict__ out,
                          int Co, int H, int W, int OH, int OW) {
    __shared__ float s_w[MAX_WS];      // [Co padded to CO_BLK][CI][3][3], zero padded
    __shared__ float s_b[MAX_CO];
    const int tid = threadIdx.y * BX + threadIdx.x;
    const int co_pad = (Co + CO_BLK - 1) / CO_BLK * CO_BLK;
    const int nw = Co * CI * 9;
    for (int i = tid; i < co_pad * CI * 9; i += BX * BY) s_w[i] = (i < nw) ? w[i] : 0.f;
    for (int i = tid; i < co_pad; i += BX * BY) s_b[i] = (i < Co) ? bias[i] : 0.f;
    __syncthreads();

    const int ox0 = (blockIdx.x * BX + threadIdx.x) * 4;
    const int oy = blockIdx.y * BY + threadIdx.y;
    const int b = blockIdx.z;
    if (ox0 >= OW || oy >= OH) return;

    const long long HW = (long long)H * W;
    const float* xb = x + (long long)b * CI * HW + (long long)oy * W;
    const bool vec_ok = VEC && (ox0 + 5 < W);

    float mn[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    for (int co0 = 0; co0 < Co; co0 += CO_BLK) {
        float acc[CO_BLK][4];
#pragma unroll
        for (int j = 0; j < CO_BLK; ++j) {
            const float bv = s_b[co0 + j];
#pragma unroll
            for (int p = 0; p < 4; ++p) acc[j][p] = bv;
        }
#pragma unroll 2
        for (int ci = 0; ci < CI; ++ci) {
#pragma unroll
            for (int ky = 0; ky < 3; ++ky) {
                const float* rp = xb + ci * HW + (long long)ky * W + ox0;   // row oy+ky < H always
                float v[6];
                if (vec_ok) {
                    const float4 a = __ldg(reinterpret_cast<const float4*>(rp));
                    const float2 c = __ldg(reinterpret_cast<const float2*>(rp + 4));
                    v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w; v[4] = c.x; v[5] = c.y;
                } else {
#pragma unroll
                    for (int i = 0; i < 6; ++i) v[i] = (ox0 + i < W) ? __ldg(rp + i) : 0.f;
                }
                const float* wr = s_w + ((co0 * CI + ci) * 3 + ky) * 3;
#pragma unroll
                for (int j = 0; j < CO_BLK; ++j) {
                    const float w0 = wr[j * CI * 9 + 0];
                    const float w1 = wr[j * CI * 9 + 1];
                    const float w2 = wr[j * CI * 9 + 2];
#pragma unroll
                    for (int p = 0; p < 4; ++p) {
                        float a = acc[j][p];
                        a = fmaf(v[p], w0, a);
                        a = fmaf(v[p + 1], w1, a);
                        a = fmaf(v[p + 2], w2, a);
                        acc[j][p] = a;
                    }
                }
            }
        }
#pragma unroll
        for (int j = 0; j < CO_BLK; ++j) {
            if (co0 + j < Co) {
#pragma unroll
                for (int p = 0; p < 4; ++p) mn[p] = fminf(mn[p], acc[j][p]);
            }
        }
    }

    float* op = out + ((long long)b * OH + oy) * OW + ox0;
#pragma unroll
    for (int p = 0; p < 4; ++p)
        if (ox0 + p < OW) op[p] = tanhf(tanhf(mn[p]));
}

torch::Tensor conv2d_min_tanh_f4_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "expected 4-D input and weight");
    x = x.contiguous(); w = w.contiguous(); b = b.contiguous();
    const int B = x.size(0), Ci = x.size(1), H = x.size(2), W = x.size(3);
    const int Co = w.size(0);
    TORCH_CHECK(w.size(1) == Ci && w.size(2) == 3 && w.size(3) == 3, "3x3 weights expected");
    TORCH_CHECK(Ci == 8, "kernel compiled for 8 input channels");
    TORCH_CHECK(b.numel() == Co && Co >= 1, "bias size mismatch");
    const int co_pad = (Co + CO_BLK - 1) / CO_BLK * CO_BLK;
    TORCH_CHECK(co_pad * Ci * 9 <= MAX_WS && co_pad <= MAX_CO, "too many output channels");
    const int OH = H - 2, OW = W - 2;
    TORCH_CHECK(OH > 0 && OW > 0, "input smaller than kernel");
    TORCH_CHECK(B <= 65535, "batch too large for grid.z");
    auto out = torch::empty({B, 1, OH, OW}, x.options());

    const bool vec = (W % 4 == 0) && (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0);
    const int groups = (OW + 3) / 4;
    dim3 block(BX, BY);
    dim3 grid((groups + BX - 1) / BX, (OH + BY - 1) / BY, B);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    if (vec)
        conv2d_min_tanh_f4_kernel<8, true><<<grid, block, 0, stream>>>(
            x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), Co, H, W, OH, OW);
    else
        conv2d_min_tanh_f4_kernel<8, false><<<grid, block, 0, stream>>>(
            x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), Co, H, W, OH, OW);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="conv2d_min_tanh_float4_regblock",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_min_tanh_f4_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.conv2d_min_tanh_f4_forward(x, self.conv.weight, self.conv.bias,
                                               torch.cuda.current_stream().cuda_stream)
