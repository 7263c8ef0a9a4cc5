# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_relu_im2col(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad, int64_t stream_ptr);"

cuda_src = r"""
#include <cuda_runtime.h>

// ---- stage 1: im2col of one image: col[(ci*K + kh)*K + kw][oh*OW + ow] (zero padded) ----
__global__ void im2col_kernel(const float* __restrict__ x, float* __restrict__ col,
                              int Cin, int H, int W, int K, int OH, int OW, int pad) {
    const long long P = (long long)OH * OW;
    const long long total = (long long)Cin * K * K * P;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        const int pix = (int)(idx % P);
        const int krow = (int)(idx / P);
        const int kw = krow % K;
        const int kh = (krow / K) % K;
        const int ci = krow / (K * K);
        const int oh = pix / OW, ow = pix % OW;
        const int ih = oh - pad + kh, iw = ow - pad + kw;
        col[idx] = (ih >= 0 && ih < H && iw >= 0 && iw < W) ? __ldg(x + ((long long)ci * H + ih) * W + iw) : 0.f;
    }
}

// ---- stage 2: Y[oc][pix] = relu(bias[oc] + sum_k Wt[oc][k] * col[k][pix]) ----
// Block tile BM x BN with BK-deep shared tiles; 16x16 threads, each computing 2 (oc) x 4 (pix) outputs.
#define BM 32
#define BN 64
#define BK 16

__global__ void __launch_bounds__(256)
sgemm_bias_relu_kernel(const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ bias,
                       float* __restrict__ C, int M, int Ncols, int Kdim) {
    __shared__ float As[BK][BM + 1];
    __shared__ float Bs[BK][BN];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * 16 + tx;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    float acc[2][4];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;

    for (int k0 = 0; k0 < Kdim; k0 += BK) {
        // A tile: BM x BK = 512 values, 2 per thread
#pragma unroll
        for (int l = 0; l < 2; ++l) {
            const int e = tid + l * 256;
            const int r = e / BK, c = e % BK;
            const int gm = m0 + r, gk = k0 + c;
            As[c][r] = (gm < M && gk < Kdim) ? __ldg(A + (long long)gm * Kdim + gk) : 0.f;
        }
        // B tile: BK x BN = 1024 values, 4 per thread (coalesced along pixels)
#pragma unroll
        for (int l = 0; l < 4; ++l) {
            const int e = tid + l * 256;
            const int r = e / BN, c = e % BN;
            const int gk = k0 + r, gn = n0 + c;
            Bs[r][c] = (gk < Kdim && gn < Ncols) ? __ldg(B + (long long)gk * Ncols + gn) : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a[2], bv[4];
#pragma unroll
            for (int i = 0; i < 2; ++i) a[i] = As[kk][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < 4; ++j) bv[j] = Bs[kk][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], bv[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < 2; ++i) {
        const int gm = m0 + ty + 16 * i;
        if (gm >= M) continue;
        const float bb = __ldg(bias + gm);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int gn = n0 + tx + 16 * j;
            if (gn < Ncols) C[(long long)gm * Ncols + gn] = fmaxf(acc[i][j] + bb, 0.f);
        }
    }
}

torch::Tensor conv2d_relu_im2col(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t pad, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "tensors must be CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "tensors must be float32");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "bad ranks");
    auto xc = x.contiguous();
    auto wc = w.contiguous();   // (Cout, Cin, K, K) == row-major (Cout, Cin*K*K)
    auto bc = b.contiguous();
    const int N = xc.size(0), Cin = xc.size(1), H = xc.size(2), W = xc.size(3);
    const int Cout = wc.size(0), K = wc.size(2);
    TORCH_CHECK(wc.size(1) == Cin && wc.size(3) == K, "weight shape mismatch");
    TORCH_CHECK(bc.numel() == Cout, "bias shape mismatch");
    const int OH = H + 2 * (int)pad - K + 1;
    const int OW = W + 2 * (int)pad - K + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "empty output");
    TORCH_CHECK((Cout + BM - 1) / BM <= 65535, "too many output channels");
    auto y = torch::empty({N, Cout, OH, OW}, xc.options());
    if (y.numel() == 0) return y;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    const int Kdim = Cin * K * K;
    const int P = OH * OW;
    auto col = torch::empty({Kdim, P}, xc.options());   // one image at a time, reused across the batch

    const long long colTotal = (long long)Kdim * P;
    int blocksCol = (int)((colTotal + 255) / 256);
    if (blocksCol > 65535) blocksCol = 65535;
    dim3 gblock(16, 16);
    dim3 ggrid((P + BN - 1) / BN, (Cout + BM - 1) / BM);
    for (int n = 0; n < N; ++n) {
        im2col_kernel<<<blocksCol, 256, 0, stream>>>(xc.data_ptr<float>() + (long long)n * Cin * H * W,
                                                     col.data_ptr<float>(), Cin, H, W, K, OH, OW, (int)pad);
        sgemm_bias_relu_kernel<<<ggrid, gblock, 0, stream>>>(wc.data_ptr<float>(), col.data_ptr<float>(),
                                                             bc.data_ptr<float>(),
                                                             y.data_ptr<float>() + (long long)n * Cout * P,
                                                             Cout, P, Kdim);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "conv2d_relu_im2col launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

ext = load_inline(
    name="conv2d_5x5_relu_im2col_sgemm",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_relu_im2col"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return ext.conv2d_relu_im2col(x, self.conv.weight, self.conv.bias, self.conv.padding[0], stream)
