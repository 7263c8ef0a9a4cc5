#pragma once
#include "../block_primitives.cuh"

CUB_LITE_NAMESPACE_BEGIN

template <int NUM_ACTIVE_CHANNELS, typename CounterT, typename OffsetT>
CUB_LITE_KERNEL void DeviceHistogramInitKernel(int num_output_bins[NUM_ACTIVE_CHANNELS], CounterT* d_output_histograms[NUM_ACTIVE_CHANNELS]) {
  const int output_bin = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int channel = 0; channel < NUM_ACTIVE_CHANNELS; ++channel) {
    if (output_bin < num_output_bins[channel]) d_output_histograms[channel][output_bin] = 0;
  }
}

/// Even-width bins; privatised in shared memory, one histogram per channel.
template <int BLOCK_THREADS, int PRIVATIZED_SMEM_BINS, int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, typename SampleT,
          typename CounterT, typename OffsetT>
CUB_LITE_KERNEL void __launch_bounds__(BLOCK_THREADS)
    DeviceHistogramSweepKernel(const SampleT* d_samples, CounterT* d_histograms, const float* lower, const float* upper,
                               const int* num_bins, OffsetT num_pixels) {
  static_assert(NUM_ACTIVE_CHANNELS <= NUM_CHANNELS, "more active channels than channels");
  __shared__ CounterT smem_hist[NUM_ACTIVE_CHANNELS][PRIVATIZED_SMEM_BINS];
  for (int i = threadIdx.x; i < NUM_ACTIVE_CHANNELS * PRIVATIZED_SMEM_BINS; i += BLOCK_THREADS) (&smem_hist[0][0])[i] = 0;
  __syncthreads();
  for (OffsetT p = OffsetT(blockIdx.x) * BLOCK_THREADS + threadIdx.x; p < num_pixels; p += OffsetT(gridDim.x) * BLOCK_THREADS) {
#pragma unroll
    for (int c = 0; c < NUM_ACTIVE_CHANNELS; ++c) {
      const float s = float(d_samples[p * NUM_CHANNELS + c]);
      if (s >= lower[c] && s < upper[c]) {
        int bin = int((s - lower[c]) / (upper[c] - lower[c]) * num_bins[c]);
        bin = bin < PRIVATIZED_SMEM_BINS ? bin : PRIVATIZED_SMEM_BINS - 1;
        atomicAdd(&smem_hist[c][bin], CounterT(1));
      }
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < NUM_ACTIVE_CHANNELS * PRIVATIZED_SMEM_BINS; i += BLOCK_THREADS) {
    const int c = i / PRIVATIZED_SMEM_BINS, b = i % PRIVATIZED_SMEM_BINS;
    if (b < num_bins[c] && smem_hist[c][b]) atomicAdd(&d_histograms[c * PRIVATIZED_SMEM_BINS + b], smem_hist[c][b]);
  }
}

CUB_LITE_NAMESPACE_END
