/* C = alpha * A * B^T + beta * C with column-major A (m x k), B (n x k), C (m x n). */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define GPU_CHECK(what)                                                          \
  do {                                                                           \
    cudaError_t e_ = cudaGetLastError();                                         \
    if (e_ != cudaSuccess) {                                                     \
      fprintf(stderr, "%s failed at %s:%d: %s\n", what, __FILE__, __LINE__,      \
              cudaGetErrorString(e_));                                           \
      exit(2);                                                                   \
    }                                                                            \
  } while (0)

#define BM 64   /* rows of C per block */
#define BN 64   /* columns of C per block */
#define BK 8    /* depth of one shared-memory stage */
#define RM 4    /* rows per thread */
#define RN 4    /* columns per thread */

#ifndef SGEMM_NAIVE
/* 16x16 threads, each owning a 4x4 patch of the 64x64 output tile */
__global__ void __launch_bounds__(256)
sgemm_nt_micro(const float *A, int lda, const float *B, int ldb, float *C, int ldc, int k, float alpha, float beta)
{
  __shared__ float As[BK][BM];
  __shared__ float Bs[BK][BN];
  const int tr = threadIdx.y, tc = threadIdx.x;
  const int tid = tr * 16 + tc;
  const int row0 = blockIdx.x * BM, col0 = blockIdx.y * BN;
  float acc[RM][RN] = {};
  for (int kk = 0; kk < k; kk += BK) {
    for (int e = tid; e < BK * BM; e += 256) {
      const int d = e / BM, r = e % BM;
      As[d][r] = A[(row0 + r) + (size_t)(kk + d) * lda];
      Bs[d][r] = B[(col0 + r) + (size_t)(kk + d) * ldb];
    }
    __syncthreads();
#pragma unroll
    for (int d = 0; d < BK; ++d) {
      float a[RM], b[RN];
#pragma unroll
      for (int i = 0; i < RM; ++i) a[i] = As[d][tr * RM + i];
#pragma unroll
      for (int j = 0; j < RN; ++j) b[j] = Bs[d][tc * RN + j];
#pragma unroll
      for (int i = 0; i < RM; ++i)
#pragma unroll
        for (int j = 0; j < RN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < RM; ++i)
#pragma unroll
    for (int j = 0; j < RN; ++j) {
      float *c = &C[(row0 + tr * RM + i) + (size_t)(col0 + tc * RN + j) * ldc];
      *c = alpha * acc[i][j] + beta * *c;
    }
}
#else
__global__ void sgemm_nt_simple(const float *A, int lda, const float *B, int ldb, float *C, int ldc,
                                int k, float alpha, float beta)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  const int c = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0.0f;
  for (int d = 0; d < k; ++d)
    s += A[r + d * lda] * B[c + d * ldb];
  C[r + c * ldc] = alpha * s + beta * C[r + c * ldc];
}
#endif

void gpu_sgemm_nt(int m, int n, int k, float alpha, const float *A, int lda, const float *B, int ldb, float beta,
                  float *C, int ldc)
{
#ifndef SGEMM_NAIVE
  if (m % BM || n % BN || k % BK) {
    fprintf(stderr, "sizes must be multiples of %d, %d and %d\n", BM, BN, BK);
    return;
  }
  sgemm_nt_micro<<<dim3(m / BM, n / BN), dim3(16, 16)>>>(A, lda, B, ldb, C, ldc, k, alpha, beta);
#else
  sgemm_nt_simple<<<dim3(m / 16, n / 16), dim3(16, 16)>>>(A, lda, B, ldb, C, ldc, k, alpha, beta);
#endif
  GPU_CHECK("sgemm");
}
