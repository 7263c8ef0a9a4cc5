/**
 * 2dconv.cu: port of the '2dconv' polyhedral kernel to CUDA.
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
#define NI 4096
#define NJ 4096

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
convolution2D_kernel(DATA_TYPE *A, DATA_TYPE *B)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	DATA_TYPE c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
	DATA_TYPE c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
	DATA_TYPE c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
	if ((i < NI - 1) && (j < NJ - 1) && (i > 0) && (j > 0)) {
		B[i * NJ + j] = c11 * A[(i - 1) * NJ + (j - 1)] + c21 * A[(i - 1) * NJ + (j + 0)] + c31 * A[(i - 1) * NJ + (j + 1)]
			+ c12 * A[(i + 0) * NJ + (j - 1)] + c22 * A[(i + 0) * NJ + (j + 0)] + c32 * A[(i + 0) * NJ + (j + 1)]
			+ c13 * A[(i + 1) * NJ + (j - 1)] + c23 * A[(i + 1) * NJ + (j + 0)] + c33 * A[(i + 1) * NJ + (j + 1)];
	}
}

void init_arrays(DATA_TYPE *A, DATA_TYPE *B)
{
	int i;
	for (i = 0; i < NI*NJ; i++)
		A[i] = ((DATA_TYPE)(i % 97) + 2) / 128;
	for (i = 0; i < NI*NJ; i++)
		B[i] = ((DATA_TYPE)(i % 97) + 4) / 64;
}

void cpu_reference(DATA_TYPE *A, DATA_TYPE *B)
{
	int i, j, k, t, r;
	(void)i;
	(void)j;
	(void)k;
	(void)t;
	(void)r;
	for (i = 1; i < NI - 1; ++i)
		for (j = 1; j < NJ - 1; ++j)
			B[i * NJ + j] = 0.6f * A[i * NJ + j] - 0.3f * A[i * NJ + j - 1] + 0.7f * A[(i + 1) * NJ + j];
}

void compareResults(DATA_TYPE *B, DATA_TYPE *B_outputFromGpu, int n)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		if (percentDiff(B[i], B_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
}

void convolution2DCuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *B_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu;
	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI*NJ);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI*NJ, cudaMemcpyHostToDevice);
	DATA_TYPE *B_gpu;
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NI*NJ);
	cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NI*NJ, cudaMemcpyHostToDevice);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	t_start = rtclock();
	convolution2D_kernel<<<dim3((size_t)ceil(((float)NJ) / ((float)block.x)), (size_t)(ceil(((float)NI) / ((float)block.y)))), block>>>(A_gpu, B_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
	cudaMemcpy(B_outputFromGpu, B_gpu, sizeof(DATA_TYPE) * NI*NJ, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(B_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *A = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NI*NJ);
	DATA_TYPE *B = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NI*NJ);
	DATA_TYPE *B_outputFromGpu = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NI*NJ);
	init_arrays(A, B);
	GPU_argv_init();
	convolution2DCuda(A, B, B_outputFromGpu);
	t_start = rtclock();
	cpu_reference(A, B);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);
	compareResults(B, B_outputFromGpu, NI*NJ);
	free(A);
	free(B);
	free(B_outputFromGpu);
	return 0;
}
