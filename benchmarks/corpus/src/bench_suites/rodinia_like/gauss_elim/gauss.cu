/***********************************************************************
 * Part of a GPU benchmark collection.  2013-2025.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define ROW_THREADS 256
#define TILE2D 16

static int n_eq;
static float *mat, *rhs, *sol;

static double gettime(void)
{
	struct timeval t;
	gettimeofday(&t, NULL);
	return t.tv_sec + t.tv_usec * 1e-6;
}

__global__ void
elim_multipliers(const float* a, float* mult, int n, int k)
{
    const int r = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n) return;
    mult[r] = a[r * n + k] / a[k * n + k];
}

__global__ void
elim_update(float* a, float* rhs, const float* mult, int n, int k)
{
    const int c = k + blockIdx.x * blockDim.x + threadIdx.x;
    const int r = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= n || c >= n) return;
    const float f = mult[r];
    a[r * n + c] -= f * a[k * n + c];
    if (c == k) rhs[r] -= f * rhs[k];
}

static double sum_ge_0(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static float norm_ge_1(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void blur_ge_2(const float *in, float *out, int w, int h)
{
	int x, y, dx, dy;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			float s = 0.0f;
			int cnt = 0;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++) {
					int xx = x + dx, yy = y + dy;
					if (xx < 0 || yy < 0 || xx >= w || yy >= h)
						continue;
					s += in[yy * w + xx];
					cnt++;
				}
			out[y * w + x] = (float)(s / cnt);
		}
	}
}

static float norm_ge_3(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static float norm_ge_4(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void init_ge_5(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 4096) / 3.0f;
		}
	}
}

static int read_ge_6(const char *path, float *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (float)v;
	fclose(fp);
	return n;
}

static int cmp_ge_7(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_ge_7: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static int cmp_ge_8(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_ge_8: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static double sum_ge_9(const float *v, long n)
{
	double s = 0.0, c = 0.0;
	long i;
	for (i = 0; i < n; i++) {
		double y = (double)v[i] - c;
		double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

static void dump_ge_10(const char *path, const float *data, int rows, int cols)
{
	FILE *fp;
	int i, j;
	fp = fopen(path, "w");
	if (fp == NULL) {
		fprintf(stderr, "cannot open %s\n", path);
		return;
	}
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++)
			fprintf(fp, "%d %d %g\n", i, j, (double)data[i * cols + j]);
	}
	fclose(fp);
}

static void transpose_ge_11(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

/* upper-triangular solve once elimination is done */
static void solve_upper(void)
{
	int r, c;
	sol = (float *)malloc(sizeof(float) * n_eq);
	for (r = n_eq - 1; r >= 0; r--) {
		float acc = rhs[r];
		for (c = r + 1; c < n_eq; c++)
			acc -= mat[r * n_eq + c] * sol[c];
		sol[r] = acc / mat[r * n_eq + r];
	}
}

static void eliminate_on_gpu(void)
{
	float *d_mat, *d_rhs, *d_mult;
	size_t bytes = sizeof(float) * n_eq * n_eq;
	int k;
	double start;

	cudaMalloc((void **)&d_mat, bytes);
	cudaMalloc((void **)&d_rhs, sizeof(float) * n_eq);
	cudaMalloc((void **)&d_mult, sizeof(float) * n_eq);
	cudaMemcpy(d_mat, mat, bytes, cudaMemcpyHostToDevice);
	cudaMemcpy(d_rhs, rhs, sizeof(float) * n_eq, cudaMemcpyHostToDevice);
	start = gettime();
	for (k = 0; k < n_eq - 1; k++) {
		int rows_left = n_eq - k - 1;
		dim3 tiles((n_eq - k + TILE2D - 1) / TILE2D, (rows_left + TILE2D - 1) / TILE2D);
		elim_multipliers<<<(rows_left + ROW_THREADS - 1) / ROW_THREADS, ROW_THREADS>>>(d_mat, d_mult, n_eq, k);
		elim_update<<<tiles, dim3(TILE2D, TILE2D)>>>(d_mat, d_rhs, d_mult, n_eq, k);
	}
	cudaDeviceSynchronize();
	printf("elimination: %.3f s\n", gettime() - start);
	cudaMemcpy(mat, d_mat, bytes, cudaMemcpyDeviceToHost);
	cudaMemcpy(rhs, d_rhs, sizeof(float) * n_eq, cudaMemcpyDeviceToHost);
	cudaFree(d_mat);
	cudaFree(d_rhs);
	cudaFree(d_mult);
}

int main(int argc, char *argv[])
{
	int i, j;
	n_eq = argc > 1 ? atoi(argv[1]) : 1024;
	mat = (float *)malloc(sizeof(float) * n_eq * n_eq);
	rhs = (float *)malloc(sizeof(float) * n_eq);
	srand(11);
	for (i = 0; i < n_eq; i++) {
		for (j = 0; j < n_eq; j++)
			mat[i * n_eq + j] = (float)(rand() % 100) / 50.0f;
		mat[i * n_eq + i] += (float)n_eq;	/* keep it well conditioned */
		rhs[i] = 1.0f;
	}
	eliminate_on_gpu();
	solve_upper();
	printf("x[0] = %f\n", sol[0]);
	free(mat);
	free(rhs);
	free(sol);
	return 0;
}
