#include <stdio.h>
#include <cuda_runtime.h>

#define HIST_BINS 4096
#define PRESCAN_THREADS 512
#define UINT8_MAXV 255

/* pass 1: min and max of the input, one atomic pair per block */
__global__ void hist_minmax_scan(const unsigned int *input, int size, unsigned int *minmax)
{
  __shared__ unsigned int smin[PRESCAN_THREADS], smax[PRESCAN_THREADS];
  unsigned int lo = 0xffffffffu, hi = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += blockDim.x * gridDim.x) {
    unsigned int v = input[i];
    lo = min(lo, v);
    hi = max(hi, v);
  }
  smin[threadIdx.x] = lo;
  smax[threadIdx.x] = hi;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      smin[threadIdx.x] = min(smin[threadIdx.x], smin[threadIdx.x + s]);
      smax[threadIdx.x] = max(smax[threadIdx.x], smax[threadIdx.x + s]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicMin(&minmax[0], smin[0]);
    atomicMax(&minmax[1], smax[0]);
  }
}

/* pass 2: map each value to a bin index, packed two per word */
__global__ void hist_pack_bins(const unsigned int *input, int size, const unsigned int *minmax, unsigned short *bins)
{
  unsigned int lo = minmax[0];
  unsigned int range = max(minmax[1] - lo, 1u);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += blockDim.x * gridDim.x)
    bins[i] = (unsigned short)(((unsigned long long)(input[i] - lo) * (HIST_BINS - 1)) / range);
}

/* pass 3: per-block partial histograms in shared memory */
__global__ void hist_accumulate(const unsigned short *bins, int size, unsigned int *global_hist)
{
  __shared__ unsigned int s_hist[HIST_BINS];
  for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x)
    s_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += blockDim.x * gridDim.x)
    atomicAdd(&s_hist[bins[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x)
    if (s_hist[b])
      atomicAdd(&global_hist[b], s_hist[b]);
}

/* pass 4: saturate to eight bits */
__global__ void hist_saturate(const unsigned int *global_hist, unsigned char *final_hist)
{
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < HIST_BINS)
    final_hist[b] = (unsigned char)min(global_hist[b], (unsigned int)UINT8_MAXV);
}

void histogram(const unsigned int *d_in, int size, unsigned int *d_minmax, unsigned short *d_bins,
               unsigned int *d_hist, unsigned char *d_final)
{
  unsigned int init[2] = {0xffffffffu, 0u};
  cudaMemcpy(d_minmax, init, sizeof(init), cudaMemcpyHostToDevice);
  cudaMemset(d_hist, 0, HIST_BINS * sizeof(unsigned int));
  hist_minmax_scan<<<64, PRESCAN_THREADS>>>(d_in, size, d_minmax);
  hist_pack_bins<<<128, 256>>>(d_in, size, d_minmax, d_bins);
  hist_accumulate<<<128, 512>>>(d_bins, size, d_hist);
  hist_saturate<<<HIST_BINS / 256, 256>>>(d_hist, d_final);
}
