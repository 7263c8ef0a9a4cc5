#include <cuda_runtime.h>
#include <math.h>

#define PI 3.1415926535897932384626433832795029f
#define PIx2 6.2831853071795864769252867665590058f

#define KERNEL_PHI_MAG_THREADS_PER_BLOCK 512
#define KERNEL_Q_THREADS_PER_BLOCK 256
#define KERNEL_Q_K_ELEMS_PER_GRID 1024

struct kspace_pt {
  float kx, ky, kz;
  float mag;
};

__constant__ __device__ kspace_pt c_k[KERNEL_Q_K_ELEMS_PER_GRID];

__global__ void
compute_phi_mag(const float *phiR, const float *phiI, float *phiMag, int numK)
{
  int indexK = blockIdx.x * KERNEL_PHI_MAG_THREADS_PER_BLOCK + threadIdx.x;
  if (indexK < numK) {
    float real = phiR[indexK];
    float imag = phiI[indexK];
    phiMag[indexK] = fmaf(real, real, imag * imag);
  }
}

__global__ void
compute_q(int numK, int kbase, const float *x, const float *y, const float *z, float *Qr, float *Qi)
{
  const int p = blockIdx.x * KERNEL_Q_THREADS_PER_BLOCK + threadIdx.x;
  const float px = x[p], py = y[p], pz = z[p];
  float re = 0.0f, im = 0.0f;
  const int count = min(KERNEL_Q_K_ELEMS_PER_GRID, numK - kbase);
#pragma unroll 4
  for (int j = 0; j < count; ++j) {
    float s, c;
    __sincosf(PIx2 * (c_k[j].kx * px + c_k[j].ky * py + c_k[j].kz * pz), &s, &c);
    re += c_k[j].mag * c;
    im += c_k[j].mag * s;
  }
  Qr[p] += re;
  Qi[p] += im;
}

void compute_q_gpu(int numK, int numX, const float *x_d, const float *y_d, const float *z_d, const kspace_pt *samples,
                   float *Qr_d, float *Qi_d)
{
  const int blocks = numX / KERNEL_Q_THREADS_PER_BLOCK;
  cudaMemset(Qr_d, 0, numX * sizeof(float));
  cudaMemset(Qi_d, 0, numX * sizeof(float));
  for (int base = 0; base < numK; base += KERNEL_Q_K_ELEMS_PER_GRID) {
    const int chunk = numK - base < KERNEL_Q_K_ELEMS_PER_GRID ? numK - base : KERNEL_Q_K_ELEMS_PER_GRID;
    cudaMemcpyToSymbol(c_k, samples + base, chunk * sizeof(kspace_pt));
    compute_q<<<blocks, KERNEL_Q_THREADS_PER_BLOCK>>>(numK, base, x_d, y_d, z_d, Qr_d, Qi_d);
  }
}
