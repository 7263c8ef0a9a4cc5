/**
 * fdtd2d.cu: port of the 'fdtd2d' polyhedral kernel to CUDA.
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
#define NX 2048
#define NY 2048
#define TMAX 500

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
fdtd_step1_kernel(DATA_TYPE *fict, DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, int t)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NX) && (j < NY)) {
		if (i == 0)
			ey[i * NY + j] = fict[t];
		else
			ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
	}
}

__global__ void 
fdtd_step2_kernel(DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, int t)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NX) && (j < NY) && (j > 0))
		ex[i * (NY + 1) + j] = ex[i * (NY + 1) + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]);
}

__global__ void 
fdtd_step3_kernel(DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, int t)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NX) && (j < NY))
		hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * (NY + 1) + (j + 1)] - ex[i * (NY + 1) + j] + ey[(i + 1) * NY + j] - ey[i * NY + j]);
}

void init_arrays(DATA_TYPE *fict, DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz)
{
	int i;
	for (i = 0; i < TMAX; i++)
		fict[i] = ((DATA_TYPE)(i % 97) + 5) / 97;
	for (i = 0; i < NX*(NY+1); i++)
		ex[i] = ((DATA_TYPE)(i % 97) + 1) / 128;
	for (i = 0; i < (NX+1)*NY; i++)
		ey[i] = ((DATA_TYPE)(i % 97) + 5) / 64;
	for (i = 0; i < NX*NY; i++)
		hz[i] = ((DATA_TYPE)(i % 97) + 9) / 128;
}

void cpu_reference(DATA_TYPE *fict, DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz)
{
	int i, j, k, t, r;
	(void)i;
	(void)j;
	(void)k;
	(void)t;
	(void)r;
	for (t = 0; t < TMAX; t++) {
		for (j = 0; j < NY; j++)
			ey[0 * NY + j] = fict[t];
		for (i = 1; i < NX; i++)
			for (j = 0; j < NY; j++)
				ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
	}
}

void compareResults(DATA_TYPE *hz, DATA_TYPE *hz_outputFromGpu, int n)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		if (percentDiff(hz[i], hz_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
}

void fdtd2dCuda(DATA_TYPE *fict, DATA_TYPE *ex, DATA_TYPE *ey, DATA_TYPE *hz, DATA_TYPE *hz_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *fict_gpu;
	cudaMalloc((void **)&fict_gpu, sizeof(DATA_TYPE) * TMAX);
	cudaMemcpy(fict_gpu, fict, sizeof(DATA_TYPE) * TMAX, cudaMemcpyHostToDevice);
	DATA_TYPE *ex_gpu;
	cudaMalloc((void **)&ex_gpu, sizeof(DATA_TYPE) * NX*(NY+1));
	cudaMemcpy(ex_gpu, ex, sizeof(DATA_TYPE) * NX*(NY+1), cudaMemcpyHostToDevice);
	DATA_TYPE *ey_gpu;
	cudaMalloc((void **)&ey_gpu, sizeof(DATA_TYPE) * (NX+1)*NY);
	cudaMemcpy(ey_gpu, ey, sizeof(DATA_TYPE) * (NX+1)*NY, cudaMemcpyHostToDevice);
	DATA_TYPE *hz_gpu;
	cudaMalloc((void **)&hz_gpu, sizeof(DATA_TYPE) * NX*NY);
	cudaMemcpy(hz_gpu, hz, sizeof(DATA_TYPE) * NX*NY, cudaMemcpyHostToDevice);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	t_start = rtclock();
	for (int t = 0; t < TMAX; t++) {
		fdtd_step1_kernel<<<dim3((size_t)ceil(((float)NY) / ((float)block.x)), (size_t)(ceil(((float)NX) / ((float)block.y)))), block>>>(fict_gpu, ex_gpu, ey_gpu, hz_gpu, t);
		cudaDeviceSynchronize();
	}
	for (int t = 0; t < TMAX; t++) {
		fdtd_step2_kernel<<<dim3((size_t)ceil(((float)NY) / ((float)block.x)), (size_t)(ceil(((float)NX) / ((float)block.y)))), block>>>(ex_gpu, ey_gpu, hz_gpu, t);
		cudaDeviceSynchronize();
	}
	for (int t = 0; t < TMAX; t++) {
		fdtd_step3_kernel<<<dim3((size_t)ceil(((float)NY) / ((float)block.x)), (size_t)(ceil(((float)NX) / ((float)block.y)))), block>>>(ex_gpu, ey_gpu, hz_gpu, t);
		cudaDeviceSynchronize();
	}
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);
	cudaMemcpy(hz_outputFromGpu, hz_gpu, sizeof(DATA_TYPE) * NX*NY, cudaMemcpyDeviceToHost);
	cudaFree(fict_gpu);
	cudaFree(ex_gpu);
	cudaFree(ey_gpu);
	cudaFree(hz_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *fict = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * TMAX);
	DATA_TYPE *ex = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NX*(NY+1));
	DATA_TYPE *ey = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * (NX+1)*NY);
	DATA_TYPE *hz = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NX*NY);
	DATA_TYPE *hz_outputFromGpu = (DATA_TYPE *)malloc(sizeof(DATA_TYPE) * NX*NY);
	init_arrays(fict, ex, ey, hz);
	GPU_argv_init();
	fdtd2dCuda(fict, ex, ey, hz, hz_outputFromGpu);
	t_start = rtclock();
	cpu_reference(fict, ex, ey, hz);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);
	compareResults(hz, hz_outputFromGpu, NX*NY);
	free(fict);
	free(ex);
	free(ey);
	free(hz);
	free(hz_outputFromGpu);
	return 0;
}
