/******************************************************************************
 * Tests for the block-level primitives: every kernel runs one primitive over
 * one tile and writes the result next to the input for the host to check.
 ******************************************************************************/
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <numeric>

#include "../cub_lite/block_primitives.cuh"
#include "../cub_lite/device/dispatch_reduce.cuh"
#include "../cub_lite/device/dispatch_scan.cuh"
#include "../cub_lite/device/dispatch_radix_sort.cuh"

using namespace cub_lite;

#define CubDebugExit(e)                                                                 \
  if (cudaError_t _err = (e)) {                                                         \
    fprintf(stderr, "CUDA error %d (%s) at %s:%d\n", int(_err), cudaGetErrorString(_err), __FILE__, __LINE__); \
    exit(1);                                                                            \
  }

template <int N> struct Int2Type { enum { VALUE = N }; };

/// Full-tile reduction, ITEMS_PER_THREAD items per thread, timed with clock().
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, BlockReduceAlgorithm ALGORITHM, typename T, typename ReductionOp>
__launch_bounds__(BLOCK_THREADS)
__global__ void FullTileReduceKernel(T* d_in, T* d_out, ReductionOp reduction_op, int tiles, clock_t* d_elapsed) {
  using BlockReduceT = BlockReduce<T, BLOCK_THREADS, ALGORITHM>;
  __shared__ typename BlockReduceT::TempStorage temp_storage;
  T data[ITEMS_PER_THREAD];
  clock_t start = clock();
  T block_aggregate = T();
  for (int tile = 0; tile < tiles; ++tile) {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      data[i] = d_in[tile * BLOCK_THREADS * ITEMS_PER_THREAD + threadIdx.x * ITEMS_PER_THREAD + i];
    }
    T tile_aggregate = BlockReduceT(temp_storage).Reduce(data, reduction_op);
    block_aggregate = tile == 0 ? tile_aggregate : reduction_op(block_aggregate, tile_aggregate);
    __syncthreads();
  }
  clock_t stop = clock();
  if (threadIdx.x == 0) {
    *d_out = block_aggregate;
    *d_elapsed = (start > stop) ? start - stop : stop - start;
  }
}

/// Partial tile: only num_items threads contribute.
template <int BLOCK_THREADS, BlockReduceAlgorithm ALGORITHM, typename T, typename ReductionOp>
__global__ void PartialTileReduceKernel(T* d_in, T* d_out, int num_items, ReductionOp reduction_op) {
  using BlockReduceT = BlockReduce<T, BLOCK_THREADS, ALGORITHM>;
  __shared__ typename BlockReduceT::TempStorage temp_storage;
  T partial = threadIdx.x < num_items ? d_in[threadIdx.x] : T();
  T block_aggregate = BlockReduceT(temp_storage).Reduce(partial, reduction_op);
  if (threadIdx.x == 0) *d_out = block_aggregate;
}

template <int LOGICAL_WARP_THREADS, typename T>
__global__ void WarpReduceKernel(const T* d_in, T* d_out) {
  using WarpReduceT = WarpReduce<T, LOGICAL_WARP_THREADS>;
  __shared__ typename WarpReduceT::TempStorage temp_storage[32 / LOGICAL_WARP_THREADS];
  const int warp_id = threadIdx.x / LOGICAL_WARP_THREADS;
  T aggregate = WarpReduceT(temp_storage[warp_id]).Sum(d_in[threadIdx.x]);
  if (threadIdx.x % LOGICAL_WARP_THREADS == 0) d_out[warp_id] = aggregate;
}

template <int BLOCK_THREADS, typename T>
__global__ void BlockScanKernel(const T* d_in, T* d_out, T* d_aggregate) {
  using BlockScanT = BlockScan<T, BLOCK_THREADS>;
  __shared__ typename BlockScanT::TempStorage temp_storage;
  T out, aggregate;
  BlockScanT(temp_storage).InclusiveScan(d_in[threadIdx.x], out, Sum(), aggregate);
  d_out[threadIdx.x] = out;
  if (threadIdx.x == 0) *d_aggregate = aggregate;
}

template <int BLOCK_THREADS, typename T>
__global__ void BlockExclusiveSumKernel(const T* d_in, T* d_out) {
  using BlockScanT = BlockScan<T, BLOCK_THREADS>;
  __shared__ typename BlockScanT::TempStorage temp_storage;
  T out;
  BlockScanT(temp_storage).ExclusiveSum(d_in[threadIdx.x], out);
  d_out[threadIdx.x] = out;
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM, typename T>
__global__ void BlockLoadKernel(const T* d_in, T* d_out, int valid) {
  using BlockLoadT = BlockLoad<T, BLOCK_THREADS, ITEMS_PER_THREAD, ALGORITHM>;
  __shared__ typename BlockLoadT::TempStorage temp_storage;
  T items[ITEMS_PER_THREAD];
  BlockLoadT(temp_storage).Load(d_in, items, valid, T(-1));
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i) d_out[threadIdx.x * ITEMS_PER_THREAD + i] = items[i];
}

/* non-template helper used by every test */
__global__ void FillSequenceKernel(int* d, int n, int start) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = start + i;
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, BlockReduceAlgorithm ALGORITHM>
void TestFullTile(int tiles) {
  const int n = BLOCK_THREADS * ITEMS_PER_THREAD * tiles;
  int *d_in, *d_out;
  clock_t* d_elapsed;
  CubDebugExit(cudaMalloc(&d_in, sizeof(int) * n));
  CubDebugExit(cudaMalloc(&d_out, sizeof(int)));
  CubDebugExit(cudaMalloc(&d_elapsed, sizeof(clock_t)));
  FillSequenceKernel<<<(n + 255) / 256, 256>>>(d_in, n, 0);
  FullTileReduceKernel<BLOCK_THREADS, ITEMS_PER_THREAD, ALGORITHM><<<1, BLOCK_THREADS>>>(d_in, d_out, Sum(), tiles, d_elapsed);
  PartialTileReduceKernel<BLOCK_THREADS, ALGORITHM><<<1, BLOCK_THREADS>>>(d_in, d_out, BLOCK_THREADS / 2, Max());
  int h_out = 0;
  CubDebugExit(cudaMemcpy(&h_out, d_out, sizeof(int), cudaMemcpyDeviceToHost));
  printf("BlockReduce<%d, %d, %d>: %d\n", BLOCK_THREADS, ITEMS_PER_THREAD, int(ALGORITHM), h_out);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_elapsed);
}

int main(int argc, char** argv) {
  TestFullTile<128, 4, BLOCK_REDUCE_WARP_REDUCTIONS>(2);
  TestFullTile<256, 1, BLOCK_REDUCE_RAKING>(1);
  TestFullTile<64, 8, BLOCK_REDUCE_RAKING>(3);
  float *d_f, *d_g, *d_agg;
  cudaMalloc(&d_f, sizeof(float) * 1024);
  cudaMalloc(&d_g, sizeof(float) * 1024);
  cudaMalloc(&d_agg, sizeof(float));
  WarpReduceKernel<16, float><<<1, 32>>>(d_f, d_g);
  WarpReduceKernel<32, float><<<1, 32>>>(d_f, d_g);
  BlockScanKernel<128, float><<<1, 128>>>(d_f, d_g, d_agg);
  BlockExclusiveSumKernel<256, float><<<1, 256>>>(d_f, d_g);
  BlockLoadKernel<128, 4, BLOCK_LOAD_STRIPED, float><<<1, 128>>>(d_f, d_g, 500);
  size_t temp_bytes = 0;
  DeviceReduce::Sum(nullptr, temp_bytes, d_f, d_agg, 1024);
  void* d_temp = nullptr;
  cudaMalloc(&d_temp, temp_bytes);
  DeviceReduce::Sum(d_temp, temp_bytes, d_f, d_agg, 1024);
  DeviceScan::InclusiveSum(nullptr, temp_bytes, d_f, d_g, 1024);
  int* d_spine;
  cudaMalloc(&d_spine, sizeof(int) * 4096);
  DeviceRadixSort::SortPairs(d_spine, d_spine + 1024, d_f, d_g, d_spine + 2048, 512);
  cudaFree(d_f);
  cudaFree(d_g);
  cudaFree(d_agg);
  cudaFree(d_temp);
  cudaFree(d_spine);
  return 0;
}
