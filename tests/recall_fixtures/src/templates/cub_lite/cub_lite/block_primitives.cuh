/******************************************************************************
 * Block- and warp-wide primitives: configuration macros, warp reduction,
 * block reduction and block scan with user-provided temporary storage.
 ******************************************************************************/
#pragma once

#include <cstdint>
#include <type_traits>
#include <cuda_runtime.h>

#define CUB_LITE_NAMESPACE_BEGIN namespace cub_lite { inline namespace v1 {
#define CUB_LITE_NAMESPACE_END } }
#define CUB_LITE_DEVICE __device__ __forceinline__
#define CUB_LITE_HOST_DEVICE __host__ __device__ __forceinline__
#define CUB_LITE_RUNTIME_FUNCTION __host__
#define CUB_LITE_KERNEL __global__ __attribute__((visibility("hidden")))
#define CUB_LITE_PTX_ARCH (__CUDA_ARCH__ + 0)
#define CUB_LITE_MAX(a, b) (((a) > (b)) ? (a) : (b))
#define CUB_LITE_MIN(a, b) (((a) < (b)) ? (a) : (b))
#define CUB_LITE_QUOTIENT_CEILING(x, y) (((x) + (y) - 1) / (y))
#define CUB_LITE_STATIC_ASSERT(cond, msg) static_assert(cond, msg)

CUB_LITE_NAMESPACE_BEGIN

/// Raw storage that can live in a union without running constructors.
template <typename T>
struct Uninitialized {
  using DeviceWord = unsigned int;
  static constexpr size_t WORDS = (sizeof(T) + sizeof(DeviceWord) - 1) / sizeof(DeviceWord);
  DeviceWord storage[WORDS];
  CUB_LITE_HOST_DEVICE T& Alias() { return reinterpret_cast<T&>(*this); }
};

struct Sum {
  template <typename T>
  CUB_LITE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a + b; }
};

struct Max {
  template <typename T>
  CUB_LITE_HOST_DEVICE T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};

struct Min {
  template <typename T>
  CUB_LITE_HOST_DEVICE T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};

template <int N>
struct Log2 {
  static constexpr int VALUE = (N <= 1) ? 0 : 1 + Log2<(N >> 1)>::VALUE;
};
template <>
struct Log2<0> {
  static constexpr int VALUE = 0;
};

template <int N>
struct IsPowerOfTwo {
  static constexpr bool VALUE = (N > 0) && ((N & (N - 1)) == 0);
};

CUB_LITE_DEVICE unsigned int LaneId() {
  unsigned int ret;
  asm("mov.u32 %0, %%laneid;" : "=r"(ret));
  return ret;
}

CUB_LITE_DEVICE unsigned int WarpId() {
  return threadIdx.x / 32;
}

/// Shuffle-based reduction across LOGICAL_WARP_THREADS lanes.
template <typename T, int LOGICAL_WARP_THREADS = 32>
class WarpReduce {
  CUB_LITE_STATIC_ASSERT(IsPowerOfTwo<LOGICAL_WARP_THREADS>::VALUE, "logical warp size must be a power of two");
  static constexpr int STEPS = Log2<LOGICAL_WARP_THREADS>::VALUE;

 public:
  struct TempStorage {};
  CUB_LITE_DEVICE explicit WarpReduce(TempStorage&) {}

  template <typename ReductionOp>
  CUB_LITE_DEVICE T Reduce(T input, ReductionOp op) {
#pragma unroll
    for (int s = 0; s < STEPS; ++s) {
      T other = __shfl_xor_sync(0xffffffffu, input, 1 << s, LOGICAL_WARP_THREADS);
      input = op(input, other);
    }
    return input;
  }

  CUB_LITE_DEVICE T Sum(T input) { return Reduce(input, cub_lite::Sum()); }
};

enum BlockReduceAlgorithm { BLOCK_REDUCE_WARP_REDUCTIONS, BLOCK_REDUCE_RAKING };

/// Block-wide reduction; the result is valid in thread 0.
template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS>
class BlockReduce {
  static constexpr int WARPS = CUB_LITE_QUOTIENT_CEILING(BLOCK_DIM_X, 32);

  struct _TempStorage {
    T warp_aggregates[WARPS];
    T raking[BLOCK_DIM_X];
  };

  _TempStorage& temp_storage;

 public:
  struct TempStorage : Uninitialized<_TempStorage> {};

  CUB_LITE_DEVICE explicit BlockReduce(TempStorage& storage) : temp_storage(storage.Alias()) {}

  template <typename ReductionOp>
  CUB_LITE_DEVICE T Reduce(T input, ReductionOp op) {
    if constexpr (ALGORITHM == BLOCK_REDUCE_WARP_REDUCTIONS) {
      typename WarpReduce<T>::TempStorage unused;
      T warp_total = WarpReduce<T>(unused).Reduce(input, op);
      if (LaneId() == 0) temp_storage.warp_aggregates[WarpId()] = warp_total;
      __syncthreads();
      T total = temp_storage.warp_aggregates[0];
      if (threadIdx.x == 0) {
#pragma unroll
        for (int w = 1; w < WARPS; ++w) total = op(total, temp_storage.warp_aggregates[w]);
      }
      return total;
    } else {
      temp_storage.raking[threadIdx.x] = input;
      __syncthreads();
      for (int s = BLOCK_DIM_X / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) temp_storage.raking[threadIdx.x] = op(temp_storage.raking[threadIdx.x], temp_storage.raking[threadIdx.x + s]);
        __syncthreads();
      }
      return temp_storage.raking[0];
    }
  }

  template <int ITEMS_PER_THREAD, typename ReductionOp>
  CUB_LITE_DEVICE T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp op) {
    T partial = inputs[0];
#pragma unroll
    for (int i = 1; i < ITEMS_PER_THREAD; ++i) partial = op(partial, inputs[i]);
    return Reduce(partial, op);
  }

  CUB_LITE_DEVICE T Sum(T input) { return Reduce(input, cub_lite::Sum()); }
};

/// Block-wide inclusive/exclusive scan (Kogge-Stone over shared memory).
template <typename T, int BLOCK_DIM_X>
class BlockScan {
  struct _TempStorage {
    T buf[2][BLOCK_DIM_X];
  };
  _TempStorage& temp_storage;

 public:
  struct TempStorage : Uninitialized<_TempStorage> {};
  CUB_LITE_DEVICE explicit BlockScan(TempStorage& storage) : temp_storage(storage.Alias()) {}

  template <typename ScanOp>
  CUB_LITE_DEVICE void InclusiveScan(T input, T& output, ScanOp op, T& block_aggregate) {
    int src = 0;
    temp_storage.buf[0][threadIdx.x] = input;
    __syncthreads();
    for (int offset = 1; offset < BLOCK_DIM_X; offset <<= 1) {
      T v = temp_storage.buf[src][threadIdx.x];
      if (threadIdx.x >= offset) v = op(temp_storage.buf[src][threadIdx.x - offset], v);
      temp_storage.buf[1 - src][threadIdx.x] = v;
      __syncthreads();
      src = 1 - src;
    }
    output = temp_storage.buf[src][threadIdx.x];
    block_aggregate = temp_storage.buf[src][BLOCK_DIM_X - 1];
  }

  CUB_LITE_DEVICE void ExclusiveSum(T input, T& output) {
    T inclusive, aggregate;
    InclusiveScan(input, inclusive, cub_lite::Sum(), aggregate);
    output = inclusive - input;
  }
};

enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED };

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT>
struct BlockLoad {
  struct TempStorage {};
  CUB_LITE_DEVICE explicit BlockLoad(TempStorage&) {}
  template <typename InputIt>
  CUB_LITE_DEVICE void Load(InputIt block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, T oob_default) {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      const int idx = (ALGORITHM == BLOCK_LOAD_DIRECT) ? threadIdx.x * ITEMS_PER_THREAD + i : i * BLOCK_DIM_X + threadIdx.x;
      items[i] = idx < valid_items ? block_itr[idx] : oob_default;
    }
  }
};

CUB_LITE_NAMESPACE_END
