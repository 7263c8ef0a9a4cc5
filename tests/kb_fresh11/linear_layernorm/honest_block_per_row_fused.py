# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor linear_layernorm_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, torch::Tensor gamma, torch::Tensor beta, double eps);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <vector>

// Strategy: a single fused kernel with one block per input row. Each warp of the block computes
// output features as coalesced warp-wide dot products (lanes stride over K with float4 loads,
// then a shuffle reduction) and writes them to the output row; after a barrier the same block
// computes the row mean and variance (two passes, block reductions through shared memory) and
// overwrites the row with the normalised, affine-transformed values.
#define THREADS 256

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// Sum over the whole block; every thread gets the result. sh must hold >= 33 floats.
__device__ __forceinline__ float block_sum(float v, float* sh) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    v = warp_sum(v);
    __syncthreads();                 // previous users of sh are done
    if (lane == 0) sh[warp] = v;
    __syncthreads();
    if (warp == 0) {
        float r = (lane < nwarps) ? sh[lane] : 0.0f;
        r = warp_sum(r);
        if (lane == 0) sh[32] = r;
    }
    __syncthreads();
    return sh[32];
}

template <bool VEC>
__global__ void __launch_bounds__(THREADS)
linear_ln_row_kernel(const float* __restrict__ x, const float* __restrict__ W,
                     const float* __restrict__ bias, const float* __restrict__ gamma,
                     const float* __restrict__ beta, float* out, int M, int N, int K, float eps) {
    __shared__ float sh[33];
    const int m = blockIdx.x;
    if (m >= M) return;   // uniform for the whole block
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    const float* xr = x + (size_t)m * K;
    float* yr = out + (size_t)m * N;

    // 1) linear: warp-per-feature dot products
    float local_sum = 0.0f;
    for (int n = warp; n < N; n += nwarps) {
        const float* wr = W + (size_t)n * K;
        float acc = 0.0f;
        if (VEC) {
            const float4* x4 = reinterpret_cast<const float4*>(xr);
            const float4* w4 = reinterpret_cast<const float4*>(wr);
            const int K4 = K >> 2;
            for (int i = lane; i < K4; i += 32) {
                const float4 a = __ldg(x4 + i);
                const float4 b = __ldg(w4 + i);
                acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
            }
        } else {
            for (int k = lane; k < K; k += 32) acc += __ldg(xr + k) * __ldg(wr + k);
        }
        acc = warp_sum(acc);
        if (lane == 0) {
            const float v = acc + __ldg(bias + n);
            yr[n] = v;
            local_sum += v;
        }
    }

    // 2) mean (the barrier inside block_sum also makes the row writes visible to the block)
    const float mean = block_sum(local_sum, sh) / (float)N;

    // 3) variance, two-pass
    float sq = 0.0f;
    for (int n = threadIdx.x; n < N; n += blockDim.x) {
        const float d = yr[n] - mean;
        sq += d * d;
    }
    const float var = block_sum(sq, sh) / (float)N;
    const float rstd = rsqrtf(var + eps);

    // 4) normalise + affine, in place (each thread touches only its own elements here)
    for (int n = threadIdx.x; n < N; n += blockDim.x) {
        yr[n] = (yr[n] - mean) * rstd * __ldg(gamma + n) + __ldg(beta + n);
    }
}

torch::Tensor linear_layernorm_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                                    torch::Tensor gamma, torch::Tensor beta, double eps) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda() && gamma.is_cuda() && beta.is_cuda(),
                "all tensors must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32 &&
                bias.scalar_type() == torch::kFloat32 && gamma.scalar_type() == torch::kFloat32 &&
                beta.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(weight.dim() == 2 && x.dim() >= 1, "bad dims");
    const int N = (int)weight.size(0);
    const int K = (int)weight.size(1);
    TORCH_CHECK(x.size(-1) == K, "x last dim must equal in_features");
    TORCH_CHECK(bias.numel() == N && gamma.numel() == N && beta.numel() == N, "bad parameter sizes");

    auto xc = x.contiguous();
    auto Wc = weight.contiguous();
    auto bc = bias.contiguous();
    auto gc = gamma.contiguous();
    auto bec = beta.contiguous();

    std::vector<int64_t> out_sizes(xc.sizes().begin(), xc.sizes().end());
    out_sizes.back() = N;
    int64_t M64 = 1;
    for (size_t i = 0; i + 1 < out_sizes.size(); ++i) M64 *= out_sizes[i];
    const int M = (int)M64;
    auto out = torch::empty(out_sizes, xc.options());
    if (M == 0 || N == 0) return out;

    const float* px = xc.data_ptr<float>();
    const float* pw = Wc.data_ptr<float>();
    const bool vec = (K % 4 == 0) && ((reinterpret_cast<uintptr_t>(px) & 15) == 0) &&
                     ((reinterpret_cast<uintptr_t>(pw) & 15) == 0);
    if (vec) {
        linear_ln_row_kernel<true><<<M, THREADS>>>(px, pw, bc.data_ptr<float>(), gc.data_ptr<float>(),
                                                   bec.data_ptr<float>(), out.data_ptr<float>(), M, N, K, (float)eps);
    } else {
        linear_ln_row_kernel<false><<<M, THREADS>>>(px, pw, bc.data_ptr<float>(), gc.data_ptr<float>(),
                                                    bec.data_ptr<float>(), out.data_ptr<float>(), M, N, K, (float)eps);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

linear_ln_mod = load_inline(
    name="kbf11_linear_ln_block_per_row_fused",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["linear_layernorm_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.norm = nn.LayerNorm(out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return linear_ln_mod.linear_layernorm_cuda(
            x, self.linear.weight, self.linear.bias, self.norm.weight, self.norm.bias, float(self.norm.eps))
