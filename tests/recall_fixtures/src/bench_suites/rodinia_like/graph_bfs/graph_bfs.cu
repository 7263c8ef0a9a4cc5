/***********************************************************************
 * Part of a GPU benchmark collection.  2018-2024.
 * Permission is granted to use, copy and modify this file for research.
 ***********************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define THREADS_PER_BLOCK 256

static double gettime(void)
{
	struct timeval t;
	gettimeofday(&t, NULL);
	return t.tv_sec + t.tv_usec * 1e-6;
}

int g_nverts;
int g_nedges;

#include "frontier_kernels.cu"

static void die(const char *msg)
{
	fprintf(stderr, "graph_bfs: %s\n", msg);
	exit(1);
}

/* Input format: nverts, then (first_edge degree) per vertex, source, nedges, then (target weight) per edge. */
static void load_graph(const char *path, vertex_t **verts, int **edges, int *source)
{
	FILE *f = fopen(path, "r");
	int i, w;

	if (f == NULL)
		die("cannot open input");
	if (fscanf(f, "%d", &g_nverts) != 1)
		die("bad header");
	*verts = (vertex_t *)malloc(sizeof(vertex_t) * g_nverts);
	for (i = 0; i < g_nverts; i++)
		if (fscanf(f, "%d %d", &(*verts)[i].first_edge, &(*verts)[i].degree) != 2)
			die("bad vertex line");
	if (fscanf(f, "%d %d", source, &g_nedges) != 2)
		die("bad edge header");
	*edges = (int *)malloc(sizeof(int) * g_nedges);
	for (i = 0; i < g_nedges; i++)
		if (fscanf(f, "%d %d", &(*edges)[i], &w) != 2)
			die("bad edge line");
	fclose(f);
}

int main(int argc, char **argv)
{
	vertex_t *h_verts, *d_verts;
	int *h_edges, *d_edges, *h_depth, *d_depth, *d_again;
	char *d_frontier, *d_mark, *d_seen;
	int source = 0, level = 0, again, i;
	double t0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s graph.txt\n", argv[0]);
		return 1;
	}
	load_graph(argv[1], &h_verts, &h_edges, &source);
	h_depth = (int *)malloc(sizeof(int) * g_nverts);
	for (i = 0; i < g_nverts; i++)
		h_depth[i] = -1;
	h_depth[source] = 0;

	cudaMalloc((void **)&d_verts, sizeof(vertex_t) * g_nverts);
	cudaMalloc((void **)&d_edges, sizeof(int) * g_nedges);
	cudaMalloc((void **)&d_depth, sizeof(int) * g_nverts);
	cudaMalloc((void **)&d_frontier, g_nverts);
	cudaMalloc((void **)&d_mark, g_nverts);
	cudaMalloc((void **)&d_seen, g_nverts);
	cudaMalloc((void **)&d_again, sizeof(int));
	cudaMemcpy(d_verts, h_verts, sizeof(vertex_t) * g_nverts, cudaMemcpyHostToDevice);
	cudaMemcpy(d_edges, h_edges, sizeof(int) * g_nedges, cudaMemcpyHostToDevice);
	cudaMemcpy(d_depth, h_depth, sizeof(int) * g_nverts, cudaMemcpyHostToDevice);
	cudaMemset(d_frontier, 0, g_nverts);
	cudaMemset(d_mark, 0, g_nverts);
	cudaMemset(d_seen, 0, g_nverts);
	cudaMemset(d_frontier + source, 1, 1);
	cudaMemset(d_seen + source, 1, 1);

	dim3 grid((g_nverts + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK);
	dim3 block(THREADS_PER_BLOCK);
	t0 = gettime();
	do {
		again = 0;
		cudaMemcpy(d_again, &again, sizeof(int), cudaMemcpyHostToDevice);
		expand_level<<<grid, block>>>(d_verts, d_edges, d_frontier, d_mark, d_seen, d_depth, g_nverts);
		swap_frontier<<<grid, block>>>(d_frontier, d_mark, d_seen, d_again, g_nverts);
		cudaMemcpy(&again, d_again, sizeof(int), cudaMemcpyDeviceToHost);
		level++;
	} while (again);
	cudaMemcpy(h_depth, d_depth, sizeof(int) * g_nverts, cudaMemcpyDeviceToHost);
	printf("%d levels in %.3f ms\n", level, (gettime() - t0) * 1e3);

#ifdef OUTPUT
	{
		FILE *out = fopen("depths.txt", "w");
		for (i = 0; i < g_nverts; i++)
			fprintf(out, "%d %d\n", i, h_depth[i]);
		fclose(out);
	}
#endif
	cudaFree(d_verts);
	cudaFree(d_edges);
	cudaFree(d_depth);
	cudaFree(d_frontier);
	cudaFree(d_mark);
	cudaFree(d_seen);
	cudaFree(d_again);
	free(h_verts);
	free(h_edges);
	free(h_depth);
	return 0;
}
