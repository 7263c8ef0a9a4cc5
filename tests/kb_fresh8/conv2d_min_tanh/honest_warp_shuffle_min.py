# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor conv2d_min_tanh_warp_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t stream_ptr);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <math.h>

#define WARPS_PER_BLOCK 8
#define FULL_MASK 0xffffffffu

// One warp per output pixel (grid-stride over pixels, persistent grid sized from the SM count).
// Lane l computes output channels l, l+32, ...; the input patch addresses are identical for all
// lanes (broadcast loads), the weights sit in shared memory transposed to [ci*K*K + k][co] so
// lanes read consecutive words.  The channel minimum is a __shfl_xor_sync butterfly.
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
conv2d_min_tanh_warp_kernel(const float* __restrict__ x, const float* __restrict__ w,
                            const float* __restrict__ bias, float* __restrict__ out,
                            int B, int Ci, int Co, int H, int W, int K, int OH, int OW) {
    extern __shared__ float smem[];
    const int KK = K * K;
    const int R = Ci * KK;
    float* s_wt = smem;            // [R][Co]
    float* s_b = smem + R * Co;    // [Co]
    for (int i = threadIdx.x; i < R * Co; i += blockDim.x) {
        int co = i / R, r = i % R;          // w is [Co][Ci][K][K] = [Co][R]
        s_wt[r * Co + co] = w[i];
    }
    for (int i = threadIdx.x; i < Co; i += blockDim.x) s_b[i] = bias[i];
    __syncthreads();

    const int lane = threadIdx.x & 31;
    const long long warp_id = (long long)blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
    const long long n_warps = (long long)gridDim.x * WARPS_PER_BLOCK;
    const long long total = (long long)B * OH * OW;
    const long long HW = (long long)H * W;

    for (long long p = warp_id; p < total; p += n_warps) {      // uniform across the warp
        const int ox = (int)(p % OW);
        const long long t = p / OW;
        const int oy = (int)(t % OH);
        const int b = (int)(t / OH);
        const float* xb = x + (long long)b * Ci * HW + (long long)oy * W + ox;

        float mn = INFINITY;
        for (int co = lane; co < Co; co += 32) {
            float acc = s_b[co];
            for (int ci = 0; ci < Ci; ++ci) {
                const float* xc = xb + ci * HW;
                const float* wr = s_wt + (ci * KK) * Co + co;
                for (int ky = 0; ky < K; ++ky)
                    for (int kx = 0; kx < K; ++kx)
                        acc = fmaf(__ldg(xc + ky * W + kx), wr[(ky * K + kx) * Co], acc);
            }
            mn = fminf(mn, acc);
        }
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) mn = fminf(mn, __shfl_xor_sync(FULL_MASK, mn, off));
        if (lane == 0) out[p] = tanhf(tanhf(mn));
    }
}

torch::Tensor conv2d_min_tanh_warp_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(x.dim() == 4 && w.dim() == 4, "expected 4-D input and weight");
    x = x.contiguous(); w = w.contiguous(); b = b.contiguous();
    const int B = x.size(0), Ci = x.size(1), H = x.size(2), W = x.size(3);
    const int Co = w.size(0), K = w.size(2);
    TORCH_CHECK(w.size(1) == Ci && w.size(3) == K, "weight shape mismatch");
    TORCH_CHECK(b.numel() == Co && Co >= 1, "bias size mismatch");
    const int OH = H - K + 1, OW = W - K + 1;
    TORCH_CHECK(OH > 0 && OW > 0, "input smaller than kernel");
    size_t smem = (size_t)(Ci * K * K * Co + Co) * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "weights do not fit in shared memory");
    auto out = torch::empty({B, 1, OH, OW}, x.options());

    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    const long long total = (long long)B * OH * OW;
    long long need = (total + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    int blocks = (int)std::min<long long>(need, (long long)sms * 8);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    conv2d_min_tanh_warp_kernel<<<blocks, WARPS_PER_BLOCK * 32, smem, stream>>>(
        x.data_ptr<float>(), w.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(),
        B, Ci, Co, H, W, K, OH, OW);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="conv2d_min_tanh_warp_shuffle_min",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["conv2d_min_tanh_warp_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.conv2d_min_tanh_warp_forward(x, self.conv.weight, self.conv.bias,
                                                 torch.cuda.current_stream().cuda_stream)
