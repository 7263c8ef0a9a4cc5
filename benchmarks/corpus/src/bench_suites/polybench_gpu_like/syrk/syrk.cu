/**
 * syrk.cu: port of the 'syrk' polyhedral kernel to CUDA.
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
#define M 1024

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
syrk_kernel(DATA_TYPE *a, DATA_TYPE *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < N) && (j < N)) {
		c[i * N + j] *= BETA;
		for (int k = 0; k < M; k++)
			c[i * N + j] += ALPHA * a[i * M + k] * a[j * M + k];
	}
}

void init_arrays(DATA_TYPE *a, DATA_TYPE *c)
{
	int i;
	for (i = 0; i < N*M; i++)
		a[i] = ((DATA_TYPE)(i % 97) + 5) / 128;
	for (i = 0; i < N*N; i++)
		c[i] = ((DATA_TYPE)(i % 97) + 2) / 64;
}

void cpu_reference(DATA_TYPE *a, DATA_TYPE *c)
{
	int i, j, k, t, r;
	(void)i;
	(void)j;
	(void)k;
	(void)t;
	(void)r;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			c[i * N + j] *= BETA;
			for (k = 0; k < M; k++)
				c[i * N + j] += ALPHA * a[i * M + k] * a[j * M + k];
		}
}

void compareResults(DATA_TYPE *c, DATA_TYPE *c_outputFromGpu, int n)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		if (percentDiff(c[i], c_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
}

void syrkCuda(DATA_TYPE *a, DATA_TYPE *c, DATA_TYPE *c_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *a_gpu;
	cudaMalloc((void **)&a_gpu, sizeof(DATA_TYPE) * N*M);
	cudaMemcpy(a_gpu, a, sizeof(DATA_TYPE) * N*M, cudaMemcpyHostToDevice);
	DATA_TYPE *c_gpu;
	cudaMalloc((void **)&c_gpu, sizeof(DATA_TYPE) * N*N);
	cudaMemcpy(c_gpu, c, sizeof(DATA_TYPE) * N*N, cudaMemcpyHostToDevice);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	t_start = rtclock();
	syrk_kernel<<<dim3((size_t)ceil(((float)N) / ((float)block.x)), (size_t)(ceil(((float)N) / ((float)block.y)))), block>>>(a_gpu, c_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
	cudaMemcpy(c_outputFromGpu, c_gpu, sizeof(DATA_TYPE) * N*N, cudaMemcpyDeviceToHost);
	cudaFree(a_gpu);
	cudaFree(c_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *a = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N*M);
	DATA_TYPE *c = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N*N);
	DATA_TYPE *c_outputFromGpu = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N*N);
	init_arrays(a, c);
	GPU_argv_init();
	syrkCuda(a, c, c_outputFromGpu);
	t_start = rtclock();
	cpu_reference(a, c);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);
	compareResults(c, c_outputFromGpu, N*N);
	free(a);
	free(c);
	free(c_outputFromGpu);
	return 0;
}
