#include <cuda_runtime.h>

#define NUM_BINS 20
#define BLOCK_SIZE 256
#define NUM_WARPS (BLOCK_SIZE / 32)

__constant__ float c_bin_edges[NUM_BINS + 1];

struct cartesian {
  float x, y, z;
};

/* histogram of pairwise dot products between points of two sets */
__global__ void
angular_histogram(unsigned long long *hist_out, const cartesian *data1, const cartesian *data2, int n1, int n2, int self)
{
  __shared__ unsigned int warp_hists[NUM_WARPS][NUM_BINS];
  const int warp = threadIdx.x >> 5;
  for (int b = threadIdx.x; b < NUM_WARPS * NUM_BINS; b += blockDim.x)
    (&warp_hists[0][0])[b] = 0;
  __syncthreads();
  const int i = blockIdx.x;
  if (i < n1) {
    const cartesian p = data1[i];
    for (int j = (self ? i + 1 : 0) + threadIdx.x; j < n2; j += blockDim.x) {
      const cartesian q = data2[j];
      const float dot = p.x * q.x + p.y * q.y + p.z * q.z;
      int lo = 0, hi = NUM_BINS;
      while (hi > lo + 1) {
        const int mid = (lo + hi) / 2;
        if (dot >= c_bin_edges[mid])
          hi = mid;
        else
          lo = mid;
      }
      atomicAdd(&warp_hists[warp][lo], 1u);
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
    unsigned long long s = 0;
    for (int w = 0; w < NUM_WARPS; w++)
      s += warp_hists[w][b];
    atomicAdd(&hist_out[b], s);
  }
}
