/*
 * Level-synchronous breadth first search, two passes per level:
 * expand_level marks the neighbours of the current frontier,
 * swap_frontier turns the marks into the next frontier.
 */
#ifndef THREADS_PER_BLOCK
#define THREADS_PER_BLOCK 256
#endif

typedef struct vertex_rec {
	int first_edge;	/* offset into the edge array */
	int degree;	/* number of outgoing edges */
} vertex_t;

__global__ void
expand_level(const vertex_t *verts, const int *edges, char *in_frontier, char *next_mark,
	     const char *seen, int *depth, int nverts)
{
	int v = blockIdx.x * THREADS_PER_BLOCK + threadIdx.x;
	int e, last;

	if (v >= nverts || !in_frontier[v])
		return;
	in_frontier[v] = 0;
	last = verts[v].first_edge + verts[v].degree;
	for (e = verts[v].first_edge; e < last; e++) {
		int w = edges[e];
		if (seen[w])
			continue;
		depth[w] = depth[v] + 1;	/* benign race: all writers store the same value */
		next_mark[w] = 1;
	}
}

__global__ void
swap_frontier(char *in_frontier, char *next_mark, char *seen, int *again, int nverts)
{
	int v = blockIdx.x * THREADS_PER_BLOCK + threadIdx.x;

	if (v < nverts && next_mark[v]) {
		next_mark[v] = 0;
		in_frontier[v] = 1;
		seen[v] = 1;
		*again = 1;
	}
}
