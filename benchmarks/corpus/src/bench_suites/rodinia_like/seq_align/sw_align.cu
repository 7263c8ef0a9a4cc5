/***********************************************************************
 * Part of a GPU benchmark collection.  2012-2022.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define TILE_W 16
#define GAP_PENALTY 10
#define LIMIT -999

/* 24x24 substitution table, indexed by residue code */
__constant__ int c_subst[24 * 24];

__device__ __forceinline__ int best3(int a, int b, int c)
{
	int m = a > b ? a : b;
	return m > c ? m : c;
}

/*
 * Tiles of TILE_W x TILE_W cells are processed along anti-diagonals of tiles;
 * inside a tile the threads sweep the cell anti-diagonals.  `wave` is the index
 * of the tile anti-diagonal; the upper-left triangle of tiles is handled by
 * sw_upper_wave, the lower-right one by sw_lower_wave.
 */
__global__ void
sw_upper_wave(const int *seq_a, const int *seq_b, int *score, int cols, int wave, int penalty)
{
	__shared__ int s_tile[TILE_W + 1][TILE_W + 1];
	__shared__ int s_sub[TILE_W][TILE_W];
	int tx = threadIdx.x;
	int bx = blockIdx.x;
	int tile_col = bx;
	int tile_row = wave - bx;
	int base = cols * TILE_W * tile_row + TILE_W * tile_col;
	int k, d;

	for (k = 0; k < TILE_W; k++)
		s_sub[k][tx] = c_subst[seq_a[tile_row * TILE_W + k] * 24 + seq_b[tile_col * TILE_W + tx]];
	if (tx == 0)
		s_tile[0][0] = score[base];
	s_tile[tx + 1][0] = score[base + cols * (tx + 1)];
	s_tile[0][tx + 1] = score[base + tx + 1];
	__syncthreads();

	for (d = 0; d < TILE_W; d++) {
		if (tx <= d) {
			int r = tx + 1, c = d - tx + 1;
			s_tile[r][c] = best3(s_tile[r - 1][c - 1] + s_sub[r - 1][c - 1],
					     s_tile[r - 1][c] - penalty, s_tile[r][c - 1] - penalty);
		}
		__syncthreads();
	}
	for (d = TILE_W - 2; d >= 0; d--) {
		if (tx <= d) {
			int r = tx + TILE_W - d, c = TILE_W - tx;
			s_tile[r][c] = best3(s_tile[r - 1][c - 1] + s_sub[r - 1][c - 1],
					     s_tile[r - 1][c] - penalty, s_tile[r][c - 1] - penalty);
		}
		__syncthreads();
	}
	for (k = 0; k < TILE_W; k++)
		score[base + cols * (k + 1) + tx + 1] = s_tile[k + 1][tx + 1];
}

__global__ void
sw_lower_wave(const int *seq_a, const int *seq_b, int *score, int cols, int wave, int ntiles, int penalty)
{
	__shared__ int s_tile[TILE_W + 1][TILE_W + 1];
	int tx = threadIdx.x;
	int tile_col = blockIdx.x + ntiles - 1 - wave;
	int tile_row = ntiles - 1 - blockIdx.x;
	int base = cols * TILE_W * tile_row + TILE_W * tile_col;
	int d;

	if (tx == 0)
		s_tile[0][0] = score[base];
	s_tile[tx + 1][0] = score[base + cols * (tx + 1)];
	s_tile[0][tx + 1] = score[base + tx + 1];
	__syncthreads();
	for (d = 0; d < 2 * TILE_W - 1; d++) {
		int r = tx + 1, c = d - tx + 1;
		if (c >= 1 && c <= TILE_W) {
			int sub = c_subst[seq_a[tile_row * TILE_W + r - 1] * 24 + seq_b[tile_col * TILE_W + c - 1]];
			s_tile[r][c] = best3(s_tile[r - 1][c - 1] + sub, s_tile[r - 1][c] - penalty, s_tile[r][c - 1] - penalty);
		}
		__syncthreads();
	}
	for (d = 0; d < TILE_W; d++)
		score[base + cols * (d + 1) + tx + 1] = s_tile[d + 1][tx + 1];
}

static void blur_sw_0(const int *in, int *out, int w, int h)
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
			out[y * w + x] = (int)(s / cnt);
		}
	}
}

static float norm_sw_1(const int *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void mm_sw_2(const int *A, const int *B, int *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			int acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static double sum_sw_3(const int *v, long n)
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

static int cmp_sw_4(const int *a, const int *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_sw_4: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void transpose_sw_5(const int *in, int *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void dump_sw_6(const char *path, const int *data, int rows, int cols)
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

static int read_sw_7(const char *path, int *buf, int max)
{
	FILE *fp = fopen(path, "r");
	int n = 0;
	float v;
	if (!fp) {
		fprintf(stderr, "error: %s\n", path);
		exit(1);
	}
	while (n < max && fscanf(fp, "%f", &v) == 1)
		buf[n++] = (int)v;
	fclose(fp);
	return n;
}

static void hist_sw_8(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void dump_sw_9(const char *path, const int *data, int rows, int cols)
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

static void init_sw_10(int *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (int)(rand() % 100) / 1000.0f;
		}
	}
}

static void mm_sw_11(const int *A, const int *B, int *C, int M, int N, int K)
{
	int i, j, k;
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++) {
			int acc = 0;
			for (k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}

static void dump_sw_12(const char *path, const int *data, int rows, int cols)
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

static float norm_sw_13(const int *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void hist_sw_14(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

int main(int argc, char **argv)
{
	int n = 2048, penalty = GAP_PENALTY, cols, ntiles, w, i;
	int *a, *b, *score, *d_a, *d_b, *d_score, subst[24 * 24];
	if (argc == 3) {
		n = atoi(argv[1]);
		penalty = atoi(argv[2]);
	}
	if (n % TILE_W) {
		fprintf(stderr, "length must be a multiple of %d\n", TILE_W);
		return 1;
	}
	cols = n + 1;
	ntiles = n / TILE_W;
	a = (int *)malloc(sizeof(int) * n);
	b = (int *)malloc(sizeof(int) * n);
	score = (int *)calloc((size_t)cols * cols, sizeof(int));
	for (i = 0; i < n; i++) {
		a[i] = rand() % 24;
		b[i] = rand() % 24;
	}
	for (i = 0; i < 24 * 24; i++)
		subst[i] = (i % 25 == 0) ? 5 : -1;
	for (i = 1; i < cols; i++) {
		score[i] = -i * penalty;
		score[i * cols] = -i * penalty;
	}
	cudaMemcpyToSymbol(c_subst, subst, sizeof(subst));
	cudaMalloc((void **)&d_a, sizeof(int) * n);
	cudaMalloc((void **)&d_b, sizeof(int) * n);
	cudaMalloc((void **)&d_score, sizeof(int) * cols * cols);
	cudaMemcpy(d_a, a, sizeof(int) * n, cudaMemcpyHostToDevice);
	cudaMemcpy(d_b, b, sizeof(int) * n, cudaMemcpyHostToDevice);
	cudaMemcpy(d_score, score, sizeof(int) * cols * cols, cudaMemcpyHostToDevice);
	for (w = 0; w < ntiles; w++)
		sw_upper_wave<<<w + 1, TILE_W>>>(d_a, d_b, d_score, cols, w, penalty);
	for (w = ntiles - 2; w >= 0; w--)
		sw_lower_wave<<<w + 1, TILE_W>>>(d_a, d_b, d_score, cols, w, ntiles, penalty);
	cudaMemcpy(score, d_score, sizeof(int) * cols * cols, cudaMemcpyDeviceToHost);
	printf("score = %d\n", score[(size_t)cols * cols - 1]);
	cudaFree(d_a);
	cudaFree(d_b);
	cudaFree(d_score);
	free(a);
	free(b);
	free(score);
	return 0;
}
