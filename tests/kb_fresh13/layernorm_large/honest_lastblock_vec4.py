# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = "torch::Tensor ln_forward_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps);"

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>
// Split-row statistics sized to fill the GPU once (blocks-per-row = SMs * resident blocks / rows), each block
// reading one contiguous slice of its row with 4 independent float4 loads in flight per thread, warp-shuffle
// reductions in double, and a "last block finishes the row" pattern (threadfence + atomic ticket) that turns
// the per-block partials into mean / rstd without an extra launch.  The second kernel is a 2D
// (slice, row) grid-stride float4 normalise + affine pass that keeps mean / rstd in registers.

#define LB_THREADS 256
#define LB_UNROLL 4

__device__ __forceinline__ double warp_sum_d(double v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__global__ void __launch_bounds__(LB_THREADS)
ln_stats_lastblock_kernel(const float* __restrict__ x, double2* __restrict__ part,
                          unsigned int* __restrict__ tickets, float2* __restrict__ mr,
                          long long D, long long chunk, float eps, int vec) {
    __shared__ double s_a[LB_THREADS / 32];
    __shared__ double s_b[LB_THREADS / 32];
    __shared__ bool s_last;
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const long long row = blockIdx.y;
    const float* xr = x + row * D;
    const long long beg = (long long)blockIdx.x * chunk;
    long long end = beg + chunk;
    if (end > D) end = D;

    float s = 0.f, q = 0.f;
    if (beg < end) {
        if (vec) {
            // beg and end are multiples of 4 here (chunk % 4 == 0 and D % 4 == 0)
            const float4* x4 = reinterpret_cast<const float4*>(xr + beg);
            const long long n4 = (end - beg) >> 2;
            long long i = tid;
            for (; i + (LB_UNROLL - 1) * LB_THREADS < n4; i += LB_UNROLL * LB_THREADS) {
                float4 v[LB_UNROLL];
                #pragma unroll
                for (int u = 0; u < LB_UNROLL; ++u) v[u] = __ldg(x4 + i + u * LB_THREADS);
                #pragma unroll
                for (int u = 0; u < LB_UNROLL; ++u) {
                    s += (v[u].x + v[u].y) + (v[u].z + v[u].w);
                    q += (v[u].x * v[u].x + v[u].y * v[u].y) + (v[u].z * v[u].z + v[u].w * v[u].w);
                }
            }
            for (; i < n4; i += LB_THREADS) {
                float4 v = __ldg(x4 + i);
                s += (v.x + v.y) + (v.z + v.w);
                q += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w);
            }
        } else {
            for (long long i = beg + tid; i < end; i += LB_THREADS) {
                float v = __ldg(xr + i);
                s += v;
                q += v * v;
            }
        }
    }

    double ds = warp_sum_d((double)s);
    double dq = warp_sum_d((double)q);
    if (lane == 0) { s_a[warp] = ds; s_b[warp] = dq; }
    __syncthreads();
    if (tid == 0) {
        double ts = 0.0, tq = 0.0;
        #pragma unroll
        for (int wi = 0; wi < LB_THREADS / 32; ++wi) { ts += s_a[wi]; tq += s_b[wi]; }
        part[row * gridDim.x + blockIdx.x] = make_double2(ts, tq);
        __threadfence();  // make the partial visible before taking a ticket
        unsigned int t = atomicAdd(&tickets[row], 1u);
        s_last = (t == gridDim.x - 1);
    }
    __syncthreads();
    if (!s_last) return;

    // last block of this row: combine all partials of the row
    __threadfence();
    double ts = 0.0, tq = 0.0;
    const volatile double2* prow = part + row * gridDim.x;
    for (int j = tid; j < (int)gridDim.x; j += LB_THREADS) {
        ts += prow[j].x;
        tq += prow[j].y;
    }
    ts = warp_sum_d(ts);
    tq = warp_sum_d(tq);
    __syncthreads();  // s_a / s_b are reused
    if (lane == 0) { s_a[warp] = ts; s_b[warp] = tq; }
    __syncthreads();
    if (tid == 0) {
        double S = 0.0, Q = 0.0;
        #pragma unroll
        for (int wi = 0; wi < LB_THREADS / 32; ++wi) { S += s_a[wi]; Q += s_b[wi]; }
        double mean = S / (double)D;
        double var = Q / (double)D - mean * mean;
        if (var < 0.0) var = 0.0;
        mr[row] = make_float2((float)mean, rsqrtf((float)var + eps));
    }
}

__global__ void __launch_bounds__(256)
ln_apply_rows_kernel(const float* __restrict__ x, const float* __restrict__ w,
                     const float* __restrict__ b, const float2* __restrict__ mr,
                     float* __restrict__ y, long long D, int vec) {
    const long long row = blockIdx.y;
    const float2 st = mr[row];
    const float mean = st.x, rstd = st.y;
    const float* xr = x + row * D;
    float* yr = y + row * D;
    const long long stride = (long long)gridDim.x * blockDim.x;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (vec) {
        const long long D4 = D >> 2;
        const float4* x4 = reinterpret_cast<const float4*>(xr);
        const float4* w4 = reinterpret_cast<const float4*>(w);
        const float4* b4 = reinterpret_cast<const float4*>(b);
        float4* y4 = reinterpret_cast<float4*>(yr);
        for (; i + stride < D4; i += 2 * stride) {
            float4 v0 = __ldg(x4 + i), v1 = __ldg(x4 + i + stride);
            float4 w0 = __ldg(w4 + i), w1 = __ldg(w4 + i + stride);
            float4 b0 = __ldg(b4 + i), b1 = __ldg(b4 + i + stride);
            float4 o0, o1;
            o0.x = (v0.x - mean) * rstd * w0.x + b0.x;
            o0.y = (v0.y - mean) * rstd * w0.y + b0.y;
            o0.z = (v0.z - mean) * rstd * w0.z + b0.z;
            o0.w = (v0.w - mean) * rstd * w0.w + b0.w;
            o1.x = (v1.x - mean) * rstd * w1.x + b1.x;
            o1.y = (v1.y - mean) * rstd * w1.y + b1.y;
            o1.z = (v1.z - mean) * rstd * w1.z + b1.z;
            o1.w = (v1.w - mean) * rstd * w1.w + b1.w;
            y4[i] = o0;
            y4[i + stride] = o1;
        }
        if (i < D4) {
            float4 v0 = __ldg(x4 + i);
            float4 w0 = __ldg(w4 + i);
            float4 b0 = __ldg(b4 + i);
            float4 o0;
            o0.x = (v0.x - mean) * rstd * w0.x + b0.x;
            o0.y = (v0.y - mean) * rstd * w0.y + b0.y;
            o0.z = (v0.z - mean) * rstd * w0.z + b0.z;
            o0.w = (v0.w - mean) * rstd * w0.w + b0.w;
            y4[i] = o0;
        }
    } else {
        for (; i < D; i += stride) yr[i] = (__ldg(xr + i) - mean) * rstd * __ldg(w + i) + __ldg(b + i);
    }
}

static inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

torch::Tensor ln_forward_cuda(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    auto wc = weight.contiguous();
    auto bc = bias.contiguous();
    const long long D = wc.numel();
    TORCH_CHECK(D > 0 && xc.numel() % D == 0, "shape mismatch");
    const long long rows = xc.numel() / D;
    auto out = torch::empty_like(xc);
    if (rows == 0) return out;
    TORCH_CHECK(rows <= 65535, "too many rows for this kernel");

    const float* xp = xc.data_ptr<float>();
    const float* wp = wc.data_ptr<float>();
    const float* bp = bc.data_ptr<float>();
    float* yp = out.data_ptr<float>();
    const int vec = ((D & 3) == 0) && aligned16(xp) && aligned16(wp) && aligned16(bp) && aligned16(yp);

    int dev = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ln_stats_lastblock_kernel, LB_THREADS, 0);
    if (per_sm < 1) per_sm = 1;
    const long long resident = (long long)sms * per_sm;

    // blocks per row so that the whole grid is about one wave, but at least ~4K elements per block
    long long bpr = (resident + rows - 1) / rows;
    long long max_bpr = (D + 4095) / 4096;
    if (bpr > max_bpr) bpr = max_bpr;
    if (bpr < 1) bpr = 1;
    long long chunk = (D + bpr - 1) / bpr;
    chunk = (chunk + 3) & ~3LL;              // keep slices float4 aligned
    bpr = (D + chunk - 1) / chunk;           // drop empty slices

    auto part = torch::empty({rows, bpr, 2}, xc.options().dtype(torch::kFloat64));
    auto tickets = torch::zeros({rows}, xc.options().dtype(torch::kInt32));
    auto mr = torch::empty({rows, 2}, xc.options());

    dim3 g1((unsigned)bpr, (unsigned)rows);
    ln_stats_lastblock_kernel<<<g1, LB_THREADS>>>(
        xp, reinterpret_cast<double2*>(part.data_ptr<double>()),
        reinterpret_cast<unsigned int*>(tickets.data_ptr<int>()),
        reinterpret_cast<float2*>(mr.data_ptr<float>()), D, chunk, (float)eps, vec);

    const long long units = vec ? (D >> 2) : D;
    long long bx = (resident * 2 + rows - 1) / rows;   // ~2 waves of 256-thread blocks in total
    long long need = (units + 255) / 256;
    if (bx > need) bx = need;
    if (bx < 1) bx = 1;
    dim3 g2((unsigned)bx, (unsigned)rows);
    ln_apply_rows_kernel<<<g2, 256>>>(xp, wp, bp, reinterpret_cast<const float2*>(mr.data_ptr<float>()),
                                      yp, D, vec);
    return out;
}
"""

my_mod = load_inline(
    name="kbf13_layernorm_large_lastblock_vec4",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["ln_forward_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return my_mod.ln_forward_cuda(x, self.ln.weight, self.ln.bias, self.ln.eps)
