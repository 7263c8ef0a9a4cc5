# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

bn_welford_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

// Chan et al. combination of two (mean, M2, count) triples.
__device__ __forceinline__ void welford_merge(float& mean, float& m2, float& n,
                                              float mean_b, float m2_b, float n_b) {
    float nt = n + n_b;
    if (nt == 0.0f) return;
    float delta = mean_b - mean;
    float frac = n_b / nt;
    mean += delta * frac;
    m2 += m2_b + delta * delta * n * frac;
    n = nt;
}

// Kernel 1: one block per (n, c) plane, Welford accumulation per thread,
// merged across the warp with shuffles and across warps through shared memory.
__global__ void bn_welford_plane_kernel(const float* __restrict__ x,
                                        float* __restrict__ part_mean,
                                        float* __restrict__ part_m2,
                                        float* __restrict__ part_n,
                                        int HW) {
    const int plane = blockIdx.x;
    const float* p = x + (int64_t)plane * HW;
    float mean = 0.0f, m2 = 0.0f, n = 0.0f;
    for (int i = threadIdx.x; i < HW; i += blockDim.x) {
        float v = p[i];
        n += 1.0f;
        float delta = v - mean;
        mean += delta / n;
        m2 += delta * (v - mean);
    }
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        float mb = __shfl_down_sync(0xffffffff, mean, off);
        float m2b = __shfl_down_sync(0xffffffff, m2, off);
        float nb = __shfl_down_sync(0xffffffff, n, off);
        welford_merge(mean, m2, n, mb, m2b, nb);
    }
    __shared__ float s_mean[32], s_m2[32], s_n[32];
    const int lane = threadIdx.x & 31;
    const int wid = threadIdx.x >> 5;
    if (lane == 0) { s_mean[wid] = mean; s_m2[wid] = m2; s_n[wid] = n; }
    __syncthreads();
    if (threadIdx.x == 0) {
        const int nw = (blockDim.x + 31) >> 5;
        float bm = s_mean[0], bm2 = s_m2[0], bn = s_n[0];
        for (int w = 1; w < nw; ++w) welford_merge(bm, bm2, bn, s_mean[w], s_m2[w], s_n[w]);
        part_mean[plane] = bm;
        part_m2[plane] = bm2;
        part_n[plane] = bn;
    }
}

// Kernel 2: one thread per channel merges the N plane partials (in double)
// and writes the per-channel scale and shift.
__global__ void bn_welford_finalize_kernel(const float* __restrict__ part_mean,
                                           const float* __restrict__ part_m2,
                                           const float* __restrict__ part_n,
                                           const float* __restrict__ weight,
                                           const float* __restrict__ bias,
                                           float* __restrict__ scale,
                                           float* __restrict__ shift,
                                           int N, int C, float eps) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C) return;
    double mean = 0.0, m2 = 0.0, cnt = 0.0;
    for (int n = 0; n < N; ++n) {
        const int idx = n * C + c;
        double mb = part_mean[idx], m2b = part_m2[idx], nb = part_n[idx];
        double nt = cnt + nb;
        if (nt == 0.0) continue;
        double delta = mb - mean;
        mean += delta * nb / nt;
        m2 += m2b + delta * delta * cnt * nb / nt;
        cnt = nt;
    }
    double var = (cnt > 0.0) ? m2 / cnt : 0.0;
    float s = weight[c] * (float)(1.0 / sqrt(var + (double)eps));
    scale[c] = s;
    shift[c] = bias[c] - (float)mean * s;
}

// Kernel 3: grid-stride elementwise y = x * scale[c] + shift[c].
__global__ void bn_welford_apply_kernel(const float* __restrict__ x,
                                        const float* __restrict__ scale,
                                        const float* __restrict__ shift,
                                        float* __restrict__ y,
                                        int64_t total, int C, int HW) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        const int c = (int)((idx / HW) % C);
        y[idx] = x[idx] * scale[c] + shift[c];
    }
}

torch::Tensor batch_norm_welford_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda() && x.dim() == 4, "x must be a 4D CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    const int N = x.size(0);
    const int C = x.size(1);
    const int HW = x.size(2) * x.size(3);
    auto y = torch::empty_like(x);
    auto part_mean = torch::empty({N * C}, x.options());
    auto part_m2 = torch::empty({N * C}, x.options());
    auto part_n = torch::empty({N * C}, x.options());
    auto scale = torch::empty({C}, x.options());
    auto shift = torch::empty({C}, x.options());
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    bn_welford_plane_kernel<<<N * C, 128, 0, stream>>>(
        x.data_ptr<float>(), part_mean.data_ptr<float>(), part_m2.data_ptr<float>(),
        part_n.data_ptr<float>(), HW);

    bn_welford_finalize_kernel<<<(C + 63) / 64, 64, 0, stream>>>(
        part_mean.data_ptr<float>(), part_m2.data_ptr<float>(), part_n.data_ptr<float>(),
        weight.data_ptr<float>(), bias.data_ptr<float>(),
        scale.data_ptr<float>(), shift.data_ptr<float>(), N, C, (float)eps);

    const int64_t total = x.numel();
    const int threads = 512;
    const int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
    int64_t blocks = (total + threads - 1) / threads;
    if (blocks > (int64_t)sms * 8) blocks = (int64_t)sms * 8;
    if (blocks < 1) blocks = 1;
    bn_welford_apply_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(
        x.data_ptr<float>(), scale.data_ptr<float>(), shift.data_ptr<float>(), y.data_ptr<float>(),
        total, C, HW);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "batch_norm_welford kernel failed: ", cudaGetErrorString(err));
    return y;
}
"""

bn_welford_cpp = "torch::Tensor batch_norm_welford_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

bn_welford = load_inline(
    name="kbf3_bn_welford_three_kernel",
    cpp_sources=bn_welford_cpp,
    cuda_sources=bn_welford_source,
    functions=["batch_norm_welford_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        return bn_welford.batch_norm_welford_cuda(
            x, self.bn.weight.contiguous(), self.bn.bias.contiguous(), self.bn.eps)
