// Copyright (c) 2017-2025 The Tensorlite Authors. All rights reserved.
// Licensed under the BSD-3-Clause license found in the LICENSE file.

// Fused kernels that apply one point-wise op to every tensor of a list.  Each launch
// handles up to kMaxTensors tensors; a block works on one chunk of one tensor.
#include <vector>
#include "../../include/aten_lite.cuh"

namespace at::native {

namespace {

constexpr int kChunkSize = 65536;
constexpr int kBlockSize = 512;
constexpr int kILP = 4;
constexpr int kMaxTensors = 110;
constexpr int kMaxBlocks = 320;

template <int depth>
struct TensorListMetadata {
  void* addresses[depth][kMaxTensors];
  int64_t numel_for_tensor[kMaxTensors];
  unsigned char block_to_tensor[kMaxBlocks];
  int block_to_chunk[kMaxBlocks];
};

template <typename T>
__device__ __forceinline__ bool is_aligned(T* p) {
  return reinterpret_cast<uintptr_t>(p) % (kILP * sizeof(T)) == 0;
}

// Generic entry: the callable does the work for one (tensor, chunk) pair.
template <typename T, typename U, typename... ArgTypes>
C10_LAUNCH_BOUNDS_1(kBlockSize)
__global__ void multi_tensor_apply_kernel(T tensorListMeta, U callable, ArgTypes... args) {
  callable(kChunkSize, tensorListMeta, args...);
}

#define FOREACH_UNARY_KERNEL(NAME, EXPR)                                                   \
  template <typename scalar_t, int depth>                                                  \
  C10_LAUNCH_BOUNDS_1(kBlockSize)                                                          \
  __global__ void foreach_##NAME##_kernel(TensorListMetadata<depth> tl, int64_t chunk_size) { \
    const int tensor_loc = tl.block_to_tensor[blockIdx.x];                                 \
    const int chunk_idx = tl.block_to_chunk[blockIdx.x];                                   \
    int64_t n = tl.numel_for_tensor[tensor_loc] - chunk_idx * chunk_size;                  \
    scalar_t* x = static_cast<scalar_t*>(tl.addresses[0][tensor_loc]) + chunk_idx * chunk_size; \
    scalar_t* y = static_cast<scalar_t*>(tl.addresses[depth - 1][tensor_loc]) + chunk_idx * chunk_size; \
    for (int64_t i = threadIdx.x; i < n && i < chunk_size; i += blockDim.x) {             \
      const float v = static_cast<float>(x[i]);                                            \
      y[i] = static_cast<scalar_t>(EXPR);                                                  \
    }                                                                                      \
  }

#define FOREACH_SCALAR_KERNEL(NAME, EXPR)                                                  \
  template <typename scalar_t, int depth>                                                  \
  C10_LAUNCH_BOUNDS_1(kBlockSize)                                                          \
  __global__ void foreach_##NAME##_kernel(TensorListMetadata<depth> tl, int64_t chunk_size, float s) { \
    const int tensor_loc = tl.block_to_tensor[blockIdx.x];                                 \
    const int chunk_idx = tl.block_to_chunk[blockIdx.x];                                   \
    int64_t n = tl.numel_for_tensor[tensor_loc] - chunk_idx * chunk_size;                  \
    scalar_t* x = static_cast<scalar_t*>(tl.addresses[0][tensor_loc]) + chunk_idx * chunk_size; \
    for (int64_t i = threadIdx.x; i < n && i < chunk_size; i += blockDim.x) {             \
      const float v = static_cast<float>(x[i]);                                            \
      x[i] = static_cast<scalar_t>(EXPR);                                                  \
    }                                                                                      \
  }

#define FOREACH_TERNARY_KERNEL(NAME, EXPR)                                                 \
  template <typename scalar_t>                                                             \
  C10_LAUNCH_BOUNDS_1(kBlockSize)                                                          \
  __global__ void foreach_##NAME##_kernel(TensorListMetadata<3> tl, int64_t chunk_size, float s) { \
    const int t = tl.block_to_tensor[blockIdx.x];                                          \
    const int c = tl.block_to_chunk[blockIdx.x];                                           \
    const int64_t off = c * chunk_size;                                                    \
    scalar_t* self = static_cast<scalar_t*>(tl.addresses[0][t]) + off;                     \
    const scalar_t* t1 = static_cast<const scalar_t*>(tl.addresses[1][t]) + off;           \
    const scalar_t* t2 = static_cast<const scalar_t*>(tl.addresses[2][t]) + off;           \
    const int64_t n = tl.numel_for_tensor[t] - off;                                        \
    for (int64_t i = threadIdx.x; i < n && i < chunk_size; i += blockDim.x) {             \
      const float v = static_cast<float>(self[i]);                                         \
      const float a = static_cast<float>(t1[i]);                                           \
      const float b = static_cast<float>(t2[i]);                                           \
      self[i] = static_cast<scalar_t>(EXPR);                                               \
    }                                                                                      \
  }

FOREACH_UNARY_KERNEL(abs, fabsf(v))
FOREACH_UNARY_KERNEL(neg, -v)
FOREACH_UNARY_KERNEL(exp, expf(v))
FOREACH_UNARY_KERNEL(expm1, expm1f(v))
FOREACH_UNARY_KERNEL(log, logf(v))
FOREACH_UNARY_KERNEL(log1p, log1pf(v))
FOREACH_UNARY_KERNEL(log2, log2f(v))
FOREACH_UNARY_KERNEL(log10, log10f(v))
FOREACH_UNARY_KERNEL(sqrt, sqrtf(v))
FOREACH_UNARY_KERNEL(reciprocal, 1.f / v)
FOREACH_UNARY_KERNEL(sigmoid, 1.f / (1.f + expf(-v)))
FOREACH_UNARY_KERNEL(sin, sinf(v))
FOREACH_UNARY_KERNEL(cos, cosf(v))
FOREACH_UNARY_KERNEL(tan, tanf(v))
FOREACH_UNARY_KERNEL(sinh, sinhf(v))
FOREACH_UNARY_KERNEL(cosh, coshf(v))
FOREACH_UNARY_KERNEL(tanh, tanhf(v))
FOREACH_UNARY_KERNEL(asin, asinf(v))
FOREACH_UNARY_KERNEL(acos, acosf(v))
FOREACH_UNARY_KERNEL(atan, atanf(v))
FOREACH_UNARY_KERNEL(erf, erff(v))
FOREACH_UNARY_KERNEL(erfc, erfcf(v))
FOREACH_UNARY_KERNEL(floor, floorf(v))
FOREACH_UNARY_KERNEL(ceil, ceilf(v))
FOREACH_UNARY_KERNEL(round, rintf(v))
FOREACH_UNARY_KERNEL(trunc, truncf(v))
FOREACH_UNARY_KERNEL(frac, v - truncf(v))
FOREACH_UNARY_KERNEL(lgamma, lgammaf(v))
FOREACH_UNARY_KERNEL(zero, 0.f)
FOREACH_UNARY_KERNEL(sign, (float)((v > 0.f) - (v < 0.f)))

FOREACH_SCALAR_KERNEL(add_scalar, v + s)
FOREACH_SCALAR_KERNEL(sub_scalar, v - s)
FOREACH_SCALAR_KERNEL(mul_scalar, v * s)
FOREACH_SCALAR_KERNEL(div_scalar, v / s)
FOREACH_SCALAR_KERNEL(pow_scalar, powf(v, s))
FOREACH_SCALAR_KERNEL(clamp_min_scalar, fmaxf(v, s))
FOREACH_SCALAR_KERNEL(clamp_max_scalar, fminf(v, s))
FOREACH_SCALAR_KERNEL(lerp_scalar, v + s * (1.f - v))

FOREACH_TERNARY_KERNEL(addcmul, v + s * a * b)
FOREACH_TERNARY_KERNEL(addcdiv, v + s * a / b)
FOREACH_TERNARY_KERNEL(lerp_tensor, v + b * (a - v))

template <int depth>
int build_metadata(std::vector<std::vector<Tensor>>& lists, TensorListMetadata<depth>& tl) {
  int blocks = 0;
  for (size_t t = 0; t < lists[0].size() && t < size_t(kMaxTensors); ++t) {
    for (int d = 0; d < depth; ++d) {
      tl.addresses[d][t] = lists[d][t].template data_ptr<char>();
    }
    tl.numel_for_tensor[t] = lists[0][t].numel();
    const int64_t chunks = (lists[0][t].numel() + kChunkSize - 1) / kChunkSize;
    for (int64_t c = 0; c < chunks && blocks < kMaxBlocks; ++c) {
      tl.block_to_tensor[blocks] = static_cast<unsigned char>(t);
      tl.block_to_chunk[blocks] = static_cast<int>(c);
      ++blocks;
    }
  }
  return blocks;
}

struct CopyFunctor {
  template <int depth>
  __device__ void operator()(int64_t chunk_size, TensorListMetadata<depth>& tl, float scale) const {
    const int t = tl.block_to_tensor[blockIdx.x];
    const int c = tl.block_to_chunk[blockIdx.x];
    float* src = static_cast<float*>(tl.addresses[0][t]) + c * chunk_size;
    float* dst = static_cast<float*>(tl.addresses[1][t]) + c * chunk_size;
    const int64_t n = tl.numel_for_tensor[t] - c * chunk_size;
    for (int64_t i = threadIdx.x; i < n && i < chunk_size; i += blockDim.x) dst[i] = src[i] * scale;
  }
};

}  // namespace

void foreach_abs_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_abs", [&] {
    foreach_abs_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_neg_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_neg", [&] {
    foreach_neg_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_exp_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_exp", [&] {
    foreach_exp_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_expm1_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_expm1", [&] {
    foreach_expm1_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_log_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_log", [&] {
    foreach_log_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_log1p_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_log1p", [&] {
    foreach_log1p_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_log2_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_log2", [&] {
    foreach_log2_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_log10_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_log10", [&] {
    foreach_log10_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_sqrt_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_sqrt", [&] {
    foreach_sqrt_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_reciprocal_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_reciprocal", [&] {
    foreach_reciprocal_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_sigmoid_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_sigmoid", [&] {
    foreach_sigmoid_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_sin_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_sin", [&] {
    foreach_sin_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_cos_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_cos", [&] {
    foreach_cos_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_tan_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_tan", [&] {
    foreach_tan_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_sinh_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_sinh", [&] {
    foreach_sinh_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_cosh_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_cosh", [&] {
    foreach_cosh_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_tanh_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_tanh", [&] {
    foreach_tanh_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_asin_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_asin", [&] {
    foreach_asin_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_acos_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_acos", [&] {
    foreach_acos_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_atan_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_atan", [&] {
    foreach_atan_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_erf_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_erf", [&] {
    foreach_erf_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_erfc_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_erfc", [&] {
    foreach_erfc_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_floor_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_floor", [&] {
    foreach_floor_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_ceil_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_ceil", [&] {
    foreach_ceil_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_round_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_round", [&] {
    foreach_round_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_trunc_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_trunc", [&] {
    foreach_trunc_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_frac_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_frac", [&] {
    foreach_frac_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_lgamma_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_lgamma", [&] {
    foreach_lgamma_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_zero_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_zero", [&] {
    foreach_zero_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_sign_cuda(std::vector<Tensor>& tensors) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_sign", [&] {
    foreach_sign_kernel<scalar_t, 1><<<blocks, kBlockSize, 0, at::cuda::getCurrentCUDAStream()>>>(tl, kChunkSize);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void foreach_add_scalar_cuda(std::vector<Tensor>& tensors, double scalar) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_add_scalar", [&] {
    foreach_add_scalar_kernel<scalar_t, 1><<<blocks, kBlockSize>>>(tl, kChunkSize, static_cast<float>(scalar));
  });
}

void foreach_sub_scalar_cuda(std::vector<Tensor>& tensors, double scalar) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_sub_scalar", [&] {
    foreach_sub_scalar_kernel<scalar_t, 1><<<blocks, kBlockSize>>>(tl, kChunkSize, static_cast<float>(scalar));
  });
}

void foreach_mul_scalar_cuda(std::vector<Tensor>& tensors, double scalar) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_mul_scalar", [&] {
    foreach_mul_scalar_kernel<scalar_t, 1><<<blocks, kBlockSize>>>(tl, kChunkSize, static_cast<float>(scalar));
  });
}

void foreach_div_scalar_cuda(std::vector<Tensor>& tensors, double scalar) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_div_scalar", [&] {
    foreach_div_scalar_kernel<scalar_t, 1><<<blocks, kBlockSize>>>(tl, kChunkSize, static_cast<float>(scalar));
  });
}

void foreach_pow_scalar_cuda(std::vector<Tensor>& tensors, double scalar) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_pow_scalar", [&] {
    foreach_pow_scalar_kernel<scalar_t, 1><<<blocks, kBlockSize>>>(tl, kChunkSize, static_cast<float>(scalar));
  });
}

void foreach_clamp_min_scalar_cuda(std::vector<Tensor>& tensors, double scalar) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_clamp_min_scalar", [&] {
    foreach_clamp_min_scalar_kernel<scalar_t, 1><<<blocks, kBlockSize>>>(tl, kChunkSize, static_cast<float>(scalar));
  });
}

void foreach_clamp_max_scalar_cuda(std::vector<Tensor>& tensors, double scalar) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_clamp_max_scalar", [&] {
    foreach_clamp_max_scalar_kernel<scalar_t, 1><<<blocks, kBlockSize>>>(tl, kChunkSize, static_cast<float>(scalar));
  });
}

void foreach_lerp_scalar_cuda(std::vector<Tensor>& tensors, double scalar) {
  std::vector<std::vector<Tensor>> lists{tensors};
  TensorListMetadata<1> tl;
  const int blocks = build_metadata<1>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(tensors[0].scalar_type(), "foreach_lerp_scalar", [&] {
    foreach_lerp_scalar_kernel<scalar_t, 1><<<blocks, kBlockSize>>>(tl, kChunkSize, static_cast<float>(scalar));
  });
}

void foreach_addcmul_cuda(std::vector<Tensor>& self, std::vector<Tensor>& a, std::vector<Tensor>& b, double value) {
  std::vector<std::vector<Tensor>> lists{self, a, b};
  TensorListMetadata<3> tl;
  const int blocks = build_metadata<3>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(self[0].scalar_type(), "foreach_addcmul", [&] {
    foreach_addcmul_kernel<scalar_t><<<blocks, kBlockSize>>>(tl, kChunkSize, static_cast<float>(value));
  });
}

void foreach_addcdiv_cuda(std::vector<Tensor>& self, std::vector<Tensor>& a, std::vector<Tensor>& b, double value) {
  std::vector<std::vector<Tensor>> lists{self, a, b};
  TensorListMetadata<3> tl;
  const int blocks = build_metadata<3>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(self[0].scalar_type(), "foreach_addcdiv", [&] {
    foreach_addcdiv_kernel<scalar_t><<<blocks, kBlockSize>>>(tl, kChunkSize, static_cast<float>(value));
  });
}

void foreach_lerp_tensor_cuda(std::vector<Tensor>& self, std::vector<Tensor>& a, std::vector<Tensor>& b, double value) {
  std::vector<std::vector<Tensor>> lists{self, a, b};
  TensorListMetadata<3> tl;
  const int blocks = build_metadata<3>(lists, tl);
  AT_DISPATCH_FLOATING_TYPES(self[0].scalar_type(), "foreach_lerp_tensor", [&] {
    foreach_lerp_tensor_kernel<scalar_t><<<blocks, kBlockSize>>>(tl, kChunkSize, static_cast<float>(value));
  });
}

void foreach_copy_scaled_cuda(std::vector<Tensor>& src, std::vector<Tensor>& dst, float scale) {
  std::vector<std::vector<Tensor>> lists{src, dst};
  TensorListMetadata<2> tl;
  const int blocks = build_metadata<2>(lists, tl);
  multi_tensor_apply_kernel<<<blocks, kBlockSize>>>(tl, CopyFunctor{}, scale);
}

}  // namespace at::native
