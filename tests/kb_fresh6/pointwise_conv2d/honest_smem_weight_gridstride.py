# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define CO_CHUNK 32

// grid = (persistent-ish number of blocks, ceil(C_out / CO_CHUNK)).  Each block stages the weight
// slice w[co0:co0+CO_CHUNK, :] transposed to [ci][j] in shared memory, then threads walk the
// N*H*W pixel positions with a grid-stride loop.  For each pixel a thread keeps CO_CHUNK
// accumulators in registers and reads every x[n, ci, p] exactly once (coalesced across the warp).
__global__ void pw_gridstride_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                     float* __restrict__ y, int N, int Cin, int Cout, int P) {
    extern __shared__ float sw[];  // [Cin][CO_CHUNK]
    const int co0 = blockIdx.y * CO_CHUNK;
    for (int idx = threadIdx.x; idx < Cin * CO_CHUNK; idx += blockDim.x) {
        int ci = idx / CO_CHUNK, j = idx % CO_CHUNK;
        int co = co0 + j;
        sw[idx] = (co < Cout) ? w[(long long)co * Cin + ci] : 0.f;
    }
    __syncthreads();

    const long long total = (long long)N * P;
    for (long long pos = (long long)blockIdx.x * blockDim.x + threadIdx.x; pos < total;
         pos += (long long)gridDim.x * blockDim.x) {
        const int n = (int)(pos / P);
        const int p = (int)(pos - (long long)n * P);
        const float* xp = x + (long long)n * Cin * P + p;
        float acc[CO_CHUNK];
#pragma unroll
        for (int j = 0; j < CO_CHUNK; ++j) acc[j] = 0.f;
        for (int ci = 0; ci < Cin; ++ci) {
            const float xv = __ldg(xp + (long long)ci * P);
            const float* wr = sw + ci * CO_CHUNK;
#pragma unroll
            for (int j = 0; j < CO_CHUNK; ++j) acc[j] = fmaf(xv, wr[j], acc[j]);
        }
        float* yp = y + ((long long)n * Cout + co0) * P + p;
#pragma unroll
        for (int j = 0; j < CO_CHUNK; ++j) {
            if (co0 + j < Cout) yp[(long long)j * P] = acc[j];
        }
    }
}

torch::Tensor pointwise_conv2d_forward(torch::Tensor x, torch::Tensor w) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4, "x must be (N, C_in, H, W)");
    TORCH_CHECK(w.dim() == 4 && w.size(2) == 1 && w.size(3) == 1, "w must be (C_out, C_in, 1, 1)");
    x = x.contiguous();
    w = w.contiguous();
    int N = x.size(0), Cin = x.size(1), H = x.size(2), W = x.size(3);
    int Cout = w.size(0);
    TORCH_CHECK(w.size(1) == Cin, "weight C_in mismatch");
    int P = H * W;
    size_t smem = (size_t)Cin * CO_CHUNK * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "C_in too large for the shared weight slice");
    auto y = torch::empty({N, Cout, H, W}, x.options());
    long long total = (long long)N * P;
    if (total == 0 || Cout == 0) return y;

    int dev = x.get_device();
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    const int threads = 256;
    int co_blocks = (Cout + CO_CHUNK - 1) / CO_CHUNK;
    long long want = (total + threads - 1) / threads;
    long long cap = (long long)sms * 8 / co_blocks;
    if (cap < 1) cap = 1;
    int gx = (int)(want < cap ? want : cap);
    dim3 grid(gx, co_blocks);
    pw_gridstride_kernel<<<grid, threads, smem>>>(x.data_ptr<float>(), w.data_ptr<float>(), y.data_ptr<float>(),
                                                  N, Cin, Cout, P);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_src = "torch::Tensor pointwise_conv2d_forward(torch::Tensor x, torch::Tensor w);"

_ext = load_inline(
    name="pointwise_conv2d_smem_weight_gridstride",
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
        return _ext.pointwise_conv2d_forward(x, self.conv.weight)
