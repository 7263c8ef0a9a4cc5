# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor vec3_normalize_cuda(torch::Tensor x);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// Strategy: register-level AoS->SoA transpose with warp shuffles, no shared memory. A warp owns 32 rows
// = 96 consecutive floats and loads them unit-stride (lane l holds elements l, l+32, l+64). Lane r
// fetches the three components of row r (elements 3r, 3r+1, 3r+2) from their owner lanes with shuffles,
// computes 1/max(||v||, eps), and every lane then fetches the factor of the row each of its three
// elements belongs to and stores unit-stride. Grid-stride over 32-row warp tiles; partial tail tile guarded.

__device__ __forceinline__ float pick3(float v0, float v1, float v2, int k) {
    return k == 0 ? v0 : (k == 1 ? v1 : v2);
}

__global__ void vec3_norm_shfl_kernel(const float* __restrict__ x, float* __restrict__ out,
                                      int64_t n, float eps) {
    const unsigned FULL = 0xffffffffu;
    const int lane = threadIdx.x & 31;
    const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int64_t num_warps = ((int64_t)gridDim.x * blockDim.x) >> 5;
    const int64_t total = n * 3;
    const int64_t num_tiles = (n + 31) / 32;

    // Source lane / register slot for the three components of row `lane` (fixed per lane).
    const int e0 = 3 * lane, e1 = 3 * lane + 1, e2 = 3 * lane + 2;     // 0..95
    const int s0 = e0 & 31, k0 = e0 >> 5;
    const int s1 = e1 & 31, k1 = e1 >> 5;
    const int s2 = e2 & 31, k2 = e2 >> 5;
    // Row owning each of this lane's elements lane, lane+32, lane+64.
    const int o0 = lane / 3, o1 = (lane + 32) / 3, o2 = (lane + 64) / 3;

    for (int64_t tile = warp; tile < num_tiles; tile += num_warps) {   // warp-uniform loop
        const int64_t base = tile * 96;
        const int64_t g0 = base + lane, g1 = base + 32 + lane, g2 = base + 64 + lane;
        const float v0 = (g0 < total) ? __ldg(x + g0) : 0.0f;
        const float v1 = (g1 < total) ? __ldg(x + g1) : 0.0f;
        const float v2 = (g2 < total) ? __ldg(x + g2) : 0.0f;

        // gather row components: shuffle every slot from the source lane, keep the needed one
        float a0 = __shfl_sync(FULL, v0, s0), a1 = __shfl_sync(FULL, v1, s0), a2 = __shfl_sync(FULL, v2, s0);
        float b0 = __shfl_sync(FULL, v0, s1), b1 = __shfl_sync(FULL, v1, s1), b2 = __shfl_sync(FULL, v2, s1);
        float c0 = __shfl_sync(FULL, v0, s2), c1 = __shfl_sync(FULL, v1, s2), c2 = __shfl_sync(FULL, v2, s2);
        const float a = pick3(a0, a1, a2, k0);
        const float b = pick3(b0, b1, b2, k1);
        const float c = pick3(c0, c1, c2, k2);
        const float inv = 1.0f / fmaxf(sqrtf(a * a + b * b + c * c), eps);

        // scatter back: each element takes the factor of its row
        const float f0 = __shfl_sync(FULL, inv, o0);
        const float f1 = __shfl_sync(FULL, inv, o1);
        const float f2 = __shfl_sync(FULL, inv, o2);
        if (g0 < total) out[g0] = v0 * f0;
        if (g1 < total) out[g1] = v1 * f1;
        if (g2 < total) out[g2] = v2 * f2;
    }
}

torch::Tensor vec3_normalize_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.dim() == 2 && x.size(1) == 3, "x must have shape (n, 3)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    int64_t n = xc.size(0);
    if (n == 0) return out;
    int dev = 0;
    cudaGetDevice(&dev);
    int sms = 1;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int threads = 256;                       // 8 warps per block
    int64_t tiles = (n + 31) / 32;
    int64_t needed = (tiles + 7) / 8;
    int64_t cap = (int64_t)sms * 32;
    int blocks = (int)(needed < cap ? needed : cap);
    vec3_norm_shfl_kernel<<<blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<float>(), n, 1e-12f);
    return out;
}
"""

my_mod = load_inline(
    name="kbf12_vec3_norm_warp_shuffle_transpose",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["vec3_normalize_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.vec3_normalize_cuda(x)
