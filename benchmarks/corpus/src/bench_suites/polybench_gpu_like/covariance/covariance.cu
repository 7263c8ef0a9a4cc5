/**
 * covariance.cu: port of the 'covariance' polyhedral kernel to CUDA.
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
#define M 1024
#define N 1024

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

__global__ void mean_kernel(DATA_TYPE *mean, DATA_TYPE *data)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if ((j >= 1) && (j < (M + 1))) {
		mean[j] = 0.0;
		for (int i = 1; i < (N + 1); i++)
			mean[j] += data[i * (M + 1) + j];
		mean[j] /= (DATA_TYPE)FLOAT_N;
	}
}

__global__ void reduce_kernel(DATA_TYPE *mean, DATA_TYPE *data)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i >= 1) && (i < (N + 1)) && (j >= 1) && (j < (M + 1)))
		data[i * (M + 1) + j] -= mean[j];
}

__global__ void covar_kernel(DATA_TYPE *symmat, DATA_TYPE *data)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if ((j >= 1) && (j < (M + 1))) {
		for (int j2 = j; j2 < (M + 1); j2++) {
			symmat[j * (M + 1) + j2] = 0.0;
			for (int i = 1; i < (N + 1); i++)
				symmat[j * (M + 1) + j2] += data[i * (M + 1) + j] * data[i * (M + 1) + j2];
			symmat[j2 * (M + 1) + j] = symmat[j * (M + 1) + j2];
		}
	}
}

void init_arrays(DATA_TYPE *data, DATA_TYPE *symmat, DATA_TYPE *mean)
{
	int i;
	for (i = 0; i < (M+1)*(N+1); i++)
		data[i] = ((DATA_TYPE)(i % 97) + 8) / 64;
	for (i = 0; i < (M+1)*(M+1); i++)
		symmat[i] = ((DATA_TYPE)(i % 97) + 2) / 128;
	for (i = 0; i < M+1; i++)
		mean[i] = ((DATA_TYPE)(i % 97) + 3) / 64;
}

void cpu_reference(DATA_TYPE *data, DATA_TYPE *symmat, DATA_TYPE *mean)
{
	int i, j, k, t, r;
	(void)i;
	(void)j;
	(void)k;
	(void)t;
	(void)r;
	for (j = 1; j <= M; j++) {
		mean[j] = 0.0;
		for (i = 1; i <= N; i++)
			mean[j] += data[i * (M + 1) + j];
		mean[j] /= FLOAT_N;
	}
}

void compareResults(DATA_TYPE *mean, DATA_TYPE *mean_outputFromGpu, int n)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		if (percentDiff(mean[i], mean_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
}

void covarianceCuda(DATA_TYPE *data, DATA_TYPE *symmat, DATA_TYPE *mean, DATA_TYPE *mean_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *data_gpu;
	cudaMalloc((void **)&data_gpu, sizeof(DATA_TYPE) * (M+1)*(N+1));
	cudaMemcpy(data_gpu, data, sizeof(DATA_TYPE) * (M+1)*(N+1), cudaMemcpyHostToDevice);
	DATA_TYPE *symmat_gpu;
	cudaMalloc((void **)&symmat_gpu, sizeof(DATA_TYPE) * (M+1)*(M+1));
	cudaMemcpy(symmat_gpu, symmat, sizeof(DATA_TYPE) * (M+1)*(M+1), cudaMemcpyHostToDevice);
	DATA_TYPE *mean_gpu;
	cudaMalloc((void **)&mean_gpu, sizeof(DATA_TYPE) * M+1);
	cudaMemcpy(mean_gpu, mean, sizeof(DATA_TYPE) * M+1, cudaMemcpyHostToDevice);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	t_start = rtclock();
	mean_kernel<<<dim3((size_t)ceil(((float)M) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(mean_gpu, data_gpu);
	cudaDeviceSynchronize();
	reduce_kernel<<<dim3((size_t)ceil(((float)M) / ((float)block.x)), (size_t)(ceil(((float)N) / ((float)block.y)))), block>>>(mean_gpu, data_gpu);
	cudaDeviceSynchronize();
	covar_kernel<<<dim3((size_t)ceil(((float)M) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(symmat_gpu, data_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
	cudaMemcpy(mean_outputFromGpu, mean_gpu, sizeof(DATA_TYPE) * M+1, cudaMemcpyDeviceToHost);
	cudaFree(data_gpu);
	cudaFree(symmat_gpu);
	cudaFree(mean_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *data = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * (M+1)*(N+1));
	DATA_TYPE *symmat = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * (M+1)*(M+1));
	DATA_TYPE *mean = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * M+1);
	DATA_TYPE *mean_outputFromGpu = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * M+1);
	init_arrays(data, symmat, mean);
	GPU_argv_init();
	covarianceCuda(data, symmat, mean, mean_outputFromGpu);
	t_start = rtclock();
	cpu_reference(data, symmat, mean);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);
	compareResults(mean, mean_outputFromGpu, M+1);
	free(data);
	free(symmat);
	free(mean);
	free(mean_outputFromGpu);
	return 0;
}
