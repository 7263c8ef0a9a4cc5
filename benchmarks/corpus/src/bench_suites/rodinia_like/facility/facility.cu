/***********************************************************************
 * Part of a GPU benchmark collection.  2017-2025.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define THREADS_PER_BLOCK 512
#define SEED 1

/* a demand point, stored as structure-of-arrays on the device */
struct demand_soa {
	float *w;	/* demand weight */
	float *xyz;	/* coordinates, dimension-major */
	long *owner;	/* index of the serving facility */
	float *dist;	/* weighted distance to it */
};

/* For candidate facility x: how much each current facility would save if its
 * points could switch to x.  One thread per point. */
__global__ void
open_gain_kernel(int num, int dim, long x, const float *coord_t, const int *center_table,
		 const long *assign, const float *weight, const float *cost, char *switch_membership,
		 float *work_mem, int stride)
{
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	int i;
	float d = 0.0f;
	if (p >= num)
		return;
	for (i = 0; i < dim; i++) {
		float t = coord_t[i * num + p] - coord_t[i * num + x];
		d += t * t;
	}
	float delta = d * weight[p] - cost[p];
	float *mine = work_mem + (long)blockIdx.x * stride;
	if (delta < 0.0f) {
		switch_membership[p] = 1;
		atomicAdd(&mine[stride - 1], delta);
	} else {
		atomicAdd(&mine[center_table[assign[p]]], delta);
	}
}

static int cmp_fl_0(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_fl_0: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void dump_fl_1(const char *path, const float *data, int rows, int cols)
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

static int cmp_fl_2(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_fl_2: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void stencil_fl_3(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.2f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static void mm_fl_4(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static int cmp_fl_5(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_fl_5: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void mm_fl_6(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static void hist_fl_7(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void init_fl_8(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 4096) / 1000.0f;
		}
	}
}

static void hist_fl_9(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static float norm_fl_10(const float *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void init_fl_11(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 100) / 3.0f;
		}
	}
}

static void stencil_fl_12(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.25f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static void mm_fl_13(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static void dump_fl_14(const char *path, const float *data, int rows, int cols)
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

static void hist_fl_15(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void mm_fl_16(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static double sum_fl_17(const float *v, long n)
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

static void dump_fl_18(const char *path, const float *data, int rows, int cols)
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

static void transpose_fl_19(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void transpose_fl_20(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void stencil_fl_21(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.125f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static int read_fl_22(const char *path, float *buf, int max)
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

static void init_fl_23(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 100) / 3.0f;
		}
	}
}

static void hist_fl_24(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void mm_fl_25(const float *A, const float *B, float *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			float acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static double sum_fl_26(const float *v, long n)
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

static void hist_fl_27(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void stencil_fl_28(const float *in, float *out, int nx, int ny, int iters)
{
	int it, x, y;
	for (it = 0; it < iters; it++) {
		for (y = 1; y < ny - 1; y++) {
			for (x = 1; x < nx - 1; x++) {
				int c = y * nx + x;
				out[c] = in[c] + 0.25f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] - 4.0f * in[c]);
			}
		}
	}
}

static int cmp_fl_29(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_fl_29: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

int main(int argc, char **argv)
{
	int num = 65536, dim = 32, i, nblocks, stride = 64;
	float *coord_t, *weight, *cost, *work, *d_coord, *d_weight, *d_cost, *d_work;
	int *center, *d_center;
	long *assign, *d_assign;
	char *d_switch;

	if (argc > 2) {
		num = atoi(argv[1]);
		dim = atoi(argv[2]);
	}
	nblocks = (num + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
	coord_t = (float *)malloc(sizeof(float) * num * dim);
	weight = (float *)malloc(sizeof(float) * num);
	cost = (float *)malloc(sizeof(float) * num);
	assign = (long *)malloc(sizeof(long) * num);
	center = (int *)malloc(sizeof(int) * num);
	work = (float *)calloc((size_t)nblocks * stride, sizeof(float));
	srand(SEED);
	for (i = 0; i < num * dim; i++)
		coord_t[i] = (float)rand() / RAND_MAX;
	for (i = 0; i < num; i++) {
		weight[i] = 1.0f;
		cost[i] = 10.0f;
		assign[i] = 0;
		center[i] = i % (stride - 1);
	}
	cudaMalloc((void **)&d_coord, sizeof(float) * num * dim);
	cudaMalloc((void **)&d_weight, sizeof(float) * num);
	cudaMalloc((void **)&d_cost, sizeof(float) * num);
	cudaMalloc((void **)&d_assign, sizeof(long) * num);
	cudaMalloc((void **)&d_center, sizeof(int) * num);
	cudaMalloc((void **)&d_work, sizeof(float) * nblocks * stride);
	cudaMalloc((void **)&d_switch, num);
	cudaMemcpy(d_coord, coord_t, sizeof(float) * num * dim, cudaMemcpyHostToDevice);
	cudaMemcpy(d_weight, weight, sizeof(float) * num, cudaMemcpyHostToDevice);
	cudaMemcpy(d_cost, cost, sizeof(float) * num, cudaMemcpyHostToDevice);
	cudaMemcpy(d_assign, assign, sizeof(long) * num, cudaMemcpyHostToDevice);
	cudaMemcpy(d_center, center, sizeof(int) * num, cudaMemcpyHostToDevice);
	for (i = 0; i < 20; i++) {
		cudaMemset(d_work, 0, sizeof(float) * nblocks * stride);
		cudaMemset(d_switch, 0, num);
		open_gain_kernel<<<nblocks, THREADS_PER_BLOCK>>>(num, dim, rand() % num, d_coord, d_center, d_assign, d_weight,
								d_cost, d_switch, d_work, stride);
	}
	cudaMemcpy(work, d_work, sizeof(float) * nblocks * stride, cudaMemcpyDeviceToHost);
	printf("gain[0] = %f\n", work[0]);
	cudaFree(d_coord);
	cudaFree(d_weight);
	cudaFree(d_cost);
	cudaFree(d_assign);
	cudaFree(d_center);
	cudaFree(d_work);
	cudaFree(d_switch);
	free(coord_t);
	free(weight);
	free(cost);
	free(assign);
	free(center);
	free(work);
	return 0;
}
