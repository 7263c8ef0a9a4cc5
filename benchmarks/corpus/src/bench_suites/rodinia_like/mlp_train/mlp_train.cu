/***********************************************************************
 * Part of a GPU benchmark collection.  2015-2020.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include "mlp_kernels.cu"

static double gettime(void)
{
	struct timeval t;
	gettimeofday(&t, NULL);
	return t.tv_sec + t.tv_usec * 1e-6;
}

static void transpose_mlp_0(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void stencil_mlp_1(const float *in, float *out, int nx, int ny, int iters)
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

static int read_mlp_2(const char *path, float *buf, int max)
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

static void transpose_mlp_3(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void stencil_mlp_4(const float *in, float *out, int nx, int ny, int iters)
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

static void hist_mlp_5(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static int cmp_mlp_6(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_mlp_6: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void init_mlp_7(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 100) / 100.0f;
		}
	}
}

static int cmp_mlp_8(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_mlp_8: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static int read_mlp_9(const char *path, float *buf, int max)
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

static void stencil_mlp_10(const float *in, float *out, int nx, int ny, int iters)
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

static void init_mlp_11(float *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (float)(rand() % 1000) / 1000.0f;
		}
	}
}

static void stencil_mlp_12(const float *in, float *out, int nx, int ny, int iters)
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

static void stencil_mlp_13(const float *in, float *out, int nx, int ny, int iters)
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

static int cmp_mlp_14(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_mlp_14: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void stencil_mlp_15(const float *in, float *out, int nx, int ny, int iters)
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

static void hist_mlp_16(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void dump_mlp_17(const char *path, const float *data, int rows, int cols)
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

static int read_mlp_18(const char *path, float *buf, int max)
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

static void transpose_mlp_19(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static float squash(float x)
{
	return 1.0f / (1.0f + expf(-x));
}

int main(int argc, char **argv)
{
	int in_n = 65536, hid_n = 16, nblocks, i, j;
	float *input, *weights, *partial, *hidden, *d_in, *d_w, *d_partial, *d_oldw, *d_delta;
	if (argc > 1)
		in_n = atoi(argv[1]);
	if (in_n % TILE) {
		fprintf(stderr, "input size must be a multiple of %d\n", TILE);
		return 1;
	}
	nblocks = in_n / TILE;
	input = (float *)malloc(sizeof(float) * (in_n + 1));
	weights = (float *)malloc(sizeof(float) * (in_n + 1) * (hid_n + 1));
	partial = (float *)malloc(sizeof(float) * nblocks * hid_n);
	hidden = (float *)malloc(sizeof(float) * (hid_n + 1));
	for (i = 0; i <= in_n; i++)
		input[i] = (float)rand() / RAND_MAX;
	for (i = 0; i < (in_n + 1) * (hid_n + 1); i++)
		weights[i] = 0.1f * ((float)rand() / RAND_MAX - 0.5f);
	cudaMalloc((void **)&d_in, sizeof(float) * (in_n + 1));
	cudaMalloc((void **)&d_w, sizeof(float) * (in_n + 1) * (hid_n + 1));
	cudaMalloc((void **)&d_oldw, sizeof(float) * (in_n + 1) * (hid_n + 1));
	cudaMalloc((void **)&d_partial, sizeof(float) * nblocks * hid_n);
	cudaMalloc((void **)&d_delta, sizeof(float) * (hid_n + 1));
	cudaMemcpy(d_in, input, sizeof(float) * (in_n + 1), cudaMemcpyHostToDevice);
	cudaMemcpy(d_w, weights, sizeof(float) * (in_n + 1) * (hid_n + 1), cudaMemcpyHostToDevice);
	cudaMemset(d_oldw, 0, sizeof(float) * (in_n + 1) * (hid_n + 1));
	dim3 grid(1, nblocks);
	dim3 threads(TILE, TILE);
	hidden_forward_partial<<<grid, threads>>>(d_in, d_partial, d_w, in_n, hid_n);
	cudaMemcpy(partial, d_partial, sizeof(float) * nblocks * hid_n, cudaMemcpyDeviceToHost);
	for (j = 1; j <= hid_n; j++) {
		float s = 0.0f;
		for (i = 0; i < nblocks; i++)
			s += partial[i * hid_n + j - 1];
		hidden[j] = squash(s + weights[j]);
	}
	cudaMemcpy(d_delta, hidden, sizeof(float) * (hid_n + 1), cudaMemcpyHostToDevice);
	apply_weight_delta<<<grid, threads>>>(d_delta, hid_n, d_in, in_n, d_w, d_oldw);
	cudaMemcpy(weights, d_w, sizeof(float) * (in_n + 1) * (hid_n + 1), cudaMemcpyDeviceToHost);
	printf("w[1] = %f\n", weights[1]);
	cudaFree(d_in);
	cudaFree(d_w);
	cudaFree(d_oldw);
	cudaFree(d_partial);
	cudaFree(d_delta);
	free(input);
	free(weights);
	free(partial);
	free(hidden);
	return 0;
}
