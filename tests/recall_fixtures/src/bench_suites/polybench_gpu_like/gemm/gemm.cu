/**
 * gemm.cu: port of the 'gemm' polyhedral kernel to CUDA.
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
#define NI 512
#define NJ 512
#define NK 512

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
gemm_kernel(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NJ)) {
		DATA_TYPE acc = C[i * NJ + j] * BETA;
		int k;
		for (k = 0; k < NK; k++)
			acc += ALPHA * A[i * NK + k] * B[k * NJ + j];
		C[i * NJ + j] = acc;
	}
}

void init_arrays(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
	int i;
	for (i = 0; i < NI*NK; i++)
		A[i] = ((DATA_TYPE)(i % 97) + 8) / 128;
	for (i = 0; i < NK*NJ; i++)
		B[i] = ((DATA_TYPE)(i % 97) + 3) / 128;
	for (i = 0; i < NI*NJ; i++)
		C[i] = ((DATA_TYPE)(i % 97) + 6) / 128;
}

void cpu_reference(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
	int i, j, k, t, r;
	(void)i;
	(void)j;
	(void)k;
	(void)t;
	(void)r;
	for (i = 0; i < NI; i++)
		for (j = 0; j < NJ; j++) {
			C[i * NJ + j] *= BETA;
			for (k = 0; k < NK; k++)
				C[i * NJ + j] += ALPHA * A[i * NK + k] * B[k * NJ + j];
		}
}

void compareResults(DATA_TYPE *C, DATA_TYPE *C_outputFromGpu, int n)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		if (percentDiff(C[i], C_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
}

void gemmCuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *C_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu;
	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI*NK);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI*NK, cudaMemcpyHostToDevice);
	DATA_TYPE *B_gpu;
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NK*NJ);
	cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NK*NJ, cudaMemcpyHostToDevice);
	DATA_TYPE *C_gpu;
	cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NI*NJ);
	cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * NI*NJ, cudaMemcpyHostToDevice);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	t_start = rtclock();
	gemm_kernel<<<dim3((size_t)ceil(((float)NJ) / ((float)block.x)), (size_t)(ceil(((float)NI) / ((float)block.y)))), block>>>(A_gpu, B_gpu, C_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
	cudaMemcpy(C_outputFromGpu, C_gpu, sizeof(DATA_TYPE) * NI*NJ, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(B_gpu);
	cudaFree(C_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *A = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NI*NK);
	DATA_TYPE *B = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NK*NJ);
	DATA_TYPE *C = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NI*NJ);
	DATA_TYPE *C_outputFromGpu = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NI*NJ);
	init_arrays(A, B, C);
	GPU_argv_init();
	gemmCuda(A, B, C, C_outputFromGpu);
	t_start = rtclock();
	cpu_reference(A, B, C);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);
	compareResults(C, C_outputFromGpu, NI*NJ);
	free(A);
	free(B);
	free(C);
	free(C_outputFromGpu);
	return 0;
}
