/***********************************************************************
 * Part of a GPU benchmark collection.  2017-2024.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define BLOCK_SIZE 256
#define HALO 1
#define MIN(a, b) ((a) <= (b) ? (a) : (b))
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

/* prev holds the best cost to reach each column of the previous row */
__global__ void dp_row_step(const int *wall, const int *prev, int *next, int cols, int row)
{
	__shared__ int s_prev[BLOCK_SIZE + 2 * HALO];
	int x = blockIdx.x * BLOCK_SIZE + threadIdx.x;
	int tx = threadIdx.x + HALO;
	int l, c, r;

	s_prev[tx] = x < cols ? prev[x] : 0x3fffffff;
	if (threadIdx.x == 0)
		s_prev[0] = x > 0 ? prev[x - 1] : 0x3fffffff;
	if (threadIdx.x == BLOCK_SIZE - 1)
		s_prev[BLOCK_SIZE + HALO] = x + 1 < cols ? prev[x + 1] : 0x3fffffff;
	__syncthreads();
	if (x >= cols)
		return;
	l = s_prev[tx - 1];
	c = s_prev[tx];
	r = s_prev[tx + 1];
	next[x] = wall[row * cols + x] + MIN(MIN(l, c), r);
}

int main(int argc, char **argv)
{
	int rows = 100, cols = 100000, r, i;
	int *wall, *d_wall, *d_a, *d_b, *tmp, *result;

	if (argc == 3) {
		cols = atoi(argv[1]);
		rows = atoi(argv[2]);
	}
	wall = (int *)malloc(sizeof(int) * rows * cols);
	result = (int *)malloc(sizeof(int) * cols);
	srand(9);
	for (i = 0; i < rows * cols; i++)
		wall[i] = rand() % 10;
	cudaMalloc((void **)&d_wall, sizeof(int) * rows * cols);
	cudaMalloc((void **)&d_a, sizeof(int) * cols);
	cudaMalloc((void **)&d_b, sizeof(int) * cols);
	cudaMemcpy(d_wall, wall, sizeof(int) * rows * cols, cudaMemcpyHostToDevice);
	cudaMemcpy(d_a, wall, sizeof(int) * cols, cudaMemcpyHostToDevice);
	for (r = 1; r < rows; r++) {
		dp_row_step<<<(cols + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(d_wall, d_a, d_b, cols, r);
		tmp = d_a;
		d_a = d_b;
		d_b = tmp;
	}
	cudaMemcpy(result, d_a, sizeof(int) * cols, cudaMemcpyDeviceToHost);
	printf("best[0] = %d\n", result[0]);
	cudaFree(d_wall);
	cudaFree(d_a);
	cudaFree(d_b);
	free(wall);
	free(result);
	return 0;
}
