# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor maxpool3d_gridstride(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr);"

cuda_src = r"""
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <algorithm>

__device__ __forceinline__ float max_nan(float a, float b) {
    return (b > a || b != b) ? b : a;
}

// KT == 0 means "kernel size / stride taken from the runtime arguments".
template <int KT, int ST>
__global__ void __launch_bounds__(256)
maxpool3d_gs_kernel(const float* __restrict__ x, float* __restrict__ y,
                    long long total, int D, int H, int W,
                    int OD, int OH, int OW, int k_rt, int s_rt, int p) {
    const int K = KT > 0 ? KT : k_rt;
    const int S = ST > 0 ? ST : s_rt;
    const long long HW = (long long)H * W;
    const long long DHW = HW * D;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total;
         idx += (long long)gridDim.x * blockDim.x) {
        int ow = (int)(idx % OW);
        long long t = idx / OW;
        int oh = (int)(t % OH);
        t /= OH;
        int od = (int)(t % OD);
        long long nc = t / OD;

        const int d0 = od * S - p, h0 = oh * S - p, w0 = ow * S - p;
        const float* xp = x + nc * DHW;
        float m = -INFINITY;
#pragma unroll
        for (int kd = 0; kd < K; ++kd) {
            const int id = d0 + kd;
            if ((unsigned)id >= (unsigned)D) continue;
#pragma unroll
            for (int kh = 0; kh < K; ++kh) {
                const int ih = h0 + kh;
                if ((unsigned)ih >= (unsigned)H) continue;
                const float* row = xp + id * HW + (long long)ih * W;
#pragma unroll
                for (int kw = 0; kw < K; ++kw) {
                    const int iw = w0 + kw;
                    if ((unsigned)iw >= (unsigned)W) continue;
                    m = max_nan(m, __ldg(row + iw));
                }
            }
        }
        y[idx] = m;
    }
}

torch::Tensor maxpool3d_gridstride(torch::Tensor x, int64_t k, int64_t s, int64_t p, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() == 5, "x must be 5-D");
    TORCH_CHECK(k > 0 && s > 0 && p >= 0 && 2 * p <= k, "invalid pooling parameters");
    auto xc = x.contiguous();
    const int N = xc.size(0), C = xc.size(1), D = xc.size(2), H = xc.size(3), W = xc.size(4);
    const int OD = (D + 2 * p - k) / s + 1;
    const int OH = (H + 2 * p - k) / s + 1;
    const int OW = (W + 2 * p - k) / s + 1;
    TORCH_CHECK(OD > 0 && OH > 0 && OW > 0, "output would be empty");
    auto y = torch::empty({N, C, OD, OH, OW}, xc.options());
    const long long total = (long long)N * C * OD * OH * OW;
    if (total == 0) return y;

    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (sms <= 0) sms = 80;
    const int threads = 256;
    long long want = (total + threads - 1) / threads;
    int blocks = (int)std::min<long long>(want, (long long)sms * 16);

    const float* xptr = xc.data_ptr<float>();
    float* yptr = y.data_ptr<float>();
    if (k == 3 && s == 2) {
        maxpool3d_gs_kernel<3, 2><<<blocks, threads, 0, stream>>>(xptr, yptr, total, D, H, W, OD, OH, OW, 3, 2, (int)p);
    } else if (k == 2 && s == 2) {
        maxpool3d_gs_kernel<2, 2><<<blocks, threads, 0, stream>>>(xptr, yptr, total, D, H, W, OD, OH, OW, 2, 2, (int)p);
    } else {
        maxpool3d_gs_kernel<0, 0><<<blocks, threads, 0, stream>>>(xptr, yptr, total, D, H, W, OD, OH, OW, (int)k, (int)s, (int)p);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "maxpool3d_gridstride launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

ext = load_inline(
    name="max_pool3d_grid_stride_unrolled",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["maxpool3d_gridstride"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride else kernel_size
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream(x.device).cuda_stream
        return ext.maxpool3d_gridstride(x, self.kernel_size, self.stride, self.padding, stream)
