# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor avg_pool1d_cuda(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
// AvgPool1d, persistent grid + float4-staged shared-memory tiles: a grid sized to fill the GPU loops
// over tiles of TILE_OUT outputs (each of 256 threads makes OPT outputs, strided by blockDim so that
// shared-memory reads and global stores stay coalesced). The tile's input span is fetched with
// 16-byte loads from a 16-byte-aligned start (scalar fallback at the row edges / unaligned rows).

#define THREADS 256
#define OPT 4
#define TILE_OUT (THREADS * OPT)

__global__ void __launch_bounds__(THREADS)
avgpool1d_vec4_persistent_kernel(const float* __restrict__ x, float* __restrict__ y,
                                 int L, int Lout, int K, int S, int P,
                                 int tiles_per_row, long long num_tiles, int nvec, bool vec_ok) {
    extern __shared__ float4 sm4[];
    float* sm = reinterpret_cast<float*>(sm4);

    for (long long tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
        const long long r = tile / tiles_per_row;
        const int o0 = (int)(tile - r * tiles_per_row) * TILE_OUT;
        const int gstart = o0 * S - P;
        const int off = ((gstart % 4) + 4) % 4;
        const int a0 = gstart - off;                 // multiple of 4 (may be negative)
        const float* xr = x + r * (long long)L;

        __syncthreads();                             // previous tile finished reading sm
        for (int i = threadIdx.x; i < nvec; i += THREADS) {
            const int g = a0 + 4 * i;
            float4 v;
            if (vec_ok && g >= 0 && g + 3 < L) {
                v = __ldg(reinterpret_cast<const float4*>(xr + g));
            } else {
                v.x = (g + 0 >= 0 && g + 0 < L) ? __ldg(xr + g + 0) : 0.f;
                v.y = (g + 1 >= 0 && g + 1 < L) ? __ldg(xr + g + 1) : 0.f;
                v.z = (g + 2 >= 0 && g + 2 < L) ? __ldg(xr + g + 2) : 0.f;
                v.w = (g + 3 >= 0 && g + 3 < L) ? __ldg(xr + g + 3) : 0.f;
            }
            sm4[i] = v;
        }
        __syncthreads();

        float* yr = y + r * (long long)Lout;
#pragma unroll
        for (int j = 0; j < OPT; ++j) {
            const int lo = j * THREADS + threadIdx.x;    // local output index in tile
            const int o = o0 + lo;
            if (o < Lout) {
                const float* w = sm + off + lo * S;
                float s = 0.f;
                for (int t = 0; t < K; ++t) s += w[t];
                const int hs = o * S - P;
                const int he = min(hs + K, L + P);
                yr[o] = s / (float)(he - hs);
            }
        }
    }
}

__global__ void avgpool1d_fallback_kernel(const float* __restrict__ x, float* __restrict__ y,
                                          long long rows, int L, int Lout, int K, int S, int P) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= rows * (long long)Lout) return;
    long long r = idx / Lout;
    int o = (int)(idx - r * Lout);
    int hs = o * S - P;
    int he = min(hs + K, L + P);
    int pool = he - hs;
    hs = max(hs, 0);
    he = min(he, L);
    const float* xr = x + r * (long long)L;
    float s = 0.f;
    for (int i = hs; i < he; ++i) s += xr[i];
    y[idx] = s / (float)pool;
}

torch::Tensor avg_pool1d_cuda(torch::Tensor x, int64_t kernel_size, int64_t stride, int64_t padding) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have a length dimension");
    auto xc = x.contiguous();
    const int K = (int)kernel_size, S = (int)stride, P = (int)padding;
    const int L = (int)xc.size(-1);
    const int Lout = (L + 2 * P - K) / S + 1;
    TORCH_CHECK(Lout > 0, "output length must be positive");
    std::vector<int64_t> osz(xc.sizes().begin(), xc.sizes().end());
    osz.back() = Lout;
    auto out = torch::empty(osz, xc.options());
    const long long rows = (L > 0) ? xc.numel() / L : 0;
    if (rows == 0) return out;
    const float* xp = xc.data_ptr<float>();
    float* yp = out.data_ptr<float>();

    // floats needed: up to 3 alignment slack + (TILE_OUT-1)*S + K
    const int span = 3 + (TILE_OUT - 1) * S + K;
    const int nvec = (span + 3) / 4;
    const size_t smem = (size_t)nvec * sizeof(float4);
    if (smem > 48 * 1024) {
        const long long total = rows * (long long)Lout;
        avgpool1d_fallback_kernel<<<(unsigned)((total + 255) / 256), 256>>>(xp, yp, rows, L, Lout, K, S, P);
        return out;
    }
    const bool vec_ok = (L % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
    const int tiles_per_row = (Lout + TILE_OUT - 1) / TILE_OUT;
    const long long num_tiles = rows * (long long)tiles_per_row;

    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, avgpool1d_vec4_persistent_kernel, THREADS, smem);
    if (per_sm < 1) per_sm = 1;
    long long grid = (long long)sms * per_sm;
    if (grid > num_tiles) grid = num_tiles;
    if (grid < 1) grid = 1;
    avgpool1d_vec4_persistent_kernel<<<(unsigned)grid, THREADS, smem>>>(xp, yp, L, Lout, K, S, P,
                                                                        tiles_per_row, num_tiles, nvec, vec_ok);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_avg_pool1d_smem_vec4_persistent",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["avg_pool1d_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = int(kernel_size)
        self.stride = int(stride) if stride else int(kernel_size)
        self.padding = int(padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.avg_pool1d_cuda(x, self.kernel_size, self.stride, self.padding)
