#pragma once
#include "../block_primitives.cuh"

CUB_LITE_NAMESPACE_BEGIN

/// Tuning knobs for one architecture.
template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD>
struct AgentReducePolicy {
  static constexpr int BLOCK_THREADS = _BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = _ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
};

template <typename InputT, typename OutputT>
struct DeviceReducePolicy {
  struct Policy600 {
    using ReducePolicy = AgentReducePolicy<256, 16>;
    using SingleTilePolicy = AgentReducePolicy<256, 8>;
  };
  struct Policy900 {
    using ReducePolicy = AgentReducePolicy<512, 16>;
    using SingleTilePolicy = AgentReducePolicy<256, 16>;
  };
  using MaxPolicy = Policy900;
};

/// Reduces one tile per block and grid-strides over the input.
template <typename ChainedPolicyT, typename InputIteratorT, typename OffsetT, typename ReductionOpT, typename AccumT>
CUB_LITE_KERNEL void __launch_bounds__(int(ChainedPolicyT::ReducePolicy::BLOCK_THREADS))
    DeviceReduceKernel(InputIteratorT d_in, AccumT* d_out, OffsetT num_items, int num_tiles, ReductionOpT reduction_op,
                       AccumT init) {
  using Policy = typename ChainedPolicyT::ReducePolicy;
  using BlockReduceT = BlockReduce<AccumT, Policy::BLOCK_THREADS>;
  __shared__ typename BlockReduceT::TempStorage temp_storage;
  AccumT thread_aggregate = init;
  for (int tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    const OffsetT tile_offset = OffsetT(tile) * Policy::TILE_ITEMS;
#pragma unroll
    for (int i = 0; i < Policy::ITEMS_PER_THREAD; ++i) {
      const OffsetT idx = tile_offset + i * Policy::BLOCK_THREADS + threadIdx.x;
      if (idx < num_items) thread_aggregate = reduction_op(thread_aggregate, AccumT(d_in[idx]));
    }
  }
  AccumT block_aggregate = BlockReduceT(temp_storage).Reduce(thread_aggregate, reduction_op);
  if (threadIdx.x == 0) d_out[blockIdx.x] = block_aggregate;
}

/// Reduces the per-block partials (or a small input) with a single block.
template <typename ChainedPolicyT, typename InputIteratorT, typename OutputIteratorT, typename OffsetT,
          typename ReductionOpT, typename InitT, typename AccumT>
CUB_LITE_KERNEL void __launch_bounds__(int(ChainedPolicyT::SingleTilePolicy::BLOCK_THREADS), 1)
    DeviceReduceSingleTileKernel(InputIteratorT d_in, OutputIteratorT d_out, OffsetT num_items, ReductionOpT reduction_op,
                                 InitT init) {
  using Policy = typename ChainedPolicyT::SingleTilePolicy;
  using BlockReduceT = BlockReduce<AccumT, Policy::BLOCK_THREADS, BLOCK_REDUCE_RAKING>;
  __shared__ typename BlockReduceT::TempStorage temp_storage;
  if (num_items == 0) {
    if (threadIdx.x == 0) *d_out = init;
    return;
  }
  AccumT partial = init;
  for (OffsetT i = threadIdx.x; i < num_items; i += Policy::BLOCK_THREADS) partial = reduction_op(partial, AccumT(d_in[i]));
  AccumT total = BlockReduceT(temp_storage).Reduce(partial, reduction_op);
  if (threadIdx.x == 0) *d_out = total;
}

/// One block per segment.
template <typename ChainedPolicyT, typename InputIteratorT, typename OutputIteratorT, typename BeginOffsetIteratorT,
          typename EndOffsetIteratorT, typename OffsetT, typename ReductionOpT, typename InitT, typename AccumT>
CUB_LITE_KERNEL void __launch_bounds__(int(ChainedPolicyT::ReducePolicy::BLOCK_THREADS))
    DeviceSegmentedReduceKernel(InputIteratorT d_in, OutputIteratorT d_out, BeginOffsetIteratorT d_begin_offsets,
                                EndOffsetIteratorT d_end_offsets, int num_segments, ReductionOpT reduction_op, InitT init) {
  using Policy = typename ChainedPolicyT::ReducePolicy;
  using BlockReduceT = BlockReduce<AccumT, Policy::BLOCK_THREADS>;
  __shared__ typename BlockReduceT::TempStorage temp_storage;
  const int segment = blockIdx.x;
  if (segment >= num_segments) return;
  const OffsetT begin = d_begin_offsets[segment];
  const OffsetT end = d_end_offsets[segment];
  AccumT partial = init;
  for (OffsetT i = begin + threadIdx.x; i < end; i += Policy::BLOCK_THREADS) partial = reduction_op(partial, AccumT(d_in[i]));
  AccumT total = BlockReduceT(temp_storage).Reduce(partial, reduction_op);
  if (threadIdx.x == 0) d_out[segment] = (begin == end) ? AccumT(init) : total;
}

/// Two-pass device-wide reduction with the usual "call once for the temp size" protocol.
template <typename InputIteratorT, typename OutputIteratorT, typename OffsetT, typename ReductionOpT, typename InitT,
          typename AccumT = InitT, typename SelectedPolicy = typename DeviceReducePolicy<AccumT, AccumT>::MaxPolicy>
struct DispatchReduce {
  CUB_LITE_RUNTIME_FUNCTION static cudaError_t Dispatch(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                        OutputIteratorT d_out, OffsetT num_items, ReductionOpT reduction_op,
                                                        InitT init, cudaStream_t stream) {
    using Policy = SelectedPolicy;
    const int tile_items = Policy::ReducePolicy::TILE_ITEMS;
    const int num_tiles = int((num_items + tile_items - 1) / tile_items);
    const int grid = CUB_LITE_MIN(num_tiles, 1024);
    if (d_temp_storage == nullptr) {
      temp_storage_bytes = sizeof(AccumT) * CUB_LITE_MAX(grid, 1);
      return cudaSuccess;
    }
    AccumT* partials = static_cast<AccumT*>(d_temp_storage);
    if (num_tiles <= 1) {
      DeviceReduceSingleTileKernel<Policy, InputIteratorT, OutputIteratorT, OffsetT, ReductionOpT, InitT, AccumT>
          <<<1, Policy::SingleTilePolicy::BLOCK_THREADS, 0, stream>>>(d_in, d_out, num_items, reduction_op, init);
      return cudaPeekAtLastError();
    }
    DeviceReduceKernel<Policy, InputIteratorT, OffsetT, ReductionOpT, AccumT>
        <<<grid, Policy::ReducePolicy::BLOCK_THREADS, 0, stream>>>(d_in, partials, num_items, num_tiles, reduction_op, AccumT(init));
    DeviceReduceSingleTileKernel<Policy, AccumT*, OutputIteratorT, int, ReductionOpT, InitT, AccumT>
        <<<1, Policy::SingleTilePolicy::BLOCK_THREADS, 0, stream>>>(partials, d_out, grid, reduction_op, init);
    return cudaPeekAtLastError();
  }
};

struct DeviceReduce {
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  CUB_LITE_RUNTIME_FUNCTION static cudaError_t Sum(void* d_temp_storage, size_t& temp_storage_bytes, InputIteratorT d_in,
                                                   OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
    using T = typename std::remove_cv<typename std::remove_pointer<InputIteratorT>::type>::type;
    return DispatchReduce<InputIteratorT, OutputIteratorT, NumItemsT, cub_lite::Sum, T>::Dispatch(
        d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cub_lite::Sum(), T(0), stream);
  }

  template <typename InputIteratorT, typename OutputIteratorT, typename OffsetT>
  CUB_LITE_RUNTIME_FUNCTION static cudaError_t SegmentedSum(InputIteratorT d_in, OutputIteratorT d_out, int num_segments,
                                                            const OffsetT* d_begin, const OffsetT* d_end, cudaStream_t stream = 0) {
    using T = typename std::remove_cv<typename std::remove_pointer<InputIteratorT>::type>::type;
    using Policy = typename DeviceReducePolicy<T, T>::MaxPolicy;
    DeviceSegmentedReduceKernel<Policy, InputIteratorT, OutputIteratorT, const OffsetT*, const OffsetT*, OffsetT, cub_lite::Sum, T, T>
        <<<num_segments, Policy::ReducePolicy::BLOCK_THREADS, 0, stream>>>(d_in, d_out, d_begin, d_end, num_segments,
                                                                           cub_lite::Sum(), T(0));
    return cudaPeekAtLastError();
  }
};

CUB_LITE_NAMESPACE_END
