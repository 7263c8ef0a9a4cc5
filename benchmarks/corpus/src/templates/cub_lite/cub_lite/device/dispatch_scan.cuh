#pragma once
#include "../block_primitives.cuh"

CUB_LITE_NAMESPACE_BEGIN

/// Status of a tile in the decoupled look-back protocol.
enum ScanTileStatus : int { SCAN_TILE_INVALID = 0, SCAN_TILE_PARTIAL = 1, SCAN_TILE_INCLUSIVE = 2 };

template <typename T>
struct ScanTileState {
  struct alignas(16) Descriptor {
    int status;
    T value;
  };
  Descriptor* d_tile_descriptors;

  CUB_LITE_DEVICE void InitializeStatus(int num_tiles) {
    int tile_idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (tile_idx < num_tiles) d_tile_descriptors[tile_idx].status = SCAN_TILE_INVALID;
  }
  CUB_LITE_DEVICE void SetPartial(int tile_idx, T value) {
    d_tile_descriptors[tile_idx].value = value;
    __threadfence();
    atomicExch(&d_tile_descriptors[tile_idx].status, int(SCAN_TILE_PARTIAL));
  }
  CUB_LITE_DEVICE void SetInclusive(int tile_idx, T value) {
    d_tile_descriptors[tile_idx].value = value;
    __threadfence();
    atomicExch(&d_tile_descriptors[tile_idx].status, int(SCAN_TILE_INCLUSIVE));
  }
  CUB_LITE_DEVICE void WaitForValid(int tile_idx, int& status, T& value) {
    do {
      status = *((volatile int*)&d_tile_descriptors[tile_idx].status);
    } while (status == SCAN_TILE_INVALID);
    __threadfence();
    value = *((volatile T*)&d_tile_descriptors[tile_idx].value);
  }
};

template <int _BLOCK_THREADS, int _ITEMS_PER_THREAD>
struct AgentScanPolicy {
  static constexpr int BLOCK_THREADS = _BLOCK_THREADS;
  static constexpr int ITEMS_PER_THREAD = _ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
};

template <typename ScanTileStateT>
CUB_LITE_KERNEL void DeviceScanInitKernel(ScanTileStateT tile_state, int num_tiles) {
  tile_state.InitializeStatus(num_tiles);
}

template <typename ScanTileStateT, typename NumSelectedIteratorT>
CUB_LITE_KERNEL void DeviceCompactInitKernel(ScanTileStateT tile_state, int num_tiles, NumSelectedIteratorT d_num_selected_out) {
  tile_state.InitializeStatus(num_tiles);
  if ((blockIdx.x == 0) && (threadIdx.x == 0)) *d_num_selected_out = 0;
}

/// Single-pass inclusive sum with decoupled look-back across tiles.
template <typename Policy, typename InputIteratorT, typename OutputIteratorT, typename ScanTileStateT, typename AccumT>
CUB_LITE_KERNEL void __launch_bounds__(int(Policy::BLOCK_THREADS))
    DeviceScanKernel(InputIteratorT d_in, OutputIteratorT d_out, ScanTileStateT tile_state, int num_items) {
  using BlockScanT = BlockScan<AccumT, Policy::BLOCK_THREADS>;
  __shared__ typename BlockScanT::TempStorage scan_storage;
  __shared__ AccumT block_prefix;
  const int tile_idx = blockIdx.x;
  const int tile_offset = tile_idx * Policy::TILE_ITEMS;
  AccumT items[Policy::ITEMS_PER_THREAD];
  AccumT thread_sum = AccumT(0);
#pragma unroll
  for (int i = 0; i < Policy::ITEMS_PER_THREAD; ++i) {
    const int idx = tile_offset + threadIdx.x * Policy::ITEMS_PER_THREAD + i;
    items[i] = idx < num_items ? AccumT(d_in[idx]) : AccumT(0);
    thread_sum += items[i];
  }
  AccumT thread_prefix, tile_aggregate;
  BlockScanT(scan_storage).InclusiveScan(thread_sum, thread_prefix, cub_lite::Sum(), tile_aggregate);
  thread_prefix -= thread_sum;
  if (threadIdx.x == 0) {
    AccumT exclusive = AccumT(0);
    if (tile_idx == 0) {
      tile_state.SetInclusive(0, tile_aggregate);
    } else {
      tile_state.SetPartial(tile_idx, tile_aggregate);
      for (int pred = tile_idx - 1; pred >= 0; --pred) {
        int status;
        AccumT value;
        tile_state.WaitForValid(pred, status, value);
        exclusive += value;
        if (status == SCAN_TILE_INCLUSIVE) break;
      }
      tile_state.SetInclusive(tile_idx, exclusive + tile_aggregate);
    }
    block_prefix = exclusive;
  }
  __syncthreads();
  AccumT running = block_prefix + thread_prefix;
#pragma unroll
  for (int i = 0; i < Policy::ITEMS_PER_THREAD; ++i) {
    const int idx = tile_offset + threadIdx.x * Policy::ITEMS_PER_THREAD + i;
    running += items[i];
    if (idx < num_items) d_out[idx] = running;
  }
}

struct DeviceScan {
  template <typename T>
  CUB_LITE_RUNTIME_FUNCTION static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, const T* d_in,
                                                            T* d_out, int num_items, cudaStream_t stream = 0) {
    using Policy = AgentScanPolicy<128, 8>;
    using TileState = ScanTileState<T>;
    const int num_tiles = CUB_LITE_QUOTIENT_CEILING(num_items, Policy::TILE_ITEMS);
    if (d_temp_storage == nullptr) {
      temp_storage_bytes = sizeof(typename TileState::Descriptor) * num_tiles;
      return cudaSuccess;
    }
    TileState state;
    state.d_tile_descriptors = static_cast<typename TileState::Descriptor*>(d_temp_storage);
    DeviceScanInitKernel<TileState><<<CUB_LITE_QUOTIENT_CEILING(num_tiles, 128), 128, 0, stream>>>(state, num_tiles);
    DeviceScanKernel<Policy, const T*, T*, TileState, T><<<num_tiles, Policy::BLOCK_THREADS, 0, stream>>>(d_in, d_out, state, num_items);
    return cudaPeekAtLastError();
  }
};

CUB_LITE_NAMESPACE_END
