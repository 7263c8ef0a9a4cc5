/***********************************************************************
 * Part of a GPU benchmark collection.  2013-2024.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include "kmeans_kernels.cu"

static void transpose_km_0(const float *in, float *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void blur_km_1(const float *in, float *out, int w, int h)
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

static void stencil_km_2(const float *in, float *out, int nx, int ny, int iters)
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

static void dump_km_3(const char *path, const float *data, int rows, int cols)
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

static void blur_km_4(const float *in, float *out, int w, int h)
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

static void mm_km_5(const float *A, const float *B, float *C, int M, int N, int K)
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

static void mm_km_6(const float *A, const float *B, float *C, int M, int N, int K)
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

static int cmp_km_7(const float *a, const float *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_km_7: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void update_centroids(const float *pts, const int *member, float *cent, int n, int k, int nf)
{
	int *count = (int *)calloc(k, sizeof(int));
	int i, f;
	memset(cent, 0, sizeof(float) * k * nf);
	for (i = 0; i < n; i++) {
		count[member[i]]++;
		for (f = 0; f < nf; f++)
			cent[member[i] * nf + f] += pts[i * nf + f];
	}
	for (i = 0; i < k; i++)
		for (f = 0; f < nf; f++)
			cent[i * nf + f] /= count[i] > 0 ? count[i] : 1;
	free(count);
}

int main(int argc, char **argv)
{
	int n = 100000, k = 8, nf = 34, iter, changed, i;
	float *pts, *cent, *d_in, *d_feat;
	int *member, *d_member, *d_changed;

	if (argc > 1)
		n = atoi(argv[1]);
	pts = (float *)malloc(sizeof(float) * n * nf);
	cent = (float *)malloc(sizeof(float) * k * nf);
	member = (int *)malloc(sizeof(int) * n);
	for (i = 0; i < n * nf; i++)
		pts[i] = (float)(rand() % 1000) / 1000.0f;
	for (i = 0; i < n; i++)
		member[i] = -1;
	memcpy(cent, pts, sizeof(float) * k * nf);
	cudaMalloc((void **)&d_in, sizeof(float) * n * nf);
	cudaMalloc((void **)&d_feat, sizeof(float) * n * nf);
	cudaMalloc((void **)&d_member, sizeof(int) * n);
	cudaMalloc((void **)&d_changed, sizeof(int));
	cudaMemcpy(d_in, pts, sizeof(float) * n * nf, cudaMemcpyHostToDevice);
	cudaMemcpy(d_member, member, sizeof(int) * n, cudaMemcpyHostToDevice);
	transpose_features<<<(n + 255) / 256, 256>>>(d_in, d_feat, n, nf);
	for (iter = 0; iter < 500; iter++) {
		cudaMemcpyToSymbol(c_centroids, cent, sizeof(float) * k * nf);
		cudaMemset(d_changed, 0, sizeof(int));
		assign_clusters<<<(n + ASSIGN_THREADS - 1) / ASSIGN_THREADS, ASSIGN_THREADS>>>(d_feat, d_member, d_changed, n, k, nf);
		cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
		cudaMemcpy(member, d_member, sizeof(int) * n, cudaMemcpyDeviceToHost);
		update_centroids(pts, member, cent, n, k, nf);
		if (changed < n / 1000)
			break;
	}
	printf("converged after %d iterations\n", iter + 1);
	cudaFree(d_in);
	cudaFree(d_feat);
	cudaFree(d_member);
	cudaFree(d_changed);
	free(pts);
	free(cent);
	free(member);
	return 0;
}
