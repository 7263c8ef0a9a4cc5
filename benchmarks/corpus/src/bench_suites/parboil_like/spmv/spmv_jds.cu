#include <stdio.h>
#include <cuda_runtime.h>

#define WARP_BITS 5
#define BLOCK_THREADS 192

__constant__ int c_diag_start[5000];
__constant__ int c_warp_depth[5000];

/* rows sorted by length; column j of every row is stored contiguously */
__global__ void spmv_jds_kernel(float *dst_vector, const float *d_data, const int *d_index, const int *d_perm,
                                const float *x_vec, const int dim)
{
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int warp_id = ix >> WARP_BITS;
  if (ix < dim) {
    float sum = 0.0f;
    int bound = c_warp_depth[warp_id];
    for (int k = 0; k < bound; k++) {
      int j = c_diag_start[k] + ix;
      int in = d_index[j];
      float d = __ldg(&d_data[j]);
      float t = __ldg(&x_vec[in]);
      sum += d * t;
    }
    dst_vector[d_perm[ix]] = sum;
  }
}

__global__ void spmv_jds_unrolled(float *dst_vector, const float *d_data, const int *d_index, const int *d_perm,
                                  const float *x_vec, const int dim)
{
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  if (ix >= dim)
    return;
  int bound = c_warp_depth[ix >> WARP_BITS];
  float s0 = 0.0f, s1 = 0.0f;
  int k = 0;
  for (; k + 1 < bound; k += 2) {
    int j0 = c_diag_start[k] + ix;
    int j1 = c_diag_start[k + 1] + ix;
    s0 += d_data[j0] * x_vec[d_index[j0]];
    s1 += d_data[j1] * x_vec[d_index[j1]];
  }
  if (k < bound) {
    int j = c_diag_start[k] + ix;
    s0 += d_data[j] * x_vec[d_index[j]];
  }
  dst_vector[d_perm[ix]] = s0 + s1;
}

void spmv_jds(float *d_out, const float *d_data, const int *d_index, const int *d_perm, const float *d_x, int dim,
              const int *h_ptr, const int *h_zcnt, int depth, int nwarps, bool unrolled)
{
  cudaMemcpyToSymbol(c_diag_start, h_ptr, depth * sizeof(int));
  cudaMemcpyToSymbol(c_warp_depth, h_zcnt, nwarps * sizeof(int));
  dim3 grid((dim + BLOCK_THREADS - 1) / BLOCK_THREADS), block(BLOCK_THREADS);
  if (unrolled)
    spmv_jds_unrolled<<<grid, block>>>(d_out, d_data, d_index, d_perm, d_x, dim);
  else
    spmv_jds_kernel<<<grid, block>>>(d_out, d_data, d_index, d_perm, d_x, dim);
}
