#pragma once
// Minimal stand-ins for the tensor library's core headers so that the operator
// files in this folder compile on their own.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_HOST __host__
#define C10_ALWAYS_INLINE __forceinline__
#define C10_UNUSED __attribute__((__unused__))
#define C10_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define C10_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
#define GPU_LAMBDA __host__ __device__

#define C10_WARP_SIZE 32
#define C10_MAX_THREADS_PER_BLOCK(val) (((val) <= 1024) ? (val) : 1024)
#define C10_MIN_BLOCKS_PER_SM(threads_per_block, blocks_per_sm) \
  ((((threads_per_block) * (blocks_per_sm)) <= 2048) ? (blocks_per_sm) : ((2048 + (threads_per_block)-1) / (threads_per_block)))
#define C10_LAUNCH_BOUNDS_0 __launch_bounds__(256, 4)
#define C10_LAUNCH_BOUNDS_1(max_threads_per_block) \
  __launch_bounds__((C10_MAX_THREADS_PER_BLOCK((max_threads_per_block))))
#define C10_LAUNCH_BOUNDS_2(max_threads_per_block, min_blocks_per_sm) \
  __launch_bounds__((C10_MAX_THREADS_PER_BLOCK((max_threads_per_block))), \
                    (C10_MIN_BLOCKS_PER_SM((max_threads_per_block), (min_blocks_per_sm))))

#define CUDA_KERNEL_LOOP_TYPE(i, n, index_type)                                              \
  int64_t _i_n_d_e_x = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;         \
  for (index_type i = _i_n_d_e_x; _i_n_d_e_x < (n);                                         \
       _i_n_d_e_x += static_cast<int64_t>(blockDim.x) * gridDim.x, i = _i_n_d_e_x)
#define CUDA_KERNEL_LOOP(i, n) CUDA_KERNEL_LOOP_TYPE(i, n, int)

#define TORCH_CHECK(cond, ...)                                          \
  do {                                                                  \
    if (C10_UNLIKELY(!(cond))) {                                        \
      fprintf(stderr, "check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      abort();                                                          \
    }                                                                   \
  } while (0)
#define TORCH_INTERNAL_ASSERT(cond) TORCH_CHECK(cond)
#define C10_CUDA_CHECK(expr) TORCH_CHECK((expr) == cudaSuccess)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())

namespace at {

enum class ScalarType : int8_t { Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16 };
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kInt = ScalarType::Int;

inline const char* toString(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return "Float";
    case ScalarType::Double: return "Double";
    case ScalarType::Half: return "Half";
    case ScalarType::Long: return "Long";
    case ScalarType::Int: return "Int";
    default: return "Other";
  }
}

class Tensor {
 public:
  Tensor() = default;
  Tensor(void* data, int64_t rows, int64_t cols, ScalarType dtype)
      : data_(data), rows_(rows), cols_(cols), dtype_(dtype) {}
  int64_t numel() const { return rows_ * cols_; }
  int64_t size(int dim) const { return dim == 0 ? rows_ : cols_; }
  int64_t dim() const { return 2; }
  int64_t stride(int dim) const { return dim == 0 ? cols_ : 1; }
  ScalarType scalar_type() const { return dtype_; }
  bool is_contiguous() const { return true; }
  bool defined() const { return data_ != nullptr; }
  Tensor contiguous() const { return *this; }
  template <typename T>
  T* data_ptr() const { return static_cast<T*>(data_); }
  template <typename T>
  T* mutable_data_ptr() const { return static_cast<T*>(data_); }
  template <typename T>
  const T* const_data_ptr() const { return static_cast<const T*>(data_); }

 private:
  void* data_ = nullptr;
  int64_t rows_ = 0, cols_ = 0;
  ScalarType dtype_ = ScalarType::Float;
};

inline Tensor empty_like(const Tensor& t) { return Tensor(nullptr, t.size(0), t.size(1), t.scalar_type()); }

template <typename T, bool is_cuda>
struct AccumulateType { using type = T; };
template <>
struct AccumulateType<__half, true> { using type = float; };
template <typename T, bool is_cuda>
using acc_type = typename AccumulateType<T, is_cuda>::type;

namespace cuda {
inline cudaStream_t getCurrentCUDAStream() { return 0; }
inline int warp_size() { return 32; }
}  // namespace cuda

namespace native {
template <typename Fn>
struct DispatchStub {
  Fn* fn = nullptr;
};
}  // namespace native

}  // namespace at

constexpr int CUDA_NUM_THREADS = 256;
inline int GET_BLOCKS(const int64_t N, const int64_t max_threads_per_block = CUDA_NUM_THREADS) {
  const int64_t blocks = (N + max_threads_per_block - 1) / max_threads_per_block;
  return static_cast<int>(blocks < 65535 ? (blocks > 0 ? blocks : 1) : 65535);
}

#define AT_PRIVATE_CASE_TYPE(enum_type, type, ...) \
  case enum_type: {                                \
    using scalar_t = type;                         \
    return __VA_ARGS__();                          \
  }

#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...)                                 \
  [&] {                                                                             \
    switch (TYPE) {                                                                 \
      AT_PRIVATE_CASE_TYPE(at::ScalarType::Float, float, __VA_ARGS__)               \
      AT_PRIVATE_CASE_TYPE(at::ScalarType::Double, double, __VA_ARGS__)             \
      default:                                                                      \
        fprintf(stderr, "%s not implemented for '%s'\n", NAME, at::toString(TYPE)); \
    }                                                                               \
  }()

#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...)                        \
  [&] {                                                                             \
    switch (TYPE) {                                                                 \
      AT_PRIVATE_CASE_TYPE(at::ScalarType::Float, float, __VA_ARGS__)               \
      AT_PRIVATE_CASE_TYPE(at::ScalarType::Double, double, __VA_ARGS__)             \
      AT_PRIVATE_CASE_TYPE(at::ScalarType::Half, __half, __VA_ARGS__)               \
      default:                                                                      \
        fprintf(stderr, "%s not implemented for '%s'\n", NAME, at::toString(TYPE)); \
    }                                                                               \
  }()

#define AT_DISPATCH_INDEX_TYPES(TYPE, NAME, ...)                                    \
  [&] {                                                                             \
    switch (TYPE) {                                                                 \
      case at::ScalarType::Int: {                                                   \
        using index_t = int;                                                        \
        return __VA_ARGS__();                                                       \
      }                                                                             \
      default: {                                                                    \
        using index_t = int64_t;                                                    \
        return __VA_ARGS__();                                                       \
      }                                                                             \
    }                                                                               \
  }()

#define DECLARE_DISPATCH(fn_type, name) extern at::native::DispatchStub<fn_type> name
#define DEFINE_DISPATCH(name) at::native::DispatchStub<void> name##_unused_
#define REGISTER_DISPATCH(name, fn) static const void* name##_registration_ = reinterpret_cast<const void*>(fn)
