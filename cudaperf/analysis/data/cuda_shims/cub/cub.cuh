// cudaperf declaration shim for <cub/cub.cuh>: used by the clang frontend only, and only where the CUDA
// toolkit's CUB is not found (searched after every include path).  Declarations for type checking: the
// block and warp collectives' signatures, the device algorithms as variadic declarations.  TempStorage
// is a stand-in (one element per warp): its size is not CUB's, and nothing here computes anything.
#pragma once

#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#define CUB_QUOTIENT_CEILING(a, b) (((a) + (b) - 1) / (b))
#define CubDebug(e) (e)
#define CubDebugExit(e) (e)

namespace cub {

enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE,
                          BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE,
                           BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED };

struct NullType {};
struct Sum { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const; };
struct Max { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const; };
struct Min { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const; };
template <class K, class V> struct KeyValuePair { K key; V value; };
struct ArgMax { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const; };
struct ArgMin { template <class T> __host__ __device__ T operator()(const T& a, const T& b) const; };

template <class T> struct Traits {
  typedef T UnsignedBits;
  static __host__ __device__ T Max();
  static __host__ __device__ T Lowest();
};

template <class T, int THREADS> struct _Storage { T per_warp[(THREADS + 31) / 32]; };

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm A = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockReduce {
 public:
  struct TempStorage : _Storage<T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z> {};
  __device__ BlockReduce();
  __device__ BlockReduce(TempStorage& storage);
  template <class Op> __device__ T Reduce(T input, Op op);
  template <class Op> __device__ T Reduce(T input, Op op, int num_valid);
  template <int N, class Op> __device__ T Reduce(T (&inputs)[N], Op op);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int num_valid);
  template <int N> __device__ T Sum(T (&inputs)[N]);
};

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm A = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int ARCH = 0>
class BlockScan {
 public:
  struct TempStorage : _Storage<T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z> {};
  __device__ BlockScan();
  __device__ BlockScan(TempStorage& storage);
  template <class... A_> __device__ void ExclusiveSum(A_&&... args);
  template <class... A_> __device__ void InclusiveSum(A_&&... args);
  template <class... A_> __device__ void ExclusiveScan(A_&&... args);
  template <class... A_> __device__ void InclusiveScan(A_&&... args);
};

template <class T, int LOGICAL_WARP_THREADS = 32, int ARCH = 0>
class WarpReduce {
 public:
  struct TempStorage : _Storage<T, LOGICAL_WARP_THREADS> {};
  __device__ WarpReduce(TempStorage& storage);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int num_valid);
  template <class Op> __device__ T Reduce(T input, Op op);
  template <class Op> __device__ T Reduce(T input, Op op, int num_valid);
  template <class F> __device__ T HeadSegmentedSum(T input, F head_flag);
  template <class F> __device__ T TailSegmentedSum(T input, F tail_flag);
};

template <class T, int LOGICAL_WARP_THREADS = 32, int ARCH = 0>
class WarpScan {
 public:
  struct TempStorage : _Storage<T, LOGICAL_WARP_THREADS> {};
  __device__ WarpScan(TempStorage& storage);
  template <class... A_> __device__ void ExclusiveSum(A_&&... args);
  template <class... A_> __device__ void InclusiveSum(A_&&... args);
  template <class... A_> __device__ void ExclusiveScan(A_&&... args);
  template <class... A_> __device__ void InclusiveScan(A_&&... args);
  __device__ T Broadcast(T input, unsigned int src_lane);
};

// exchanges, loads and stores between blocked and striped arrangements: `Op(items)` or `Op(in, out)`
#define CUDAPERF_CUB_COLLECTIVE(NAME, THREADS, ...)                                          \
  class NAME {                                                                             \
   public:                                                                                 \
    struct TempStorage : _Storage<T, (THREADS) * ITEMS_PER_THREAD> {};                     \
    __device__ NAME();                                                                     \
    __device__ NAME(TempStorage& storage);                                                 \
    template <class... A_> __device__ void BlockedToStriped(A_&&... args);                 \
    template <class... A_> __device__ void StripedToBlocked(A_&&... args);                 \
    template <class... A_> __device__ void BlockedToWarpStriped(A_&&... args);             \
    template <class... A_> __device__ void WarpStripedToBlocked(A_&&... args);             \
    template <class... A_> __device__ void ScatterToBlocked(A_&&... args);                 \
    template <class... A_> __device__ void ScatterToStriped(A_&&... args);                 \
    template <class... A_> __device__ void Load(A_&&... args);                             \
    template <class... A_> __device__ void Store(A_&&... args);                            \
    template <class... A_> __device__ void SubtractLeft(A_&&... args);                     \
    template <class... A_> __device__ void SubtractRight(A_&&... args);                    \
    template <class... A_> __device__ void FlagHeads(A_&&... args);                        \
    template <class... A_> __device__ void FlagTails(A_&&... args);                        \
  }
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int ARCH = 0>
CUDAPERF_CUB_COLLECTIVE(BlockExchange, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z);
template <class T, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = 32, int ARCH = 0>
CUDAPERF_CUB_COLLECTIVE(WarpExchange, LOGICAL_WARP_THREADS);
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm A = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int ARCH = 0>
CUDAPERF_CUB_COLLECTIVE(BlockLoad, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z);
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm A = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int ARCH = 0>
CUDAPERF_CUB_COLLECTIVE(BlockStore, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z);
template <class T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int ARCH = 0, int ITEMS_PER_THREAD = 1>
CUDAPERF_CUB_COLLECTIVE(BlockAdjacentDifference, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z);
#undef CUDAPERF_CUB_COLLECTIVE

template <int BLOCK_THREADS, class... A_> __device__ void LoadDirectStriped(A_&&... args);
template <int BLOCK_THREADS, class... A_> __device__ void StoreDirectStriped(A_&&... args);
template <class... A_> __device__ void LoadDirectBlocked(A_&&... args);
template <class... A_> __device__ void StoreDirectBlocked(A_&&... args);

template <class T, class Offset = long long> class CountingInputIterator {
 public:
  typedef T value_type;
  __host__ __device__ CountingInputIterator(const T& start);
  __host__ __device__ T operator[](Offset n) const;
  __host__ __device__ T operator*() const;
};
template <class V, class Op, class It, class Offset = long long> class TransformInputIterator {
 public:
  typedef V value_type;
  __host__ __device__ TransformInputIterator(It input, Op op);
  __host__ __device__ V operator[](Offset n) const;
  __host__ __device__ V operator*() const;
};

// the device-wide algorithms: host calls, as variadic declarations (temporary storage, sizes, iterators)
#define CUDAPERF_CUB_DEVICE(NAME, ...) \
  struct NAME { __VA_ARGS__ };
#define CUDAPERF_CUB_CALL(F) template <class... A_> __host__ static cudaError_t F(A_&&... args);
CUDAPERF_CUB_DEVICE(DeviceReduce, CUDAPERF_CUB_CALL(Sum) CUDAPERF_CUB_CALL(Max) CUDAPERF_CUB_CALL(Min)
                    CUDAPERF_CUB_CALL(ArgMax) CUDAPERF_CUB_CALL(ArgMin) CUDAPERF_CUB_CALL(Reduce)
                    CUDAPERF_CUB_CALL(ReduceByKey))
CUDAPERF_CUB_DEVICE(DeviceSegmentedReduce, CUDAPERF_CUB_CALL(Sum) CUDAPERF_CUB_CALL(Max) CUDAPERF_CUB_CALL(Min)
                    CUDAPERF_CUB_CALL(ArgMax) CUDAPERF_CUB_CALL(ArgMin) CUDAPERF_CUB_CALL(Reduce))
CUDAPERF_CUB_DEVICE(DeviceScan, CUDAPERF_CUB_CALL(ExclusiveSum) CUDAPERF_CUB_CALL(InclusiveSum)
                    CUDAPERF_CUB_CALL(ExclusiveScan) CUDAPERF_CUB_CALL(InclusiveScan)
                    CUDAPERF_CUB_CALL(ExclusiveSumByKey) CUDAPERF_CUB_CALL(InclusiveSumByKey))
CUDAPERF_CUB_DEVICE(DeviceSelect, CUDAPERF_CUB_CALL(Flagged) CUDAPERF_CUB_CALL(If) CUDAPERF_CUB_CALL(Unique))
CUDAPERF_CUB_DEVICE(DevicePartition, CUDAPERF_CUB_CALL(Flagged) CUDAPERF_CUB_CALL(If))
CUDAPERF_CUB_DEVICE(DeviceRadixSort, CUDAPERF_CUB_CALL(SortKeys) CUDAPERF_CUB_CALL(SortPairs)
                    CUDAPERF_CUB_CALL(SortKeysDescending) CUDAPERF_CUB_CALL(SortPairsDescending))
CUDAPERF_CUB_DEVICE(DeviceSegmentedRadixSort, CUDAPERF_CUB_CALL(SortKeys) CUDAPERF_CUB_CALL(SortPairs)
                    CUDAPERF_CUB_CALL(SortKeysDescending) CUDAPERF_CUB_CALL(SortPairsDescending))
CUDAPERF_CUB_DEVICE(DeviceHistogram, CUDAPERF_CUB_CALL(HistogramEven) CUDAPERF_CUB_CALL(HistogramRange))
CUDAPERF_CUB_DEVICE(DeviceRunLengthEncode, CUDAPERF_CUB_CALL(Encode) CUDAPERF_CUB_CALL(NonTrivialRuns))
#undef CUDAPERF_CUB_CALL
#undef CUDAPERF_CUB_DEVICE

}  // namespace cub
