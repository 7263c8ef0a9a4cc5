#include <cuda_runtime.h>

#define IDX3(_nx, _ny, _i, _j, _k) ((_i) + (_nx) * ((_j) + (_ny) * (_k)))

/* Each thread walks up the z axis keeping the previous, current and next plane
 * values in registers; the current plane is also staged in shared memory. */
__global__ void stencil7_zcoarse(float c0, float c1, const float *A0, float *Anext, const int nx, const int ny, const int nz)
{
  extern __shared__ float plane[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int sx = threadIdx.x + 1, sy = threadIdx.y + 1;
  const int sw = blockDim.x + 2;
  if (i >= nx || j >= ny)
    return;
  float bottom = A0[IDX3(nx, ny, i, j, 0)];
  float current = A0[IDX3(nx, ny, i, j, 1)];
  float top;
  for (int k = 1; k < nz - 1; k++) {
    top = A0[IDX3(nx, ny, i, j, k + 1)];
    plane[sy * sw + sx] = current;
    if (threadIdx.x == 0 && i > 0)
      plane[sy * sw] = A0[IDX3(nx, ny, i - 1, j, k)];
    if (threadIdx.x == blockDim.x - 1 && i < nx - 1)
      plane[sy * sw + sx + 1] = A0[IDX3(nx, ny, i + 1, j, k)];
    if (threadIdx.y == 0 && j > 0)
      plane[sx] = A0[IDX3(nx, ny, i, j - 1, k)];
    if (threadIdx.y == blockDim.y - 1 && j < ny - 1)
      plane[(sy + 1) * sw + sx] = A0[IDX3(nx, ny, i, j + 1, k)];
    __syncthreads();
    if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1) {
      Anext[IDX3(nx, ny, i, j, k)] = (top + bottom + plane[sy * sw + sx - 1] + plane[sy * sw + sx + 1] +
                                         plane[(sy - 1) * sw + sx] + plane[(sy + 1) * sw + sx]) * c1 - current * c0;
    }
    __syncthreads();
    bottom = current;
    current = top;
  }
}

void stencil_steps(float *d_a, float *d_b, int nx, int ny, int nz, int iterations)
{
  dim3 block(32, 4);
  dim3 grid((nx + 31) / 32, (ny + 3) / 4);
  size_t smem = (block.x + 2) * (block.y + 2) * sizeof(float);
  for (int t = 0; t < iterations; t++) {
    stencil7_zcoarse<<<grid, block, smem>>>(1.0f / 6.0f, 1.0f, d_a, d_b, nx, ny, nz);
    float *tmp = d_a;
    d_a = d_b;
    d_b = tmp;
  }
}
