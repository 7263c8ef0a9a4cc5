/**
 * gramschmidt.cu: port of the 'gramschmidt' polyhedral kernel to CUDA.
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

__global__ void 
gramschmidt_kernel1(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i == 0) {
		DATA_TYPE nrm = 0.0;
		for (int ii = 0; ii < M; ii++)
			nrm += a[ii * N + k] * a[ii * N + k];
		r[k * N + k] = sqrtf(nrm);
	}
}

__global__ void 
gramschmidt_kernel2(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < M)
		q[i * N + k] = a[i * N + k] / r[k * N + k];
}

__global__ void 
gramschmidt_kernel3(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if ((j > k) && (j < N)) {
		r[k * N + j] = 0.0;
		for (int ii = 0; ii < M; ii++)
			r[k * N + j] += q[ii * N + k] * a[ii * N + j];
		for (int ii = 0; ii < M; ii++)
			a[ii * N + j] -= q[ii * N + k] * r[k * N + j];
	}
}

void init_arrays(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q)
{
	int i;
	for (i = 0; i < M*N; i++)
		a[i] = ((DATA_TYPE)(i % 97) + 9) / 128;
	for (i = 0; i < N*N; i++)
		r[i] = ((DATA_TYPE)(i % 97) + 9) / 64;
	for (i = 0; i < M*N; i++)
		q[i] = ((DATA_TYPE)(i % 97) + 8) / 97;
}

void cpu_reference(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q)
{
	int i, j, k, t;
	(void)i;
	(void)j;
	(void)k;
	(void)t;
	for (k = 0; k < N; k++) {
		DATA_TYPE nrm = 0;
		for (i = 0; i < M; i++)
			nrm += a[i * N + k] * a[i * N + k];
		r[k * N + k] = sqrtf(nrm);
		for (i = 0; i < M; i++)
			q[i * N + k] = a[i * N + k] / r[k * N + k];
	}
}

void compareResults(DATA_TYPE *q, DATA_TYPE *q_outputFromGpu, int n)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		if (percentDiff(q[i], q_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
}

void gramschmidtCuda(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, DATA_TYPE *q_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *a_gpu;
	cudaMalloc((void **)&a_gpu, sizeof(DATA_TYPE) * M*N);
	cudaMemcpy(a_gpu, a, sizeof(DATA_TYPE) * M*N, cudaMemcpyHostToDevice);
	DATA_TYPE *r_gpu;
	cudaMalloc((void **)&r_gpu, sizeof(DATA_TYPE) * N*N);
	cudaMemcpy(r_gpu, r, sizeof(DATA_TYPE) * N*N, cudaMemcpyHostToDevice);
	DATA_TYPE *q_gpu;
	cudaMalloc((void **)&q_gpu, sizeof(DATA_TYPE) * M*N);
	cudaMemcpy(q_gpu, q, sizeof(DATA_TYPE) * M*N, cudaMemcpyHostToDevice);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	t_start = rtclock();
	for (int k = 0; k < N; k++) {
		gramschmidt_kernel1<<<dim3((size_t)ceil(((float)N) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(a_gpu, r_gpu, q_gpu, k);
		cudaDeviceSynchronize();
	}
	for (int k = 0; k < N; k++) {
		gramschmidt_kernel2<<<dim3((size_t)ceil(((float)M) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(a_gpu, r_gpu, q_gpu, k);
		cudaDeviceSynchronize();
	}
	for (int k = 0; k < N; k++) {
		gramschmidt_kernel3<<<dim3((size_t)ceil(((float)N) / ((float)DIM_THREAD_BLOCK_X)), 1), dim3(DIM_THREAD_BLOCK_X, 1)>>>(a_gpu, r_gpu, q_gpu, k);
		cudaDeviceSynchronize();
	}
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
	cudaMemcpy(q_outputFromGpu, q_gpu, sizeof(DATA_TYPE) * M*N, cudaMemcpyDeviceToHost);
	cudaFree(a_gpu);
	cudaFree(r_gpu);
	cudaFree(q_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *a = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * M*N);
	DATA_TYPE *r = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * N*N);
	DATA_TYPE *q = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * M*N);
	DATA_TYPE *q_outputFromGpu = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * M*N);
	init_arrays(a, r, q);
	GPU_argv_init();
	gramschmidtCuda(a, r, q, q_outputFromGpu);
	t_start = rtclock();
	cpu_reference(a, r, q);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);
	compareResults(q, q_outputFromGpu, M*N);
	free(a);
	free(r);
	free(q);
	free(q_outputFromGpu);
	return 0;
}
