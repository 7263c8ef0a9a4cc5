# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_min_tanh_smem_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

#define TILE 16

// 16x16 output tile per block.  All input channels of the (TILE+K-1)^2 input tile plus the
// whole weight tensor and bias are staged in dynamic shared memory; each thread then loops
// over output channels, keeping the running minimum, and applies tanh twice.
__global__ void conv2d_min_tanh_smem_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                            const float* __restrict__ bias, float* __restrict__ out,
                                            int Ci, int Co, int H, int W, int K, int OH, int OW) {
    extern __shared__ float smem[];
    const int TS = TILE + K - 1;
    float* s_x = smem;                       // [Ci][TS][TS]
    float* s_w = s_x + Ci * TS * TS;         // [Co][Ci][K][K]
    float* s_b = s_w + Co * Ci * K * K;      // [Co]

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * TILE + tx;
    const int ox0 = blockIdx.x * TILE, oy0 = blockIdx.y * TILE;
    const int b = blockIdx.z;

    const float* xb = x + (long long)b * Ci * H * W;
    for (int i = tid; i < Ci * TS * TS; i += TILE * TILE) {
        int ci = i / (TS * TS);
        int r = (i / TS) % TS;
        int c = i % TS;
        int iy = oy0 + r, ix = ox0 + c;
        s_x[i] = (iy < H && ix < W) ? xb[((long long)ci * H + iy) * W + ix] : 0.f;
    }
    for (int i = tid; i < Co * Ci * K * K; i += TILE * TILE) s_w[i] = w[i];
    for (int i = tid; i < Co; i += TILE * TILE) s_b[i] = bias[i];
    __syncthreads();

    const int oy = oy0 + ty, ox = ox0 + tx;
    if (oy >= OH || ox >= OW) return;

    float mn = INFINITY;
    for (int co = 0; co < Co; ++co) {
        float acc = s_b[co];
        const float* wc = s_w + co * Ci * K * K;
        for (int ci = 0; ci < Ci; ++ci) {
            const float* xc = s_x + (ci * TS + ty) * TS + tx;
            const float* wk = wc + ci * K * K;
            for (int ky = 0; ky < K; ++ky)
                for (int kx = 0; kx < K; ++kx)
                    acc = fmaf(xc[ky * TS + kx], wk[ky * K + kx], acc);
        }
        mn = fminf(mn, acc);
    }
    out[((long long)b * OH + oy) * OW + ox] = tanhf(tanhf(mn));
}

torch::Tensor conv2d_min_tanh_smem_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "expected 4-D input and weight");
    x = x.contiguous(); w = w.contiguous(); b = b.contiguous();
    const int B = x.size(0), Ci = x.size(1), H = x.size(2), W = x.size(3);
    const int Co = w.size(0), K = w.size(2);
    TORCH_CHECK(w.size(1) == Ci && w.size(3) == K, "weight shape mismatch");
    TORCH_CHECK(b.numel() == Co, "bias size mismatch");
    const int OH = H - K + 1, OW = W - K + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "input smaller than kernel");
    TORCH_CHECK(B <= 65535, "batch too large for grid.z");
    const int TS = TILE + K - 1;
    size_t smem = (size_t)(Ci * TS * TS + Co * Ci * K * K + Co) * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "shared-memory footprint too large: ", smem);
    auto out = torch::empty({B, 1, OH, OW}, x.options());
    dim3 block(TILE, TILE);
    dim3 grid((OW + TILE - 1) / TILE, (OH + TILE - 1) / TILE, B);
    conv2d_min_tanh_smem_kernel<<<grid, block, smem>>>(x.data_ptr<float>(), w.data_ptr<float>(),
                                                       b.data_ptr<float>(), out.data_ptr<float>(),
                                                       Ci, Co, H, W, K, OH, OW);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="conv2d_min_tanh_smem_tile",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_min_tanh_smem_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.conv2d_min_tanh_smem_forward(x, self.conv.weight, self.conv.bias)
