/**
 * atax.cu: port of the 'atax' polyhedral kernel to CUDA.
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
#define NX 4096
#define NY 4096

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

__global__ void atax_kernel1(DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *tmp)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < NX) {
		DATA_TYPE s = 0;
		for (int j = 0; j < NY; j++)
			s += A[i * NY + j] * x[j];
		tmp[i] = s;
	}
}

__global__ void atax_kernel2(DATA_TYPE *A, DATA_TYPE *y, DATA_TYPE *tmp)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if (j < NY) {
		DATA_TYPE s = 0;
		for (int i = 0; i < NX; i++)
			s += A[i * NY + j] * tmp[i];
		y[j] = s;
	}
}

void init_arrays(DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *tmp)
{
	int i;
	for (i = 0; i < NX*NY; i++)
		A[i] = ((DATA_TYPE)(i % 97) + 5) / 64;
	for (i = 0; i < NY; i++)
		x[i] = ((DATA_TYPE)(i % 97) + 1) / 64;
	for (i = 0; i < NY; i++)
		y[i] = ((DATA_TYPE)(i % 97) + 4) / 64;
	for (i = 0; i < NX; i++)
		tmp[i] = ((DATA_TYPE)(i % 97) + 5) / 128;
}

void cpu_reference(DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *tmp)
{
	int i, j, k, t, r;
	(void)i;
	(void)j;
	(void)k;
	(void)t;
	(void)r;
	for (i = 0; i < NX; i++) {
		tmp[i] = 0;
		for (j = 0; j < NY; j++)
			tmp[i] += A[i * NY + j] * x[j];
	}
	for (j = 0; j < NY; j++) {
		y[j] = 0;
		for (i = 0; i < NX; i++)
			y[j] += A[i * NY + j] * tmp[i];
	}
}

void compareResults(DATA_TYPE *y, DATA_TYPE *y_outputFromGpu, int n)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		if (percentDiff(y[i], y_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
}

void ataxCuda(DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *tmp, DATA_TYPE *tmp_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu;
	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NX*NY);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NX*NY, cudaMemcpyHostToDevice);
	DATA_TYPE *x_gpu;
	cudaMalloc((void **)&x_gpu, sizeof(DATA_TYPE) * NY);
	cudaMemcpy(x_gpu, x, sizeof(DATA_TYPE) * NY, cudaMemcpyHostToDevice);
	DATA_TYPE *y_gpu;
	cudaMalloc((void **)&y_gpu, sizeof(DATA_TYPE) * NY);
	cudaMemcpy(y_gpu, y, sizeof(DATA_TYPE) * NY, cudaMemcpyHostToDevice);
	DATA_TYPE *tmp_gpu;
	cudaMalloc((void **)&tmp_gpu, sizeof(DATA_TYPE) * NX);
	cudaMemcpy(tmp_gpu, tmp, sizeof(DATA_TYPE) * NX, cudaMemcpyHostToDevice);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	t_start = rtclock();
	atax_kernel1<<<dim3((size_t)ceil(((float)NX) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(A_gpu, x_gpu, tmp_gpu);
	cudaDeviceSynchronize();
	atax_kernel2<<<dim3((size_t)ceil(((float)NY) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(A_gpu, y_gpu, tmp_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
	cudaMemcpy(tmp_outputFromGpu, tmp_gpu, sizeof(DATA_TYPE) * NX, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(x_gpu);
	cudaFree(y_gpu);
	cudaFree(tmp_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *A = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NX*NY);
	DATA_TYPE *x = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NY);
	DATA_TYPE *y = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NY);
	DATA_TYPE *tmp = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NX);
	DATA_TYPE *tmp_outputFromGpu = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NX);
	init_arrays(A, x, y, tmp);
	GPU_argv_init();
	ataxCuda(A, x, y, tmp, tmp_outputFromGpu);
	t_start = rtclock();
	cpu_reference(A, x, y, tmp);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);
	compareResults(tmp, tmp_outputFromGpu, NX);
	free(A);
	free(x);
	free(y);
	free(tmp);
	free(tmp_outputFromGpu);
	return 0;
}
