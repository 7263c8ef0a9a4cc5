# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

avg_pool3d_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// Shared-memory tiling.  A 256-thread block (32 x 8) computes an output tile of
// TOD x TOH x TOW = 2 x 8 x 32 for one (n, c).  It first stages the input patch
// that tile needs, ((TOD-1)*s+k) x ((TOH-1)*s+k) x ((TOW-1)*s+k) floats (zeros in
// the padding), into shared memory with coalesced row loads, then every thread
// sums its k^3 window(s) from shared memory (one output per od of the tile).
#define TOD 2
#define TOH 8
#define TOW 32

__global__ void avg_pool3d_smem_kernel(const float* __restrict__ x, float* __restrict__ y,
                                       int D, int H, int W, int OD, int OH, int OW,
                                       int k, int s, int p, int tiles_d, int tiles_h, int tiles_w) {
    extern __shared__ float patch[];
    const int PD = (TOD - 1) * s + k, PH = (TOH - 1) * s + k, PW = (TOW - 1) * s + k;

    long long b = blockIdx.x;
    const int tw = (int)(b % tiles_w); b /= tiles_w;
    const int th = (int)(b % tiles_h); b /= tiles_h;
    const int td = (int)(b % tiles_d);
    const long long nc = b / tiles_d;

    const int od0 = td * TOD, oh0 = th * TOH, ow0 = tw * TOW;
    const int d0 = od0 * s - p, h0 = oh0 * s - p, w0 = ow0 * s - p;   // patch origin (may be < 0)
    const float* __restrict__ xp = x + nc * (long long)D * H * W;

    const int tid = threadIdx.y * TOW + threadIdx.x;
    const int patch_elems = PD * PH * PW;
    for (int i = tid; i < patch_elems; i += TOW * TOH) {
        const int pw = i % PW;
        const int r = i / PW;
        const int ph = r % PH;
        const int pd = r / PH;
        const int d = d0 + pd, h = h0 + ph, w = w0 + pw;
        float v = 0.f;
        if (d >= 0 && d < D && h >= 0 && h < H && w >= 0 && w < W)
            v = __ldg(xp + ((long long)d * H + h) * W + w);
        patch[i] = v;
    }
    __syncthreads();

    const int ow = ow0 + threadIdx.x, oh = oh0 + threadIdx.y;
    if (ow >= OW || oh >= OH) return;
    const int hstart = oh * s - p, wstart = ow * s - p;
    const int ph_w = (min(hstart + k, H + p) - hstart) * (min(wstart + k, W + p) - wstart);
    float* __restrict__ yp = y + nc * (long long)OD * OH * OW;

    for (int t = 0; t < TOD; ++t) {
        const int od = od0 + t;
        if (od >= OD) break;
        const int dstart = od * s - p;
        const int pool_size = (min(dstart + k, D + p) - dstart) * ph_w;
        float sum = 0.f;
        for (int kd = 0; kd < k; ++kd) {
            const float* plane = patch + ((t * s + kd) * PH + threadIdx.y * s) * PW + threadIdx.x * s;
            for (int kh = 0; kh < k; ++kh) {
                const float* r = plane + kh * PW;
                for (int kw = 0; kw < k; ++kw) sum += r[kw];
            }
        }
        yp[((long long)od * OH + oh) * OW + ow] = sum / (float)pool_size;
    }
}

// Fallback when the patch would not fit in the default 48 KB of shared memory.
__global__ void avg_pool3d_direct_kernel(const float* __restrict__ x, float* __restrict__ y,
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
                sum += xp[((long long)d * H + h) * W + w];
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
    long long NC = (long long)N * C;
    long long total = NC * OD * OH * OW;
    if (total == 0) return y;

    const long long PD = (TOD - 1) * s + k, PH = (TOH - 1) * s + k, PW = (TOW - 1) * s + k;
    const size_t smem = (size_t)(PD * PH * PW) * sizeof(float);
    if (smem <= 48 * 1024) {
        int tiles_d = (int)((OD + TOD - 1) / TOD), tiles_h = (int)((OH + TOH - 1) / TOH),
            tiles_w = (int)((OW + TOW - 1) / TOW);
        long long blocks = NC * tiles_d * tiles_h * tiles_w;
        TORCH_CHECK(blocks < (1LL << 31), "too many blocks");
        dim3 block(TOW, TOH);
        avg_pool3d_smem_kernel<<<(unsigned)blocks, block, smem, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(),
            (int)D, (int)H, (int)W, (int)OD, (int)OH, (int)OW, (int)k, (int)s, (int)p, tiles_d, tiles_h, tiles_w);
    } else {
        const int threads = 256;
        avg_pool3d_direct_kernel<<<(unsigned)((total + threads - 1) / threads), threads, 0, stream>>>(
            x.data_ptr<float>(), y.data_ptr<float>(), (int)D, (int)H, (int)W, (int)OD, (int)OH, (int)OW,
            (int)k, (int)s, (int)p, total);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "avg_pool3d kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""
avg_pool3d_cpp_source = "torch::Tensor avg_pool3d_cuda(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr);"
avg_pool3d = load_inline(name="avg_pool3d_honest_smem_tile", cpp_sources=avg_pool3d_cpp_source,
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
