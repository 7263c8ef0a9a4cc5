# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor batched_matvec_naive(torch::Tensor a, torch::Tensor v);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// One thread per output out[b, m]: the thread walks the whole row a[b, m, :]
// sequentially. Neighbouring threads read addresses K floats apart, so the
// global loads are uncoalesced; this is the straightforward first attempt.
__global__ void batched_matvec_naive_kernel(const float* __restrict__ a,
                                            const float* __restrict__ v,
                                            float* __restrict__ out,
                                            int B, int M, int K) {
    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= (long long)B * M) return;
    const int b = (int)(r / M);
    const float* row = a + (size_t)r * K;
    const float* vb = v + (size_t)b * K;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += row[k] * vb[k];
    out[r] = acc;
}

torch::Tensor batched_matvec_naive(torch::Tensor a, torch::Tensor v) {
    TORCH_CHECK(a.is_cuda() && v.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && v.scalar_type() == torch::kFloat32, "float32 only");
    TORCH_CHECK(a.dim() == 3 && v.dim() == 2, "a must be (B, M, K), v must be (B, K)");
    TORCH_CHECK(a.size(0) == v.size(0) && a.size(2) == v.size(1), "shape mismatch");
    auto ac = a.contiguous();
    auto vc = v.contiguous();
    const int B = (int)ac.size(0), M = (int)ac.size(1), K = (int)ac.size(2);
    auto out = torch::empty({B, M}, ac.options());
    const long long R = (long long)B * M;
    if (R == 0) return out;
    const int threads = 256;
    const unsigned blocks = (unsigned)((R + threads - 1) / threads);
    batched_matvec_naive_kernel<<<blocks, threads>>>(ac.data_ptr<float>(), vc.data_ptr<float>(),
                                                     out.data_ptr<float>(), B, M, K);
    return out;
}
"""

_mod = load_inline(
    name="batched_matvec_honest_naive_tpr",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["batched_matvec_naive"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return _mod.batched_matvec_naive(a, v)
