# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

avg_pool3d_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// Fast path for kernel 3, stride 2, padding 1 with W % 4 == 0 (then OW == W / 2).
// One thread owns 4 consecutive input columns w = 4j .. 4j+3 of one output row
// (n, c, od, oh) and produces the two outputs ow = 2j (w = 4j-1 .. 4j+1) and
// ow = 2j+1 (w = 4j+1 .. 4j+3):
//   1. sum the (up to) 3 x 3 (d, h) input rows with one float4 load each
//      -> 4 column sums c.x..c.w (each input element is read exactly once);
//   2. the missing column 4j-1 is the neighbour thread's c.w: fetch it with
//      __shfl_up_sync (lane 0 of a warp recomputes it, j == 0 is the left padding);
//   3. store both outputs with one float2 store.
// Every load is a fully coalesced 16-byte load and every output a coalesced 8-byte store.
__global__ void avg_pool3d_k3s2p1_float4_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                int D, int H, int W, int OD, int OH, long long total) {
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = t < total;
    const int Q = W >> 2;                 // float4 groups per input row
    const int lane = threadIdx.x & 31;

    int j = 0, oh = 0, od = 0;
    long long row = 0, nc = 0;
    float4 c = make_float4(0.f, 0.f, 0.f, 0.f);
    const float* xp = x;
    int dlo = 0, dhi = 0, hlo = 0, hhi = 0;
    if (valid) {
        j = (int)(t % Q);
        row = t / Q;                      // (n, c, od, oh) flattened
        oh = (int)(row % OH);
        long long r2 = row / OH;
        od = (int)(r2 % OD);
        nc = r2 / OD;
        xp = x + nc * (long long)D * H * W;
        dlo = max(2 * od - 1, 0); dhi = min(2 * od + 2, D);
        hlo = max(2 * oh - 1, 0); hhi = min(2 * oh + 2, H);
        for (int d = dlo; d < dhi; ++d) {
            for (int h = hlo; h < hhi; ++h) {
                const float4 v = __ldg(reinterpret_cast<const float4*>(xp + ((long long)d * H + h) * W) + j);
                c.x += v.x; c.y += v.y; c.z += v.z; c.w += v.w;
            }
        }
    }
    // All lanes take part in the shuffle (no early exit above).
    float left = __shfl_up_sync(0xffffffffu, c.w, 1);
    if (!valid) return;
    if (j == 0) {
        left = 0.f;                       // column -1 is padding
    } else if (lane == 0) {
        // neighbour (same row, j-1) lives in the previous warp: recompute column 4j-1
        left = 0.f;
        for (int d = dlo; d < dhi; ++d)
            for (int h = hlo; h < hhi; ++h)
                left += __ldg(xp + ((long long)d * H + h) * W + 4 * j - 1);
    }
    const int pd = min(2 * od + 2, D + 1) - (2 * od - 1);
    const int ph = min(2 * oh + 2, H + 1) - (2 * oh - 1);
    const float inv = 1.0f / (float)(pd * ph * 3);
    float2 o;
    o.x = (left + c.x + c.y) * inv;
    o.y = (c.y + c.z + c.w) * inv;
    const int OW = W >> 1;
    *reinterpret_cast<float2*>(y + row * (long long)OW + 2 * j) = o;
}

// Generic path: one thread per output, runtime kernel/stride/padding.
__global__ void avg_pool3d_generic_kernel(const float* __restrict__ x, float* __restrict__ y,
                                          int D, int H, int W, int OD, int OH, int OW,
                                          int k, int s, int p, long long total) {
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int ow = (int)(idx % OW);
    long long t = idx / OW;
    int oh = (int)(t % OH);
    t /= OH;
    int od = (int)(t % OD);
    long long nc = t / OD;
    int dstart = od * s - p, hstart = oh * s - p, wstart = ow * s - p;
    int dend = min(dstart + k, D + p), hend = min(hstart + k, H + p), wend = min(wstart + k, W + p);
    int pool_size = (dend - dstart) * (hend - hstart) * (wend - wstart);
    dstart = max(dstart, 0); hstart = max(hstart, 0); wstart = max(wstart, 0);
    dend = min(dend, D); hend = min(hend, H); wend = min(wend, W);
    const float* xp = x + nc * (long long)D * H * W;
    float sum = 0.f;
    for (int d = dstart; d < dend; ++d)
        for (int h = hstart; h < hend; ++h)
            for (int w = wstart; w < wend; ++w)
                sum += __ldg(xp + ((long long)d * H + h) * W + w);
    y[idx] = sum / (float)pool_size;
}

torch::Tensor avg_pool3d_cuda(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be CUDA");
    TORCH_CHECK(x.dim() == 5, "x must be 5D (N, C, D, H, W)");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(k > 0 && s > 0 && p >= 0 && 2 * p <= k, "invalid pooling params");
    x = x.contiguous();
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    int64_t N = x.size(0), C = x.size(1), D = x.size(2), H = x.size(3), W = x.size(4);
    int64_t OD = (D + 2 * p - k) / s + 1, OH = (H + 2 * p - k) / s + 1, OW = (W + 2 * p - k) / s + 1;
    TORCH_CHECK(OD > 0 && OH > 0 && OW > 0, "output size is too small");
    auto y = torch::empty({N, C, OD, OH, OW}, x.options());
    const long long NC = (long long)N * C;
    if (NC * OD * OH * OW == 0) return y;
    const int threads = 256;
    const bool aligned = (reinterpret_cast<uintptr_t>(x.data_ptr<float>()) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(y.data_ptr<float>()) % 8 == 0);
    if (k == 3 && s == 2 && p == 1 && W % 4 == 0 && aligned) {
        // OW == W / 2 here; one thread per (row, float4 group)
        long long total = NC * OD * OH * (W / 4);
        avg_pool3d_k3s2p1_float4_kernel<<<(unsigned)((total + threads - 1) / threads), threads, 0, stream>>>(
            x.data_ptr<float>(), y.data_ptr<float>(), (int)D, (int)H, (int)W, (int)OD, (int)OH, total);
    } else {
        long long total = NC * OD * OH * OW;
        avg_pool3d_generic_kernel<<<(unsigned)((total + threads - 1) / threads), threads, 0, stream>>>(
            x.data_ptr<float>(), y.data_ptr<float>(), (int)D, (int)H, (int)W, (int)OD, (int)OH, (int)OW,
            (int)k, (int)s, (int)p, total);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "avg_pool3d kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""
avg_pool3d_cpp_source = "torch::Tensor avg_pool3d_cuda(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr);"
avg_pool3d = load_inline(name="avg_pool3d_honest_float4_shfl", cpp_sources=avg_pool3d_cpp_source,
                         cuda_sources=avg_pool3d_source, functions=["avg_pool3d_cuda"], verbose=False,
                         extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = int(kernel_size)
        self.stride = int(stride) if stride is not None else int(kernel_size)
        self.padding = int(padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return avg_pool3d.avg_pool3d_cuda(x.contiguous(), self.kernel_size, self.stride, self.padding,
                                          torch.cuda.current_stream(x.device).cuda_stream)
