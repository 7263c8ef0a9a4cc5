#include <stdio.h>
#include <cuda_runtime.h>

#define ATOMS_PER_BIN 8
#define BIN_LENGTH 4.0f
#define BIN_INVLEN (1.0f / BIN_LENGTH)
#define NBRLIST_MAXLEN 5000
#define POINTS_X 8
#define BLOCK_DIM_X 8
#define BLOCK_DIM_Y 2
#define BLOCK_DIM_Z 8

__constant__ int c_nbr_count;
__constant__ int3 c_nbr_offset[NBRLIST_MAXLEN];

/* electrostatic potential on a lattice, cut off at cutoff2; atoms are binned,
 * each thread computes POINTS_X lattice points along x */
__global__ void lattice_potential(int binDim_x, int binDim_y, const float4 *bins, float h, float cutoff2,
                                  float inv_cutoff2, float *region_base, int rz)
{
  __shared__ float atom_cache[BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z * 4];
  const int rx = blockIdx.x;
  const int ry = blockIdx.y;
  const int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  float *out_region = region_base + ((rz * gridDim.y + ry) * gridDim.x + rx) * 512;
  const float x0 = (POINTS_X * BLOCK_DIM_X * rx + threadIdx.x) * h;
  const float y0 = (BLOCK_DIM_Y * ry + threadIdx.y) * h;
  const float z0 = (BLOCK_DIM_Z * rz + threadIdx.z) * h;
  const int3 home_bin = make_int3((int)(x0 * BIN_INVLEN), (int)(y0 * BIN_INVLEN), (int)(z0 * BIN_INVLEN));
  float energy[POINTS_X];
#pragma unroll
  for (int u = 0; u < POINTS_X; u++)
    energy[u] = 0.0f;
  for (int nbrid = 0; nbrid < c_nbr_count; nbrid++) {
    const int ix = home_bin.x + c_nbr_offset[nbrid].x;
    const int iy = home_bin.y + c_nbr_offset[nbrid].y;
    const int iz = home_bin.z + c_nbr_offset[nbrid].z;
    __syncthreads();
    if (tid < ATOMS_PER_BIN) {
      const float4 a = bins[((iz * binDim_y + iy) * binDim_x + ix) * ATOMS_PER_BIN + tid];
      atom_cache[4 * tid + 0] = a.x;
      atom_cache[4 * tid + 1] = a.y;
      atom_cache[4 * tid + 2] = a.z;
      atom_cache[4 * tid + 3] = a.w;
    }
    __syncthreads();
    for (int j = 0; j < ATOMS_PER_BIN; j++) {
      const float aq = atom_cache[4 * j + 3];
      if (aq == 0.0f)
        break;
      const float dy = y0 - atom_cache[4 * j + 1];
      const float dz = z0 - atom_cache[4 * j + 2];
      const float dyz2 = dy * dy + dz * dz;
      if (dyz2 >= cutoff2)
        continue;
      float dx = x0 - atom_cache[4 * j];
#pragma unroll
      for (int u = 0; u < POINTS_X; u++) {
        const float r2 = dx * dx + dyz2;
        const float s = (1.0f - r2 * inv_cutoff2);
        energy[u] += (r2 < cutoff2) ? aq * rsqrtf(r2) * s * s : 0.0f;
        dx += BLOCK_DIM_X * h;
      }
    }
  }
#pragma unroll
  for (int u = 0; u < POINTS_X; u++)
    out_region[tid + u * BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z] = energy[u];
}
