// Copyright (c) 2012-2024 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

#include "../../../include/aten_lite.cuh"
#include <cstdint>

namespace at {
namespace native {

#define DEFINE_QUANTIZE_KERNEL(qtype, suffix, qmin, qmax)                               \
  __global__ void quantize_per_tensor_##suffix##_kernel(                                \
      const float* __restrict__ src, qtype* __restrict__ dst, float inv_scale,          \
      int zero_point, int64_t n) {                                                      \
    CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {                                              \
      int q = __float2int_rn(src[i] * inv_scale) + zero_point;                          \
      q = q < (qmin) ? (qmin) : (q > (qmax) ? (qmax) : q);                              \
      dst[i] = static_cast<qtype>(q);                                                   \
    }                                                                                   \
  }                                                                                     \
  __global__ void dequantize_per_tensor_##suffix##_kernel(                              \
      const qtype* __restrict__ src, float* __restrict__ dst, float scale,              \
      int zero_point, int64_t n) {                                                      \
    CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {                                              \
      dst[i] = (static_cast<int>(src[i]) - zero_point) * scale;                         \
    }                                                                                   \
  }

DEFINE_QUANTIZE_KERNEL(int8_t, qint8, -128, 127)
DEFINE_QUANTIZE_KERNEL(uint8_t, quint8, 0, 255)
DEFINE_QUANTIZE_KERNEL(int32_t, qint32, -2147483647, 2147483647)

C10_LAUNCH_BOUNDS_1(256)
__global__ void fake_quantize_per_tensor_kernel(
    const float* in,
    float* out,
    float lo,
    float hi,
    int n) {
    CUDA_KERNEL_LOOP(i, n) {
        float v = in[i];
        v = v < lo ? lo : v;
        v = v > hi ? hi : v;
        out[i] = v;
    }
}

C10_LAUNCH_BOUNDS_1(256)
__global__ void fake_quantize_grad_kernel(
    const float* grad_output,
    const float* self,
    float* grad_input,
    int n) {
    CUDA_KERNEL_LOOP(i, n) {
        const float g = grad_output[i];
        const float v = self[i];
        grad_input[i] = (v > -1.f && v < 1.f) ? g : 0.f;
    }
}

template <int BLOCK>
C10_LAUNCH_BOUNDS_1(256)
__global__ void choose_qparams_minmax_kernel(
    const float* in,
    float* partial,
    int n) {
    __shared__ float smem[BLOCK];
    const int tid = threadIdx.x;
    float acc = -3.402823466e+38f;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x) {
        const float v = in[i];
        acc = fmaxf(acc, v);
    }
    smem[tid] = acc;
    __syncthreads();
    #pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) smem[tid] = fmaxf(smem[tid], smem[tid + s]);
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = smem[0];
}

void quantize_tensor_cuda(const Tensor& src, Tensor& dst, float scale, int zero_point) {
  const int64_t n = src.numel();
  quantize_per_tensor_qint8_kernel<<<GET_BLOCKS(n), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      src.data_ptr<float>(), dst.data_ptr<int8_t>(), 1.f / scale, zero_point, n);
  dequantize_per_tensor_quint8_kernel<<<GET_BLOCKS(n), 256>>>(dst.data_ptr<uint8_t>(), src.data_ptr<float>(), scale, zero_point, n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

}  // namespace native
}  // namespace at
