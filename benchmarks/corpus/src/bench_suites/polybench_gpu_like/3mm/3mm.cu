/**
 * 3mm.cu: port of the '3mm' polyhedral kernel to CUDA.
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
#define NL 512
#define NM 512

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
mm3_kernel1(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *E)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NJ)) {
		E[i * NJ + j] = 0;
		for (int k = 0; k < NK; k++)
			E[i * NJ + j] += A[i * NK + k] * B[k * NJ + j];
	}
}

__global__ void 
mm3_kernel2(DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *F)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NJ) && (j < NL)) {
		F[i * NL + j] = 0;
		for (int k = 0; k < NM; k++)
			F[i * NL + j] += C[i * NM + k] * D[k * NL + j];
	}
}

__global__ void 
mm3_kernel3(DATA_TYPE *E, DATA_TYPE *F, DATA_TYPE *G)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NL)) {
		G[i * NL + j] = 0;
		for (int k = 0; k < NJ; k++)
			G[i * NL + j] += E[i * NJ + k] * F[k * NL + j];
	}
}

void init_arrays(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *E, DATA_TYPE *F, DATA_TYPE *G)
{
	int i;
	for (i = 0; i < NI*NK; i++)
		A[i] = ((DATA_TYPE)(i % 97) + 9) / 64;
	for (i = 0; i < NK*NJ; i++)
		B[i] = ((DATA_TYPE)(i % 97) + 6) / 64;
	for (i = 0; i < NJ*NM; i++)
		C[i] = ((DATA_TYPE)(i % 97) + 3) / 64;
	for (i = 0; i < NM*NL; i++)
		D[i] = ((DATA_TYPE)(i % 97) + 7) / 128;
	for (i = 0; i < NI*NJ; i++)
		E[i] = ((DATA_TYPE)(i % 97) + 2) / 97;
	for (i = 0; i < NJ*NL; i++)
		F[i] = ((DATA_TYPE)(i % 97) + 7) / 64;
	for (i = 0; i < NI*NL; i++)
		G[i] = ((DATA_TYPE)(i % 97) + 1) / 97;
}

void cpu_reference(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *E, DATA_TYPE *F, DATA_TYPE *G)
{
	int i, j, k, t, r;
	(void)i;
	(void)j;
	(void)k;
	(void)t;
	(void)r;
	for (i = 0; i < NI; i++)
		for (j = 0; j < NL; j++) {
			G[i * NL + j] = 0;
			for (k = 0; k < NJ; k++)
				G[i * NL + j] += E[i * NJ + k] * F[k * NL + j];
		}
}

void compareResults(DATA_TYPE *G, DATA_TYPE *G_outputFromGpu, int n)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		if (percentDiff(G[i], G_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
}

void mm3Cuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *E, DATA_TYPE *F, DATA_TYPE *G, DATA_TYPE *G_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu;
	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI*NK);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI*NK, cudaMemcpyHostToDevice);
	DATA_TYPE *B_gpu;
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NK*NJ);
	cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NK*NJ, cudaMemcpyHostToDevice);
	DATA_TYPE *C_gpu;
	cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NJ*NM);
	cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * NJ*NM, cudaMemcpyHostToDevice);
	DATA_TYPE *D_gpu;
	cudaMalloc((void **)&D_gpu, sizeof(DATA_TYPE) * NM*NL);
	cudaMemcpy(D_gpu, D, sizeof(DATA_TYPE) * NM*NL, cudaMemcpyHostToDevice);
	DATA_TYPE *E_gpu;
	cudaMalloc((void **)&E_gpu, sizeof(DATA_TYPE) * NI*NJ);
	cudaMemcpy(E_gpu, E, sizeof(DATA_TYPE) * NI*NJ, cudaMemcpyHostToDevice);
	DATA_TYPE *F_gpu;
	cudaMalloc((void **)&F_gpu, sizeof(DATA_TYPE) * NJ*NL);
	cudaMemcpy(F_gpu, F, sizeof(DATA_TYPE) * NJ*NL, cudaMemcpyHostToDevice);
	DATA_TYPE *G_gpu;
	cudaMalloc((void **)&G_gpu, sizeof(DATA_TYPE) * NI*NL);
	cudaMemcpy(G_gpu, G, sizeof(DATA_TYPE) * NI*NL, cudaMemcpyHostToDevice);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	t_start = rtclock();
	mm3_kernel1<<<dim3((size_t)ceil(((float)NJ) / ((float)block.x)), (size_t)(ceil(((float)NI) / ((float)block.y)))), block>>>(A_gpu, B_gpu, E_gpu);
	cudaDeviceSynchronize();
	mm3_kernel2<<<dim3((size_t)ceil(((float)NL) / ((float)block.x)), (size_t)(ceil(((float)NJ) / ((float)block.y)))), block>>>(C_gpu, D_gpu, F_gpu);
	cudaDeviceSynchronize();
	mm3_kernel3<<<dim3((size_t)ceil(((float)NL) / ((float)block.x)), (size_t)(ceil(((float)NI) / ((float)block.y)))), block>>>(E_gpu, F_gpu, G_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
	cudaMemcpy(G_outputFromGpu, G_gpu, sizeof(DATA_TYPE) * NI*NL, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(B_gpu);
	cudaFree(C_gpu);
	cudaFree(D_gpu);
	cudaFree(E_gpu);
	cudaFree(F_gpu);
	cudaFree(G_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *A = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NI*NK);
	DATA_TYPE *B = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NK*NJ);
	DATA_TYPE *C = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NJ*NM);
	DATA_TYPE *D = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NM*NL);
	DATA_TYPE *E = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NI*NJ);
	DATA_TYPE *F = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NJ*NL);
	DATA_TYPE *G = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NI*NL);
	DATA_TYPE *G_outputFromGpu = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NI*NL);
	init_arrays(A, B, C, D, E, F, G);
	GPU_argv_init();
	mm3Cuda(A, B, C, D, E, F, G, G_outputFromGpu);
	t_start = rtclock();
	cpu_reference(A, B, C, D, E, F, G);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);
	compareResults(G, G_outputFromGpu, NI*NL);
	free(A);
	free(B);
	free(C);
	free(D);
	free(E);
	free(F);
	free(G);
	free(G_outputFromGpu);
	return 0;
}
