# expect: pass
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Two-kernel pipeline.  (1) Repack the weights from (Cout, Cin, K) to
# (Cin, K, Cout) so a block's 16 output channels per tap are contiguous.
# (2) Sliding-window convolution: each lane loads 4 consecutive inputs with one
# float4 and obtains the K-1 halo values from its neighbour lanes with
# __shfl_up_sync / __shfl_down_sync (only lanes 0 and 31 touch global memory for
# the halo).  Each thread accumulates 4 positions x 16 output channels; the
# repacked taps of the block's channel group sit in shared memory and are read
# as float4 broadcasts.
conv_shfl_cuda = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define WARPS 8
#define NTHR (WARPS * 32)
#define LPW 128                 // output positions per warp (4 per lane)
#define TLB (WARPS * LPW)       // output positions per block
#define COB 16                  // output channels per block

__global__ void repack_weights_kernel(const float* __restrict__ w, float* __restrict__ wt,
                                      int Cout, int R) {
    // wt[r * Cout + co] = w[co * R + r],  r = ci * K + k
    long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long total = (long long)Cout * R;
    if (idx >= total) return;
    int co = (int)(idx % Cout);
    long long r = idx / Cout;
    wt[idx] = w[(long long)co * R + r];
}

template <int K, bool VEC>
__global__ void __launch_bounds__(NTHR)
conv1d_shfl_kernel(const float* __restrict__ x, const float* __restrict__ wt,
                   const float* __restrict__ bias, float* __restrict__ y,
                   int Cin, int Cout, int L, int Lout, bool vec_out) {
    constexpr int PAD = K / 2;
    constexpr int RH = K - 1 - PAD;          // right halo
    static_assert(PAD <= 4 && RH <= 4, "halo must fit in one neighbour lane");
    extern __shared__ float4 wsh4[];
    float* ws = reinterpret_cast<float*>(wsh4);      // [Cin*K][COB]

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int co0 = blockIdx.y * COB;
    const int n = blockIdx.z;
    const int R = Cin * K;

    for (int i = tid; i < R * COB; i += NTHR) {
        int r = i / COB;
        int j = i - r * COB;
        int co = co0 + j;
        ws[i] = (co < Cout) ? __ldg(wt + (long long)r * Cout + co) : 0.0f;
    }
    __syncthreads();

    const int lbase = blockIdx.x * TLB + warp * LPW + lane * 4;
    const float* xn = x + (long long)n * Cin * L;

    float acc[COB][4];
#pragma unroll
    for (int j = 0; j < COB; ++j)
#pragma unroll
        for (int m = 0; m < 4; ++m) acc[j][m] = 0.0f;

    for (int ci = 0; ci < Cin; ++ci) {
        const float* xr = xn + (long long)ci * L;
        float v[4];
        if (VEC) {
            // L % 4 == 0: the quad is either fully inside or fully outside
            float4 q = make_float4(0.f, 0.f, 0.f, 0.f);
            if (lbase < L) q = __ldg(reinterpret_cast<const float4*>(xr + lbase));
            v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
        } else {
#pragma unroll
            for (int m = 0; m < 4; ++m) v[m] = (lbase + m < L) ? __ldg(xr + lbase + m) : 0.0f;
        }

        float xw[4 + K - 1];                 // xw[i] = x[lbase - PAD + i]
#pragma unroll
        for (int e = 0; e < PAD; ++e) {
            float s = __shfl_up_sync(0xffffffffu, v[4 - PAD + e], 1);
            if (lane == 0) {
                int p = lbase - PAD + e;
                s = (p >= 0 && p < L) ? __ldg(xr + p) : 0.0f;
            }
            xw[e] = s;
        }
#pragma unroll
        for (int m = 0; m < 4; ++m) xw[PAD + m] = v[m];
#pragma unroll
        for (int e = 0; e < RH; ++e) {
            float s = __shfl_down_sync(0xffffffffu, v[e], 1);
            if (lane == 31) {
                int p = lbase + 4 + e;
                s = (p < L) ? __ldg(xr + p) : 0.0f;
            }
            xw[PAD + 4 + e] = s;
        }

#pragma unroll
        for (int k = 0; k < K; ++k) {
            const float4* wp = reinterpret_cast<const float4*>(ws + (ci * K + k) * COB);
            float wr[COB];
#pragma unroll
            for (int q = 0; q < COB / 4; ++q) {
                float4 t = wp[q];
                wr[q * 4 + 0] = t.x; wr[q * 4 + 1] = t.y; wr[q * 4 + 2] = t.z; wr[q * 4 + 3] = t.w;
            }
#pragma unroll
            for (int j = 0; j < COB; ++j)
#pragma unroll
                for (int m = 0; m < 4; ++m) acc[j][m] = fmaf(wr[j], xw[m + k], acc[j][m]);
        }
    }

#pragma unroll
    for (int j = 0; j < COB; ++j) {
        int co = co0 + j;
        if (co >= Cout) continue;
        float bv = __ldg(bias + co);
        float* yrow = y + ((long long)n * Cout + co) * Lout;
        if (vec_out && lbase + 3 < Lout) {
            *reinterpret_cast<float4*>(yrow + lbase) =
                make_float4(acc[j][0] + bv, acc[j][1] + bv, acc[j][2] + bv, acc[j][3] + bv);
        } else {
#pragma unroll
            for (int m = 0; m < 4; ++m)
                if (lbase + m < Lout) yrow[lbase + m] = acc[j][m] + bv;
        }
    }
}

template <int K>
static void launch_shfl(const float* x, const float* wt, const float* b, float* y, int N, int Cin,
                        int Cout, int L, int Lout, bool vec_in, bool vec_out, size_t smem,
                        cudaStream_t stream) {
    dim3 grid((Lout + TLB - 1) / TLB, (Cout + COB - 1) / COB, N);
    if (vec_in)
        conv1d_shfl_kernel<K, true><<<grid, NTHR, smem, stream>>>(x, wt, b, y, Cin, Cout, L, Lout, vec_out);
    else
        conv1d_shfl_kernel<K, false><<<grid, NTHR, smem, stream>>>(x, wt, b, y, Cin, Cout, L, Lout, vec_out);
}

torch::Tensor conv1d_shfl_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t stream_ptr) {
    TORCH_CHECK(x.is_cuda() && w.is_cuda() && b.is_cuda(), "CUDA tensors required");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && w.scalar_type() == torch::kFloat32 &&
                b.scalar_type() == torch::kFloat32, "float32 required");
    x = x.contiguous();
    w = w.contiguous();
    b = b.contiguous();
    const int N = x.size(0), Cin = x.size(1), L = x.size(2);
    const int Cout = w.size(0), K = w.size(2);
    TORCH_CHECK(w.size(1) == Cin && b.size(0) == Cout, "shape mismatch");
    TORCH_CHECK(K % 2 == 1 && K <= 9, "odd kernel_size <= 9 supported");
    const int pad = K / 2;
    const int Lout = L + 2 * pad - K + 1;   // == L for odd K
    const int R = Cin * K;
    const size_t smem = (size_t)R * COB * sizeof(float);
    TORCH_CHECK(smem <= 48 * 1024, "Cin*K too large for the shared-memory weight tile");

    auto y = torch::empty({N, Cout, Lout}, x.options());
    if (y.numel() == 0) return y;
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(stream_ptr);

    auto wt = torch::empty({R, Cout}, w.options());
    long long total = (long long)R * Cout;
    repack_weights_kernel<<<(unsigned int)((total + 255) / 256), 256, 0, stream>>>(
        w.data_ptr<float>(), wt.data_ptr<float>(), Cout, R);

    const float* xp = x.data_ptr<float>();
    float* yp = y.data_ptr<float>();
    bool vec_in = (L % 4 == 0) && ((reinterpret_cast<uintptr_t>(xp) & 15) == 0);
    bool vec_out = (Lout % 4 == 0) && ((reinterpret_cast<uintptr_t>(yp) & 15) == 0);
    const float* wtp = wt.data_ptr<float>();
    const float* bp = b.data_ptr<float>();
    switch (K) {
        case 1: launch_shfl<1>(xp, wtp, bp, yp, N, Cin, Cout, L, Lout, vec_in, vec_out, smem, stream); break;
        case 3: launch_shfl<3>(xp, wtp, bp, yp, N, Cin, Cout, L, Lout, vec_in, vec_out, smem, stream); break;
        case 5: launch_shfl<5>(xp, wtp, bp, yp, N, Cin, Cout, L, Lout, vec_in, vec_out, smem, stream); break;
        case 7: launch_shfl<7>(xp, wtp, bp, yp, N, Cin, Cout, L, Lout, vec_in, vec_out, smem, stream); break;
        default: launch_shfl<9>(xp, wtp, bp, yp, N, Cin, Cout, L, Lout, vec_in, vec_out, smem, stream); break;
    }
    return y;
}
"""

conv_shfl_cpp = "torch::Tensor conv1d_shfl_forward(torch::Tensor x, torch::Tensor w, torch::Tensor b, int64_t stream_ptr);"

conv_shfl = load_inline(
    name="conv1d_warp_shuffle_halo_repacked",
    cpp_sources=conv_shfl_cpp,
    cuda_sources=conv_shfl_cuda,
    functions=["conv1d_shfl_forward"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, stride=1,
                              padding=kernel_size // 2, bias=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        stream = torch.cuda.current_stream().cuda_stream
        return conv_shfl.conv1d_shfl_forward(x, self.conv.weight, self.conv.bias, stream)
