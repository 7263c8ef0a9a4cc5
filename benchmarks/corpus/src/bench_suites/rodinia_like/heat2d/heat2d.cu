/***********************************************************************
 * Part of a GPU benchmark collection.  2012-2025.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16
#define HALO 1
#define TILE (BLOCK_SIZE + 2 * HALO)

/* physical constants of the plate (arbitrary units) */
#define CONDUCTIVITY	0.8f
#define CAPACITY	1.9f
#define AMBIENT		20.0f

typedef float real;

static double gettime(void)
{
	struct timeval t;
	gettimeofday(&t, NULL);
	return t.tv_sec + t.tv_usec * 1e-6;
}

#ifdef USE_TILED
/* Each block loads a (BLOCK_SIZE+2)^2 tile with a one-cell halo into shared memory. */
__global__ void diffuse_step(const real *src, real *dst, const real *source_term,
                             int nx, int ny, real alpha, real dt)
{
	__shared__ real tile[TILE][TILE];
	int gx = blockIdx.x * BLOCK_SIZE + threadIdx.x;
	int gy = blockIdx.y * BLOCK_SIZE + threadIdx.y;
	int lx = threadIdx.x + HALO;
	int ly = threadIdx.y + HALO;
	int cx = min(gx, nx - 1);
	int cy = min(gy, ny - 1);

	tile[ly][lx] = src[cy * nx + cx];
	if (threadIdx.x == 0)
		tile[ly][0] = src[cy * nx + max(cx - 1, 0)];
	if (threadIdx.x == BLOCK_SIZE - 1)
		tile[ly][TILE - 1] = src[cy * nx + min(cx + 1, nx - 1)];
	if (threadIdx.y == 0)
		tile[0][lx] = src[max(cy - 1, 0) * nx + cx];
	if (threadIdx.y == BLOCK_SIZE - 1)
		tile[TILE - 1][lx] = src[min(cy + 1, ny - 1) * nx + cx];
	__syncthreads();

	if (gx >= nx || gy >= ny)
		return;
	real c = tile[ly][lx];
	real lap = tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] + tile[ly + 1][lx] - 4.0f * c;
	dst[gy * nx + gx] = c + dt * (alpha * lap + source_term[gy * nx + gx] / CAPACITY - 0.001f * (c - AMBIENT));
}
#else
/* Straightforward version: every thread reads its four neighbours from global memory. */
__global__ void diffuse_step(const real *src, real *dst, const real *source_term,
                             int nx, int ny, real alpha, real dt)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= nx || y >= ny)
		return;
	int i = y * nx + x;
	real c = src[i];
	real w = x > 0 ? src[i - 1] : c;
	real e = x < nx - 1 ? src[i + 1] : c;
	real n = y > 0 ? src[i - nx] : c;
	real s = y < ny - 1 ? src[i + nx] : c;
	dst[i] = c + dt * (alpha * (w + e + n + s - 4.0f * c) + source_term[i] / CAPACITY - 0.001f * (c - AMBIENT));
}
#endif

/* hot spots switched on and off over time */
__global__ void
inject_sources(real *source_term, const int *spots, int nspots, int nx, real power, int step)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;
	if (k >= nspots)
		return;
	int on = ((step / 50) + k) & 1;
	source_term[spots[2 * k + 1] * nx + spots[2 * k]] = on ? power : 0.0f;
}

static void read_plate(const char *path, real *t, int n)
{
	FILE *f = fopen(path, "r");
	int i;
	float v;
	if (!f) {
		for (i = 0; i < n; i++)
			t[i] = AMBIENT;
		return;
	}
	for (i = 0; i < n && fscanf(f, "%f", &v) == 1; i++)
		t[i] = v;
	fclose(f);
}

int main(int argc, char **argv)
{
	int nx = 512, ny = 512, steps = 1000, nspots = 16, s, i;
	real *h_t, *d_a, *d_b, *d_src, *tmp;
	int *h_spots, *d_spots;
	double t0;

	if (argc > 1)
		nx = ny = atoi(argv[1]);
	if (argc > 2)
		steps = atoi(argv[2]);
	h_t = (real *)malloc(sizeof(real) * nx * ny);
	h_spots = (int *)malloc(sizeof(int) * 2 * nspots);
	read_plate(argc > 3 ? argv[3] : "plate.txt", h_t, nx * ny);
	srand(7);
	for (i = 0; i < nspots; i++) {
		h_spots[2 * i] = rand() % nx;
		h_spots[2 * i + 1] = rand() % ny;
	}
	cudaMalloc((void **)&d_a, sizeof(real) * nx * ny);
	cudaMalloc((void **)&d_b, sizeof(real) * nx * ny);
	cudaMalloc((void **)&d_src, sizeof(real) * nx * ny);
	cudaMalloc((void **)&d_spots, sizeof(int) * 2 * nspots);
	cudaMemcpy(d_a, h_t, sizeof(real) * nx * ny, cudaMemcpyHostToDevice);
	cudaMemcpy(d_spots, h_spots, sizeof(int) * 2 * nspots, cudaMemcpyHostToDevice);
	cudaMemset(d_src, 0, sizeof(real) * nx * ny);

	dim3 block(BLOCK_SIZE, BLOCK_SIZE);
	dim3 grid((nx + BLOCK_SIZE - 1) / BLOCK_SIZE, (ny + BLOCK_SIZE - 1) / BLOCK_SIZE);
	t0 = gettime();
	for (s = 0; s < steps; s++) {
		inject_sources<<<(nspots + 63) / 64, 64>>>(d_src, d_spots, nspots, nx, 50.0f, s);
		diffuse_step<<<grid, block>>>(d_a, d_b, d_src, nx, ny, CONDUCTIVITY, 0.2f);
		tmp = d_a;
		d_a = d_b;
		d_b = tmp;
	}
	cudaDeviceSynchronize();
	printf("%d steps: %.3f s\n", steps, gettime() - t0);
	cudaMemcpy(h_t, d_a, sizeof(real) * nx * ny, cudaMemcpyDeviceToHost);
	cudaFree(d_a);
	cudaFree(d_b);
	cudaFree(d_src);
	cudaFree(d_spots);
	free(h_t);
	free(h_spots);
	return 0;
}
