/**
 * adi.cu: port of the 'adi' polyhedral kernel to CUDA.
 *
 * Written for a GPU benchmark collection; see the top-level README for licensing.
 */

#include <unistd.h>
#include <stdio.h>
#include <time.h>
#include <sys/time.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <cuda.h>

#include "../common/poly_lite.cuh"

/* results that differ by more than this percentage count as errors */
#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

#define GPU_DEVICE 0

/* problem size */
#define N 1024
#define TSTEPS 1

/* thread block dimensions */
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

#ifndef USE_DOUBLE
typedef float DATA_TYPE;
#else
typedef double DATA_TYPE;
#endif

#define ALPHA 32412.0f
#define BETA 2123.0f
#define FLOAT_N 3214212.01f
#define EPS 0.005f

__global__ void 
adi_kernel1(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i1 = blockIdx.x * blockDim.x + threadIdx.x;

	if ((i1 < N)) {
		for (int i2 = 1; i2 < N; i2++) {
			X[i1 * N + i2] = X[i1 * N + i2] - X[i1 * N + (i2 - 1)] * A[i1 * N + i2] / B[i1 * N + (i2 - 1)];
			B[i1 * N + i2] = B[i1 * N + i2] - A[i1 * N + i2] * A[i1 * N + i2] / B[i1 * N + (i2 - 1)];
		}
	}
}

__global__ void 
adi_kernel2(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i1 = blockIdx.x * blockDim.x + threadIdx.x;

	if ((i1 < N))
		X[i1 * N + (N - 1)] = X[i1 * N + (N - 1)] / B[i1 * N + (N - 1)];
}

__global__ void 
adi_kernel3(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i1 = blockIdx.x * blockDim.x + threadIdx.x;

	if (i1 < N) {
		for (int i2 = 0; i2 < N - 2; i2++)
			X[i1 * N + (N - i2 - 2)] = (X[i1 * N + (N - 2 - i2)] - X[i1 * N + (N - 2 - i2 - 1)] * A[i1 * N + (N - i2 - 3)]) / B[i1 * N + (N - 3 - i2)];
	}
}

__global__ void 
adi_kernel4(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X, int i1)
{
	int i2 = blockIdx.x * blockDim.x + threadIdx.x;

	if (i2 < N) {
		X[i1 * N + i2] = X[i1 * N + i2] - X[(i1 - 1) * N + i2] * A[i1 * N + i2] / B[(i1 - 1) * N + i2];
		B[i1 * N + i2] = B[i1 * N + i2] - A[i1 * N + i2] * A[i1 * N + i2] / B[(i1 - 1) * N + i2];
	}
}

__global__ void 
adi_kernel5(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i2 = blockIdx.x * blockDim.x + threadIdx.x;

	if (i2 < N)
		X[(N - 1) * N + i2] = X[(N - 1) * N + i2] / B[(N - 1) * N + i2];
}

__global__ void 
adi_kernel6(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X, int i1)
{
	int i2 = blockIdx.x * blockDim.x + threadIdx.x;

	if (i2 < N)
		X[(N - 2 - i1) * N + i2] = (X[(N - 2 - i1) * N + i2] - X[(N - i1 - 3) * N + i2] * A[(N - 3 - i1) * N + i2]) / B[(N - 2 - i1) * N + i2];
}

void init_arrays(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i;
	for (i = 0; i < N*N; i++)
		A[i] = ((DATA_TYPE)(i % 97) + 6) / 64;
	for (i = 0; i < N*N; i++)
		B[i] = ((DATA_TYPE)(i % 97) + 9) / 128;
	for (i = 0; i < N*N; i++)
		X[i] = ((DATA_TYPE)(i % 97) + 3) / 64;
}

void cpu_reference(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i, j, k, t, r;
	(void)i;
	(void)j;
	(void)k;
	(void)t;
	(void)r;
	for (t = 0; t < TSTEPS; t++)
		for (i = 0; i < N; i++)
			for (j = 1; j < N; j++)
				X[i * N + j] = X[i * N + j] - X[i * N + (j - 1)] * A[i * N + j] / B[i * N + (j - 1)];
}

void compareResults(DATA_TYPE *X, DATA_TYPE *X_outputFromGpu, int n)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		if (percentDiff(X[i], X_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
}

void adiCuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X, DATA_TYPE *X_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu;
	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * N*N);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * N*N, cudaMemcpyHostToDevice);
	DATA_TYPE *B_gpu;
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * N*N);
	cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * N*N, cudaMemcpyHostToDevice);
	DATA_TYPE *X_gpu;
	cudaMalloc((void **)&X_gpu, sizeof(DATA_TYPE) * N*N);
	cudaMemcpy(X_gpu, X, sizeof(DATA_TYPE) * N*N, cudaMemcpyHostToDevice);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	t_start = rtclock();
	adi_kernel1<<<dim3((size_t)ceil(((float)N) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(A_gpu, B_gpu, X_gpu);
	cudaDeviceSynchronize();
	adi_kernel2<<<dim3((size_t)ceil(((float)N) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(A_gpu, B_gpu, X_gpu);
	cudaDeviceSynchronize();
	adi_kernel3<<<dim3((size_t)ceil(((float)N) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(A_gpu, B_gpu, X_gpu);
	cudaDeviceSynchronize();
	for (int i1 = 0; i1 < N; i1++) {
		adi_kernel4<<<dim3((size_t)ceil(((float)N) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(A_gpu, B_gpu, X_gpu, i1);
		cudaDeviceSynchronize();
	}
	adi_kernel5<<<dim3((size_t)ceil(((float)N) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(A_gpu, B_gpu, X_gpu);
	cudaDeviceSynchronize();
	for (int i1 = 0; i1 < N; i1++) {
		adi_kernel6<<<dim3((size_t)ceil(((float)N) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(A_gpu, B_gpu, X_gpu, i1);
		cudaDeviceSynchronize();
	}
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
	cudaMemcpy(X_outputFromGpu, X_gpu, sizeof(DATA_TYPE) * N*N, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(B_gpu);
	cudaFree(X_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *A = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N*N);
	DATA_TYPE *B = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N*N);
	DATA_TYPE *X = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N*N);
	DATA_TYPE *X_outputFromGpu = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N*N);
	init_arrays(A, B, X);
	GPU_argv_init();
	adiCuda(A, B, X, X_outputFromGpu);
	t_start = rtclock();
	cpu_reference(A, B, X);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);
	compareResults(X, X_outputFromGpu, N*N);
	free(A);
	free(B);
	free(X);
	free(X_outputFromGpu);
	return 0;
}
