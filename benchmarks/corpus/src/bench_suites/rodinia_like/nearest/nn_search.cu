/***********************************************************************
 * Part of a GPU benchmark collection.  2014-2020.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <float.h>

#define LINE_MAX_LEN 96
#define THREADS 256

struct station {
	float x;	/* projected easting, km */
	float y;	/* projected northing, km */
};

struct hit {
	int id;
	float d2;
};

/* squared distance of every station to the query point; 2-D grid of 1-D blocks */
__global__ void station_distance(const struct station *st, float *d2, int count, float qx, float qy)
{
	int block = blockIdx.y * gridDim.x + blockIdx.x;
	int id = block * blockDim.x + threadIdx.x;
	if (id >= count)
		return;
	float dx = st[id].x - qx;
	float dy = st[id].y - qy;
	d2[id] = dx * dx + dy * dy;
}

static int read_stations(const char *path, struct station *st, int cap)
{
	char buf[LINE_MAX_LEN];
	int n = 0;
	FILE *fp = fopen(path, "r");
	if (fp == NULL)
		return 0;
	while (n < cap && fgets(buf, sizeof buf, fp) != NULL) {
		if (buf[0] == '#')
			continue;
		if (sscanf(buf, "%*d %f %f", &st[n].x, &st[n].y) == 2)
			n++;
	}
	fclose(fp);
	return n;
}

/* partial selection: the k smallest distances move to the front */
static void k_nearest(const float *d2, int n, struct hit *best, int k)
{
	int i, j;
	for (i = 0; i < k; i++) {
		best[i].id = -1;
		best[i].d2 = FLT_MAX;
	}
	for (i = 0; i < n; i++) {
		if (d2[i] >= best[k - 1].d2)
			continue;
		for (j = k - 1; j > 0 && best[j - 1].d2 > d2[i]; j--)
			best[j] = best[j - 1];
		best[j].id = i;
		best[j].d2 = d2[i];
	}
}

int main(int argc, char *argv[])
{
	int cap = 1 << 20, n, k = 5, i;
	float qx = 120.0f, qy = -40.0f;
	struct station *st = (struct station *)malloc(sizeof(struct station) * cap);
	float *d2 = (float *)malloc(sizeof(float) * cap);
	struct hit best[16];
	struct station *d_st;
	float *d_d2;

	if (argc > 3) {
		qx = (float)atof(argv[2]);
		qy = (float)atof(argv[3]);
	}
	n = read_stations(argc > 1 ? argv[1] : "stations.txt", st, cap);
	if (n < k) {
		fprintf(stderr, "need at least %d stations\n", k);
		return 1;
	}
	cudaMalloc((void **)&d_st, sizeof(struct station) * n);
	cudaMalloc((void **)&d_d2, sizeof(float) * n);
	cudaMemcpy(d_st, st, sizeof(struct station) * n, cudaMemcpyHostToDevice);
	int blocks = (n + THREADS - 1) / THREADS;
	dim3 grid(blocks < 32768 ? blocks : 32768, (blocks + 32767) / 32768);
	station_distance<<<grid, THREADS>>>(d_st, d_d2, n, qx, qy);
	cudaMemcpy(d2, d_d2, sizeof(float) * n, cudaMemcpyDeviceToHost);
	k_nearest(d2, n, best, k);
	for (i = 0; i < k; i++)
		printf("%d: station %d at %.2f km\n", i, best[i].id, sqrtf(best[i].d2));
	cudaFree(d_st);
	cudaFree(d_d2);
	free(st);
	free(d2);
	return 0;
}
