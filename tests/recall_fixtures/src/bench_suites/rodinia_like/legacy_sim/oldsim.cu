/***********************************************************************
 * Part of a GPU benchmark collection.  2018-2021.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define NSTEPS 100
#define BLOCK 128

static int verbose;

/* old-style definitions: nvcc (C++) rejects these */
static double
elapsed(t0, t1)
	struct timeval *t0;
	struct timeval *t1;
{
	return (t1->tv_sec - t0->tv_sec) + 1e-6 * (t1->tv_usec - t0->tv_usec);
}

static
check(n, a, b)
	int n;
	float *a, *b;
{
	register int i, bad = 0;
	for (i = 0; i < n; i++)
		if (fabs(a[i] - b[i]) > 1e-3)
			bad++;
	return bad;
}

__global__ void
relax(float *u, float *unew, int n, float w)
{
	int i = blockIdx.x * BLOCK + threadIdx.x;
	if (i > 0 && i < n - 1)
		unew[i] = (1.0f - w) * u[i] + 0.5f * w * (u[i - 1] + u[i + 1]);
}

__global__ void
residual(float *u, float *r, int n)
{
	int i = blockIdx.x * BLOCK + threadIdx.x;
	if (i > 0 && i < n - 1)
		r[i] = u[i - 1] - 2.0f * u[i] + u[i + 1];
}

__global__ void
boundary(float *u, int n, float left, float right)
{
	if (threadIdx.x == 0 && blockIdx.x == 0) {
		u[0] = left;
		u[n - 1] = right;
	}
}

main(argc, argv)
	int argc;
	char **argv;
{
	int n = 1 << 20, s;
	float *u, *v, *r;
	struct timeval t0, t1;

	if (argc > 1)
		n = atoi(argv[1]);
	verbose = argc > 2;
	cudaMalloc((void **)&u, n * sizeof(float));
	cudaMalloc((void **)&v, n * sizeof(float));
	cudaMalloc((void **)&r, n * sizeof(float));
	gettimeofday(&t0, NULL);
	for (s = 0; s < NSTEPS; s++) {
		boundary<<<1, 1>>>(u, n, 1.0f, 0.0f);
		relax<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(u, v, n, 0.8f);
		residual<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(v, r, n);
	}
	cudaDeviceSynchronize();
	gettimeofday(&t1, NULL);
	printf("%f s\n", elapsed(&t0, &t1));
	exit(0);
}
