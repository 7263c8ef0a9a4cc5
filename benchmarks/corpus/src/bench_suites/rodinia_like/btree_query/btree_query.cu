/***********************************************************************
 * Part of a GPU benchmark collection.  2014-2022.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define FANOUT 128	/* keys per node; one thread per key */

/* flattened tree: node i has nkeys sorted keys and nkeys + 1 children (or values at the leaves) */
struct tree_node {
	int nkeys;
	int leaf;
	int key[FANOUT];
	int child[FANOUT + 1];
};

/* which child to follow: count of keys <= k, computed with a block-wide ballot */
__device__ int child_slot(const struct tree_node *nd, int k)
{
	__shared__ int warp_counts[FANOUT / 32];
	int t = threadIdx.x;
	int le = (t < nd->nkeys) && (nd->key[t] <= k);
	unsigned int votes = __ballot_sync(0xffffffffu, le);
	if ((t & 31) == 0)
		warp_counts[t >> 5] = __popc(votes);
	__syncthreads();
	int total = 0;
	for (int w = 0; w < FANOUT / 32; w++)
		total += warp_counts[w];
	__syncthreads();
	return total;
}

/* one block per query key */
__global__ void
lookup_keys(const struct tree_node *nodes, int root, int depth, const int *queries, int *values, int nq)
{
	int q = blockIdx.x;
	if (q >= nq)
		return;
	int k = queries[q];
	int cur = root;
	for (int level = 0; level < depth && !nodes[cur].leaf; level++)
		cur = nodes[cur].child[child_slot(&nodes[cur], k)];
	int t = threadIdx.x;
	if (t == 0)
		values[q] = -1;
	__syncthreads();
	if (t < nodes[cur].nkeys && nodes[cur].key[t] == k)
		values[q] = nodes[cur].child[t];
}

/* range [lo, hi]: find the leaf of each end, report first leaf slot and count */
__global__ void
lookup_ranges(const struct tree_node *nodes, int root, int depth, const int *lo, const int *hi,
	      int *first_leaf, int *count, int nq)
{
	int q = blockIdx.x;
	if (q >= nq)
		return;
	int a = root, b = root;
	for (int level = 0; level < depth; level++) {
		if (!nodes[a].leaf)
			a = nodes[a].child[child_slot(&nodes[a], lo[q])];
		if (!nodes[b].leaf)
			b = nodes[b].child[child_slot(&nodes[b], hi[q])];
	}
	if (threadIdx.x == 0) {
		first_leaf[q] = a;
		count[q] = b - a + 1;
	}
}

static void hist_bt_0(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static float norm_bt_1(const int *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static int cmp_bt_2(const int *a, const int *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_bt_2: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void mm_bt_3(const int *A, const int *B, int *C, int M, int N, int K)
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

static float norm_bt_4(const int *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void dump_bt_5(const char *path, const int *data, int rows, int cols)
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

static void blur_bt_6(const int *in, int *out, int w, int h)
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

static void stencil_bt_7(const int *in, int *out, int nx, int ny, int iters)
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

static void hist_bt_8(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static void dump_bt_9(const char *path, const int *data, int rows, int cols)
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

static int cmp_bt_10(const int *a, const int *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_bt_10: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static float norm_bt_11(const int *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void blur_bt_12(const int *in, int *out, int w, int h)
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

static void init_bt_13(int *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (int)(rand() % 1000) / 1000.0f;
		}
	}
}

static void blur_bt_14(const int *in, int *out, int w, int h)
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

static void dump_bt_15(const char *path, const int *data, int rows, int cols)
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

static void stencil_bt_16(const int *in, int *out, int nx, int ny, int iters)
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

static float norm_bt_17(const int *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void mm_bt_18(const int *A, const int *B, int *C, int M, int N, int K)
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

static int read_bt_19(const char *path, int *buf, int max)
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

static void mm_bt_20(const int *A, const int *B, int *C, int M, int N, int K)
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

static void dump_bt_21(const char *path, const int *data, int rows, int cols)
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

static double sum_bt_22(const int *v, long n)
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

static void dump_bt_23(const char *path, const int *data, int rows, int cols)
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

static void hist_bt_24(const unsigned char *img, int n, unsigned int *bins)
{
	int i;
	memset(bins, 0, 256 * sizeof(unsigned int));
	for (i = 0; i < n; i++)
		bins[img[i]]++;
}

static float norm_bt_25(const int *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static float norm_bt_26(const int *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void dump_bt_27(const char *path, const int *data, int rows, int cols)
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

static void blur_bt_28(const int *in, int *out, int w, int h)
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

static int cmp_bt_29(const int *a, const int *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_bt_29: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static void init_bt_30(int *m, int rows, int cols, unsigned int seed)
{
	int i, j;
	srand(seed);
	for (i = 0; i < rows; i++) {
		for (j = 0; j < cols; j++) {
			m[i * cols + j] = (int)(rand() % 100) / 1000.0f;
		}
	}
}

static double sum_bt_31(const int *v, long n)
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

static void transpose_bt_32(const int *in, int *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void transpose_bt_33(const int *in, int *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static void transpose_bt_34(const int *in, int *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static int read_bt_35(const char *path, int *buf, int max)
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

static int cmp_bt_36(const int *a, const int *b, int n, float threshold)
{
	int i, fail = 0;
	for (i = 0; i < n; i++) {
		float d = fabsf((float)a[i] - (float)b[i]);
		float r = fabsf((float)a[i]) > 1e-6f ? d / fabsf((float)a[i]) : d;
		if (r * 100.0f > threshold) {
			fail++;
		}
	}
	printf("cmp_bt_36: %d mismatches above %4.2f%%\n", fail, threshold);
	return fail;
}

static float norm_bt_37(const int *v, int n)
{
	float s = 0.0f;
	int i;
	for (i = 0; i < n; i++)
		s += (float)v[i] * (float)v[i];
	return sqrtf(s);
}

static void transpose_bt_38(const int *in, int *out, int rows, int cols)
{
	int r, c;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

static double sum_bt_39(const int *v, long n)
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

int main(int argc, char **argv)
{
	int nnodes = 4096, depth = 3, nq = 10000;
	struct tree_node *d_nodes;
	int *d_q, *d_v, *d_lo, *d_hi, *d_first, *d_count;
	if (argc > 1)
		nq = atoi(argv[1]);
	cudaMalloc((void **)&d_nodes, sizeof(struct tree_node) * nnodes);
	cudaMalloc((void **)&d_q, sizeof(int) * nq);
	cudaMalloc((void **)&d_v, sizeof(int) * nq);
	cudaMalloc((void **)&d_lo, sizeof(int) * nq);
	cudaMalloc((void **)&d_hi, sizeof(int) * nq);
	cudaMalloc((void **)&d_first, sizeof(int) * nq);
	cudaMalloc((void **)&d_count, sizeof(int) * nq);
	cudaMemset(d_nodes, 0, sizeof(struct tree_node) * nnodes);
	lookup_keys<<<nq, FANOUT>>>(d_nodes, 0, depth, d_q, d_v, nq);
	lookup_ranges<<<nq, FANOUT>>>(d_nodes, 0, depth, d_lo, d_hi, d_first, d_count, nq);
	cudaDeviceSynchronize();
	printf("queries done\n");
	cudaFree(d_nodes);
	cudaFree(d_q);
	cudaFree(d_v);
	cudaFree(d_lo);
	cudaFree(d_hi);
	cudaFree(d_first);
	cudaFree(d_count);
	return 0;
}
