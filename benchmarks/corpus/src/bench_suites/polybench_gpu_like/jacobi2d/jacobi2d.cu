/**
 * jacobi2d.cu: port of the 'jacobi2d' polyhedral kernel to CUDA.
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
#define N 1000
#define TSTEPS 20

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

__global__ void jacobi2d_kernel1(DATA_TYPE *A, DATA_TYPE *B)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i >= 1) && (i < (N - 1)) && (j >= 1) && (j < (N - 1)))
		B[i * N + j] = 0.2f * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (1 + j)] + A[(1 + i) * N + j] + A[(i - 1) * N + j]);
}

__global__ void jacobi2d_kernel2(DATA_TYPE *A, DATA_TYPE *B)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i >= 1) && (i < (N - 1)) && (j >= 1) && (j < (N - 1)))
		A[i * N + j] = B[i * N + j];
}

void init_arrays(DATA_TYPE *A, DATA_TYPE *B)
{
	int i;
	for (i = 0; i < N*N; i++)
		A[i] = ((DATA_TYPE)(i % 97) + 2) / 64;
	for (i = 0; i < N*N; i++)
		B[i] = ((DATA_TYPE)(i % 97) + 9) / 97;
}

void cpu_reference(DATA_TYPE *A, DATA_TYPE *B)
{
	int i, j, k, t, r;
	(void)i;
	(void)j;
	(void)k;
	(void)t;
	(void)r;
	for (t = 0; t < TSTEPS; t++) {
		for (i = 1; i < N - 1; i++)
			for (j = 1; j < N - 1; j++)
				B[i * N + j] = 0.2f * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (1 + j)] + A[(1 + i) * N + j] + A[(i - 1) * N + j]);
		for (i = 1; i < N - 1; i++)
			for (j = 1; j < N - 1; j++)
				A[i * N + j] = B[i * N + j];
	}
}

void compareResults(DATA_TYPE *A, DATA_TYPE *A_outputFromGpu, int n)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		if (percentDiff(A[i], A_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
}

void jacobi2dCuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *B_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu;
	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * N*N);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * N*N, cudaMemcpyHostToDevice);
	DATA_TYPE *B_gpu;
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * N*N);
	cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * N*N, cudaMemcpyHostToDevice);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	t_start = rtclock();
	jacobi2d_kernel1<<<dim3((size_t)ceil(((float)N) / ((float)block.x)), (size_t)(ceil(((float)N) / ((float)block.y)))), block>>>(A_gpu, B_gpu);
	cudaDeviceSynchronize();
	jacobi2d_kernel2<<<dim3((size_t)ceil(((float)N) / ((float)block.x)), (size_t)(ceil(((float)N) / ((float)block.y)))), block>>>(A_gpu, B_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
	cudaMemcpy(B_outputFromGpu, B_gpu, sizeof(DATA_TYPE) * N*N, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(B_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *A = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N*N);
	DATA_TYPE *B = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N*N);
	DATA_TYPE *B_outputFromGpu = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N*N);
	init_arrays(A, B);
	GPU_argv_init();
	jacobi2dCuda(A, B, B_outputFromGpu);
	t_start = rtclock();
	cpu_reference(A, B);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);
	compareResults(B, B_outputFromGpu, N*N);
	free(A);
	free(B);
	free(B_outputFromGpu);
	return 0;
}
